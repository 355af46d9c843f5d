// One simple command: its words, prefix assignments and redirects, and the commands it runs in turn.
import type { SyntaxNode } from './nodes';
import { deeper, pipelinePlaceOf, type AnalysisState, type Place } from './context';
import { REDIRECT_TYPES, resolveRedirects, stdinLiteral, type ResolvedRedirects } from './redirects';
import { readShellInvocation, SHELLS } from './script-hops';
import type { PipelinePlace, Redirect, SimpleCommand, Via } from './types';
import { analyzeSource, walkStatement, walkSubstitutions } from './walker';
import { HOP_NAMES, hopsOf, type Hop } from './wrappers';
import { expandWord, singleWord, type Word, type WordContext } from './words';

export function wordContext(place: Place): WordContext {
  return { scope: place.scope, positional: place.frame.positional };
}

/** Basename of argv[0]; for a partly dynamic word, the static part after its last slash if there is one. */
export function commandName(word: Word | undefined): string {
  if (!word) return '';
  const text = word.dynamic ? word.staticTail : word.value;
  let end = text.length;
  while (end > 1 && text[end - 1] === '/') end--;
  const trimmed = text.slice(0, end);
  const slash = trimmed.lastIndexOf('/');
  if (slash >= 0) return trimmed.slice(slash + 1);
  return word.dynamic ? word.value : trimmed;
}

interface CommandParts {
  assignments: SyntaxNode[];
  words: SyntaxNode[][];
  redirects: SyntaxNode[];
}

/** Splits a command node into prefix assignments, words (adjacent nodes form one word) and redirects. */
function partsOf(node: SyntaxNode, glued: SyntaxNode | undefined, state: AnalysisState): CommandParts {
  const parts: CommandParts = { assignments: [], words: [], redirects: [] };
  let previousEnd = -1;
  const addWordNode = (word: SyntaxNode): void => {
    const last = parts.words[parts.words.length - 1];
    if (last && word.startIndex === previousEnd) last.push(word);
    else parts.words.push([word]);
    previousEnd = word.endIndex;
  };
  if (glued) addWordNode(glued);
  for (const child of node.children) {
    const field = child.field;
    if (child.type === 'variable_assignment' && parts.words.length === 0) parts.assignments.push(child);
    else if (REDIRECT_TYPES.has(child.type)) parts.redirects.push(child);
    else if (field === 'name') for (const piece of child.children) addWordNode(piece);
    else if (field === 'argument') addWordNode(child);
    else if (child.type === 'ERROR') state.hasParseErrors = true;
  }
  return parts;
}

/** The value an assignment gives, or undefined when it is only known at run time. */
export function assignedValue(node: SyntaxNode, place: Place, scopeForLookup = place.scope): { name: string; value: string | undefined; text: string; substitutions: SyntaxNode[] } {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const append = node.children.some((c) => c.type === '+=');
  if (!valueNode) return { name, value: append ? scopeValue(scopeForLookup, name) : '', text: '', substitutions: [] };
  const ctx = { ...wordContext(place), scope: scopeForLookup };
  if (valueNode.type === 'array') {
    const substitutions = valueNode.descendantsOfType(['command_substitution', 'process_substitution'], true);
    return { name, value: undefined, text: valueNode.text, substitutions };
  }
  const { word, substitutions } = singleWord([valueNode], ctx, { assignment: true });
  let value = word.dynamic ? undefined : word.value;
  if (append) {
    const previous = scopeValue(scopeForLookup, name);
    value = previous === undefined || value === undefined ? undefined : previous + value;
  }
  return { name, value, text: word.value, substitutions };
}

function scopeValue(scope: Place['scope'], name: string): string | undefined {
  const found = scope.lookup(name);
  return found.known ? found.value : undefined;
}

function newCommand(
  state: AnalysisState,
  words: Word[],
  place: Place,
  extra: { assignments: Record<string, string>; redirects: Redirect[]; text: string; pipeline?: PipelinePlace },
): number {
  const command: SimpleCommand = {
    argv: words.map((w) => w.value),
    name: commandName(words[0]),
    dynamicWords: words.flatMap((w, i) => (w.dynamic ? [i] : [])),
    assignments: extra.assignments,
    redirects: extra.redirects,
    pipeline: extra.pipeline ?? pipelinePlaceOf(state, place),
    background: place.background,
    via: [...place.via],
    wrappers: [...place.wrappers],
    text: extra.text,
  };
  if (place.parent !== undefined) command.parent = place.parent;
  state.commands.push(command);
  return state.commands.length - 1;
}

