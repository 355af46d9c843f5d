// Turns tree-sitter word nodes into the words bash would pass to a command, as far as that is static.
import type { SyntaxNode } from './nodes';
import { decodeAnsiC } from './ansi-c';
import { expandParameter } from './parameter';
import { LITERAL_WRITERS, literalOutput } from './literal-output';
import { trimEndChars } from '../text/scan';
import type { Scope } from './scope';
import { braceExpand, fieldSplit, tildeExpand, type Segment } from './segments';

export interface Word {
  value: string;
  dynamic: boolean;
  /** The literal text after the last dynamic part (the whole value for a static word). */
  staticTail: string;
  start: number;
  end: number;
  /** A `<(…)` word: what the file it names will hold, when the commands inside print known text. */
  fileText?: string;
  /** Each value it may take, when its run-time parts are variables a branch left with several known values. */
  alternatives?: readonly string[];
}

export interface WordContext {
  scope: Scope;
  /** $0, $1, … when known (a `bash -c STR arg0 arg1` string). */
  positional: readonly (string | undefined)[] | undefined;
  /** Set when a word nested deeper than MAX_WORD_NESTING was left unread. */
  limits: { truncated: boolean };
  /** The word names the program: a name computed by `$(…)` is hiding it, so it stays unread. */
  programName?: boolean;
}

/** Nesting inside one word (${a:-${b:-…}}, "$(…)" …) deeper than this is left dynamic. */
const MAX_WORD_NESTING = 64;

const SUBSTITUTIONS = ['command_substitution', 'process_substitution'];
const DOUBLE_QUOTE_ESCAPABLE = new Set(['$', '`', '"', '\\']);

class WordBuilder {
  readonly segments: Segment[] = [];
  readonly substitutions: SyntaxNode[] = [];

  constructor(
    private readonly ctx: WordContext,
    private depth = 0,
  ) {}

  add(text: string, kind: Segment['kind']): void {
    this.segments.push({ text, kind });
  }

  node(node: SyntaxNode): void {
    if (this.depth >= MAX_WORD_NESTING) {
      this.ctx.limits.truncated = true;
      this.add(node.text, 'dynamic');
      return;
    }
    this.depth++;
    try {
      this.nodeWithin(node);
    } finally {
      this.depth--;
    }
  }

  private nodeWithin(node: SyntaxNode): void {
    const text = node.text;
    switch (node.type) {
      case 'word':
        this.unquotedWord(text);
        return;
      case 'number':
      case 'brace_expression':
        this.add(text, 'literal');
        return;
      case 'raw_string':
        this.add(stripQuotes(text, "'", "'"), 'quoted');
        return;
      case 'ansi_c_string':
        this.add(decodeAnsiC(stripQuotes(text, "$'", "'")), 'quoted');
        return;
      case 'string':
      case 'translated_string':
        this.doubleQuoted(node);
        return;
      case 'simple_expansion':
      case 'expansion':
        this.expansion(node, false);
        return;
      case 'command_substitution':
      case 'process_substitution':
        this.substitution(node, 'split');
        return;
      case 'concatenation':
        this.pieces(node.children);
        return;
      default:
        if (!node.isNamed) this.add(text, 'literal');
        else {
          // Arithmetic and anything unforeseen: only known at run time, and may hold substitutions.
          this.add(text, node.type === 'arithmetic_expansion' || node.isError ? 'dynamic' : 'quoted');
          this.collectSubstitutions(node);
        }
    }
  }

  /** Adjacent pieces of one word; a `$` glued to a following string is bash's $"…" (translated) string. */
  pieces(nodes: readonly SyntaxNode[]): void {
    for (let i = 0; i < nodes.length; i++) {
      const piece = nodes[i] as SyntaxNode;
      const next = nodes[i + 1];
      if (!piece.isNamed && piece.type === '$' && next && next.type === 'string' && next.startIndex === piece.endIndex)
        continue;
      this.node(piece);
    }
  }

