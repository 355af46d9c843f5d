// Does a run of chars look generated rather than written? Shared by the token formats whose
// prefix also starts ordinary words, and by the high-entropy detector.
import { isLower, isUpper } from './charset';

const VOWELS = new Uint8Array(128);
for (const ch of 'aeiouyAEIOUY') VOWELS[ch.charCodeAt(0)] = 1;

function hasVowel(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && VOWELS[code] === 1) return true;
  }
  return false;
}

/** Chars that part the words of a name: `MODEL_DIRECTORY`, `router-env`, `dir/FILE`. */
function isNameSeparator(code: number): boolean {
  return code === 95 || code === 45 || code === 47 || code === 46;
}

/**
 * A run of capitals with a separator or the run's edge on both sides is a word of an upper-case
 * name (`$TRITON_MODEL_DIRECTORY/router-env`), even where the run has many lower-case letters too.
 * Random base64 seldom puts three capitals between two separators.
 */
function isDelimitedName(text: string, from: number, to: number, start: number, end: number): boolean {
  const before = from === start || isNameSeparator(text.charCodeAt(from - 1));
  return before && (to === end || isNameSeparator(text.charCodeAt(to)));
}

/**
 * Share of the run's letters that sit in word-like chunks: 3 letters or more with a vowel, where
 * a chunk is a lower-case run (with the capital before it: `User`) or, in runs written mostly in
 * capitals (`UNIFORM_BLOCK_SIZE`), a run of capitals. Identifiers, paths and package names are
 * nearly all words; in random base64 such chunks are rare (for 32 random chars the share passes
 * 60% about once in a hundred).
 */
function wordCoverage(text: string, start: number, end: number): number {
  let lower = 0;
  let upper = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (isLower(code)) lower++;
    else if (isUpper(code)) upper++;
  }
  const letters = lower + upper;
  if (letters === 0) return 0;
  const capitalWordsCount = lower * 4 < letters;
  let covered = 0;
  let i = start;
  while (i < end) {
    const code = text.charCodeAt(i);
    if (!isUpper(code) && !isLower(code)) {
      i++;
      continue;
    }
    const chunkStart = i;
    let capitals = false;
    if (isUpper(code)) {
      let j = i + 1;
      while (j < end && isUpper(text.charCodeAt(j))) j++;
      if (j < end && isLower(text.charCodeAt(j)) && j - 1 > i) {
        // `HTTPServer`: the capitals before the last one are a word of their own.
        i = j - 1;
        capitals = true;
      } else if (j < end && isLower(text.charCodeAt(j))) {
        i = j;
        while (i < end && isLower(text.charCodeAt(i))) i++;
      } else {
        i = j;
        capitals = true;
      }
    } else {
      while (i < end && isLower(text.charCodeAt(i))) i++;
    }
    const counts = !capitals || capitalWordsCount || isDelimitedName(text, chunkStart, i, start, end);
    if (i - chunkStart >= 3 && counts && hasVowel(text, chunkStart, i)) covered += i - chunkStart;
  }
  return covered / letters;
}

/** Above this share of word-like letters a run is read as words joined together, not as a token. */
const MAX_WORD_COVERAGE = 0.6;

/** A generated token of 20 chars or more uses many distinct chars; `ghp_ghp_ghp_…` does not. */
const MIN_DISTINCT = 10;

function distinctChars(text: string, start: number, end: number, enough: number): number {
  const seen = new Set<number>();
  for (let i = start; i < end && seen.size < enough; i++) seen.add(text.charCodeAt(i));
  return seen.size;
}

/** Enough distinct chars for a generated token: rules out `ghp_ghp_ghp_…` and `aaaa…` bodies. */
export function variedChars(text: string, start: number, end: number): boolean {
  return distinctChars(text, start, end, MIN_DISTINCT) >= MIN_DISTINCT;
}

/** Varied, and not mostly words: for runs with no prefix to vouch for them. */
export function looksRandom(text: string, start: number, end: number): boolean {
  return variedChars(text, start, end) && wordCoverage(text, start, end) <= MAX_WORD_COVERAGE;
}
