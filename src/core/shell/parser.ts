// Loads the tree-sitter runtime and the bash grammar (both WebAssembly) once per process.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import type { Tree } from '@vscode/tree-sitter-wasm';

const RUNTIME_WASM = 'tree-sitter.wasm';
const BASH_WASM = 'tree-sitter-bash.wasm';

let loading: Promise<void> | undefined;
let parser: Parser | undefined;

/** Folders that may hold the wasm files: the bundle's own folder (the build copies them there), then the package. */
function candidateFolders(): string[] {
  const folders = [__dirname];
  try {
    folders.push(join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm'));
  } catch {
    // Not installed next to us (a packaged extension): the bundle's folder is the only place.
  }
  return folders;
}

function locate(file: string): string {
  const folders = candidateFolders();
  for (const folder of folders) {
    const full = join(folder, file);
    if (existsSync(full)) return full;
  }
  throw new Error(
    `Shell parser: cannot find ${file} in ${folders.join(' or ')}; rebuild with scripts/build.mjs, which copies it next to the bundle.`,
  );
}

async function load(): Promise<void> {
  const runtimePath = locate(RUNTIME_WASM);
  const grammarPath = locate(BASH_WASM);
  await Parser.init({
    locateFile: (file: string) => (file === RUNTIME_WASM ? runtimePath : join(dirname(runtimePath), file)),
  });
  const bash = await Language.load(new Uint8Array(readFileSync(grammarPath)));
  const created = new Parser();
  created.setLanguage(bash);
  parser = created;
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
