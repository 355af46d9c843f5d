// Reads awk programs without a grammar: a linear tokenizer (strings, regexes, comments) and a scan
// for system(), `cmd | getline`, `print | "cmd"`, `print > "file"`, `getline < "file"` and ENVIRON.
import type { Collector } from './collector';
import { concat, str, UNKNOWN, type Value } from './values';

type TokenType = 'str' | 'word' | 'num' | 'punct' | 'newline' | 'regex';

interface Token {
  type: TokenType;
  text: string;
  value?: string;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  '"': '"',
  '/': '/',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};
/** Two-character operators, read as one token so that `>>` and `|&` are seen whole. */
const PAIRS = new Set([
  '>>',
  '|&',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '!~',
]);
/** After these a `/` starts a regex rather than a division. */
const OPERAND_END = new Set(['str', 'word', 'num']);

class Unreadable extends Error {}

function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < code.length) {
    const char = code[at] as string;
    if (char === '\n') {
      tokens.push({ type: 'newline', text: '\n' });
      at++;
      continue;
    }
    if (char === '\\' && code[at + 1] === '\n') {
      at += 2;
      continue;
    }
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === '#') {
      const end = code.indexOf('\n', at);
      at = end < 0 ? code.length : end;
      continue;
    }
    if (char === '"') {
      let text = '';
      at++;
      for (;;) {
        if (at >= code.length || code[at] === '\n') throw new Unreadable('unterminated string');
        const c = code[at] as string;
        if (c === '"') break;
        if (c === '\\' && at + 1 < code.length) {
          const next = code[at + 1] as string;
          text += ESCAPES[next] ?? `\\${next}`;
          at += 2;
          continue;
        }
        text += c;
        at++;
      }
      at++;
      tokens.push({ type: 'str', text, value: text });
      continue;
    }
    const last = tokens[tokens.length - 1];
    if (
      char === '/' &&
      !(last && (OPERAND_END.has(last.type) || last.text === ')' || last.text === ']' || last.text === '$'))
    ) {
      at++;
      let inClass = false;
      for (;;) {
        if (at >= code.length || code[at] === '\n') throw new Unreadable('unterminated regex');
        const c = code[at] as string;
        if (c === '\\') at++;
        else if (c === '[') inClass = true;
        else if (c === ']') inClass = false;
        else if (c === '/' && !inClass) break;
        at++;
      }
      at++;
      tokens.push({ type: 'regex', text: '/' });
      continue;
    }
    const word = /^[A-Za-z_]\w*/.exec(code.slice(at, at + 128));
    if (word) {
      tokens.push({ type: 'word', text: word[0] });
      at += word[0].length;
      continue;
    }
    const number = /^\d[\d.]*/.exec(code.slice(at, at + 64));
    if (number) {
      tokens.push({ type: 'num', text: number[0] });
      at += number[0].length;
      continue;
    }
    const pair = code.slice(at, at + 2);
    if (PAIRS.has(pair)) {
      tokens.push({ type: 'punct', text: pair });
      at += 2;
      continue;
    }
    tokens.push({ type: 'punct', text: char });
    at++;
  }
  return tokens;
}

const STATEMENT_END = new Set([';', '{', '}', '\n']);
/** How far an expression is followed; past it the value is unknown (keeps the scan linear). */
const MAX_EXPRESSION_TOKENS = 1000;

export function readAwk(code: string, out: Collector): void {
  let tokens: Token[];
  try {
    tokens = tokenize(code);
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    out.giveUp(`awk code the scanner cannot read (${error.message})`);
    return;
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type === 'word' && token.text === 'system' && tokens[i + 1]?.text === '(') {
      out.exec('system', expression(tokens, i + 2, ')'));
    } else if (token.type === 'word' && (token.text === 'print' || token.text === 'printf')) {
      scanPrint(tokens, i, out);
    } else if (
      token.type === 'punct' &&
      (token.text === '|' || token.text === '|&') &&
      tokens[i + 1]?.text === 'getline'
    ) {
      out.exec(token.text === '|&' ? 'coprocess' : 'getline', commandBefore(tokens, i));
    } else if (token.type === 'word' && token.text === 'getline') {
      const next = tokens[i + 1]?.type === 'word' || tokens[i + 1]?.text === '$' ? i + 2 : i + 1;
      if (tokens[next]?.text === '<') out.effect('read', 'getline <', expression(tokens, next + 1, undefined));
    } else if (token.type === 'word' && token.text === 'ENVIRON') {
      if (tokens[i + 1]?.text === '[') out.envRead('ENVIRON', expression(tokens, i + 2, ']'));
      else out.wholeEnvironment('ENVIRON');
    }
  }
}

/** print … > "file", print … >> "file", print … | "cmd", print … |& "cmd" (outside parentheses). */
function scanPrint(tokens: Token[], start: number, out: Collector): void {
  let depth = 0;
  for (let i = start + 1; i < tokens.length && i - start <= MAX_EXPRESSION_TOKENS; i++) {
    const token = tokens[i] as Token;
    if (depth === 0 && (STATEMENT_END.has(token.text) || token.type === 'newline')) return;
    if (token.text === '(' || token.text === '[') depth++;
    else if (token.text === ')' || token.text === ']') depth--;
    if (depth !== 0 || token.type !== 'punct') continue;
    if (token.text === '>' || token.text === '>>') {
      const target = expression(tokens, i + 1, undefined);
      if (target.kind === 'str' && (target.text === '/dev/stderr' || target.text === '/dev/stdout')) return;
      out.effect('write', `print ${token.text}`, target);
      return;
    }
    if (token.text === '|' || token.text === '|&') {
      out.exec(`print ${token.text}`, expression(tokens, i + 1, undefined));
      return;
    }
  }
}

/** The value of the expression from `start` to `closer` (or the statement's end): literal strings juxtaposed concatenate. */
function expression(tokens: Token[], start: number, closer: string | undefined): Value {
  const parts: Value[] = [];
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    if (i - start > MAX_EXPRESSION_TOKENS) return UNKNOWN;
    const token = tokens[i] as Token;
    if (depth === 0 && closer !== undefined && token.text === closer) break;
    if (
      depth === 0 &&
      closer === undefined &&
      (STATEMENT_END.has(token.text) ||
        token.type === 'newline' ||
        token.text === ')' ||
        token.text === '|' ||
        token.text === ',')
    )
      break;
    if (token.text === '(' || token.text === '[') depth++;
    else if (token.text === ')' || token.text === ']') depth--;
    if (token.type === 'str' && depth === 0) parts.push(str(token.value ?? ''));
    else if (token.text === '(' && depth === 1) continue;
    else if (token.text === ')' && depth === 0) continue;
    else parts.push(UNKNOWN);
  }
  return parts.length === 0 ? UNKNOWN : concat(parts);
}

/** The command before `cmd | getline`: back to the statement's start or an opening parenthesis. */
function commandBefore(tokens: Token[], pipe: number): Value {
  let start = pipe;
  let depth = 0;
  while (start > 0) {
    if (pipe - start > MAX_EXPRESSION_TOKENS) return UNKNOWN;
    const token = tokens[start - 1] as Token;
    if (token.text === ')') depth++;
    else if (token.text === '(') {
      if (depth === 0) break;
      depth--;
    } else if (
      depth === 0 &&
      (STATEMENT_END.has(token.text) ||
        token.type === 'newline' ||
        token.text === '=' ||
        token.text === ',' ||
        token.text === '&&' ||
        token.text === '||' ||
        token.text === '!')
    )
      break;
    start--;
  }
  return expression(tokens.slice(start, pipe), 0, undefined);
}
