// Decodes the body of a bash $'…' string, where backslash escapes become the characters they name.

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function readDigits(body: string, from: number, max: number, pattern: RegExp): string {
  let end = from;
  while (end < body.length && end - from < max && pattern.test(body[end] ?? '')) end++;
  return body.slice(from, end);
}

function fromCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
}

/** `body` is the text between $' and the closing quote. */
export function decodeAnsiC(body: string): string {
  let out = '';
  let i = 0;
  while (i < body.length) {
    const ch = body[i] as string;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      i++;
      continue;
    }
    const next = body[i + 1] as string;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    if (next >= '0' && next <= '7') {
      const digits = readDigits(body, i + 1, 3, /[0-7]/);
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += 1 + digits.length;
      continue;
    }
    const hexLength = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
    if (hexLength > 0) {
      const digits = readDigits(body, i + 2, hexLength, /[0-9a-fA-F]/);
      if (digits.length === 0) {
        out += '\\' + next;
      } else {
        out += fromCodePoint(parseInt(digits, 16));
      }
      i += 2 + digits.length;
      continue;
    }
    if (next === 'c' && i + 2 < body.length) {
      const control = (body[i + 2] as string).toUpperCase().charCodeAt(0) & 0x1f;
      out += String.fromCharCode(control);
      i += 3;
      continue;
    }
    // Bash keeps an unknown escape as written, backslash included.
    out += '\\' + next;
    i += 2;
  }
  return out;
}
