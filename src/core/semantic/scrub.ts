// Redacts every part of the envelope before it leaves the process: narrow mode for what the human
// and the agent said and for the facts, blunt mode for the call. A secret found in any part is then
// scrubbed from every other part, where it may appear in a form no detector would recognise.
import {
  Redactor,
  isPlainObject,
  memberPath,
  type RedactionAllowlist,
  type RedactionFinding,
  type RedactionMode,
} from '../redaction';
import type { VerdictRecord } from '../verdict/record';

export interface ScrubOptions {
  env?: Record<string, string | undefined>;
  allowlist?: RedactionAllowlist;
  /** Secrets found earlier (in this session's other calls), scrubbed wherever they appear. */
  knownSecrets?: string[];
  /** Receives the raw secret values found, for the same purpose. Never log them. */
  onSecrets?: (values: string[]) => void;
}

/** A part of the envelope to redact: a text, or JSON-like data whose every string is redacted. */
export interface ScrubPart {
  name: string;
  mode: RedactionMode;
  value: unknown;
}

export type RedactionSpan = NonNullable<VerdictRecord['redactions']['spans']>[number];

export interface ScrubResult {
  /** The parts' values, redacted, in the order given. */
  values: unknown[];
  count: number;
  byLabel: Record<string, number>;
  spans: RedactionSpan[];
}

/** Spans kept on the record: enough to see what was found where, without growing the log without bound. */
export const MAX_RECORDED_SPANS = 100;

interface StringResult {
  text: string;
  findings: RedactionFinding[];
  secrets: string[];
}

function redactString(
  redactor: Redactor,
  text: string,
  keyName: string | undefined,
  mode: RedactionMode,
): StringResult {
  let redacted: string;
  let findings: RedactionFinding[];
  if (keyName === undefined) {
    const result = redactor.redactText(text, mode);
    redacted = result.text;
    findings = result.findings;
  } else {
    // Through redactJson so the member's name counts as context (`"password": "…"`, `Authorization`).
    const result = redactor.redactJson({ [keyName]: text }, mode);
    redacted = String(Object.values(result.value)[0] ?? '');
    findings = result.findings.filter((finding) => !finding.path.endsWith('#key'));
  }
  const secrets = [...new Set(findings.map((finding) => text.slice(finding.start, finding.end)))];
  return { text: redacted, findings, secrets };
}

/** One walk over every part; `redact` is called once per string, in a fixed order. */
class Walk {
  readonly spans: RedactionSpan[] = [];
  readonly byLabel: Record<string, number> = {};
  count = 0;

  constructor(
    private readonly redact: (text: string, keyName: string | undefined, mode: RedactionMode) => StringResult,
  ) {}

  private record(part: string, findings: RedactionFinding[]): void {
    for (const finding of findings) {
      this.count++;
      this.byLabel[finding.label] = (this.byLabel[finding.label] ?? 0) + 1;
      if (this.spans.length < MAX_RECORDED_SPANS) {
        this.spans.push({
          part,
          label: finding.label,
          detector: finding.detector,
          start: finding.start,
          end: finding.end,
          valueLength: finding.valueLength,
        });
      }
    }
  }

  visit(value: unknown, part: string, keyName: string | undefined, mode: RedactionMode): unknown {
    if (typeof value === 'string') {
      const result = this.redact(value, keyName, mode);
      this.record(part, result.findings);
      return result.text;
    }
    if (Array.isArray(value)) return value.map((item, index) => this.visit(item, `${part}[${index}]`, keyName, mode));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      const keyResult = this.redact(key, undefined, mode);
      let outKey = keyResult.text;
      for (let n = 2; outKey in out; n++) outKey = `${keyResult.text}#${n}`;
      const childPart = memberPath(part, outKey);
      this.record(`${childPart}#key`, keyResult.findings);
      out[outKey] = this.visit(member, childPart, key, mode);
    }
    return out;
  }
}

/**
 * Redacts the parts. The first pass finds each part's secrets; where a secret found anywhere still
 * shows in another part's output, that string is redacted again with every found secret as a
 * literal to scrub. Strings without one keep their first-pass result.
 */
export function scrubParts(parts: ScrubPart[], options: ScrubOptions = {}): ScrubResult {
  const known = options.knownSecrets ?? [];
  const base = new Redactor({
    ...(options.env ? { env: options.env } : {}),
    ...(options.allowlist ? { allowlist: options.allowlist } : {}),
    ...(known.length ? { extraSecrets: known } : {}),
  });
  const firstPass: StringResult[] = [];
  const allSecrets = new Set<string>();
  const first = new Walk((text, keyName, mode) => {
    const result = redactString(base, text, keyName, mode);
    firstPass.push(result);
    for (const secret of result.secrets) allSecrets.add(secret);
    return result;
  });
  const firstValues = parts.map((part) => first.visit(part.value, part.name, undefined, part.mode));
  const secrets = [...allSecrets];
  if (secrets.length) options.onSecrets?.(secrets);
  const leaks = (text: string): boolean => secrets.some((secret) => secret.length > 0 && text.includes(secret));
  if (secrets.length === 0 || !firstPass.some((result) => leaks(result.text))) {
    return { values: firstValues, count: first.count, byLabel: first.byLabel, spans: first.spans };
  }
  const cross = new Redactor({
    ...(options.env ? { env: options.env } : {}),
    ...(options.allowlist ? { allowlist: options.allowlist } : {}),
    extraSecrets: [...known, ...secrets],
  });
  let index = 0;
  const second = new Walk((text, keyName, mode) => {
    const earlier = firstPass[index++];
    return earlier && !leaks(earlier.text) ? earlier : redactString(cross, text, keyName, mode);
  });
  const values = parts.map((part) => second.visit(part.value, part.name, undefined, part.mode));
  return { values, count: second.count, byLabel: second.byLabel, spans: second.spans };
}
