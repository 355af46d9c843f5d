// Turns source text into a syntax tree that reads the way bash does: line continuations between
// tokens removed, and commands that the grammar carried across a newline cut at that newline.
import type { Tree } from '@vscode/tree-sitter-wasm';
import { copyTree, type SyntaxNode } from './nodes';
import { parseBash } from './parser';

const CONTINUATION = /\\\r?\n/g;
const MAX_REPAIRS = 4;

interface Edit {
  start: number;
  end: number;
  insert: string;
}

/** A text derived from another by edits, able to map its positions back. */
class Rewrite {
  readonly text: string;
  private readonly anchors: { at: number; from: number }[] = [];

  constructor(input: string, edits: readonly Edit[]) {
    let text = '';
    let from = 0;
    for (const edit of edits) {
      this.anchors.push({ at: text.length, from });
      text += input.slice(from, edit.start) + edit.insert;
      from = edit.end;
    }
    this.anchors.push({ at: text.length, from });
    this.text = text + input.slice(from);
  }

  toInput(index: number): number {
    let low = 0;
    let high = this.anchors.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.anchors[mid] as { at: number }).at <= index) low = mid;
      else high = mid - 1;
    }
    const anchor = this.anchors[low] as { at: number; from: number };
    return anchor.from + (index - anchor.at);
  }
}

export interface PreparedTree {
  root: SyntaxNode;
  /** The grammar met text it could not read (ERROR or MISSING nodes). */
  hasError: boolean;
  /** The text the tree was parsed from. */
  source: string;
  /** Maps a position in `source` to the input. */
  toInput(index: number): number;
}

/**
 * Bash drops backslash-newline before it splits words (r\<newline>m is rm); the grammar treats it
 * as a space. Those between tokens are removed; those inside a token (single quotes, comments,
 * quoted heredocs) are left alone.
 */
function continuationEdits(tree: Tree, source: string): Edit[] {
  if (!source.includes('\\\n') && !source.includes('\\\r\n')) return [];
  const edits: Edit[] = [];
  for (const match of source.matchAll(CONTINUATION)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const node = tree.rootNode.descendantForIndex(start, end);
    if (node && node.childCount === 0 && node.startIndex <= start && node.endIndex >= end) continue;
    edits.push({ start, end, insert: '' });
  }
  return edits;
}

/**
 * The grammar sometimes continues a command past a newline (`a && b | c | d` NEWLINE `x && y`
 * reads as `d x`), which would hide `x` among d's arguments. A newline between two words of one
 * command always ends it in bash, so a `;` goes after the word before each such newline.
 */
function splitCommandEdits(tree: Tree, source: string): Edit[] {
  if (!source.includes('\n')) return [];
  const edits: Edit[] = [];
  for (const command of tree.rootNode.descendantsOfType('command')) {
    if (!command || !source.slice(command.startIndex, command.endIndex).includes('\n')) continue;
    let previous: { type: string; startIndex: number; endIndex: number } | undefined;
    for (const child of command.children) {
      if (!child) continue;
      if (!previous) {
        previous = child;
        continue;
      }
      const gap = source.slice(previous.endIndex, child.startIndex);
      if (gap.includes('\n') && previous.type !== 'heredoc_redirect') {
        // After a comment the `;` would be part of it: it goes before the comment instead.
        const at = previous.type === 'comment' ? previous.startIndex : previous.endIndex;
        edits.push({ start: at, end: at, insert: ';' });
      }
      previous = child;
    }
  }
  return edits.sort((a, b) => a.start - b.start);
}

/**
 * The grammar drops a lone `-` written just before a heredoc (`make -f - <<EOF` reads as `make -f`),
 * so the word that says "read standard input" would vanish. Quoted, `'-'` is the same word to bash and
 * the grammar keeps it.
 */
function lostDashEdits(tree: Tree, source: string): Edit[] {
  if (!source.includes('<<')) return [];
  const edits: Edit[] = [];
  for (const statement of tree.rootNode.descendantsOfType('redirected_statement')) {
    const body = statement?.children[0];
    const heredoc = statement?.children.find((c) => c?.type === 'heredoc_redirect');
    if (!body || !heredoc || body.endIndex >= heredoc.startIndex) continue;
    const gap = source.slice(body.endIndex, heredoc.startIndex);
    for (let at = 0; at < gap.length; at++)
      if (gap[at] === '-' && /\s/.test(gap[at - 1] ?? ' ') && /\s/.test(gap[at + 1] ?? ' '))
        edits.push({ start: body.endIndex + at, end: body.endIndex + at + 1, insert: "'-'" });
  }
  return edits.sort((a, b) => a.start - b.start);
}

const REPAIRS = [continuationEdits, lostDashEdits];

/** Parses `input`; undefined when the deadline passed first. */
export function prepareTree(input: string, deadline: number): PreparedTree | undefined {
  const rewrites: Rewrite[] = [];
  let source = input;
  let tree = parseBash(source, deadline);
  for (let round = 0; tree && round < MAX_REPAIRS + REPAIRS.length; round++) {
    const repair = REPAIRS[round] ?? splitCommandEdits;
    const edits = repair(tree, source);
    if (edits.length === 0) {
      if (round < REPAIRS.length) continue;
      break;
    }
    const rewrite = new Rewrite(source, edits);
    rewrites.push(rewrite);
    source = rewrite.text;
    tree.delete();
    tree = parseBash(source, deadline);
  }
  if (!tree) return undefined;
  try {
    return {
      root: copyTree(tree, source),
      hasError: tree.rootNode.hasError,
      source,
      toInput: (index: number) => rewrites.reduceRight((position, rewrite) => rewrite.toInput(position), index),
    };
  } finally {
    tree.delete();
  }
}
