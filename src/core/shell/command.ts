// One simple command: its words, prefix assignments and redirects, and the commands it runs in turn.
import type { SyntaxNode } from './nodes';
import { deeper, inBranch, pipelinePlaceOf, type AnalysisState, type Place } from './context';
import { REDIRECT_TYPES, resolveRedirects, stdinLiteral, type ResolvedRedirects } from './redirects';
import { readsScriptFromStdin, scriptFileIndex, sshRunsItsInput } from './script-hops';
import type { PipelinePlace, Redirect, RunTimeOrigin, SimpleCommand, Via } from './types';
import { aliasBodies, aliasExpansion, recordAliases } from './aliases';
import { HOP_NAMES, hopsOf, xargsArgFile, type Hop } from './wrappers';
import { shellQuote } from './quote';
import { deployedExports, setsDeployedEnvironment } from './deployed-environment';
import { ROOT_WRAPPERS } from './cli-options';
import {
  optionHopsOf,
  readsCommandsFromStdin,
  runsCommandsThroughOptions,
  sftpRemoteCommands,
  stdinShellCommands,
  variableHopsOf,
} from './option-hops';
import { LITERAL_WRITERS, literalOutput } from './literal-output';
import { expandWord, singleWord, type Word, type WordContext } from './words';
import { assignReadInput, recordSubstitutionOrigins } from './origins';
import { commandVariants, withWordAlternatives } from './alternatives';

export function wordContext(state: AnalysisState, place: Place): WordContext {
  return { scope: place.scope, positional: place.frame.positional, limits: state };
}

/**
 * GNU's tools as Homebrew installs them on a Mac, beside the system's BSD ones: `gtar` is GNU tar, with
 * every option that runs a program, so each is read as the tool it is.
 */
const GNU_PREFIXED: ReadonlyMap<string, string> = new Map(
  [
    'tar',
    'sed',
    'find',
    'xargs',
    'rm',
    'cp',
    'mv',
    'dd',
    'shred',
    'ln',
    'chmod',
    'chown',
    'timeout',
    'env',
    'nohup',
    'nice',
    'stdbuf',
    'install',
    'make',
    'tee',
    'touch',
    'truncate',
    'base64',
    'cat',
    'head',
    'tail',
    'sort',
    'grep',
    'stat',
    'readlink',
    'realpath',
    'mktemp',
    'split',
    'rmdir',
    'unlink',
    'mkdir',
    'cut',
    'tr',
  ].map((tool) => [`g${tool}`, tool]),
);

/** Basename of argv[0]; for a partly dynamic word, the static part after its last slash if there is one. */
function commandName(word: Word | undefined): string {
  if (!word) return '';
  const text = word.dynamic ? word.staticTail : word.value;
  let end = text.length;
  while (end > 1 && text[end - 1] === '/') end--;
  const trimmed = text.slice(0, end);
  const slash = trimmed.lastIndexOf('/');
  const name = slash >= 0 ? trimmed.slice(slash + 1) : word.dynamic ? word.value : trimmed;
  // A cross debugger (`arm-none-eabi-gdb`, `gdb-multiarch`) takes gdb's options and commands.
  if (/^[\w.-]+-gdb$|^gdb-multiarch$/.test(name)) return 'gdb';
  const program = windowsProgram(name);
  return GNU_PREFIXED.get(program) ?? program;
}

/**
 * `op.exe`, `git-credential-manager.exe`, `wsl.exe`: WSL, Git Bash and MSYS run a Windows program by its
 * file name, and it takes the options of the program of that name.
 */
function windowsProgram(name: string): string {
  return name.length > 4 && /\.exe$/i.test(name) ? name.slice(0, -4) : name;
}

interface CommandParts {
  assignments: SyntaxNode[];
  words: SyntaxNode[][];
  redirects: SyntaxNode[];
}

const ESCAPED_BLANKS = /\\[ \t]/y;

/**
 * Splits a command node into prefix assignments, words (adjacent nodes form one word) and
 * redirects. The grammar takes a backslash-escaped blank after an expansion or a string, or at
 * the start of a word, for a separator; in bash it is part of the word (`"$d"\ x` is one word).
 */
