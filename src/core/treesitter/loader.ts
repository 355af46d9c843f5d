// Loads the tree-sitter runtime once per process and each grammar (all WebAssembly) once, on demand.
// grammars.json is the one list of shipped .wasm files: the build copies exactly those next to the bundle.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import shipped from './grammars.json';

export type GrammarName = keyof typeof shipped.grammars;

/**
 * Runs one compile while V8's baseline-only flag is set, so that no other compile on another thread
 * sees the flag turned off half way. The default serialises this thread's own compiles; an evaluation
 * worker asks its host for the turn, since the flag is one for the whole process.
 */
export type CompileGate = <T>(compile: () => Promise<T>) => Promise<T>;

let runtime: Promise<void> | undefined;
/** The runtime's module object: Emscripten hangs the views of its linear memory on it. */
let runtimeModule: ({ HEAPU8?: Uint8Array } & Record<string, unknown>) | undefined;
let localQueue: Promise<unknown> = Promise.resolve();
const oneAtATime: CompileGate = (compile) => {
  const turn = localQueue.then(compile);
  localQueue = turn.catch(() => undefined);
  return turn;
};
let gate: CompileGate = oneAtATime;
/** Started with the flag (serve restarts itself so: cli/startTuning), the process keeps it; workers inherit it. */
const BASELINE_FOR_GOOD = process.execArgv.includes('--liftoff-only');
const languages = new Map<GrammarName, Promise<Language>>();

/** Where this thread's compiles take their turn; set once, before the first load. */
export function setCompileGate(next: CompileGate): void {
  gate = next;
}

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

/**
 * Every module (the runtime and each grammar) is compiled by V8's baseline tier only, and its code stays
 * baseline for good. Tiering up is what costs: the optimising compiler's code and its working memory
 * took 80-120 MB of resident memory per process with all grammars loaded (bench/grammar-memory.ts),
 * held a thread for tens of seconds on the PowerShell lexer, and once stalled the event loop for 1.5 s.
 * Baseline code parses a typical command in about 1.5x the time (tens of microseconds), a small part of
 * a call's cost. The flag is set only while the module compiles, so other WebAssembly in the process
 * (the extension host's) keeps its normal tiers. That holds on V8 11 (Node 20), which fixes a module's
 * tiers as it compiles it; Node 24 ignores the flag set at run time, and tiers up unless started with
 * it, as serve is there.
 */
function compileBaselineOnly<T>(compile: () => Promise<T>): Promise<T> {
  return gate(async () => {
    setFlagsFromString('--liftoff-only');
    try {
      return await compile();
    } finally {
      endBaselineOnly();
    }
  });
}

/** Lets V8 tier WebAssembly up again, unless the process was started baseline-only. */
export function endBaselineOnly(): void {
  if (!BASELINE_FOR_GOOD) setFlagsFromString('--no-liftoff-only');
}

function initRuntime(): Promise<void> {
  if (!runtime) {
    runtime = remembered(
      async () => {
        const runtimePath = locate(shipped.runtime);
        const module: { locateFile: (file: string) => string; HEAPU8?: Uint8Array } & Record<string, unknown> = {
          locateFile: (file: string) => (file === shipped.runtime ? runtimePath : join(dirname(runtimePath), file)),
        };
        await compileBaselineOnly(() => Parser.init(module));
        runtimeModule = module;
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
        const bytes = new Uint8Array(readFileSync(locate(shipped.grammars[name])));
        await initRuntime();
        return compileBaselineOnly(() => Language.load(bytes));
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

/**
 * The size of this thread's tree-sitter linear memory in bytes (0 before the runtime loads): every
 * grammar and parser of the thread shares it, it only grows, and the pages a parse touched stay resident.
 */
export function wasmMemoryBytes(): number {
  return runtimeModule?.HEAPU8?.buffer.byteLength ?? 0;
}

/** The runtime's module object once it has loaded (Emscripten's exports and helpers hang on it), else undefined. */
export function loadedRuntime(): Readonly<Record<string, unknown>> | undefined {
  return runtimeModule;
}
