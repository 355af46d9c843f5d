// Bounded hand-written readers shared by the detectors. Each one stops after a fixed number of
// chars, and callers resume after what a reader consumed, which keeps every detector linear.
import { isSpace } from './charset';

/** The longest value any reader takes; a credential is never longer. */
export const MAX_VALUE_LENGTH = 4096;

export interface Slice {
  /** Where the value's content starts and ends (inside any quotes). */
  start: number;
  end: number;
  /** Where the whole word ends, after a closing quote. */
  next: number;
  quoted: boolean;
}

/** Skips spaces and tabs (not newlines), at most `limit` of them. */
export function skipBlanks(text: string, from: number, limit = 32): number {
  let i = from;
  const stop = Math.min(text.length, from + limit);
  while (i < stop) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9) break;
    i++;
  }
  return i;
}

/**
 * Reads a quoted value whose opening quote is at `open`: `"…"`, `'…'`, `` `…` ``, or the JSON-escaped
 * `\"…\"`. Never crosses a line. Returns null when no closing quote comes within the bound.
 */
export function readQuoted(text: string, open: number): Slice | null {
  let quote = text.charAt(open);
  let contentStart = open + 1;
  let escapedDelimiter = false;
  if (quote === '\\') {
    quote = text.charAt(open + 1);
    contentStart = open + 2;
    escapedDelimiter = true;
  }
  if (quote !== '"' && quote !== "'" && quote !== '`') return null;
  const stop = Math.min(text.length, contentStart + MAX_VALUE_LENGTH);
  for (let i = contentStart; i < stop; i++) {
    const ch = text.charAt(i);
    if (ch === '\n' || ch === '\r') return null;
    if (ch === '\\') {
      if (escapedDelimiter && text.charAt(i + 1) === quote)
        return { start: contentStart, end: i, next: i + 2, quoted: true };
      i++;
      continue;
    }
    if (ch === quote && !escapedDelimiter) return { start: contentStart, end: i, next: i + 1, quoted: true };
  }
  return null;
}

/** True at a quote that can open a value: `"`, `'`, `` ` `` or `\"`. */
export function isQuoteAt(text: string, index: number): boolean {
  const ch = text.charAt(index);
  if (ch === '"' || ch === "'" || ch === '`') return true;
  if (ch === '\\') {
    const next = text.charAt(index + 1);
    return next === '"' || next === "'";
  }
  return false;
}

function stopTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const ch of chars) table[ch.charCodeAt(0)] = 1;
  return table;
}

/** Chars that end an unquoted shell word besides whitespace. */
export const SHELL_WORD_STOPS = stopTable(';|&<>`"\'\\()');
/** Also ends a value inside structured text: `{"a": x, "b": y}`. */
export const VALUE_STOPS = stopTable(';|&<>`"\'\\(),}][');

/** Reads one shell-like word: a quoted string, or chars up to whitespace or a shell operator. */
export function readWord(text: string, from: number, stops: Uint8Array = SHELL_WORD_STOPS): Slice {
  if (isQuoteAt(text, from)) {
    const quoted = readQuoted(text, from);
    if (quoted) return quoted;
  }
  const stop = Math.min(text.length, from + MAX_VALUE_LENGTH);
  let i = from;
  while (i < stop) {
    const code = text.charCodeAt(i);
    if (isSpace(code) || (code < 128 && stops[code] === 1)) break;
    i++;
  }
  return { start: from, end: i, next: i, quoted: false };
}

/** Reads to the end of the line (or a literal `\n` escape, or `stopChar`), trimmed of trailing blanks. */
export function readToLineEnd(text: string, from: number, stopChar = ''): Slice {
  const stop = Math.min(text.length, from + MAX_VALUE_LENGTH);
  let i = from;
  while (i < stop) {
    const ch = text.charAt(i);
    if (ch === '\n' || ch === '\r' || (stopChar && ch === stopChar)) break;
    if (ch === '\\' && (text.charAt(i + 1) === 'n' || text.charAt(i + 1) === 'r')) break;
    i++;
  }
  let end = i;
  while (end > from && isSpace(text.charCodeAt(end - 1))) end--;
  return { start: from, end, next: i, quoted: false };
}

/** True when only blanks or YAML list dashes stand between the line start and `index`. */
export function startsLine(text: string, index: number): boolean {
  let i = index;
  const floor = Math.max(0, index - 64);
  while (i > floor) {
    const ch = text.charAt(i - 1);
    if (ch === ' ' || ch === '\t' || ch === '-') {
      i--;
      continue;
    }
    break;
  }
  if (i === 0) return true;
  const prev = text.charAt(i - 1);
  if (prev === '\n' || prev === '\r') return true;
  // A JSON-encoded multi-line string: the line break is the two chars `\n`.
  return (prev === 'n' || prev === 'r') && text.charAt(i - 2) === '\\';
}

export function trimmed(text: string, slice: Slice): Slice {
  let { start, end } = slice;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return start === slice.start && end === slice.end ? slice : { ...slice, start, end };
}
