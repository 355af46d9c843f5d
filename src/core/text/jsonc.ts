// JSON as VS Code and many tools write their settings: `//` and `/* */` comments and trailing commas.
// A linear scan that keeps strings whole, then JSON.parse; no library reads this dialect more simply.

/** JSON with // and /* *\/ comments and trailing commas, as VS Code reads its settings files. */
export function parseJsonWithComments(text: string): unknown {
  let plain = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      plain += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      plain += c;
      i++;
    }
  }
  return JSON.parse(withoutTrailingCommas(plain));
}

/** Drops a comma that only whitespace separates from the `}` or `]` after it (outside strings). */
function withoutTrailingCommas(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      out += text.slice(start, i + 1);
      continue;
    }
    if (c === ',') {
      let next = i + 1;
      while (next < text.length && ' \t\r\n'.includes(text[next]!)) next++;
      if (text[next] === '}' || text[next] === ']') continue;
    }
    out += c;
  }
  return out;
}
