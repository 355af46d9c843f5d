// A lone surrogate has no UTF-8 encoding, so two parties can hash different bytes for it
// (one replaces it with U+FFFD, another escapes it): RFC 8785 makes it an error, and so do we.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type WellFormedCheck = (this: string) => boolean;
const nativeIsWellFormed = (String.prototype as { isWellFormed?: WellFormedCheck }).isWellFormed;

/** The first lone surrogate code unit in `text`, or null when the string is well formed. */
export function findLoneSurrogate(text: string): number | null {
  if (nativeIsWellFormed !== undefined && nativeIsWellFormed.call(text)) return null;
  const match = LONE_SURROGATE.exec(text);
  return match === null ? null : text.charCodeAt(match.index);
}

/** Renders a code unit the way JSON would escape it, e.g. `\ud800`. */
export function escapeCodeUnit(codeUnit: number): string {
  return `\\u${codeUnit.toString(16).padStart(4, '0')}`;
}
