// Finds the newlines that end a top-level command, so that a long script can be parsed line by
// line. Two reasons: the grammar's parse time grows faster than linearly on long multi-line
// inputs, and it sometimes carries a command across such a newline (see repair.ts); a piece that
// ends at a top-level newline cannot be joined to the next one.
//
// This is a conservative scan, not a parser: whenever it is unsure where it stands (a `case`,
// an unmatched closer) it stops proposing breaks, and the rest is parsed as one piece.

type Context = 'paren' | 'group' | 'dquote' | 'backtick' | 'brace' | 'arith';

const OPENERS = new Set(['if', 'while', 'until', 'for', 'select']);
const CLOSERS = new Set(['fi', 'done']);
const LEAD_KEYWORDS = new Set(['then', 'do', 'else', 'elif', 'if', 'while', 'until', '!', 'time']);
const WORD_END = /[\s|&;()<>]/;

interface Heredoc {
  delimiter: string;
  stripTabs: boolean;
}

/** Offsets just after each newline that ends a top-level command, in order. */
export function topLevelBreaks(source: string): number[] {
  const breaks: number[] = [];
  const stack: Context[] = [];
  const pending: Heredoc[] = [];
  let blocks = 0;
  let commandStart = true;
  // The last thing before a newline decides whether the command goes on: `a |`, `a &&`, `f()`.
  let continues = false;
  let i = 0;
  const n = source.length;
  const top = (): Context | undefined => stack[stack.length - 1];

  while (i < n) {
    const ch = source[i] as string;
    const context = top();
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (context === 'dquote' || context === 'backtick' || context === 'brace') {
      if (
        (context === 'dquote' && ch === '"') ||
        (context === 'backtick' && ch === '`') ||
        (context === 'brace' && ch === '}')
      )
        stack.pop();
      else if (ch === '$' && source.startsWith('$((', i)) {
        stack.push('arith');
        i += 2;
      } else if (ch === '$' && source[i + 1] === '(') {
        stack.push('paren');
        i++;
      } else if (ch === '$' && source[i + 1] === '{') {
        stack.push('brace');
        i++;
      } else if (ch === '`' && context !== 'backtick') stack.push('backtick');
      else if (ch === '"' && context === 'brace') stack.push('dquote');
      else if (ch === '\n' && pending.length > 0) i = skipHeredocs(source, i + 1, pending) - 1;
      i++;
      continue;
    }
    if (context === 'arith') {
      if (ch === '(') stack.push('arith');
      else if (ch === ')') {
        stack.pop();
        if (source[i + 1] === ')' && top() !== 'arith') i++;
      }
      i++;
      continue;
    }
    // Code: top level, ( … ), $( … ) or { …; }.
    if (ch === '\n') {
      if (pending.length > 0) i = skipHeredocs(source, i + 1, pending) - 1;
      if (stack.length === 0 && blocks === 0 && !continues) breaks.push(i + 1);
      commandStart = true;
      i++;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '#' && (i === 0 || /[\s;&|()]/.test(source[i - 1] as string))) {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (ch === "'") {
      const end = source.indexOf("'", i + 1);
      if (end < 0) break;
      i = end + 1;
      commandStart = false;
      continues = false;
      continue;
    }
    if (ch === '$' && source[i + 1] === "'") {
      const end = findAnsiEnd(source, i + 2);
      if (end < 0) break;
      i = end + 1;
      commandStart = false;
      continues = false;
      continue;
    }
    if (ch === '"' || ch === '`') {
      stack.push(ch === '"' ? 'dquote' : 'backtick');
      i += 1;
      commandStart = false;
      continues = false;
      continue;
    }
    if (ch === '$' && (source[i + 1] === '(' || source[i + 1] === '{')) {
      stack.push(source.startsWith('$((', i) ? 'arith' : source[i + 1] === '(' ? 'paren' : 'brace');
      i += source.startsWith('$((', i) ? 3 : 2;
      commandStart = false;
      continues = false;
      continue;
    }
    if (ch === '(') {
      if (commandStart && source[i + 1] === '(') {
        stack.push('arith');
        i += 2;
      } else {
        stack.push('paren');
        i++;
      }
      commandStart = true;
      continues = false;
      continue;
    }
    if (ch === ')') {
      if (top() !== 'paren') return breaks;
      stack.pop();
      // f() followed by a newline and then its body.
      continues = source[i - 1] === '(';
      commandStart = false;
      i++;
      continue;
    }
    if (source.startsWith('<<<', i)) {
      i += 3;
      continues = false;
      continue;
    }
    if (source.startsWith('<<', i)) {
      const heredoc = readHeredocStart(source, i + 2);
      if (!heredoc) return breaks;
      pending.push(heredoc.heredoc);
      i = heredoc.next;
      continues = false;
      continue;
    }
    if (ch === '|' || ch === '&' || ch === ';' || ch === '<' || ch === '>') {
      const op = /^(?:\|\||&&|;;|\|&|&>>|&>|>>|<&|>&|>\||<>|[|&;<>])/.exec(source.slice(i, i + 3))?.[0] ?? ch;
      if (op === ';;') return breaks;
      i += op.length;
      if ((op === '<' || op === '>') && source[i] === '(') {
        stack.push('paren');
        i++;
      }
      continues = op === '|' || op === '||' || op === '&&' || op === '|&';
      commandStart = op === '|' || op === '||' || op === '&&' || op === '|&' || op === ';' || op === '&';
      continue;
    }
    // A word.
    let end = i;
    while (end < n && !WORD_END.test(source[end] as string) && !`'"\`$\\`.includes(source[end] as string)) end++;
    const plain = source.slice(i, end);
    const wholeWord = end >= n || WORD_END.test(source[end] as string);
    if (commandStart && wholeWord) {
      if (plain === 'case') return breaks;
      if (OPENERS.has(plain)) blocks++;
      else if (CLOSERS.has(plain) && --blocks < 0) return breaks;
      else if (plain === '{') stack.push('group');
      else if (plain === '}') {
        if (top() !== 'group') return breaks;
        stack.pop();
      }
    }
    commandStart = commandStart && wholeWord && (LEAD_KEYWORDS.has(plain) || plain === '{' || plain === '}');
    continues = plain === '!' && wholeWord;
    i = end > i ? end : i + 1;
  }
  return breaks;
}

function findAnsiEnd(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === "'") return i;
  }
  return -1;
}