function partsOf(
  node: SyntaxNode,
  glued: SyntaxNode | undefined,
  state: AnalysisState,
  frameSource: string,
): CommandParts {
  const parts: CommandParts = { assignments: [], words: [], redirects: [] };
  const source = frameSource;
  let previousEnd = -1;
  const addWordNode = (word: SyntaxNode): void => {
    let joined = word.startIndex === previousEnd;
    if (previousEnd >= 0 && !joined) {
      for (const run of escapedBlankRuns(source, previousEnd, word.startIndex)) {
        const piece = word.synthetic('word', run.start, run.end);
        const last = parts.words[parts.words.length - 1];
        if (run.start === previousEnd && last) last.push(piece);
        else parts.words.push([piece]);
        previousEnd = run.end;
      }
      joined = word.startIndex === previousEnd;
    }
    const last = parts.words[parts.words.length - 1];
    if (last && joined) last.push(word);
    else parts.words.push([word]);
    previousEnd = word.endIndex;
  };
  if (glued) addWordNode(glued);
  for (const child of node.children) {
    const field = child.field;
    if (child.type === 'variable_assignment' && parts.words.length === 0) parts.assignments.push(child);
    else if (REDIRECT_TYPES.has(child.type)) parts.redirects.push(child);
    else if (field === 'name' || child.type === 'command_name') for (const piece of child.children) addWordNode(piece);
    else if (field === 'argument') addWordNode(child);
    else if (child.type === 'ERROR') state.hasParseErrors = true;
  }
  // Escaped blanks right after the last word, which the grammar left out of the command.
  const lastWord = parts.words[parts.words.length - 1];
  if (lastWord && previousEnd >= 0) {
    const blanks = /^(?:[ \t]|\\[ \t])*/.exec(source.slice(previousEnd))?.[0] ?? '';
    for (const run of escapedBlankRuns(source, previousEnd, previousEnd + blanks.length)) {
      const piece = node.synthetic('word', run.start, run.end);
      if (run.start === previousEnd) (parts.words[parts.words.length - 1] as SyntaxNode[]).push(piece);
      else parts.words.push([piece]);
      previousEnd = run.end;
    }
  }
  return parts;
}

/** Runs of backslash-escaped blanks in source[from, to) when it holds blanks only (no comment, say). */
function escapedBlankRuns(source: string, from: number, to: number): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  if (!/^(?:[ \t]|\\[ \t])*$/.test(source.slice(from, to))) return runs;
  let i = from;
  while (i < to) {
    ESCAPED_BLANKS.lastIndex = i;
    if (!ESCAPED_BLANKS.test(source)) {
      i++;
      continue;
    }
    const start = i;
    while (i < to && ((ESCAPED_BLANKS.lastIndex = i), ESCAPED_BLANKS.test(source))) i += 2;
    runs.push({ start, end: i });
  }
  return runs;
}

/** The value an assignment gives, or undefined when it is only known at run time. */
export function assignedValue(
  state: AnalysisState,
  node: SyntaxNode,
  place: Place,
  scopeForLookup = place.scope,
): {
  name: string;
  value: string | undefined;
  text: string;
  substitutions: SyntaxNode[];
  elements?: readonly string[];
} {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const append = node.children.some((c) => c.type === '+=');
  if (!valueNode) return { name, value: append ? scopeValue(scopeForLookup, name) : '', text: '', substitutions: [] };
  const ctx = { ...wordContext(state, place), scope: scopeForLookup };
  if (valueNode.type === 'array') {
    const substitutions = valueNode.descendantsOfType(['command_substitution', 'process_substitution'], true);
    // `a=(x ~/.ssh/id_rsa)`: the elements known now, kept as the values the array may give.
    const elements = valueNode.namedChildren.flatMap((element) =>
      expandWord([element], ctx).words.flatMap((w) => (w.dynamic ? [] : [w.value])),
    );
    return { name, value: undefined, text: valueNode.text, substitutions, elements };
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
  if (place.loops) command.loops = [...place.loops];
  words.forEach((word, index) => {
    if (word.fileText !== undefined) (command.fileTexts ??= {})[index] = word.fileText;
    if (word.alternatives !== undefined) (command.alternatives ??= {})[index] = word.alternatives;
  });
  const origins = originsOf(words, place);
  if (origins) command.origins = origins;
  state.commands.push(command);
  const index = state.commands.length - 1;
  for (const variant of commandVariants(command)) state.commands.push({ ...variant, variantOf: index });
  return index;
}

// `$f`, `${f}`, and an array's elements `${fs[@]}` (the word's value keeps the `$` form when dynamic).
const ONE_VARIABLE = /^\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)(?:\[(?:@|\*|\d+)\])?\})$/;

