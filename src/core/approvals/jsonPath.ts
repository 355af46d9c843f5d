// Locations inside a JSON document, written JSONPath-like for problem sentences:
// `$.tool_input.items[2]`, `$.tool_input["a b"]`. Long paths and long keys are abbreviated so a
// sentence stays one readable line even for 257 levels of nesting or a 10 kB key.

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const HEAD_SEGMENTS = 6;
const TAIL_SEGMENTS = 2;
const MAX_KEY_CHARS = 40;

export function formatPath(segments: readonly PathSegment[]): string {
  if (segments.length <= HEAD_SEGMENTS + TAIL_SEGMENTS + 1) return `$${segments.map(formatSegment).join('')}`;
  const head = segments.slice(0, HEAD_SEGMENTS).map(formatSegment).join('');
  const tail = segments.slice(-TAIL_SEGMENTS).map(formatSegment).join('');
  return `$${head}.…${tail}`;
}

/** A key as it appears in a sentence: JSON-quoted, cut to a readable length. */
export function quoteKey(key: string): string {
  return JSON.stringify(abbreviate(key, MAX_KEY_CHARS));
}

/** Cuts `text` to `maxChars` code units plus an ellipsis, never between the halves of a surrogate pair. */
export function abbreviate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const lastKept = text.charCodeAt(maxChars - 1);
  const cut = lastKept >= 0xd800 && lastKept <= 0xdbff ? maxChars - 1 : maxChars;
  return `${text.slice(0, cut)}…`;
}

function formatSegment(segment: PathSegment): string {
  if (typeof segment === 'number') return `[${segment}]`;
  if (IDENTIFIER.test(segment) && segment.length <= MAX_KEY_CHARS) return `.${segment}`;
  return `[${quoteKey(segment)}]`;
}