/** Emits a command node (with the redirects of its redirected_statement) and everything nested in it. */
export function emitCommand(state: AnalysisState, node: SyntaxNode | undefined, outer: ResolvedRedirects, place: Place, glued?: SyntaxNode): void {
  const parts = node ? partsOf(node, glued, state) : { assignments: [], words: [], redirects: [] };
  // Prefix assignments (X=1 cmd) hold for this command only.
  const local = parts.assignments.length > 0 ? place.scope.child() : place.scope;
  const localPlace: Place = local === place.scope ? place : { ...place, scope: local };
  const assignments: Record<string, string> = {};
  const ownSubstitutions: SyntaxNode[] = [...outer.substitutions];
  for (const assignment of parts.assignments) {
    const { name, value, text, substitutions } = assignedValue(assignment, localPlace, local);
    local.assign(name, value, { conditional: false, exported: true });
    assignments[name] = text;
    ownSubstitutions.push(...substitutions);
  }
  const ctx = wordContext(localPlace);
  const words: Word[] = [];
  const groups: { words: Word[]; substitutions: SyntaxNode[] }[] = [];
  for (const group of parts.words) {
    const expanded = expandWord(group, ctx);
    groups.push(expanded);
    words.push(...expanded.words);
  }
  const own = resolveRedirects(parts.redirects, ctx);
  ownSubstitutions.push(...own.substitutions);
  const redirects = [...own.redirects, ...outer.redirects, ...place.redirects];
  const start = Math.min(node?.startIndex ?? Infinity, glued?.startIndex ?? Infinity);
  const end = Math.max(node?.endIndex ?? -1, own.end, outer.end);
  const text = Number.isFinite(start) ? place.frame.source.slice(start, end) : '';

  if (words.length === 0 && redirects.length === 0) {
    // Assignments alone (X=1 $EMPTY) stay in the shell, like a plain assignment.
    for (const name of Object.keys(assignments)) place.scope.assign(name, scopeValue(local, name), { conditional: place.conditional });
    walkSubstitutions(state, [...ownSubstitutions, ...groups.flatMap((g) => g.substitutions)], place);
    return;
  }
  const index = newCommand(state, words, place, { assignments, redirects, text });
  const owners = new Map<Word, number>();
  let skip: Set<string> | undefined;
  // Substitutions this command's words already hold, for a string re-parsed from those words.
  const walked = (): ReadonlySet<string> => (skip ??= new Set([...ownSubstitutions, ...groups.flatMap((g) => g.substitutions)].map((n) => n.text)));
  followHops(state, { index, words, place: localPlace, shellScope: place.scope, stdin: redirects, owners, walked, chainAssignments: {} });
  afterCommand(words, place);
  if (ownSubstitutions.length > 0) walkSubstitutions(state, ownSubstitutions, { ...place, parent: index });
  for (const group of groups) {
    if (group.substitutions.length === 0) continue;
    const owner = group.words[0] ? owners.get(group.words[0]) ?? index : index;
    walkSubstitutions(state, group.substitutions, { ...place, parent: owner });
  }
  for (const statement of [...own.trailing, ...outer.trailing]) walkStatement(state, statement, { ...place, conditional: true });
}

interface HopContext {
  index: number;
  words: Word[];
  place: Place;
  /** The redirects that feed this command's stdin (the outermost command's, shared by its wrapped ones). */
  stdin: readonly Redirect[];
  /** The scope of the shell running the command (eval changes it). */
  shellScope: Place['scope'];
  /** Which command each word ended up in, for the substitutions inside it (set by wrappers). */
  owners: Map<Word, number>;
  walked: () => ReadonlySet<string>;
  /** Variables that wrappers (env X=1) set for the commands they run; undefined when dynamic. */
  chainAssignments: Record<string, string | undefined>;
}

function followHops(state: AnalysisState, hc: HopContext): void {
  const first = hc.words[0];
  if (!first || first.dynamic) return;
  const name = commandName(first);
  if (!HOP_NAMES.has(name) && !(hc.place.pipeline && LITERAL_WRITERS.has(name))) return;
  const view = { argv: hc.words.map((w) => w.value), dynamic: new Set(hc.words.flatMap((w, i) => (w.dynamic ? [i] : []))) };
  for (const hop of hopsOf(name, view)) {
    if (hop.kind === 'argv') followArgvHop(state, hc, hop);
    else followScriptHop(state, hc, hop.via, hop.script, hop);
  }
  if (SHELLS.has(name) && readShellInvocation(view, name).readsStdin) {
    const fromRedirect = stdinLiteral(hc.stdin);
    const stage = hc.place.pipeline;
    const fromPipe = stage && stage.place.index > 0 ? stage.feed.outputs[stage.place.index - 1] : undefined;
    if (fromRedirect !== undefined) followScriptHop(state, hc, 'heredoc-shell', fromRedirect, {});
    else if (fromPipe !== undefined) followScriptHop(state, hc, 'pipe-to-shell', fromPipe, {});
  }
  recordLiteralOutput(name, view.argv, view.dynamic, hc);
}