/** The origins of the words that are one variable with a run-time value of known origin. */
function originsOf(words: readonly Word[], place: Place): Record<number, RunTimeOrigin> | undefined {
  let origins: Record<number, RunTimeOrigin> | undefined;
  words.forEach((word, index) => {
    const match = word.dynamic ? ONE_VARIABLE.exec(word.value) : null;
    const name = match ? (match[1] ?? match[2]) : undefined;
    const origin = name === undefined ? undefined : place.scope.origin(name);
    if (origin) (origins ??= {})[index] = origin;
  });
  return origins;
}

/** `(( … ))` in a command's place, which the grammar reads as a command named by an arithmetic expansion. */
function isArithmeticCommand(words: readonly SyntaxNode[][]): boolean {
  const only = words.length === 1 && words[0]!.length === 1 ? words[0]![0]! : undefined;
  return only?.type === 'arithmetic_expansion' && only.text.startsWith('((');
}

/** Emits a command node (with the redirects of its redirected_statement) and everything nested in it. */
export function emitCommand(
  state: AnalysisState,
  node: SyntaxNode | undefined,
  outer: ResolvedRedirects,
  place: Place,
  glued?: SyntaxNode,
): void {
  const parts = node ? partsOf(node, glued, state, place.frame.source) : { assignments: [], words: [], redirects: [] };
  // Prefix assignments (X=1 cmd) hold for this command only.
  const local = parts.assignments.length > 0 ? place.scope.child() : place.scope;
  const localPlace: Place = local === place.scope ? place : { ...place, scope: local };
  const assignments: Record<string, string> = {};
  const ownSubstitutions: SyntaxNode[] = [...outer.substitutions];
  for (const assignment of parts.assignments) {
    const { name, value, text, substitutions } = assignedValue(state, assignment, localPlace, local);
    local.assign(name, value, { exported: true });
    assignments[name] = text;
    ownSubstitutions.push(...substitutions);
  }
  const ctx = wordContext(state, localPlace);
  const words: Word[] = [];
  const groups: { words: Word[]; substitutions: SyntaxNode[] }[] = [];
  for (const group of parts.words) {
    const expanded = expandWord(group, groups.length === 0 ? { ...ctx, programName: true } : ctx);
    if (expanded.words.length === 1 && groups.length > 0) withWordAlternatives(expanded.words[0]!, group, ctx);
    groups.push(expanded);
    words.push(...expanded.words);
  }
  // `(( n > 3 ))` evaluates arithmetic in the shell and runs no program; what it substitutes still runs.
  if (isArithmeticCommand(parts.words)) words.length = 0;
  const own = resolveRedirects(parts.redirects, ctx);
  ownSubstitutions.push(...own.substitutions);
  const redirects = [...own.redirects, ...outer.redirects, ...place.redirects];
  const start = Math.min(node?.startIndex ?? Infinity, glued?.startIndex ?? Infinity);
  const end = Math.max(node?.endIndex ?? -1, own.end, outer.end);
  const text = Number.isFinite(start) ? place.frame.source.slice(start, end) : '';

  if (words.length === 0 && redirects.length === 0) {
    // Assignments alone (X=1 $EMPTY) stay in the shell, like a plain assignment.
    for (const name of Object.keys(assignments)) place.scope.assign(name, scopeValue(local, name));
    state.walker.walkSubstitutions(state, [...ownSubstitutions, ...groups.flatMap((g) => g.substitutions)], place);
    return;
  }
  // What the script exported before this command is in its environment too (prefix assignments win).
  const exported = place.scope.scriptExports();
  const environment = Object.keys(exported).length ? { ...exported, ...assignments } : assignments;
  const index = newCommand(state, words, place, { assignments: environment, redirects, text });
  if (environment !== assignments) state.prefixOnly.set(index, assignments);
  const owners = new Map<Word, number>();
  let skip: Set<string> | undefined;
  // Substitutions this command's words already hold, for a string re-parsed from those words.
  const walked = (): ReadonlySet<string> =>
    (skip ??= new Set([...ownSubstitutions, ...groups.flatMap((g) => g.substitutions)].map((n) => n.text)));
  followHops(state, {
    index,
    words,
    topWords: words,
    place: localPlace,
    shellScope: place.scope,
    stdin: redirects,
    owners,
    walked,
    chainAssignments: {},
  });
  afterCommand(words, place);
  recordAliases(commandName(words[0]), words, place, end);
  if (ownSubstitutions.length > 0) state.walker.walkSubstitutions(state, ownSubstitutions, { ...place, parent: index });
  for (const group of groups) {
    if (group.substitutions.length === 0) continue;
    const owner = group.words[0] ? (owners.get(group.words[0]) ?? index) : index;
    state.walker.walkSubstitutions(state, group.substitutions, { ...place, parent: owner });
  }
  recordSubstitutionOrigins(state, words, owners, index);
  // Once its `< <(…)` has run: what the command's read put in its variables.
  assignReadInput(state, words, redirects, place, local.lookup('IFS'));
  for (const statement of [...own.trailing, ...outer.trailing])
    inBranch(place, (inside) => state.walker.walkStatement(state, statement, inside));
}

