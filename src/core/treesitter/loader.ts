// Loads the tree-sitter runtime once per process and each grammar (all WebAssembly) once, on demand.
// grammars.json is the one list of shipped .wasm files: the build copies exactly those next to the bundle.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import shipped from './grammars.json';

export type GrammarName = keyof typeof shipped.grammars;

/**
 * Grammars compiled by V8's baseline tier only. The PowerShell grammar's lexer is so large that
 * when V8 tiers it up (after a few parses) the optimizing compiler holds the thread for tens of
 * seconds of CPU: a stalled server, a `check` that cannot exit. Its baseline code is fast enough.
 */
export const BASELINE_ONLY: ReadonlySet<GrammarName> = new Set<GrammarName>(['powershell']);

let runtime: Promise<void> | undefined;
/** Baseline-only compiles one at a time, so the flag's window never overlaps another's. */
let baselineQueue: Promise<unknown> = Promise.resolve();
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

/** The module is compiled while the flag is set; its code then stays baseline for good. */
async function compileBaselineOnly(bytes: Uint8Array): Promise<Language> {
  setFlagsFromString('--liftoff-only');
  try {
    return await Language.load(bytes);
  } finally {
    setFlagsFromString('--no-liftoff-only');
  }
}

/** The grammar `name`, loaded once; concurrent callers share one load. */
export function loadGrammar(name: GrammarName): Promise<Language> {
  let loading = languages.get(name);
  if (!loading) {
    loading = remembered(
      async () => {
        const bytes = new Uint8Array(readFileSync(locate(shipped.grammars[name])));
        await initRuntime();
        if (!BASELINE_ONLY.has(name)) return Language.load(bytes);
        const compiled = baselineQueue.then(() => compileBaselineOnly(bytes));
        baselineQueue = compiled.catch(() => undefined);
        return compiled;
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
