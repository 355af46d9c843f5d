// Character classes as lookup tables, so scanners test a char in O(1) without regexes.
import { markerAt, markerEndsAt } from './labels';

function table(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = DIGITS + LOWER + UPPER;

export const ALNUM_CHARS = table(ALNUM);
export const HEX_CHARS = table(DIGITS + 'abcdefABCDEF');
export const BASE64URL_CHARS = table(ALNUM + '-_');
export const BASE64_CHARS = table(ALNUM + '+/');
/** Anything a token body in the wild is made of: base64, base64url and the separators tokens use. */
export const TOKEN_CHARS = table(ALNUM + '-_+/');
/** Identifier chars for keys like `spring.datasource.password`, `X-Api-Key`, `DB_PASSWORD`. */
export const KEY_NAME_CHARS = table(ALNUM + '_.-');

export function has(t: Uint8Array, code: number): boolean {
  return code < 128 && t[code] === 1;
}

export function isAlnum(code: number): boolean {
  return has(ALNUM_CHARS, code);
}

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

export function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** Space, tab, CR, LF and the other whitespace a shell or a config file separates words with. */
export function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 11 || code === 12;
}

/**
 * True when the char before `index` does not continue an alphanumeric word. A marker counts as
 * part of the word: it stands for text that was glued there, so what was not a word start before
 * redaction does not become one after it (which keeps redaction idempotent).
 */
export function wordBoundaryBefore(text: string, index: number): boolean {
  return index === 0 || (!isAlnum(text.charCodeAt(index - 1)) && !markerEndsAt(text, index));
}

export function wordBoundaryAfter(text: string, index: number): boolean {
  return index >= text.length || (!isAlnum(text.charCodeAt(index)) && !markerAt(text, index));
}

/** Index of the first char at or after `from` that is not in `t` (bounded by `limit`). */
export function runEnd(text: string, from: number, t: Uint8Array, limit = text.length): number {
  const stop = Math.min(limit, text.length);
  let i = from;
  while (i < stop && has(t, text.charCodeAt(i))) i++;
  return i;
}

const counts = new Uint32Array(128);

/** Shannon entropy in bits per char of text[start, end), ASCII only (other chars share one bucket). */
export function shannonEntropy(text: string, start: number, end: number): number {
  const length = end - start;
  if (length <= 0) return 0;
  counts.fill(0);
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    counts[code < 128 ? code : 0]!++;
  }
  let bits = 0;
  for (let c = 0; c < 128; c++) {
    const n = counts[c]!;
    if (n === 0) continue;
    const p = n / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
