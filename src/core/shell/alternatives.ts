// A variable that a branch may or may not have set holds one of several values at run time
// (`if …; then f=~/.ssh/id_rsa; else f=/dev/null; fi; cat $f`). The scope keeps the known ones; a word
// built from such variables is expanded once for each, and the command is given again with each
// value in its place (a variant), so every policy judges every path it may name.
import type { SyntaxNode } from './nodes';
import type { Scope } from './scope';
import type { SimpleCommand } from './types';
import { expandWord, singleWord, type Word, type WordContext } from './words';

/** More combinations than this are not expanded. */
const MAX_COMBINATIONS = 16;
const VARIABLE_NAME = /\$\{?([A-Za-z_]\w*)/g;

/** The variables the word names that hold one of several known values, with those values. */
function variablesWithAlternatives(nodes: readonly SyntaxNode[], ctx: WordContext): [string, readonly string[]][] {
  const found = new Map<string, readonly string[]>();
  for (const node of nodes)
    for (const match of node.text.matchAll(VARIABLE_NAME)) {
      const name = match[1]!;
      const values = found.has(name) ? undefined : ctx.scope.alternatives(name);
      if (values) found.set(name, values);
    }
  return [...found];
}

/** One value tried for a variable, as itself and as any element of it (`${a[1]}`: parameter.ts). */
function tryValue(scope: Scope, name: string, value: string): void {
  scope.assign(name, value);
  scope.assign(`${name}[]`, value);
}

/** Each assignment of one value to each variable, up to MAX_COMBINATIONS. */
function combinations(variables: [string, readonly string[]][]): Map<string, string>[] {
  let out: Map<string, string>[] = [new Map()];
  for (const [name, values] of variables) {
    out = out.flatMap((chosen) => values.map((value) => new Map(chosen).set(name, value)));
    if (out.length > MAX_COMBINATIONS) return out.slice(0, MAX_COMBINATIONS);
  }
  return out;
}

/** The values `nodes` takes as one word, for each combination of its variables' alternatives; undefined if none. */
function alternativesOf(
  nodes: SyntaxNode[],
  ctx: WordContext,
  expand: (nodes: SyntaxNode[], ctx: WordContext) => Word | undefined,
): string[] | undefined {
  const variables = variablesWithAlternatives(nodes, ctx);
  if (variables.length === 0) return undefined;
  const values = new Set<string>();
  for (const chosen of combinations(variables)) {
    const scope = ctx.scope.child();
    for (const [name, value] of chosen) tryValue(scope, name, value);
    const word = expand(nodes, { ...ctx, scope });
    if (word && !word.dynamic) values.add(word.value);
  }
  return values.size ? [...values] : undefined;
}

/**
 * `<(printf '%s\n' "$f")` with such a variable: the file holds one of several texts. Their lines
 * together are kept as its text, a superset of what any one run reads (xargs -a, a script run).
 */
export function unitedFileText(word: Word, nodes: SyntaxNode[], ctx: WordContext): string | undefined {
  if (word.fileText !== undefined || nodes.length !== 1 || nodes[0]?.type !== 'process_substitution') return undefined;
  const variables = variablesWithAlternatives(nodes, ctx);
  if (variables.length === 0) return undefined;
  const texts: string[] = [];
  for (const chosen of combinations(variables)) {
    const scope = ctx.scope.child();
    for (const [name, value] of chosen) tryValue(scope, name, value);
    const text = singleWord(nodes, { ...ctx, scope }).word.fileText;
    if (text === undefined) return undefined;
    texts.push(text.endsWith('\n') ? text : `${text}\n`);
  }
  return texts.join('');
}

/** Sets `word.alternatives` for a command word (one word after splitting) with such variables in it. */
export function withWordAlternatives(word: Word, nodes: SyntaxNode[], ctx: WordContext): void {
  const united = unitedFileText(word, nodes, ctx);
  if (united !== undefined) word.fileText = united;
  if (!word.dynamic) return;
  const values = alternativesOf(nodes, ctx, (n, c) => {
    const words = expandWord(n, c).words;
    return words.length === 1 ? words[0] : undefined;
  });
  if (values) word.alternatives = values;
}

/** The values a redirect target or other single word with such variables may take. */
export function singleWordAlternatives(word: Word, nodes: SyntaxNode[], ctx: WordContext): string[] | undefined {
  return word.dynamic ? alternativesOf(nodes, ctx, (n, c) => singleWord(n, c).word) : undefined;
}

/** More variants of one command than this are not made. */
const MAX_VARIANTS = 8;

/**
 * The command once for each value its words and redirect targets may take: the k-th variant gives
 * each such word its k-th value (its last, when it has fewer), so every value appears in one.
 */
export function commandVariants(command: SimpleCommand): SimpleCommand[] {
  const words = Object.entries(command.alternatives ?? {}).map(([at, values]) => [Number(at), values] as const);
  const redirected = command.redirects.some((r) => r.alternatives);
  if (words.length === 0 && !redirected) return [];
  const lengths = [...words.map(([, v]) => v.length), ...command.redirects.map((r) => r.alternatives?.length ?? 0)];
  const count = Math.min(MAX_VARIANTS, Math.max(...lengths));
  const varied = new Set(words.map(([at]) => at));
  const { alternatives: _alternatives, ...written } = command;
  const dynamicWords = command.dynamicWords.filter((i) => !varied.has(i));
  const variants: SimpleCommand[] = [];
  for (let k = 0; k < count; k++) {
    const argv = [...command.argv];
    for (const [at, values] of words) argv[at] = values[Math.min(k, values.length - 1)]!;
    const redirects = command.redirects.map((r) => {
      if (!r.alternatives) return r;
      const { alternatives, ...rest } = r;
      return { ...rest, target: alternatives[Math.min(k, alternatives.length - 1)]! };
    });
    variants.push({ ...written, argv, redirects, dynamicWords });
  }
  return variants;
}
