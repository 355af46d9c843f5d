import type { Evaluation } from '../../core/evaluator';
import { Redactor } from '../../core/redaction';
import { redactJsonValue } from '../../core/redaction/json-walk';
import type { RedactionAllowlist } from '../../core/redaction';
import { bound, boundFor, DEFAULT_CAPS, type Caps } from '../../core/semantic/caps';
import { boundValue, viewCall } from '../../core/semantic/request';
import { scrubParts, type RedactionSpan } from '../../core/semantic/scrub';
import { readTranscriptTail } from '../../core/semantic/transcript';

// Finds the original value behind each <redacted:label> marker of a record,
// for the panel's "reveal" and "not a secret", while the call is still in
// memory. Neither the record nor the log holds them, so they are recovered by
// redacting the call's own input again the way the evaluator and the semantic
// tier did, and kept only when that gives exactly the record's markers: a
// value is never shown for a marker it may not belong to.

/** The original behind one marker, with what the panel shows about it. Memory only. */
export interface MarkerOriginal {
  label: string;
  detector: string;
  /** Where the value sat: a JSON path in the arguments, or the envelope part. */
  part: string;
  valueLength: number;
  value: string;
}

export type Recovered = { ok: true; markers: MarkerOriginal[] } | { ok: false; why: string };

const MARKER = /<redacted:[a-z0-9_.-]+>/gi;

function countMarkers(value: unknown): number {
  return (JSON.stringify(value ?? null).match(MARKER) ?? []).length;
}

/**
 * The markers of the arguments as logged (record.toolInput), in the order they
 * appear in its JSON: the evaluator's blunt redaction of the tool input, again.
 */
export function argumentOriginals(
  toolInput: Record<string, unknown> | undefined,
  logged: unknown,
  allowlist: RedactionAllowlist,
): Recovered {
  if (!toolInput) return { ok: false, why: 'the call had no arguments' };
  const redactor = new Redactor({ allowlist });
  const markers: MarkerOriginal[] = [];
  const redacted = redactJsonValue(toolInput, (text, keyName) => {
    // As the evaluator's redactJson does it: the member's name is context for its value.
    const result =
      keyName === undefined
        ? redactor.redactText(text, 'blunt')
        : (() => {
            const inner = redactor.redactJson({ [keyName]: text }, 'blunt');
            const findings = inner.findings.filter((f) => !f.path.endsWith('#key'));
            return { text: String(Object.values(inner.value)[0] ?? ''), count: findings.length, byLabel: {}, findings };
          })();
    for (const f of result.findings)
      markers.push({
        label: f.label,
        detector: f.detector,
        part: '',
        valueLength: f.valueLength,
        value: text.slice(f.start, f.end),
      });
    return result;
  });
  if (JSON.stringify(redacted.value) !== JSON.stringify(logged))
    return {
      ok: false,
      why: 'the arguments no longer redact the way they were logged (the environment or the allow-list changed since)',
    };
  if (redacted.findings.length !== markers.length || countMarkers(logged) !== markers.length)
    return { ok: false, why: 'the arguments hold marker-like text that was not a redaction' };
  redacted.findings.forEach((f, i) => (markers[i]!.part = `arguments${f.path.slice(1)}`));
  return { ok: true, markers };
}

/** Reads a value at a scrub part path such as `request.input.command`, `userSaid[0]` or `request.input["a-b"]`. */
export function valueAt(root: Record<string, unknown>, path: string): unknown {
  const head = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(path);
  if (!head) return undefined;
  let value: unknown = root[head[0]];
  let rest = path.slice(head[0].length);
  while (rest.length > 0) {
    let key: string | number;
    const member = /^\.([A-Za-z_$][A-Za-z0-9_$]*)/.exec(rest);
    const index = /^\[(\d+)\]/.exec(rest);
    const quoted = /^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (member) {
      key = member[1]!;
      rest = rest.slice(member[0].length);
    } else if (index) {
      key = Number(index[1]);
      rest = rest.slice(index[0].length);
    } else if (quoted) {
      key = JSON.parse(quoted[1]!) as string;
      rest = rest.slice(quoted[0].length);
    } else return undefined;
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function sameSpan(a: RedactionSpan, b: RedactionSpan): boolean {
  return a.part === b.part && a.label === b.label && a.start === b.start && a.end === b.end;
}

export interface EnvelopeRecoveryOptions {
  /** The semantic tier's environment and allow-list key, as it redacted with. */
  env: Record<string, string | undefined>;
  allowlistKey: Buffer;
  caps?: Caps;
}

/**
 * The originals behind record.redactions.spans (the envelope), by index. The
 * parts the tier redacted are rebuilt from the call and the transcript; the
 * facts are not, so their markers stay without an original.
 */
export function envelopeOriginals(
  evaluation: Evaluation,
  opts: EnvelopeRecoveryOptions,
): Map<number, MarkerOriginal> | { why: string } {
  const spans = evaluation.record.redactions.spans;
  const call = evaluation.call;
  if (!evaluation.record.envelope || !spans || spans.length === 0 || !call) return new Map();
  const caps = opts.caps ?? DEFAULT_CAPS;
  const tail = readTranscriptTail(evaluation.event.transcriptPath);
  const view = viewCall(call);
  const parts = {
    userSaid: tail.userTurns.map((turn) => bound(turn, boundFor(caps.humanTurn))),
    agentLastMessage: tail.agentLastMessage === null ? null : bound(tail.agentLastMessage, boundFor(caps.agentMessage)),
    request: boundValue(view.request, boundFor(caps.request)).value as unknown,
    comments: view.comments.map((comment) => bound(comment, boundFor(caps.comments))),
  };
  const allowlist = { key: opts.allowlistKey, hashes: new Set(evaluation.config.redactionAllowlist) };
  const again = scrubParts(
    [
      { name: 'userSaid', mode: 'narrow', value: parts.userSaid },
      { name: 'agentLastMessage', mode: 'narrow', value: parts.agentLastMessage },
      { name: 'request', mode: 'blunt', value: parts.request },
      { name: 'comments', mode: 'narrow', value: parts.comments },
    ],
    { env: opts.env, allowlist },
  );
  const recorded = spans.map((span, index) => ({ span, index })).filter(({ span }) => !span.part.startsWith('facts'));
  if (again.spans.length !== recorded.length || !recorded.every(({ span }, i) => sameSpan(span, again.spans[i]!))) {
    return { why: 'the envelope could not be rebuilt exactly (the transcript or the environment changed since)' };
  }
  const originals = new Map<number, MarkerOriginal>();
  for (const { span, index } of recorded) {
    if (span.part.endsWith('#key')) continue;
    const text = valueAt(parts, span.part);
    if (typeof text !== 'string' || span.end > text.length) continue;
    originals.set(index, {
      label: span.label,
      detector: span.detector,
      part: span.part,
      valueLength: span.valueLength,
      value: text.slice(span.start, span.end),
    });
  }
  return originals;
}