interface HopContext {
  index: number;
  words: Word[];
  /** The words of the command as written; only they can be an alias. */
  topWords: Word[];
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
  const aliased = hc.words === hc.topWords ? aliasExpansion(hc.words, hc.place) : undefined;
  if (aliased !== undefined) followScriptHop(state, hc, 'alias', aliased, {});
  // `f() { cat "$1"; }; f ~/.aws/credentials`: the body runs with the call's words as $1, $2, ….
  const body = hc.words === hc.topWords ? hc.place.scope.functionBody(name) : undefined;
  if (body !== undefined)
    followScriptHop(state, hc, 'function', body, {
      positional: [hc.place.frame.positional?.[0], ...hc.words.slice(1).map((w) => (w.dynamic ? undefined : w.value))],
    });
  if (name === 'alias' && hc.words === hc.topWords)
    for (const body of aliasBodies(hc.words)) followScriptHop(state, hc, 'alias', body, {});
  // An exported command variable (GIT_SSH_COMMAND) was followed where it was exported (followExportedHops).
  const prefix = state.prefixOnly.get(hc.index) ?? state.commands[hc.index]?.assignments ?? {};
  for (const hop of variableHopsOf(prefix)) followScriptHop(state, hc, hop.via, hop.script, hop);
  // `heroku config:set NODE_OPTIONS=…`: the variables every process of the app starts with.
  const deployed = setsDeployedEnvironment(name)
    ? deployedExports(name, { argv: hc.words.map((w) => (w.dynamic ? '' : w.value)), dynamic: new Set() })
    : undefined;
  if (deployed !== undefined) followScriptHop(state, hc, 'wrapper', deployed, { wrapper: `${name} environment` });
  if (
    !HOP_NAMES.has(name) &&
    !runsCommandsThroughOptions(name) &&
    !readsCommandsFromStdin(name) &&
    !(hc.place.pipeline && LITERAL_WRITERS.has(name))
  )
    return;
  const view = {
    argv: hc.words.map((w) => w.value),
    dynamic: new Set(hc.words.flatMap((w, i) => (w.dynamic ? [i] : []))),
  };
  const hops = hopsOf(name, view);
  for (const hop of optionHopsOf(name, view)) followScriptHop(state, hc, hop.via, hop.script, hop);
  for (const hop of hops) {
    if (hop.kind === 'argv') followArgvHop(state, hc, hop);
    else followScriptHop(state, hc, hop.via, hop.script, hop);
  }
  // `bash <(echo …)`, `source <(printf …)`: the script is the file's known text.
  const scriptFile = scriptFileIndex(name, view);
  const fileText = scriptFile === undefined ? undefined : hc.words[scriptFile]?.fileText;
  if (scriptFile !== undefined && fileText !== undefined) {
    const positional = view.argv
      .slice(scriptFile)
      .map((word, k) => (view.dynamic.has(scriptFile + k) ? undefined : word));
    followScriptHop(state, hc, 'bash-c', fileText, { positional });
  }
  // What the command reads: its own heredoc or here-string, else the stage before it in a pipeline.
  const stage = hc.place.pipeline;
  const fromRedirect = stdinLiteral(hc.stdin);
  const fromPipe = stage && stage.place.index > 0 ? stage.feed.outputs[stage.place.index - 1] : undefined;
  if (readsScriptFromStdin(name, view, hops.length > 0)) {
    if (fromRedirect !== undefined) followScriptHop(state, hc, 'heredoc-shell', fromRedirect, {});
    else if (fromPipe !== undefined) followScriptHop(state, hc, 'pipe-to-shell', fromPipe, {});
  }
  const stdinText = fromRedirect ?? fromPipe ?? (name === 'xargs' ? xargsArgFileText(hc.words) : undefined);
  if (stdinText !== undefined)
    for (const script of stdinShellCommands(name, stdinText)) followScriptHop(state, hc, 'option', script, {});
  // `ssh host <<EOF`, `ssh host bash -s <<EOF`: the remote shell runs what ssh is given to read.
  if (name === 'ssh' && stdinText !== undefined && sshRunsItsInput(view))
    followScriptHop(state, hc, 'ssh', stdinText, { wrapper: 'ssh' });
  // What an sftp batch changes on the server runs there, as a command ssh hands over would.
  if (name === 'sftp' && stdinText !== undefined)
    for (const script of sftpRemoteCommands(stdinText)) followScriptHop(state, hc, 'ssh', script, { wrapper: 'sftp' });
  // `printf 'lookup service x' | xargs secret-tool`: xargs appends the words it reads to its command.
  const xargsCommand =
    name === 'xargs' && stdinText !== undefined && stdinText.length <= 4096
      ? hops.find((h) => h.kind === 'argv')
      : undefined;
  if (xargsCommand?.kind === 'argv' && !view.argv.some((w) => /^-(I|i|0|d|-null|-delimiter|-replace)/.test(w)))
    followScriptHop(
      state,
      hc,
      'xargs',
      [...view.argv.slice(xargsCommand.from, xargsCommand.to), ...(stdinText ?? '').split(/\s+/).filter(Boolean)]
        .map(shellQuote)
        .join(' '),
      { wrapper: 'xargs' },
    );
  if (stage) {
    const output = literalOutput(name, view, fromRedirect ?? fromPipe);
    if (output !== undefined) stage.feed.outputs[stage.place.index] = output;
  }
}

