// Reads Perl code without a grammar: a linear tokenizer (strings, q-forms, heredocs, regexes,
// comments, POD) and a scan of the tokens for system/exec/backticks/qx/open/unlink/eval and the
// network modules. What it cannot be sure of is reported unread, never guessed ordinary.
import type { Collector } from './collector';
import { concat, str, UNKNOWN, type Value } from './values';

type TokenType = 'word' | 'str' | 'dyn' | 'cmd' | 'list' | 'var' | 'punct';

interface Token {
  type: TokenType;
  text: string;
  /** Decoded text of a literal string or command; for `list`, the words. */
  value?: string;
  words?: string[];
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
const REGEX_AFTER_WORDS = new Set([
  'split',
  'grep',
  'if',
  'unless',
  'and',
  'or',
  'not',
  'return',
  'while',
  'until',
  'map',
  'join',
  'push',
  'x',
]);
const NETWORK_MODULES = /^(LWP|HTTP::Tiny|IO::Socket|Net::|Socket$|Mojo::UserAgent|WWW::Mechanize|Furl)/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', e: '\x1b', a: '\x07', f: '\f' };
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;
/** How far an argument list is followed; past it the rest is unknown (keeps the scan linear). */
const MAX_ARGUMENT_TOKENS = 1000;

class Unreadable extends Error {}

/** Decodes a double-quoted body; undefined when it interpolates ($x, @x). */
function interpolated(body: string): string | undefined {
  let text = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char === '\\' && i + 1 < body.length) {
      const next = body[++i] as string;
      text += ESCAPES[next] ?? next;
      continue;
    }
    if ((char === '$' || char === '@') && i + 1 < body.length && /[\w{:$]/.test(body[i + 1] as string))
      return undefined;
    text += char;
  }
  return text;
}

