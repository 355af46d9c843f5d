// Long random-looking tokens that no known format names. The rules, chosen to keep the false
// positives of ordinary text and code low:
//  - a token is a maximal run of base64/base64url chars (A-Z a-z 0-9 + / - _) plus up to two `=`;
//  - at least 32 chars long (padding not counted);
//  - Shannon entropy of at least 4.0 bits per char (random base64 of 32 chars scores about 4.7;
//    English words, identifiers and paths mostly score under 4; digits alone cannot reach it);
//  - not hex only (dashes and a leading 0x allowed): git SHAs, SHA-256 digests, UUIDs, hex ids and
//    chain addresses are everywhere in an agent's commands and are not secrets by themselves (hex
//    secrets are caught by their context: assignments, flags, connection strings, environment values);
//  - not the payload of a `;base64,` data URL (images, fonts);
//  - in a path or URL (a run with `/` and a lower-case word between slashes) each segment is
//    judged on its own, so `hooks/services/<token>` loses the token, not the path;
//  - it looks random (see randomness.ts): not mostly words (paths, package names, camelCase and
//    snake_case identifiers), not a few chars repeated;
import { has, HEX_CHARS, isLower, shannonEntropy, TOKEN_CHARS } from '../charset';
import { markerAt, markerEndsAt } from '../labels';
import { looksRandom } from '../randomness';
import type { Candidate, Detector } from '../types';

export const MIN_HIGH_ENTROPY_LENGTH = 32;
export const MIN_ENTROPY_BITS = 4.0;

function isHexOnly(text: string, start: number, end: number): boolean {
  // `0x…` is how hex is written in code and on chains (an Ethereum address is 0x and 40 hex digits).
  const digits = text.charCodeAt(start) === 48 && (text.charCodeAt(start + 1) | 32) === 120 ? start + 2 : start;
  for (let i = digits; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code !== 45 && !has(HEX_CHARS, code)) return false;
  }
  return true;
}

function isDataUrlPayload(text: string, start: number): boolean {
  return text.startsWith(';base64,', start - 8);
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
  if (shannonEntropy(text, start, runEnd) < MIN_ENTROPY_BITS || !looksRandom(text, start, runEnd)) return -1;
  return end;
}

/**
 * A run with slashes where at least two segments, and a third of them all, are lower-case words
 * (`com/services/…`, `api/webhooks/…`) is a path or URL: its segments are judged apart. In random
 * base64 a slash-delimited lower-case word of 3 letters or more is rare.
 */
function isPathLike(text: string, start: number, end: number): boolean {
  const slash = text.indexOf('/', start);
  if (slash < 0 || slash >= end) return false;
  let segments = 0;
  let words = 0;
  let segmentStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && text.charCodeAt(i) !== 47) continue;
    segments++;
    let word = i - segmentStart >= 3;
    for (let j = segmentStart; j < i && word; j++) word = isLower(text.charCodeAt(j));
    if (word) words++;
    segmentStart = i + 1;
  }
  return segments > 1 && words >= 2 && words * 3 >= segments;
}

function judgeRunOrSegments(text: string, runStart: number, runEnd: number, out: Candidate[]): void {
  // Slashes at the edges belong to the path or URL around the token (`https://TOKEN@…`, `/TOKEN/`).
  let start = runStart;
  let end = runEnd;
  while (start < end && text.charCodeAt(start) === 47) start++;
  while (end > start && text.charCodeAt(end - 1) === 47) end--;
  if (end - start < MIN_HIGH_ENTROPY_LENGTH) return;
  // A run glued to a marker was part of a longer run before, and was judged as that.
  if (markerEndsAt(text, runStart) || markerAt(text, runEnd)) return;
  if (!isPathLike(text, start, end)) {
    const tokenEnd = judgeRun(text, start, end);
    if (tokenEnd > 0) out.push({ label: 'high-entropy', detector: 'high-entropy', start, end: tokenEnd });
    return;
  }
  let segmentStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && text.charCodeAt(i) !== 47) continue;
    const tokenEnd = judgeRun(text, segmentStart, i);
    if (tokenEnd > 0) out.push({ label: 'high-entropy', detector: 'high-entropy', start: segmentStart, end: tokenEnd });
    segmentStart = i + 1;
  }
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
    judgeRunOrSegments(text, start, end, out);
    floor = end + 1;
    probe = end + MIN_HIGH_ENTROPY_LENGTH;
  }
};
