// Long random-looking tokens that no known format names. The rules, chosen to keep the false
// positives of ordinary text and code low:
//  - a token is a maximal run of base64/base64url chars (A-Z a-z 0-9 + / - _) plus up to two `=`;
//  - at least 32 chars long (padding not counted);
//  - Shannon entropy of at least 4.0 bits per char (random base64 of 32 chars scores about 4.7;
//    English words, identifiers and paths mostly score under 4);
//  - it holds a digit and a letter;
//  - not hex only (dashes allowed): git SHAs, SHA-256 digests, UUIDs and hex ids are everywhere
//    in an agent's commands and are not secrets by themselves (hex secrets are caught by their
//    context: assignments, flags, connection strings, environment values);
//  - not the payload of a `;base64,` data URL (images, fonts);
//  - not made of words joined by `/`, `-` or `_` (paths, package names, snake_case identifiers).
import { has, HEX_CHARS, isDigit, isLower, isUpper, shannonEntropy, TOKEN_CHARS } from '../charset';
import type { Detector } from '../types';

export const MIN_HIGH_ENTROPY_LENGTH = 32;
export const MIN_ENTROPY_BITS = 4.0;

function isHexOnly(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 45 && !has(HEX_CHARS, code)) return false;
  }
  return true;
}

function hasDigitAndLetter(text: string, start: number, end: number): boolean {
  let digit = false;
  let letter = false;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) digit = true;
    else if (isLower(code) || isUpper(code)) letter = true;
    if (digit && letter) return true;
  }
  return false;
}

function isSeparator(code: number): boolean {
  return code === 47 || code === 45 || code === 95;
}

/** A piece reads as a word: `core`, `Redaction`, `HTTP`, `v2`, `es2022`, `2024`. */
function isWordPiece(text: string, start: number, end: number): boolean {
  if (end - start === 0) return true;
  let i = start;
  if (isUpper(text.charCodeAt(i))) i++;
  const lowerStart = i;
  while (i < end && isLower(text.charCodeAt(i))) i++;
  if (i === lowerStart) {
    // No lower case after the first char: all capitals (`HTTP`) or all digits.
    i = start;
    while (i < end && isUpper(text.charCodeAt(i))) i++;
  }
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  return i === end;
}

function isJoinedWords(text: string, start: number, end: number): boolean {
  let pieces = 0;
  let wordPieces = 0;
  let pieceStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && !isSeparator(text.charCodeAt(i))) continue;
    pieces++;
    if (isWordPiece(text, pieceStart, i)) wordPieces++;
    pieceStart = i + 1;
  }
  return pieces >= 3 && wordPieces * 5 >= pieces * 4;
}

function isDataUrlPayload(text: string, start: number): boolean {
  return text.startsWith('base64,', start - 7);
}

function isTokenChar(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code < 128 && TOKEN_CHARS[code] === 1;
}

function judgeRun(text: string, start: number, runEnd: number): number {
  if (runEnd - start < MIN_HIGH_ENTROPY_LENGTH) return -1;
  let end = runEnd;
  if (text.charAt(end) === '=') end++;
  if (text.charAt(end) === '=') end++;
  if (isHexOnly(text, start, runEnd) || isDataUrlPayload(text, start)) return -1;
  if (!hasDigitAndLetter(text, start, runEnd) || isJoinedWords(text, start, runEnd)) return -1;
  if (shannonEntropy(text, start, runEnd) < MIN_ENTROPY_BITS) return -1;
  return end;
}

/**
 * Any run of 32 or more token chars covers one of every 32 positions, so only those positions are
 * probed; a probe that lands in a run reads the run both ways. Each char is read about once.
 */
export const detectHighEntropy: Detector = (text, _mode, out) => {
  const length = text.length;
  let floor = 0;
  let probe = MIN_HIGH_ENTROPY_LENGTH - 1;
  while (probe < length) {
    if (!isTokenChar(text, probe)) {
      floor = probe + 1;
      probe += MIN_HIGH_ENTROPY_LENGTH;
      continue;
    }
    let start = probe;
    while (start > floor && isTokenChar(text, start - 1)) start--;
    let end = probe + 1;
    while (end < length && isTokenChar(text, end)) end++;
    const tokenEnd = judgeRun(text, start, end);
    if (tokenEnd > 0) out.push({ label: 'high-entropy', detector: 'high-entropy', start, end: tokenEnd });
    floor = end + 1;
    probe = end + MIN_HIGH_ENTROPY_LENGTH;
  }
};