/** Reads the delimiter after `<<` / `<<-`. */
function readHeredocStart(source: string, from: number): { heredoc: Heredoc; next: number } | undefined {
  let i = from;
  const stripTabs = source[i] === '-';
  if (stripTabs) i++;
  while (source[i] === ' ' || source[i] === '\t') i++;
  let delimiter = '';
  while (i < source.length && !/[\s|&;()<>]/.test(source[i] as string)) {
    const ch = source[i] as string;
    if (ch === "'" || ch === '"') {
      const end = source.indexOf(ch, i + 1);
      if (end < 0) return undefined;
      delimiter += source.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '\\') {
      delimiter += source[i + 1] ?? '';
      i += 2;
    } else {
      delimiter += ch;
      i++;
    }
  }
  return delimiter === '' ? undefined : { heredoc: { delimiter, stripTabs }, next: i };
}

/** Skips the bodies of the pending heredocs, which start at `from`; returns where the next line starts. */
function skipHeredocs(source: string, from: number, pending: Heredoc[]): number {
  let i = from;
  while (pending.length > 0) {
    const heredoc = pending.shift() as Heredoc;
    for (;;) {
      if (i >= source.length) return source.length;
      const newline = source.indexOf('\n', i);
      const lineEnd = newline < 0 ? source.length : newline;
      let line = source.slice(i, lineEnd);
      if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
      i = lineEnd + 1;
      if (line === heredoc.delimiter || line.replace(/\r$/, '') === heredoc.delimiter) break;
    }
  }
  return Math.min(i, source.length);
}
