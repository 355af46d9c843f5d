// The bash parser, loaded once per process through the shared tree-sitter loader.
import type { Parser, Tree } from '@vscode/tree-sitter-wasm';
import { loadGrammar, parserFor } from '../treesitter/loader';

let loading: Promise<void> | undefined;
let parser: Parser | undefined;

async function load(): Promise<void> {
  parser = parserFor(await loadGrammar('bash'));
}

/** Loads the WebAssembly parser. Idempotent; concurrent callers share one load; a failed load may be retried. */
export function initShellParser(): Promise<void> {
  if (!loading) {
    loading = load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}

/** Throws the error a caller gets for analyzing before initShellParser() finished. */
export function assertParserReady(): void {
  if (!parser) throw new Error('Shell parser not ready: await initShellParser() before analyzeShell().');
}

/**
 * Parses bash source; the caller must delete() the tree. Returns undefined when parsing is still
 * going at `deadline` (a Date.now() value): hostile input must not hold up a verdict.
 */
export function parseBash(source: string, deadline = Infinity): Tree | undefined {
  assertParserReady();
  const active = parser as Parser;
  if (Date.now() >= deadline) return undefined;
  const tree = Number.isFinite(deadline)
    ? active.parse(source, null, { progressCallback: () => Date.now() >= deadline })
    : active.parse(source);
  if (!tree) {
    // A cancelled parse would otherwise resume on the next call.
    active.reset();
    return undefined;
  }
  return tree;
}
