// One-line quoted strings in code or config of any language, found by a scan rather than a regex.

export interface QuotedSpan {
  /** The text between the quotes, escapes kept. */
  body: string;
  /** Where the opening quote is, and just past the closing one. */
  start: number;
  end: number;
}

/**
 * A one-line double- or single-quoted string as a regex source to build patterns from: the body, escapes
 * kept, is capture 1 (double quotes) or 2 (single quotes).
 */
export const QUOTED_STRING_SOURCE = `(?:"((?:[^"\\\\\\n]|\\\\.)*)"|'((?:[^'\\\\\\n]|\\\\.)*)')`;

/** Quotes left unclosed on their line after which the rest of such a line is skipped. */
const UNCLOSED_RETRIES = 64;

/**
 * The one-line quoted strings of a text, in order: a quote opens a string that ends at the same quote
 * unescaped (a backtick string has no escapes). A quote left unclosed on its line (an apostrophe in a
 * comment) is passed over so that the strings after it are still found; past a bound of those, the
 * rest of such a line is skipped, so the scan stays linear (a regex would try every quote of the line).
 */
export function quotedSpans(text: string, quotes = `"'`): QuotedSpan[] {
  const spans: QuotedSpan[] = [];
  let retries = UNCLOSED_RETRIES;
  for (let at = 0; at < text.length; at++) {
    const quote = text[at]!;
    if (!quotes.includes(quote)) continue;
    let end = at + 1;
    while (end < text.length && text[end] !== quote && text[end] !== '\n')
      end += text[end] === '\\' && quote !== '`' ? 2 : 1;
    if (text[end] === quote) {
      spans.push({ body: text.slice(at + 1, end), start: at, end: end + 1 });
      at = end;
    } else if (--retries < 0) at = end;
  }
  return spans;
}