/** `xargs -a <(echo …) CMD`: xargs reads its words from that file instead of its input. */
function xargsArgFileText(words: readonly Word[]): string | undefined {
  const file = xargsArgFile(words.map((w) => w.value));
  return file && 'index' in file ? words[file.index]?.fileText : undefined;
}

/**
 * The wrapper's redirects that the command it runs inherits: `command cat > f <<EOF`, `env nc host < .env`,
 * `timeout 5 tee x <<< …` open their files for the program inside (a wrapper execs it, or starts it with
 * its own descriptors), so the program's writes and reads are those files. xargs keeps its input for its
 * own words, and hands its command only where output goes. A remote command (`kubectl exec`, `docker
 * exec`) writes and opens nothing here itself, but it reads the text a heredoc or here-string sends it
 * (`docker exec -i db psql <<SQL`). A root wrapper's files are opened by the person's shell, not as
 * root (`sudo cmd > /etc/x` fails), so the root command is not given them.
 */
function inheritedRedirects(hop: { via: Via; wrapper: string }, redirects: readonly Redirect[]): Redirect[] {
  if (ROOT_WRAPPERS.has(hop.wrapper)) return [];
  const { via } = hop;
  if (via === 'wrapper' || via === 'find-exec') return [...redirects];
  if (via === 'xargs') return redirects.filter((r) => !r.op.startsWith('<'));
  if (via === 'ssh') return redirects.filter((r) => r.op.startsWith('<<'));
  return [];
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
  const wrapper = state.commands[hc.index];
  const pipeline = wrapper?.pipeline;
  const index = newCommand(state, innerWords, place, {
    assignments: hop.assignments,
    redirects: inheritedRedirects(hop, wrapper?.redirects ?? []),
    text,
    ...(pipeline ? { pipeline } : {}),
  });
  for (const word of innerWords) hc.owners.set(word, index);
  const chainAssignments: Record<string, string | undefined> = { ...hc.chainAssignments, ...hop.assignments };
  for (const name of hop.unknownAssignments) chainAssignments[name] = undefined;
  followHops(state, { ...hc, index, words: innerWords, place, chainAssignments });
}

