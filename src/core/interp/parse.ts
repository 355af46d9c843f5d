// The interpreters' grammars: each loaded once per process, when first needed; parsing is synchronous.
import type { Parser } from '@vscode/tree-sitter-wasm';
import { copyTree, type SyntaxNode } from '../shell/nodes';
import { loadGrammar, parserFor, type GrammarName } from '../treesitter/loader';
import type { CodeLanguage } from './types';

export type CodeGrammar = Extract<
  GrammarName,
  'python' | 'javascript' | 'typescript' | 'php' | 'ruby' | 'powershell' | 'rust'
>;

const CODE_GRAMMARS: readonly CodeGrammar[] = [
  'python',
  'javascript',
  'typescript',
  'php',
  'ruby',
  'powershell',
  'rust',
];

/** The grammars each grammar-read language parses with (JavaScript is tried as TypeScript too). */
const GRAMMARS_OF: Record<GrammarLanguage, readonly CodeGrammar[]> = {
  python: ['python'],
  javascript: ['javascript', 'typescript'],
  php: ['php'],
  ruby: ['ruby'],
  powershell: ['powershell'],
  rust: ['rust'],
};
export type GrammarLanguage = Extract<CodeLanguage, 'python' | 'javascript' | 'php' | 'ruby' | 'powershell' | 'rust'>;

const loads = new Map<CodeGrammar, Promise<void>>();
const parsers = new Map<CodeGrammar, Parser>();
/** Grammars a read needed while they were not loaded, since the last takeWantedGrammars(). */
const wanted = new Set<CodeGrammar>();

/** Loads one interpreter grammar. Idempotent; concurrent callers share one load; a failed load may be retried. */
function loadCodeGrammar(name: CodeGrammar): Promise<void> {
  let loading = loads.get(name);
  if (!loading) {
    loading = loadGrammar(name).then(
      (language) => void parsers.set(name, parserFor(language)),
      (error: unknown) => {
        loads.delete(name);
        throw error;
      },
    );
    loads.set(name, loading);
  }
  return loading;
}

let loadingAll: Promise<void> | undefined;

/**
 * Loads every interpreter grammar (one-shot hosts, which cannot load one half way through a call).
 * Idempotent; concurrent callers share one load; a failed load may be retried.
 */
export function loadCodeGrammars(): Promise<void> {
  loadingAll ??= Promise.all(CODE_GRAMMARS.map(loadCodeGrammar)).then(
    () => undefined,
    (error: unknown) => {
      loadingAll = undefined;
      throw error;
    },
  );
  return loadingAll;
}

/**
 * Loads the grammars reads asked for since the last call and answers whether there were any: an
 * evaluation worker loads a grammar only once a call needs it (most calls need none), and then runs that
 * call again.
 */
export async function loadWantedGrammars(): Promise<boolean> {
  const names = takeWantedGrammars();
  await Promise.all(names.map(loadCodeGrammar));
  return names.length > 0;
}

/** Forgets what reads asked for (a result that is thrown away). */
export function takeWantedGrammars(): CodeGrammar[] {
  const names = [...wanted];
  wanted.clear();
  return names;
}

/** Whether `language` can be read now; when not, its grammars are noted as wanted. */
export function grammarsReady(language: GrammarLanguage): boolean {
  const missing = GRAMMARS_OF[language].filter((name) => !parsers.has(name));
  for (const name of missing) wanted.add(name);
  return missing.length === 0;
}

export function assertGrammarsReady(language: GrammarLanguage): void {
  if (!grammarsReady(language)) {
    throw new Error(`The ${language} grammar is not loaded: await loadCodeGrammars() before analyzeCode().`);
  }
}

export interface ParsedCode {
  root: SyntaxNode;
  /** The grammar met text it could not read (ERROR or MISSING nodes). */
  hasError: boolean;
}

/** Parses `code`; undefined when parsing was still going at `deadline` (a Date.now() value). */
export function parseCode(grammar: CodeGrammar, code: string, deadline: number): ParsedCode | undefined {
  const parser = parsers.get(grammar);
  if (!parser) throw new Error(`The ${grammar} grammar is not loaded: await loadCodeGrammars() before analyzeCode().`);
  if (Date.now() >= deadline) return undefined;
  const tree = Number.isFinite(deadline)
    ? parser.parse(code, null, { progressCallback: () => Date.now() >= deadline })
    : parser.parse(code);
  if (!tree) {
    // A cancelled parse would otherwise resume on the next call.
    parser.reset();
    return undefined;
  }
  try {
    return { root: copyTree(tree, code), hasError: tree.rootNode.hasError };
  } finally {
    tree.delete();
  }
}
