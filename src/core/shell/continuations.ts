// Line continuations (backslash-newline) between tokens.
//
// Bash removes them before it splits words, so `r\<newline>m` is `rm`; the grammar treats them as
// whitespace and would see two words. Removing the ones that fall between tokens (never those in
// single quotes, comments or quoted heredocs) and parsing again gives the words bash sees.
import type { Tree } from '@vscode/tree-sitter-wasm';
import { parseBash } from './parser';

const CONTINUATION = /\\\r?\n/g;

export interface ParsedSource {
  tree: Tree;
  /** The source that was parsed: the input without its between-token continuations. */
  source: string;
  /** Removed ranges, in the input's coordinates, in order. */
  removed: { start: number; length: number }[];
}

export function parseWithoutContinuations(source: string): ParsedSource {
  const tree = parseBash(source);
  if (!source.includes('\\\n') && !source.includes('\\\r\n')) return { tree, source, removed: [] };
  const removed: { start: number; length: number }[] = [];
  for (const match of source.matchAll(CONTINUATION)) {
    const start = match.index ?? 0;
    const node = tree.rootNode.descendantForIndex(start, start + match[0].length);
    // A leaf holds it when it is inside a token (quotes, comment, heredoc): leave those alone.
    if (node && node.childCount === 0 && node.startIndex <= start && node.endIndex >= start + match[0].length) continue;
    removed.push({ start, length: match[0].length });
  }
  if (removed.length === 0) return { tree, source, removed };
  tree.delete();
  let stripped = '';
  let from = 0;
  for (const range of removed) {
    stripped += source.slice(from, range.start);
    from = range.start + range.length;
  }
  stripped += source.slice(from);
  return { tree: parseBash(stripped), source: stripped, removed };
}

/** Maps a position in the parsed source back to the input. */
export function originalIndex(parsedIndex: number, removed: readonly { start: number; length: number }[]): number {
  let shift = 0;
  for (const range of removed) {
    if (range.start - shift > parsedIndex) break;
    shift += range.length;
  }
  return parsedIndex + shift;
}