function followArgvHop(state: AnalysisState, hc: HopContext, hop: Extract<Hop, { kind: 'argv' }>): void {
  const innerWords = hc.words.slice(hop.from, hop.to);
  const firstInner = innerWords[0];
  const lastInner = innerWords[innerWords.length - 1];
  if (!firstInner || !lastInner) return;
  const place = deeper(state, hc.place, hop.via, { parent: hc.index, wrappers: [...hc.place.wrappers, hop.wrapper] });
  if (!place) return;
  const text = hc.place.frame.source.slice(firstInner.start, lastInner.end);
  // A wrapped command shares its wrapper's process slot: same pipeline stage.
  const pipeline = state.commands[hc.index]?.pipeline;
  const index = newCommand(state, innerWords, place, { assignments: hop.assignments, redirects: [], text, ...(pipeline ? { pipeline } : {}) });
  for (const word of innerWords) hc.owners.set(word, index);
  const chainAssignments: Record<string, string | undefined> = { ...hc.chainAssignments, ...hop.assignments };
  for (const name of hop.unknownAssignments) chainAssignments[name] = undefined;
  followHops(state, { ...hc, index, words: innerWords, place, chainAssignments });
}

function followScriptHop(state: AnalysisState, hc: HopContext, via: Via, script: string, hop: { wrapper?: string; positional?: (string | undefined)[] }): void {
  // eval runs in the same shell; the others start a new one that inherits exported variables.
  const scope = via === 'eval' ? hc.shellScope : hc.place.scope.exportedOnly();
  if (via !== 'eval') for (const [name, value] of Object.entries(hc.chainAssignments)) scope.assign(name, value, { conditional: false, exported: true });
  const place = deeper(state, hc.place, via, {
    parent: hc.index,
    wrappers: hop.wrapper ? [...hc.place.wrappers, hop.wrapper] : hc.place.wrappers,
    scope,
    pipeline: undefined,
    redirects: [],
    conditional: via === 'eval' ? hc.place.conditional : false,
  });
  if (!place) return;
  const positional = hop.positional ?? (via === 'eval' ? hc.place.frame.positional : undefined);
  analyzeSource(state, script, { ...place, frame: { source: script, skipSubstitutions: hc.walked(), positional } });
}

const LITERAL_WRITERS = new Set(['echo', 'printf', 'cat']);

/** Remembers what a pipeline stage writes when it is a literal, for a shell reading it further on. */
function recordLiteralOutput(name: string, argv: string[], dynamic: ReadonlySet<number>, hc: HopContext): void {
  const stage = hc.place.pipeline;
  if (!stage) return;
  let output: string | undefined;
  if (dynamic.size === 0 && name === 'echo') output = echoOutput(argv.slice(1));
  else if (dynamic.size === 0 && name === 'printf' && argv.length === 2) output = printfOutput(argv[1] as string);
  else if (name === 'cat' && argv.length === 1) output = stdinLiteral(hc.stdin);
  if (output !== undefined) stage.feed.outputs[stage.place.index] = output;
}

function printfOutput(format: string): string | undefined {
  if (/%[^%]/.test(format.replace(/%%/g, ''))) return undefined;
  return format.replace(/%%/g, '%').replace(/\\([nt\\])/g, (_, ch: string) => (ch === 'n' ? '\n' : ch === 't' ? '\t' : '\\'));
}

function echoOutput(args: string[]): string {
  let newline = true;
  let escapes = false;
  while (args[0] !== undefined && /^-[neE]+$/.test(args[0])) {
    const flags = args.shift() as string;
    if (flags.includes('n')) newline = false;
    if (flags.includes('e')) escapes = true;
  }
  let text = args.join(' ');
  if (escapes) text = text.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  return newline ? text + '\n' : text;
}

/** Builtins that set variables to values only known at run time. */
function afterCommand(words: Word[], place: Place): void {
  const name = commandName(words[0]);
  const args = words.slice(1).map((w) => w.value);
  let names: string[] = [];
  if (name === 'read' || name === 'mapfile' || name === 'readarray' || name === 'getopts') names = args.filter((a) => /^[A-Za-z_]\w*$/.test(a)).concat(['REPLY', 'MAPFILE']);
  else if (name === 'printf') {
    const v = args.indexOf('-v');
    if (v >= 0 && args[v + 1] !== undefined) names = [args[v + 1] as string];
  } else if (name === 'cd' || name === 'pushd' || name === 'popd') names = ['PWD', 'OLDPWD'];
  for (const variable of names) place.scope.assign(variable, undefined, { conditional: false });
}
