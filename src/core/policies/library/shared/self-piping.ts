// Finds `name(){ … name | name & … }` in shell text in one pass over it. A regex with a back-reference
// (`([\w:.-]+)\s*\(\)\s*\{[^}]*?\1\s*\|\s*\1\s*&`) said the same but retried every start inside a long
// word, which took tens of seconds on a 100 KB one.

const NAME_CHAR = /[\w:.-]/;
const SPACE = /\s/;

function isNameChar(ch: string | undefined): boolean {
  return ch !== undefined && NAME_CHAR.test(ch);
}

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && SPACE.test(ch);
}

function skipSpaceForward(text: string, at: number): number {
  while (isSpace(text[at])) at++;
  return at;
}

function skipSpaceBackward(text: string, end: number): number {
  while (end > 0 && isSpace(text[end - 1])) end--;
  return end;
}

/** The whole name word that ends at `end` (exclusive), or '' when none does. */
function nameEndingAt(text: string, end: number): string {
  let start = end;
  while (start > 0 && isNameChar(text[start - 1])) start--;
  return text.slice(start, end);
}

/** The whole name word that starts at `start`, or '' when none does. */
function nameStartingAt(text: string, start: number): string {
  let end = start;
  while (isNameChar(text[end])) end++;
  return text.slice(start, end);
}

/** Where `X | X &` appears, by X: the word piped into itself in the background. */
function selfPipeSites(text: string): Map<string, number[]> {
  const sites = new Map<string, number[]>();
  for (let bar = text.indexOf('|'); bar >= 0; bar = text.indexOf('|', bar + 1)) {
    const left = nameEndingAt(text, skipSpaceBackward(text, bar));
    if (!left) continue;
    const rightStart = skipSpaceForward(text, bar + 1);
    const right = nameStartingAt(text, rightStart);
    if (right !== left) continue;
    if (text[skipSpaceForward(text, rightStart + right.length)] !== '&') continue;
    const at = sites.get(left) ?? [];
    at.push(bar);
    sites.set(left, at);
  }
  return sites;
}

/** Whether a sorted list holds a position in [from, to). */
function hasPositionIn(sorted: number[], from: number, to: number): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] as number) < from) low = mid + 1;
    else high = mid;
  }
  return low < sorted.length && (sorted[low] as number) < to;
}

/** The name of a function whose body, up to its first `}`, pipes the function into itself in the background. */
export function selfPipingFunction(text: string): string | null {
  let sites: Map<string, number[]> | undefined;
  // Candidates come in order, so the first `}` after one is reused until it is passed.
  let close = -1;
  for (let parens = text.indexOf('()'); parens >= 0; parens = text.indexOf('()', parens + 2)) {
    const name = nameEndingAt(text, skipSpaceBackward(text, parens));
    if (!name) continue;
    const brace = skipSpaceForward(text, parens + 2);
    if (text[brace] !== '{') continue;
    sites ??= selfPipeSites(text);
    const at = sites.get(name);
    if (!at) continue;
    if (close !== text.length && close <= brace) {
      close = text.indexOf('}', brace + 1);
      if (close < 0) close = text.length;
    }
    if (hasPositionIn(at, brace + 1, close)) return name;
  }
  return null;
}