function singleQuoted(body: string): string {
  return body.replace(/\\([\\'])/g, '$1');
}

class PerlTokenizer {
  private at = 0;
  readonly tokens: Token[] = [];
  private readonly pendingHeredocs: { terminator: string; interpolate: boolean; token: Token; indent: boolean }[] = [];

  constructor(private readonly code: string) {}

  run(): Token[] {
    const code = this.code;
    while (this.at < code.length) {
      const char = code[this.at] as string;
      if (char === '\n') {
        this.at++;
        this.readHeredocBodies();
        if (code.startsWith('=', this.at) && /[a-zA-Z]/.test(code[this.at + 1] ?? '')) this.skipPod();
        continue;
      }
      if (/\s/.test(char)) {
        this.at++;
        continue;
      }
      if (char === '#') {
        const end = code.indexOf('\n', this.at);
        this.at = end < 0 ? code.length : end;
        continue;
      }
      if (/[A-Za-z_]/.test(char)) {
        this.readWord();
        continue;
      }
      if (/[0-9]/.test(char)) {
        const match = /^[0-9][0-9_]*(?:\.[0-9_]+)?/.exec(code.slice(this.at, this.at + 64));
        const number = match ? match[0] : char;
        this.at += number.length;
        this.push({ type: 'str', text: number, value: number });
        continue;
      }
      if (char === '"') {
        this.pushString(this.delimited('"', '"'), true);
        continue;
      }
      if (char === "'") {
        this.push({ type: 'str', text: "'", value: singleQuoted(this.delimited("'", "'")) });
        continue;
      }
      if (char === '`') {
        const body = this.delimited('`', '`');
        const value = interpolated(body);
        this.push({ type: 'cmd', text: '`', ...(value === undefined ? {} : { value }) });
        continue;
      }
      if (char === '$' || char === '@' || (char === '%' && /[A-Za-z_{:]/.test(code[this.at + 1] ?? ''))) {
        this.readVariable();
        continue;
      }
      if (char === '/' && this.regexAllowed()) {
        this.at++;
        this.delimited('/', '/', false);
        this.skipModifiers();
        continue;
      }
      if (
        char === '<' &&
        code[this.at + 1] === '<' &&
        /["'~A-Za-z_]/.test(code[this.at + 2] ?? '') &&
        this.regexAllowed()
      ) {
        this.readHeredocStart();
        continue;
      }
      this.push({ type: 'punct', text: char });
      this.at++;
    }
    if (this.pendingHeredocs.length > 0) throw new Unreadable('unterminated heredoc');
    return this.tokens;
  }

  private push(token: Token): void {
    this.tokens.push(token);
  }

  private pushString(body: string, interpolate: boolean): void {
    const value = interpolate ? interpolated(body) : singleQuoted(body);
    this.push(value === undefined ? { type: 'dyn', text: body } : { type: 'str', text: body, value });
  }

  private regexAllowed(): boolean {
    const last = this.tokens[this.tokens.length - 1];
    if (!last) return true;
    if (last.type === 'punct') return last.text !== ')' && last.text !== ']' && last.text !== '}';
    if (last.type === 'word') return REGEX_AFTER_WORDS.has(last.text);
    return false;
  }

  /** Reads from the opening delimiter (at `this.at`, unless `atOpen` is false) to its closer; brackets nest. */
  private delimited(open: string, close: string, atOpen = true): string {
    if (atOpen) this.at++;
    const start = this.at;
    let depth = 1;
    const code = this.code;
    while (this.at < code.length) {
      const char = code[this.at] as string;
      if (char === '\\') {
        this.at += 2;
        continue;
      }
      if (char === close && open !== close) depth--;
      else if (char === open && open !== close) depth++;
      else if (char === close) depth = 0;
      if (depth === 0) {
        const body = code.slice(start, this.at);
        this.at++;
        return body;
      }
      this.at++;
    }
    throw new Unreadable(`unterminated ${open}`);
  }

  /** After `q`, `qq`, `s`…: whitespace, then a delimiter. */
  private quoteBody(): string {
    while (this.at < this.code.length && /\s/.test(this.code[this.at] as string)) this.at++;
    const open = this.code[this.at];
    if (open === undefined || /[\w\s]/.test(open)) throw new Unreadable('quote-like operator without a delimiter');
    return this.delimited(open, CLOSERS[open] ?? open);
  }

  private skipModifiers(): void {
    while (this.at < this.code.length && /[a-z]/.test(this.code[this.at] as string)) this.at++;
  }

  private readWord(): void {
    const match = /^[A-Za-z_]\w*(?:::\w+)*/.exec(this.code.slice(this.at, this.at + 256));
    const word = match ? match[0] : (this.code[this.at] as string);
    const next = this.code[this.at + word.length] ?? '';
    const quoteLike =
      ['q', 'qq', 'qw', 'qx', 'm', 'qr', 's', 'tr', 'y'].includes(word) &&
      next !== '=' &&
      next !== ',' &&
      !/\w/.test(next) &&
      !(next === '>' || (next === ' ' && this.code[this.at + word.length + 1] === '='));
    this.at += word.length;
    if (word === '__END__' || word === '__DATA__') {
      this.at = this.code.length;
      return;
    }
    if (!quoteLike) {
      this.push({ type: 'word', text: word });
      return;
    }
    let openAt = this.at;
    while (openAt < this.code.length && /\s/.test(this.code[openAt] as string)) openAt++;
    const open = this.code[openAt];
    const body = this.quoteBody();
    if (word === 'q') this.push({ type: 'str', text: body, value: singleQuoted(body) });
    else if (word === 'qq') this.pushString(body, true);
    else if (word === 'qw') this.push({ type: 'list', text: body, words: body.split(/\s+/).filter(Boolean) });
    else if (word === 'qx') {
      const value = open === "'" ? body : interpolated(body);
      this.push({ type: 'cmd', text: body, ...(value === undefined ? {} : { value }) });
    } else if (word === 's' || word === 'tr' || word === 'y') {
      // The replacement part: a second delimited body (bracketed forms open anew).
      if (open !== undefined && CLOSERS[open]) this.quoteBody();
      else this.delimited(open ?? '/', open ?? '/', false);
      this.skipModifiers();
    } else this.skipModifiers();
  }

  private readVariable(): void {
    const match = /^[$@%]#?(?:\{\^?\w+\}|\^\w|::\w+(?:::\w+)*|\w+(?:::\w+)*|[^\s\w{])/.exec(
      this.code.slice(this.at, this.at + 256),
    );
    const text = match ? match[0] : (this.code[this.at] as string);
    this.at += text.length;
    this.push({ type: 'var', text });
  }

  private readHeredocStart(): void {
    this.at += 2;
    const indent = this.code[this.at] === '~';
    if (indent) this.at++;
    const quote = this.code[this.at];
    let terminator: string;
    let interpolate = true;
    if (quote === '"' || quote === "'") {
      terminator = this.delimited(quote, quote);
      interpolate = quote === '"';
    } else {
      const match = /^\w+/.exec(this.code.slice(this.at, this.at + 256));
      terminator = match ? match[0] : '';
      this.at += terminator.length;
    }
    const token: Token = { type: 'str', text: terminator, value: '' };
    this.push(token);
    this.pendingHeredocs.push({ terminator, interpolate, token, indent });
  }

  private readHeredocBodies(): void {
    while (this.pendingHeredocs.length > 0) {
      const heredoc = this.pendingHeredocs.shift() as (typeof this.pendingHeredocs)[number];
      const lines: string[] = [];
      for (;;) {
        if (this.at >= this.code.length) throw new Unreadable('unterminated heredoc');
        const end = this.code.indexOf('\n', this.at);
        const line = this.code.slice(this.at, end < 0 ? this.code.length : end);
        this.at = end < 0 ? this.code.length : end + 1;
        if ((heredoc.indent ? line.trim() : line) === heredoc.terminator) break;
        lines.push(heredoc.indent ? line.trimStart() : line);
      }
      const body = lines.join('\n') + '\n';
      const value = heredoc.interpolate ? interpolated(body) : body;
      if (value === undefined) {
        heredoc.token.type = 'dyn';
        delete heredoc.token.value;
      } else heredoc.token.value = value;
    }
  }

  private skipPod(): void {
    const end = this.code.indexOf('\n=cut', this.at);
    if (end < 0) {
      this.at = this.code.length;
      return;
    }
    const after = this.code.indexOf('\n', end + 1);
    this.at = after < 0 ? this.code.length : after + 1;
  }
}

export function readPerl(code: string, out: Collector): void {
  let tokens: Token[];
  try {
    tokens = new PerlTokenizer(code).run();
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    out.giveUp(`perl code the scanner cannot read (${error.message})`);
    return;
  }
  new PerlScan(tokens, out).run();
}

const EXEC_WORDS = new Set(['system', 'exec', 'readpipe']);
const DELETE_WORDS = new Set(['unlink', 'rmdir', 'rmtree', 'remove_tree']);
const STOP_WORDS = new Set(['or', 'and', 'if', 'unless', 'while', 'until', 'for', 'foreach']);

class PerlScan {
  private readonly constants = new Map<string, Value | null>();

  constructor(
    private readonly tokens: Token[],
    private readonly out: Collector,
  ) {}

  run(): void {
    this.collectConstants();
    const tokens = this.tokens;
    let usesNetwork = false;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as Token;
      const previous = tokens[i - 1];
      const method = previous?.type === 'punct' && previous.text === '>' && tokens[i - 2]?.text === '-';
      if (token.type === 'cmd') {
        this.out.exec('backticks', token.value === undefined ? UNKNOWN : str(token.value));
        continue;
      }
      if (token.type === 'var') {
        this.scanVariable(i);
        continue;
      }
      if (
        token.type === 'punct' &&
        token.text === '&' &&
        (tokens[i + 1]?.type === 'var' || tokens[i + 1]?.text === '{')
      ) {
        if (previous?.text !== '&' && tokens[i + 1]?.text !== '&') this.out.giveUp('call through a code reference');
        continue;
      }
      if (token.type === 'punct' && token.text === '>' && previous?.text === '-' && tokens[i + 1]?.type === 'var') {
        this.out.giveUp('method named at run time');
        continue;
      }
      if (token.type !== 'word' || method) continue;
      // A hash key (`system => 1`, `$h{system}`) names nothing that runs.
      if (tokens[i + 1]?.text === '=' && tokens[i + 2]?.text === '>') continue;
      if (previous?.text === '{' && tokens[i + 1]?.text === '}') continue;
      const word = token.text.replace(/^CORE::(GLOBAL::)?/, '');
      if ((word === 'use' || word === 'require') && tokens[i + 1]?.type === 'word') {
        if (NETWORK_MODULES.test(tokens[i + 1]?.text ?? '')) usesNetwork = true;
        continue;
      }
      if (word === 'require' && tokens[i + 1]?.type !== 'word' && tokens[i + 1]?.type !== 'str') {
        this.out.giveUp('require of a computed name');
        continue;
      }
      if (EXEC_WORDS.has(word)) this.scanExec(word, this.argumentsAfter(i));
      else if (word === 'open') this.scanOpen(this.argumentsAfter(i));
      else if (DELETE_WORDS.has(word)) for (const path of this.argumentsAfter(i)) this.out.effect('delete', word, path);
      else if (word === 'mkdir') this.out.effect('write', word, this.argumentsAfter(i)[0]);
      else if (word === 'copy' || word === 'move') {
        const [from, to] = this.argumentsAfter(i);
        this.out.effect(word === 'move' ? 'delete' : 'read', `File::Copy::${word}`, from);
        this.out.effect('write', `File::Copy::${word}`, to);
      } else if (word === 'eval' && tokens[i + 1]?.text !== '{')
        this.out.evaluate('perl', this.argumentsAfter(i)[0] ?? UNKNOWN, 'eval');
      else if (word === 'do' && tokens[i + 1]?.text !== '{') this.out.giveUp('do of a file');
      else if (word === 'syscall') this.out.giveUp('syscall');
    }
    if (usesNetwork) {
      const url = tokens.find((t) => t.type === 'str' && URL.test(t.value ?? ''));
      this.out.effect('network', 'perl network module', url?.value === undefined ? UNKNOWN : str(url.value));
    }
  }

  /** `my $x = "literal";` bound once: its value; bound again or otherwise: unknown. */
  private collectConstants(): void {
    const tokens = this.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as Token;
      if (token.type !== 'var' || !token.text.startsWith('$')) continue;
      const next = tokens[i + 1];
      const after = tokens[i + 2];
      if (next?.text !== '=' || after?.text === '=' || after?.text === '~') {
        const modified = next?.type === 'punct' && /^[.+\-*/x|&]$/.test(next.text) && after?.text === '=';
        if (modified) this.constants.set(token.text, null);
        continue;
      }
      const value =
        after?.type === 'str' && (tokens[i + 3]?.text === ';' || tokens[i + 3] === undefined)
          ? str(after.value ?? '')
          : null;
      this.constants.set(token.text, this.constants.has(token.text) ? null : value);
    }
  }

  /** The arguments of the word at `index`: a parenthesized list or the rest of the statement. */
  private argumentsAfter(index: number): Value[] {
    const tokens = this.tokens;
    let i = index + 1;
    const parenthesized = tokens[i]?.text === '(';
    if (parenthesized) i++;
    const args: Value[] = [];
    let current: Value[] = [];
    let depth = 0;
    let joining = false;
    for (; i < tokens.length; i++) {
      if (i - index > MAX_ARGUMENT_TOKENS) {
        current.push(UNKNOWN);
        break;
      }
      const token = tokens[i] as Token;
      if (depth === 0) {
        if (parenthesized && token.text === ')') break;
        if (
          !parenthesized &&
          (token.text === ';' ||
            token.text === '}' ||
            (token.type === 'word' && STOP_WORDS.has(token.text)) ||
            token.text === '|')
        )
          break;
        if (token.text === ',' || (token.text === '>' && tokens[i - 1]?.text === '=')) {
          if (current.length > 0)
            args.push(joining ? concat(current) : current.length === 1 ? (current[0] as Value) : UNKNOWN);
          current = [];
          joining = false;
          continue;
        }
        if (token.text === '=' && tokens[i + 1]?.text === '>') continue;
      }
      if (token.text === '(' || token.text === '[' || token.text === '{') depth++;
      else if (token.text === ')' || token.text === ']' || token.text === '}') {
        depth--;
        if (depth < 0) break;
      }
      if (token.type === 'punct' && token.text === '.' && depth === 0) {
        joining = true;
        continue;
      }
      current.push(this.valueOf(token, depth));
    }
    if (current.length > 0)
      args.push(joining ? concat(current) : current.length === 1 ? (current[0] as Value) : UNKNOWN);
    return args.flatMap((value) => (value.kind === 'list' ? value.items : [value]));
  }

  private valueOf(token: Token, depth: number): Value {
    if (depth > 0) return UNKNOWN;
    if (token.type === 'str') return str(token.value ?? '');
    if (token.type === 'list') return { kind: 'list', items: (token.words ?? []).map(str) };
    if (token.type === 'var') return this.constants.get(token.text) ?? UNKNOWN;
    if (token.type === 'word') return { kind: 'ref', name: token.text };
    return UNKNOWN;
  }

  private scanExec(word: string, args: Value[]): void {
    const words = args.filter((value) => value.kind !== 'ref');
    if (args.some((value) => value.kind === 'ref') && words.length === 0) {
      this.out.add({ kind: 'exec', api: word, dynamic: true });
      return;
    }
    if (words.length === 1) this.out.exec(word, words[0]);
    else this.out.execArgv(word, words.length === 0 ? [UNKNOWN] : words);
  }

  private scanOpen(args: Value[]): void {
    const [, mode, ...rest] = args;
    if (!mode) {
      this.out.giveUp('open with one argument');
      return;
    }
    if (mode.kind !== 'str') {
      this.out.giveUp('open with a computed mode or name (a | runs a command)');
      return;
    }
    const text = mode.text.trim();
    if (rest.length > 0) {
      if (text === '-|' || text === '|-') {
        if (rest.length === 1) this.out.exec('open(|)', rest[0]);
        else this.out.execArgv('open(|)', rest);
        return;
      }
      const writes = /^(\+?>|>>|\+<)/.test(text);
      this.out.effect(writes ? 'write' : 'read', writes ? 'open(w)' : 'open(r)', rest[0]);
      return;
    }
    if (text.startsWith('|')) return this.out.exec('open(|)', str(text.slice(1).trim()));
    if (text.endsWith('|')) return this.out.exec('open(|)', str(text.slice(0, -1).trim()));
    const writes = /^(\+?>|>>|\+<)/.test(text);
    const path = text.replace(/^(\+?<|\+?>>?|<)\s*/, '');
    if (path === '-' || path === '') return;
    this.out.effect(writes ? 'write' : 'read', writes ? 'open(w)' : 'open(r)', str(path));
  }

  private scanVariable(index: number): void {
    const token = this.tokens[index] as Token;
    if (token.text === '$ENV' && this.tokens[index + 1]?.text === '{') {
      const key = this.tokens[index + 2];
      const closed = this.tokens[index + 3]?.text === '}';
      const name =
        key?.type === 'word' || key?.type === 'str' ? (key.type === 'word' ? key.text : key.value) : undefined;
      if (this.tokens[index + 4]?.text === '=' && this.tokens[index + 5]?.text !== '=') return;
      this.out.envRead('%ENV', closed && name !== undefined ? str(name) : UNKNOWN);
      return;
    }
    if (token.text === '%ENV') this.out.wholeEnvironment('%ENV');
  }
}
