// fish's own syntax that reads differently as POSIX shell: `(cmd)` is a command substitution in fish,
// a subshell (or a syntax error, `eval (…)`) to a POSIX parser. A fish script is read as POSIX source
// with each unquoted `(` made `$(`, so what fish would run from the substitution is read too.

/** The fish script with its command substitutions spelled `$(…)`; quoted text is left as it is. */
export function fishAsPosix(script: string): string {
  let out = '';
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < script.length; i++) {
    const char = script[i] as string;
    if (char === '\\') {
      out += char + (script[i + 1] ?? '');
      i++;
      continue;
    }
    if (quote !== null) {
      if (char === quote) quote = null;
      out += char;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === '(' && script[i - 1] !== '$') out += '$';
    out += char;
  }
  return out;
}
