// The interpreters' grammars: loaded once per process, then parsing is synchronous.
import type { Language, Parser } from '@vscode/tree-sitter-wasm';
import { copyTree, type SyntaxNode } from '../shell/nodes';
import { BASELINE_ONLY, loadGrammar, parserFor, type GrammarName } from '../treesitter/loader';

export type CodeGrammar = Extract<GrammarName, 'python' | 'javascript' | 'typescript' | 'php' | 'ruby' | 'powershell'>;

const CODE_GRAMMARS: readonly CodeGrammar[] = ['python', 'javascript', 'typescript', 'php', 'ruby', 'powershell'];

let loading: Promise<void> | undefined;
const parsers = new Map<CodeGrammar, Parser>();

async function load(): Promise<void> {
  // The others first, all at once; a baseline-only grammar last, so that its compile flag is set
  // while nothing else compiles.
  const ordered = [
    CODE_GRAMMARS.filter((name) => !BASELINE_ONLY.has(name)),
    CODE_GRAMMARS.filter((name) => BASELINE_ONLY.has(name)),
  ];
  for (const group of ordered) {
    const languages = await Promise.all(group.map((name) => loadGrammar(name)));
    group.forEach((name, index) => parsers.set(name, parserFor(languages[index] as Language)));
  }
}

/** Loads every interpreter grammar. Idempotent; concurrent callers share one load; a failed load may be retried. */
export function loadCodeGrammars(): Promise<void> {
  if (!loading) {
    loading = load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}

export function grammarsReady(): boolean {
  return parsers.size === CODE_GRAMMARS.length;
}

export function assertGrammarsReady(): void {
  if (!grammarsReady()) {
    throw new Error('Interpreter grammars not ready: await loadCodeGrammars() before analyzeCode().');
  }
}

export interface ParsedCode {
  root: SyntaxNode;
  /** The grammar met text it could not read (ERROR or MISSING nodes). */
  hasError: boolean;
}

/** Parses `code`; undefined when parsing was still going at `deadline` (a Date.now() value). */
export function parseCode(grammar: CodeGrammar, code: string, deadline: number): ParsedCode | undefined {
  assertGrammarsReady();
  const parser = parsers.get(grammar) as Parser;
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