/**
 * What `export NAME=VALUE` (or `declare -x`) sets for every program the shell starts after it: a
 * command variable there (`export LESSOPEN='|…'`, `export GIT_SSH_COMMAND=…`) is a hop of the export.
 */
export function followExportedHops(
  state: AnalysisState,
  index: number,
  place: Place,
  exported: Record<string, string>,
): void {
  const hc: HopContext = {
    index,
    words: [],
    topWords: [],
    place,
    shellScope: place.scope,
    stdin: [],
    owners: new Map(),
    walked: () => new Set(),
    chainAssignments: {},
  };
  for (const hop of variableHopsOf(exported)) followScriptHop(state, hc, hop.via, hop.script, hop);
}

function followScriptHop(
  state: AnalysisState,
  hc: HopContext,
  via: Via,
  script: string,
  hop: { wrapper?: string; positional?: (string | undefined)[] },
): void {
  // eval, an alias and a function run in the same shell; the others start a new one that inherits exported variables.
  const sameShell = via === 'eval' || via === 'alias' || via === 'function';
  const scope = sameShell ? hc.shellScope : hc.place.scope.exportedOnly();
  if (!sameShell)
    for (const [name, value] of Object.entries(hc.chainAssignments)) scope.assign(name, value, { exported: true });
  const place = deeper(state, hc.place, via, {
    parent: hc.index,
    wrappers: hop.wrapper ? [...hc.place.wrappers, hop.wrapper] : hc.place.wrappers,
    scope,
    pipeline: undefined,
    redirects: [],
  });
  if (!place) return;
  const positional = hop.positional ?? (sameShell ? hc.place.frame.positional : undefined);
  state.walker.analyzeSource(state, script, {
    ...place,
    frame: { source: script, skipSubstitutions: hc.walked(), positional },
  });
}

/** Builtins that set variables to values only known at run time. */
function afterCommand(words: Word[], place: Place): void {
  const name = commandName(words[0]);
  const args = words.slice(1).map((w) => w.value);
  let names: string[] = [];
  if (name === 'getopts') names = args.filter((a) => /^[A-Za-z_]\w*$/.test(a));
  else if (name === 'printf') {
    const v = args.indexOf('-v');
    if (v >= 0 && args[v + 1] !== undefined) names = [args[v + 1] as string];
  } else if (name === 'cd' || name === 'pushd' || name === 'popd') names = ['PWD', 'OLDPWD'];
  else if (name === 'set') setPositional(words.slice(1), place);
  for (const variable of names) place.scope.assign(variable, undefined);
}

/**
 * `set -- a b`, `set a b`: the script's $1, $2, … from here on: its frame's own arguments when it has
 * them, else kept in the scope as the variables `1`, `2`, … (words.ts reads them there).
 */
function setPositional(args: readonly Word[], place: Place): void {
  const dashes = args.findIndex((w) => w.value === '--');
  const first = args[0]?.value ?? '';
  if (dashes < 0 && (args.length === 0 || /^[-+]/.test(first))) return;
  const values = dashes < 0 ? args : args.slice(dashes + 1);
  // In a source with arguments of its own (a function's body, a `bash -c` string), those are what it sets.
  if (place.frame.positional !== undefined) {
    place.frame.positional = [place.frame.positional[0], ...values.map((w) => (w.dynamic ? undefined : w.value))];
    return;
  }
  for (let k = 1; k <= Math.max(9, values.length); k++) {
    const word = values[k - 1];
    place.scope.assign(String(k), word === undefined ? '' : word.dynamic ? undefined : word.value);
  }
}
