// TOML values read without a TOML parser: written files are judged for what their command keys say,
// whatever else they hold (and however broken the rest of the file is).
/**
 * A TOML string (basic `"…"` with its escapes, or literal `'…'`) or array of strings at the start of
 * `raw`, as the strings it holds; undefined when `raw` is neither.
 */
export function tomlStrings(raw: string): string[] | undefined {
  const text = raw.trim();
  if (!text.startsWith('[')) {
    const one = tomlString(text, 0);
    return one ? [one.value] : undefined;
  }
  const items: string[] = [];
  let at = 1;
  for (;;) {
    while (at < text.length && /[\s,]/.test(text[at] ?? '')) at++;
    if (text[at] === ']') return items;
    if (text[at] === '#') {
      const end = text.indexOf('\n', at);
      if (end === -1) return undefined;
      at = end;
      continue;
    }
    const item = tomlString(text, at);
    if (!item) return undefined;
    items.push(item.value);
    at = item.end;
  }
}

const TOML_ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

function tomlString(text: string, from: number): { value: string; end: number } | undefined {
  const quote = text[from];
  if (quote === "'") {
    const close = text.indexOf("'", from + 1);
    return close === -1 ? undefined : { value: text.slice(from + 1, close), end: close + 1 };
  }
  if (quote !== '"') return undefined;
  let value = '';
  for (let at = from + 1; at < text.length; at++) {
    const ch = text[at] as string;
    if (ch === '"') return { value, end: at + 1 };
    if (ch !== '\\') {
      value += ch;
      continue;
    }
    const next = text[++at] ?? '';
    const unicode = /^u([0-9a-fA-F]{4})|^U([0-9a-fA-F]{8})/.exec(text.slice(at, at + 9));
    if (unicode) {
      value += String.fromCodePoint(Number.parseInt(unicode[1] ?? unicode[2] ?? '0', 16));
      at += unicode[0].length - 1;
    } else value += TOML_ESCAPES[next] ?? next;
  }
  return undefined;
}
