// Small text scans that run in one pass. Each replaces a regex whose backtracking grew with the square of
// its input (an unanchored search retried at every start); the static ReDoS check keeps them out of src.

/** The text without any of `chars` at its end (`/+$` and the like, without the retries). */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/** Whether `then` matches somewhere after the first match of `first` (what `first.*then` asked, in one pass). */
export function followedBy(text: string, first: RegExp, then: RegExp): boolean {
  const head = first.exec(text);
  return head !== null && then.test(text.slice(head.index + head[0].length));
}

/** The body of the first ``` fence (an opening `json` tag dropped), trimmed; undefined without a closed fence. */
export function firstFencedBody(text: string): string | undefined {
  const open = text.indexOf('```');
  if (open < 0) return undefined;
  const close = text.indexOf('```', open + 3);
  if (close < 0) return undefined;
  const body = text.slice(open + 3, close);
  return (/^json/i.test(body) ? body.slice(4) : body).trim();
}

/** Each run of whitespace that holds a line break, as one space: a multi-line text on one line. */
export function joinLines(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const lineEnd = nextLineBreak(text, at);
    if (lineEnd < 0) return out + text.slice(at);
    // The blanks before the break, the breaks and every blank after them become one space.
    out += `${text.slice(at, lineEnd).trimEnd()} `;
    at = lineEnd;
    while (at < text.length && /\s/.test(text[at] as string)) at++;
  }
  return out;
}

function nextLineBreak(text: string, from: number): number {
  for (let at = from; at < text.length; at++) if (text[at] === '\n' || text[at] === '\r') return at;
  return -1;
}

/** The run of characters matching `char` (a one-character class) that ends the text. */
export function trailingRun(text: string, char: RegExp): string {
  let start = text.length;
  while (start > 0 && char.test(text[start - 1] as string)) start--;
  return text.slice(start);
}

/** The text cut at the first `mark` after its last `/` (`/@[^/]*$/` and the like, in one pass). */
export function withoutLastSegmentFrom(text: string, mark: string): string {
  const at = text.indexOf(mark, text.lastIndexOf('/') + 1);
  return at < 0 ? text : text.slice(0, at);
}

/** The text before a `#` comment that follows whitespace (YAML, TOML, shell-like config), or all of it. */
export function beforeHashComment(text: string): string {
  for (let at = 1; at < text.length; at++) {
    if (text[at] === '#' && /\s/.test(text[at - 1] ?? '')) return text.slice(0, at - 1);
  }
  return text;
}
