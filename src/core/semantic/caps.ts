// Character caps for the parts of the envelope. A part is first bounded (so the redactor's work
// stays bounded whatever the input's size), then redacted, then cut to its cap, head and tail kept,
// with a marker saying how much was left out. A cut never falls inside a token or a
// `<redacted:label>` marker.

/** Per-part caps, in characters of the text sent to the judge. */
export interface Caps {
  /** Each of the human's last turns. */
  humanTurn: number;
  agentMessage: number;
  /** The call as the judge sees it (`envelope.request`). */
  request: number;
  /** All shell comments together. */
  comments: number;
  /** The facts, as serialized JSON. */
  facts: number;
  /** The whole envelope, as serialized JSON. */
  whole: number;
}

export const DEFAULT_CAPS: Caps = {
  humanTurn: 4_000,
  agentMessage: 4_000,
  request: 96_000,
  comments: 4_000,
  facts: 8_000,
  whole: 128_000,
};

/**
 * Characters dropped on each side of a bounding seam after redaction. Bounding may split a secret
 * in two, and a fragment too short for any detector would then survive; dropping this margin
 * removes any fragment of a secret shorter than it (a 4096-bit PEM key is about 3,300).
 */
export const SEAM_MARGIN = 8_000;

// Private-use characters mark a seam while a part is processed. Input never holds them (see
// sanitize), the redactor treats them as separators, and JSON.stringify leaves them as they are.
const SEAM_OPEN = '\uE000';
const SEAM_CLOSE = '\uE001';
const SEAM = /\uE000(\d+)\uE001/g;

/** Removes the seam characters from untrusted text so that only Warden can write a seam. */
export function sanitize(text: string): string {
  return text.replace(/[\uE000\uE001]/g, '\uFFFD');
}

function seam(omitted: number): string {
  return `${SEAM_OPEN}${omitted}${SEAM_CLOSE}`;
}

export function omissionMarker(omitted: number): string {
  return `[… ${omitted} characters omitted …]`;
}

/** How long a bounded text may be for a part of this cap (the cap plus two seam margins each side). */
export function boundFor(cap: number): number {
  return cap + 4 * SEAM_MARGIN;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Keeps the head and tail of a long text around a seam; the redactor then sees at most `limit` characters. */
export function bound(text: string, limit: number): string {
  const clean = sanitize(text);
  if (clean.length <= limit) return clean;
  let headEnd = Math.floor(limit / 2);
  let tailStart = clean.length - Math.floor(limit / 2);
  if (headEnd > 0 && isHighSurrogate(clean.charCodeAt(headEnd - 1))) headEnd--;
  if (tailStart < clean.length && isLowSurrogate(clean.charCodeAt(tailStart))) tailStart++;
  return clean.slice(0, headEnd) + seam(tailStart - headEnd) + clean.slice(tailStart);
}

export function hasSeam(text: string): boolean {
  return text.includes(SEAM_OPEN);
}

const BOUNDARY_CHARS = new Set([...' \t\n\r\f\v,;()[]{}"\'`|&<>!?', SEAM_OPEN, SEAM_CLOSE]);

function isBoundaryChar(ch: string | undefined): boolean {
  if (ch === undefined) return true;
  return BOUNDARY_CHARS.has(ch) || /\s/.test(ch);
}

/** Spans a cut must not fall inside: redaction markers and seams. */
function protectedSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const pattern = /<redacted:[a-z0-9-]{1,64}>|\uE000\d+\uE001/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text))
    spans.push([match.index, match.index + match[0].length]);
  return spans;
}

function spanContaining(spans: Array<[number, number]>, position: number): [number, number] | undefined {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]![1] <= position) lo = mid + 1;
    else hi = mid;
  }
  const span = spans[lo];
  return span && span[0] < position && position < span[1] ? span : undefined;
}

/** A position between two tokens: next to a separator, never inside a marker, never after a backslash. */
function isCutPoint(text: string, position: number, spans: Array<[number, number]>): boolean {
  if (position <= 0 || position >= text.length) return true;
  if (spanContaining(spans, position)) return false;
  if (text[position - 1] === '\\') return false;
  return isBoundaryChar(text[position - 1]) || isBoundaryChar(text[position]);
}

function cutPointAtOrBefore(text: string, position: number, spans: Array<[number, number]>): number {
  let p = Math.max(0, Math.min(position, text.length));
  while (p > 0 && !isCutPoint(text, p, spans)) {
    const span = spanContaining(spans, p);
    p = span ? span[0] : p - 1;
  }
  return p;
}

