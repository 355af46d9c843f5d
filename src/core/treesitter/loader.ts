// Loads the tree-sitter runtime once per process and each grammar (all WebAssembly) once, on demand.
// grammars.json is the one list of shipped .wasm files: the build copies exactly those next to the bundle.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import shipped from './grammars.json';

export type GrammarName = keyof typeof shipped.grammars;

let runtime: Promise<void> | undefined;
const languages = new Map<GrammarName, Promise<Language>>();

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
    `Tree-sitter: cannot find ${file} in ${folders.join(' or ')}; rebuild with scripts/build.mjs, which copies it next to the bundle.`,
  );
}

/** Retries after a failure: a failed load is forgotten rather than cached. */
function remembered<T>(start: () => Promise<T>, forget: () => void): Promise<T> {
  return start().catch((error: unknown) => {
    forget();
    throw error;
  });
}

function initRuntime(): Promise<void> {
  if (!runtime) {
    runtime = remembered(
      async () => {
        const runtimePath = locate(shipped.runtime);
        await Parser.init({
          locateFile: (file: string) => (file === shipped.runtime ? runtimePath : join(dirname(runtimePath), file)),
        });
      },
      () => (runtime = undefined),
    );
  }
  return runtime;
}

/** The grammar `name`, loaded once; concurrent callers share one load. */
export function loadGrammar(name: GrammarName): Promise<Language> {
  let loading = languages.get(name);
  if (!loading) {
    loading = remembered(
      async () => {
        const grammarPath = locate(shipped.grammars[name]);
        await initRuntime();
        return Language.load(new Uint8Array(readFileSync(grammarPath)));
      },
      () => languages.delete(name),
    );
    languages.set(name, loading);
  }
  return loading;
}

/** A new parser for `language`; the caller keeps it for the process's life. */
export function parserFor(language: Language): Parser {
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
