// Makes characters that render as nothing (or reorder text) visible, so a
// person cannot be shown one command while approving another: each becomes a
// token like ⟦U+202E⟧ that stands out in the card.

export interface TextPiece {
  text: string;
  /** True when the piece stands for an invisible, bidi or control character. */
  hidden: boolean;
}

const HIDDEN =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|\uDB40[\uDC00-\uDDEF]/g;

export function codePointLabel(char: string): string {
  const cp = char.codePointAt(0) ?? 0;
  return `⟦U+${cp.toString(16).toUpperCase().padStart(4, '0')}⟧`;
}

/** Splits a string into plain runs and one token per hidden character (newlines and tabs stay as they are). */
export function revealHidden(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(HIDDEN)) {
    const at = match.index ?? 0;
    if (at > last) pieces.push({ text: text.slice(last, at), hidden: false });
    pieces.push({ text: codePointLabel(match[0]), hidden: true });
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), hidden: false });
  return pieces;
}

export function countHidden(text: string): number {
  return [...text.matchAll(HIDDEN)].length;
}

/** A redacted marker and the plain text around it, for highlighting in the envelope. */
export interface MarkerPiece {
  text: string;
  label?: string;
}

const MARKER = /<redacted:([a-z0-9_.-]+)>/gi;

export function splitMarkers(text: string): MarkerPiece[] {
  const pieces: MarkerPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(MARKER)) {
    const at = match.index ?? 0;
    if (at > last) pieces.push({ text: text.slice(last, at) });
    pieces.push({ text: match[0], label: match[1] ?? '' });
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

/** Counts markers by label across many texts. */
export function countMarkers(texts: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const text of texts)
    for (const piece of splitMarkers(text))
      if (piece.label !== undefined) counts[piece.label] = (counts[piece.label] ?? 0) + 1;
  return counts;
}
