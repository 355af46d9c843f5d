// Redacts JSON-like data: every string, with its member name as context (`"password": "…"`),
// and object keys that are secrets themselves. Paths name where each finding sits.
import type { JsonRedactionFinding, JsonRedactionResult, RedactionResult } from './types';

/** Deeper than any real tool input; a deeper subtree is replaced whole rather than walked. */
export const MAX_JSON_DEPTH = 256;
const TOO_DEEP = 'too-deep';

export type RedactString = (text: string, keyName: string | undefined) => RedactionResult;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$.a.b`, or `$["odd key"]` where the key is not an identifier. */
export function memberPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

class Walk {
  count = 0;
  byLabel: Record<string, number> = {};
  findings: JsonRedactionFinding[] = [];

  constructor(private readonly redact: RedactString) {}

  private record(result: RedactionResult, path: string): void {
    this.count += result.count;
    for (const [label, n] of Object.entries(result.byLabel)) this.byLabel[label] = (this.byLabel[label] ?? 0) + n;
    // Field by field rather than a spread: an adversarial string can hold thousands of findings.
    for (const { label, detector, start, end, valueLength } of result.findings)
      this.findings.push({ label, detector, start, end, valueLength, path });
  }

  visit(value: unknown, path: string, keyName: string | undefined, depth: number): unknown {
    if (typeof value === 'string') {
      const result = this.redact(value, keyName);
      this.record(result, path);
      return result.text;
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_JSON_DEPTH) {
      this.record(
        {
          text: '',
          count: 1,
          byLabel: { [TOO_DEEP]: 1 },
          findings: [{ label: TOO_DEEP, detector: 'json-walk', start: 0, end: 0, valueLength: 0 }],
        },
        path,
      );
      return `<redacted:${TOO_DEEP}>`;
    }
    if (Array.isArray(value))
      return value.map((item, index) => this.visit(item, `${path}[${index}]`, keyName, depth + 1));
    if (!isPlainObject(value)) return value;
    const result: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      const keyResult = this.redact(key, undefined);
      let outKey = keyResult.text;
      for (let n = 2; outKey in result; n++) outKey = `${keyResult.text}#${n}`;
      const childPath = memberPath(path, outKey);
      if (keyResult.count > 0) this.record(keyResult, `${childPath}#key`);
      result[outKey] = this.visit(member, childPath, key, depth + 1);
    }
    return result;
  }
}

export function redactJsonValue<T>(value: T, redact: RedactString): JsonRedactionResult<T> {
  const walk = new Walk(redact);
  const redacted = walk.visit(value, '$', undefined, 0) as T;
  return { value: redacted, count: walk.count, byLabel: walk.byLabel, findings: walk.findings };
}