  private unquotedWord(text: string): void {
    if (!text.includes('\\')) {
      this.add(text, 'literal');
      return;
    }
    let literal = '';
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (ch === '\\' && i + 1 < text.length) {
        const next = text[i + 1] as string;
        i++;
        if (next === '\n') continue;
        if (literal) this.add(literal, 'literal');
        literal = '';
        this.add(next, 'quoted');
      } else literal += ch;
    }
    if (literal) this.add(literal, 'literal');
  }

  private doubleQuoted(node: SyntaxNode): void {
    const open = node.type === 'translated_string' ? 2 : 1;
    const closed = node.text.endsWith('"') && node.text.length > open;
    this.quotedRun(node, node.startIndex + open, closed ? node.endIndex - 1 : node.endIndex, unescapeDoubleQuoted);
  }

  /** An unquoted heredoc body: expansions apply, quotes are plain text. */
  heredocBody(node: SyntaxNode): void {
    this.quotedRun(node, node.startIndex, node.endIndex, unescapeHeredoc);
  }

  /**
   * Text between `from` and `to` in which expansions happen but no word splitting: the children
   * are expansions and text runs; text the grammar left between children counts as text.
   */
  private quotedRun(node: SyntaxNode, from: number, to: number, unescape: (text: string) => string): void {
    const source = node.text;
    const base = node.startIndex;
    let position = from;
    for (const child of node.children) {
      if (!child.isNamed) continue;
      if (child.startIndex > position)
        this.add(unescape(source.slice(position - base, child.startIndex - base)), 'quoted');
      if (child.type === 'string_content' || child.type === 'heredoc_content') this.add(unescape(child.text), 'quoted');
      else if (child.type === 'simple_expansion' || child.type === 'expansion') this.expansion(child, true);
      else if (SUBSTITUTIONS.includes(child.type)) this.substitution(child, 'quoted');
      else {
        this.add(child.text, 'dynamic');
        this.collectSubstitutions(child);
      }
      position = Math.max(position, child.endIndex);
    }
    if (to > position) this.add(unescape(source.slice(position - base, to - base)), 'quoted');
  }

  /**
   * `$(…)` whose commands print only what their own words say (`$(printf 'print-%s-token' access)`,
   * `$(base64 -d <<< cm0=)`) stands for that text, as bash would substitute it: a command name or
   * argument hidden so is read. Anything else is known only at run time. The commands still run.
   */
  private substitution(node: SyntaxNode, kind: 'split' | 'quoted'): void {
    this.substitutions.push(node);
    const output =
      node.type === 'command_substitution' && this.ctx.programName !== true ? this.staticOutput(node) : undefined;
    if (output === undefined) this.add(node.text, 'dynamic');
    else this.add(trimEndChars(output, '\n'), kind);
  }

  staticOutput(node: SyntaxNode): string | undefined {
    const body = node.namedChildren;
    if (body.length !== 1 || !body[0]) return undefined;
    const stages = body[0].type === 'pipeline' ? body[0].namedChildren : [body[0]];
    let output: string | undefined;
    for (const stage of stages) {
      let command = stage;
      let input = output;
      if (stage.type === 'redirected_statement') {
        const [inner, ...redirects] = stage.namedChildren;
        const text = redirects.length === 1 && redirects[0] ? this.stdinText(redirects[0]) : undefined;
        if (!inner || text === undefined) return undefined;
        command = inner;
        input = text;
      }
      if (command.type !== 'command') return undefined;
      const argv: string[] = [];
      for (const part of command.namedChildren) {
        // `LC_ALL=C base64 -d`: a variable for the writer changes nothing of what it writes.
        if (part.type === 'variable_assignment' && argv.length === 0) continue;
        // The grammar hangs `<<< WORD` on the command itself.
        const hereString = part.type === 'herestring_redirect';
        const text = this.staticText(part.type === 'command_name' || hereString ? part.namedChildren : [part]);
        if (text === undefined) return undefined;
        if (hereString) input = `${text}\n`;
        else argv.push(text);
      }
      // `command base64 -d` runs base64 itself, past any alias or function of that name.
      if (argv[0] === 'command' && argv.length > 1 && !argv[1]!.startsWith('-')) argv.shift();
      // `/usr/bin/base64` is base64; a writer elsewhere (`/tmp/echo`) may print anything.
      const name = (argv[0] ?? '').replace(SYSTEM_BIN, '');
      if (!LITERAL_WRITERS.has(name)) return undefined;
      output = literalOutput(name, { argv, dynamic: new Set() }, input);
      if (output === undefined) return undefined;
    }
    return output;
  }

  /** What a here-string (`<<< WORD`) or a heredoc (`<<EOF`) gives a command's stdin, when nothing in it is known only at run time. */
  private stdinText(redirect: SyntaxNode): string | undefined {
    if (redirect.type === 'herestring_redirect') {
      const text = this.staticText(redirect.namedChildren);
      return text === undefined ? undefined : `${text}\n`;
    }
    if (redirect.type !== 'heredoc_redirect') return undefined;
    // `x=$(cat <<EOF … EOF)`: the body alone, with no other redirect or command hung on the heredoc.
    const parts = redirect.namedChildren;
    const start = parts.find((c) => c.type === 'heredoc_start');
    const body = parts.find((c) => c.type === 'heredoc_body');
    if (!start || !body || parts.some((c) => !HEREDOC_NODES.has(c.type))) return undefined;
    const stripTabs = redirect.children.some((c) => c.type === '<<-');
    const { word } = heredocValue(body, this.ctx, { quoted: /['"\\]/.test(start.text), stripTabs });
    return word.dynamic ? undefined : word.value;
  }

  /** The text of word nodes with nothing in them known only at run time, else undefined. */
  private staticText(nodes: readonly SyntaxNode[]): string | undefined {
    if (nodes.length === 0 || nodes.some((n) => n.type === 'variable_assignment' || n.type.endsWith('_redirect')))
      return undefined;
    const inner = new WordBuilder(this.ctx, this.depth + 1);
    inner.pieces(nodes);
    return inner.segments.some((s) => s.kind === 'dynamic') ? undefined : inner.segments.map((s) => s.text).join('');
  }

  private expansion(node: SyntaxNode, quoted: boolean): void {
    const name = simpleVariableName(node);
    const resolved =
      name !== undefined
        ? lookupVariable(name, this.ctx)
        : node.type === 'expansion'
          ? this.withOperators(node)
          : undefined;
    // Substitutions in an operand may run even when the value is known (${X:-$(cmd)} with X unset).
    this.collectSubstitutions(node);
    if (resolved === undefined) this.add(node.text, 'dynamic');
    else this.add(resolved, quoted ? 'quoted' : 'split');
  }

  private withOperators(node: SyntaxNode): string | undefined {
    return expandParameter(node, {
      lookup: (name) => lookupVariable(name, this.ctx),
      operand: (nodes) => {
        const operand = new WordBuilder(this.ctx, this.depth + 1);
        operand.pieces(nodes);
        return operand.segments.some((s) => s.kind === 'dynamic')
          ? undefined
          : operand.segments.map((s) => s.text).join('');
      },
    });
  }

  collectSubstitutions(node: SyntaxNode): void {
    this.substitutions.push(...node.descendantsOfType(SUBSTITUTIONS, true));
  }
}

function stripQuotes(text: string, open: string, close: string): string {
  let body = text.startsWith(open) ? text.slice(open.length) : text;
  if (body.endsWith(close)) body = body.slice(0, -close.length);
  return body;
}

function unescapeDoubleQuoted(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (ch === '\\' && next !== undefined && (DOUBLE_QUOTE_ESCAPABLE.has(next) || next === '\n')) {
      if (next !== '\n') out += next;
      i++;
    } else out += ch;
  }
  return out;
}

function unescapeHeredoc(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([$`\\\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));
}

/** The name of `$NAME` or `${NAME}`; undefined for any ${…} with an operator. */
function simpleVariableName(node: SyntaxNode): string | undefined {
  if (node.type === 'simple_expansion') {
    const child = node.namedChildren[0];
    return child && (child.type === 'variable_name' || child.type === 'special_variable_name') ? child.text : undefined;
  }
  if (node.children.length !== 3) return undefined;
  const child = node.children[1];
  return child && (child.type === 'variable_name' || child.type === 'special_variable_name') ? child.text : undefined;
}

function lookupVariable(name: string, ctx: WordContext): string | undefined {
  if (/^\d+$/.test(name)) {
    if (ctx.positional !== undefined) return ctx.positional[Number(name)];
    // The script's own `set -- …` (command.ts setPositional); $0 is the shell's name.
    const set = name === '0' ? undefined : ctx.scope.lookup(name);
    return set?.known ? set.value : undefined;
  }
  // `a[]`: an element of array a, while one value it may hold is tried (shell/alternatives.ts).
  if (!/^[A-Za-z_]\w*(?:\[\])?$/.test(name)) return undefined;
  const found = ctx.scope.lookup(name);
  return found.known ? found.value : undefined;
}

function finish(segments: Segment[], node: { startIndex: number; endIndex: number }): Word {
  let value = '';
  let dynamic = false;
  let staticTail = '';
  for (const segment of segments) {
    value += segment.text;
    if (segment.kind === 'dynamic') {
      dynamic = true;
      staticTail = '';
    } else staticTail += segment.text;
  }
  return { value, dynamic, staticTail, start: node.startIndex, end: node.endIndex };
}

/**
 * The words one shell word (one or more adjacent nodes) expands to: brace expansion, tilde
 * expansion, variables we know, field splitting of unquoted expansions, quote removal. The
 * substitutions run even when the word expands to nothing.
 */
export function expandWord(nodes: SyntaxNode[], ctx: WordContext): { words: Word[]; substitutions: SyntaxNode[] } {
  const builder = new WordBuilder(ctx);
  builder.pieces(nodes);
  const range = rangeOf(nodes);
  const home = ctx.scope.lookup('HOME');
  const words: Word[] = [];
  for (const braced of braceExpand(builder.segments)) {
    // Bash also expands ~ after the = of an argument that looks like an assignment (make DIR=~/x).
    const assignmentLike = braced[0]?.kind === 'literal' && /^[A-Za-z_]\w*=/.test(braced[0].text);
    const tilde = tildeExpand(braced, home, assignmentLike ? 'assignment-word' : 'word');
    for (const split of fieldSplit(tilde, ctx.scope.lookup('IFS'))) words.push(finish(split, range));
  }
  if (words.length === 1) withFileText(words[0]!, nodes, builder);
  return { words, substitutions: builder.substitutions };
}

/** A word that is one `<(…)` names a file holding what the commands inside print: kept when known. */
function withFileText(word: Word, nodes: SyntaxNode[], builder: WordBuilder): Word {
  const only = nodes.length === 1 ? nodes[0] : undefined;
  if (only?.type !== 'process_substitution' || !only.text.startsWith('<(')) return word;
  const text = builder.staticOutput(only);
  if (text !== undefined) word.fileText = text;
  return word;
}

/** One word without brace expansion or field splitting: assignment values, redirect targets, heredoc bodies. */
export function singleWord(
  nodes: SyntaxNode[],
  ctx: WordContext,
  options: { assignment?: boolean } = {},
): { word: Word; substitutions: SyntaxNode[] } {
  const builder = new WordBuilder(ctx);
  builder.pieces(nodes);
  const segments = tildeExpand(
    builder.segments,
    ctx.scope.lookup('HOME'),
    options.assignment === true ? 'value' : 'word',
  );
  return { word: withFileText(finish(segments, rangeOf(nodes)), nodes, builder), substitutions: builder.substitutions };
}

function rangeOf(nodes: SyntaxNode[]): { startIndex: number; endIndex: number } {
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  return first && last ? { startIndex: first.startIndex, endIndex: last.endIndex } : { startIndex: 0, endIndex: 0 };
}

/** A heredoc body as the command reads it: expanded unless its delimiter was quoted. */
export function heredocValue(
  body: SyntaxNode,
  ctx: WordContext,
  options: { quoted: boolean; stripTabs: boolean },
): { word: Word; substitutions: SyntaxNode[] } {
  const builder = new WordBuilder(ctx);
  if (options.quoted) builder.add(body.text, 'quoted');
  else builder.heredocBody(body);
  const segments = options.stripTabs ? stripLeadingTabs(builder.segments) : builder.segments;
  return { word: finish(segments, body), substitutions: builder.substitutions };
}

/**
 * A heredoc body the grammar misread (see redirects' misreadBody), from its source text. Its
 * expansions stay as written: a shell that runs the text reads them itself.
 */
const HEREDOC_NODES = new Set(['heredoc_start', 'heredoc_body', 'heredoc_end']);

/** The system's own program folders: a program there is the one its name says. */
const SYSTEM_BIN = /^\/(?:usr\/)?bin\//;

export function misreadHeredocText(text: string, options: { quoted: boolean; stripTabs: boolean }): string {
  const body = options.quoted ? text : unescapeHeredoc(text);
  return options.stripTabs ? body.replace(/^\t+/gm, '') : body;
}

/** <<- removes the tabs that start each line of the body (not tabs that an expansion produced). */
function stripLeadingTabs(segments: Segment[]): Segment[] {
  let atLineStart = true;
  return segments.map((segment) => {
    let text = segment.text;
    if (segment.kind !== 'dynamic') {
      text = text.replace(/\n\t+/g, '\n');
      if (atLineStart) text = text.replace(/^\t+/, '');
    }
    if (text !== '') atLineStart = text.endsWith('\n');
    return { ...segment, text };
  });
}