function cutPointAtOrAfter(text: string, position: number, spans: Array<[number, number]>): number {
  let p = Math.max(0, Math.min(position, text.length));
  while (p < text.length && !isCutPoint(text, p, spans)) {
    const span = spanContaining(spans, p);
    p = span ? span[1] : p + 1;
  }
  return p;
}

function seamTotal(text: string): number {
  let total = 0;
  for (const match of text.matchAll(SEAM)) total += Number(match[1]);
  return total;
}

/** Characters a removed stretch stood for: its own length, with each seam counted as what it replaced. */
function representedLength(text: string): number {
  let length = text.length;
  for (const match of text.matchAll(SEAM)) length += Number(match[1]) - match[0].length;
  return length;
}

/**
 * After redaction: widens every seam by SEAM_MARGIN on each side (to the nearest cut point), so no
 * fragment of a secret that the seam split survives next to it. Neighbouring seams merge.
 */
export function widenSeams(text: string): string {
  if (!hasSeam(text)) return text;
  const spans = protectedSpans(text);
  const out: string[] = [];
  let cursor = 0;
  let pendingStart = -1;
  let pendingEnd = -1;
  const flush = (): void => {
    if (pendingStart < 0) return;
    out.push(text.slice(cursor, pendingStart), seam(representedLength(text.slice(pendingStart, pendingEnd))));
    cursor = pendingEnd;
    pendingStart = -1;
  };
  for (const match of text.matchAll(SEAM)) {
    const at = match.index;
    const start = cutPointAtOrBefore(text, Math.max(cursor, at - SEAM_MARGIN), spans);
    const end = cutPointAtOrAfter(text, at + match[0].length + SEAM_MARGIN, spans);
    if (pendingStart >= 0 && start <= pendingEnd) {
      pendingEnd = Math.max(pendingEnd, end);
      continue;
    }
    flush();
    pendingStart = Math.max(start, cursor);
    pendingEnd = end;
  }
  flush();
  out.push(text.slice(cursor));
  return out.join('');
}

export interface CutText {
  text: string;
  /** Something was left out (by this cut, or by bounding before it). */
  cut: boolean;
  omitted: number;
}

function render(text: string): string {
  return text.replace(SEAM, (_, n: string) => omissionMarker(Number(n)));
}

/**
 * Cuts a (bounded, redacted, widened) text to `cap` characters as rendered: head and tail are kept,
 * the middle becomes one omission marker. Seams that survive become markers of their own.
 */
export function capText(text: string, cap: number): CutText {
  const seams = seamTotal(text);
  const rendered = render(text);
  if (rendered.length <= cap) return { text: rendered, cut: seams > 0, omitted: seams };
  // Cut in the processed text (its seams are short); rendering a seam adds at most this many characters.
  const markerRoom = omissionMarker(Number.MAX_SAFE_INTEGER).length;
  const seamCount = (text.match(SEAM) ?? []).length;
  const budget = Math.max(0, cap - markerRoom * (1 + seamCount));
  const spans = protectedSpans(text);
  let headEnd = cutPointAtOrBefore(text, Math.floor(budget / 2), spans);
  let tailStart = cutPointAtOrAfter(text, text.length - Math.ceil(budget / 2), spans);
  if (tailStart < headEnd) tailStart = headEnd;
  // Keep the result within the cap even when seams inside the kept parts render longer than budgeted.
  for (;;) {
    const marker = omissionMarker(representedLength(text.slice(headEnd, tailStart)));
    const candidate = render(text.slice(0, headEnd)) + marker + render(text.slice(tailStart));
    if (candidate.length <= cap || (headEnd === 0 && tailStart === text.length)) break;
    if (headEnd > text.length - tailStart)
      headEnd = cutPointAtOrBefore(text, headEnd - Math.max(1, candidate.length - cap), spans);
    else tailStart = cutPointAtOrAfter(text, tailStart + Math.max(1, candidate.length - cap), spans);
  }
  const omitted = representedLength(text.slice(headEnd, tailStart));
  const head = render(text.slice(0, headEnd));
  const tail = render(text.slice(tailStart));
  const all = seams - seamTotal(text.slice(headEnd, tailStart)) + omitted;
  return { text: head + omissionMarker(omitted) + tail, cut: true, omitted: all };
}
