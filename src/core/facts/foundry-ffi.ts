import { shellQuote } from '../shell/quote';

// Foundry's cheat code `vm.ffi(string[])` runs a program on the developer's machine whenever a test or a
// script that calls it runs with ffi on. A written Solidity file is read for those calls: the argument
// array's elements, assigned one by one as Foundry code does (`inputs[0] = "bash";`), become the command
// line it runs. Only literal strings and `hex"…"` literals are read; anything else is a run-time word.

/** Stands for an element that is not a literal, so the line is read as partly known. */
const RUN_TIME_WORD = '"$FFI_RUNTIME_VALUE"';
const MAX_ELEMENTS = 64;

/** The text of a Solidity string literal's body, with its escapes. */
function unescapeSolidity(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_all, escape: string) => {
    if (escape.startsWith('x') || escape.startsWith('u'))
      return String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return escape === 'n' ? '\n' : escape === 't' ? '\t' : escape;
  });
}

/** A literal expression's string value: `"…"`, `hex"…"`, `string(hex"…")`, `string("…")`; else undefined. */
function literalValue(expression: string): string | undefined {
  let bare = expression.trim();
  // `string(…)` around a literal converts nothing.
  if (bare.startsWith('string') && bare.endsWith(')') && bare.slice(6).trimStart().startsWith('('))
    bare = bare.slice(bare.indexOf('(') + 1, -1).trim();
  const quoted = /^"((?:[^"\\\n]|\\.)*)"$/.exec(bare) ?? /^'((?:[^'\\\n]|\\.)*)'$/.exec(bare);
  if (quoted) return unescapeSolidity(quoted[1] ?? '');
  const hex = /^hex\s*["']([0-9a-fA-F_]*)["']$/.exec(bare);
  if (hex) return Buffer.from((hex[1] ?? '').replace(/_/g, ''), 'hex').toString('utf8');
  return undefined;
}

// `NAME[INDEX] =` (not `==`): an element assignment, whose expression runs to the next `;` outside a string.
const ELEMENT_ASSIGNMENT = /\b([A-Za-z_]\w*)\s*\[\s*(\d{1,2})\s*\]\s*=(?!=)/g;
const MAX_EXPRESSION = 4000;

/** The expression from `from` to the `;` that ends it (a `;` inside a string literal does not), or undefined. */
function expressionAt(code: string, from: number): string | undefined {
  let quote = '';
  const end = Math.min(code.length, from + MAX_EXPRESSION);
  for (let at = from; at < end; at++) {
    const ch = code[at];
    if (quote) {
      if (ch === '\\') at++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ';') return code.slice(from, at);
  }
  return undefined;
}

/** `NAME[INDEX] = EXPR;` assignments, per array name, by index. */
function arrayElements(code: string): Map<string, Map<number, string | undefined>> {
  const arrays = new Map<string, Map<number, string | undefined>>();
  for (const match of code.matchAll(ELEMENT_ASSIGNMENT)) {
    const [whole, name = '', index = '0'] = match;
    const expression = expressionAt(code, match.index + whole.length);
    if (expression === undefined) continue;
    const elements = arrays.get(name) ?? new Map<number, string | undefined>();
    if (elements.size < MAX_ELEMENTS) elements.set(Number(index), literalValue(expression));
    arrays.set(name, elements);
  }
  return arrays;
}

/** The command lines a Solidity file's `vm.ffi(…)` and `vm.tryFfi(…)` calls run. */
export function ffiCommands(code: string): string[] {
  if (!/\b(ffi|tryFfi)\s*\(/.test(code)) return [];
  const arrays = arrayElements(code);
  const lines: string[] = [];
  for (const call of code.matchAll(/\b(?:ffi|tryFfi)\s*\(\s*([A-Za-z_]\w*)\s*\)/g)) {
    const elements = arrays.get(call[1] ?? '');
    if (!elements?.size) continue;
    const last = Math.max(...elements.keys());
    const words: string[] = [];
    for (let index = 0; index <= last; index++) {
      const value = elements.get(index);
      words.push(value === undefined ? RUN_TIME_WORD : shellQuote(value));
    }
    lines.push(words.join(' '));
  }
  return lines;
}
