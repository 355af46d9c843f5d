// Walks a bash syntax tree statement by statement, following everything that runs commands.
import { SyntaxNode } from './nodes';
import { assignedValue, emitCommand, followExportedHops, wordContext } from './command';
import {
  deeper,
  emittedSince,
  inBranch,
  MAX_NESTING,
  pipelinePlaceOf,
  type AnalysisState,
  type Place,
} from './context';
import { prepareTree } from './prepare';
import { resolveRedirects, REDIRECT_TYPES, type ResolvedRedirects } from './redirects';
import { topLevelBreaks } from './split';
import { expandWord } from './words';
import type { ForLoop, RunTimeOrigin } from './types';

const NO_REDIRECTS: ResolvedRedirects = {
  redirects: [],
  substitutions: [],
  trailing: [],
  pipeTail: undefined,
  end: -1,
};
const SUBSTITUTIONS = ['command_substitution', 'process_substitution'];
/** Pieces this long or shorter are parsed whole; parse time grows faster than their length. */
const PIECE_SIZE = 512;
const CONTROL = new Set([
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'case_item',
]);
const BLOCKS = new Set(['program', 'compound_statement', 'do_group']);
/** SyntaxNode types whose children are statements or words that the generic walk handles. */
const STATEMENTS = new Set([
  'command',
  'redirected_statement',
  'pipeline',
  'list',
  'subshell',
  'compound_statement',
  'function_definition',
  'negated_command',
  'variable_assignment',
  'variable_assignments',
  'declaration_command',
  'unset_command',
  'test_command',
  'do_group',
  'ERROR',
  ...CONTROL,
]);

/**
 * Parses `source` and walks it at `place`, a top-level piece at a time (see split.ts). Returns the
 * comments' ranges in `source`.
 */
export function analyzeSource(state: AnalysisState, source: string, place: Place): { start: number; end: number }[] {
  const comments: { start: number; end: number }[] = [];
  for (const piece of pieces(source)) {
    const prepared = prepareTree(piece.text, state.deadline);
    if (!prepared) {
      // Out of time: what was not read is unknown.
      state.hasParseErrors = true;
      state.truncated = true;
      break;
    }
    const root = prepared.root;
    if (prepared.hasError) state.hasParseErrors = true;
    for (const comment of root.descendantsOfType(['comment'])) {
      state.comments.push(comment.text.replace(/^#/, ''));
      comments.push({
        start: piece.offset + prepared.toInput(comment.startIndex),
        end: piece.offset + prepared.toInput(comment.endIndex),
      });
    }
    walkBlock(state, root, { ...place, frame: { ...place.frame, source: prepared.source } });
  }
  return comments;
}

/** Consecutive top-level lines grouped into pieces of at least PIECE_SIZE characters. */
function pieces(source: string): { text: string; offset: number }[] {
  if (source.length <= PIECE_SIZE) return [{ text: source, offset: 0 }];
  const result: { text: string; offset: number }[] = [];
  let start = 0;
  for (const cut of topLevelBreaks(source)) {
    if (cut - start < PIECE_SIZE) continue;
    result.push({ text: source.slice(start, cut), offset: start });
    start = cut;
  }
  if (start < source.length || result.length === 0) result.push({ text: source.slice(start), offset: start });
  return result;
}

/** Statements of a block, in order; one followed by `&` runs in the background. */
function walkBlock(state: AnalysisState, node: SyntaxNode, place: Place, body: Place = place): void {
  const children = node.children;
  let loopStart = state.commands.length;
  const bodyPlace =
    node.type === 'for_statement' ? { ...body, loops: [...(body.loops ?? []), forLoopOf(state, node, place)] } : body;
  for (let k = 0; k < children.length; k++) {
    const child = children[k] as SyntaxNode;
    const field = child.field;
    const next = children[k + 1];
    const background = next?.type === '&' && !next.isNamed;
    const target = CONTROL.has(node.type) && field !== 'condition' && field !== 'value' ? bodyPlace : place;
    if (!child.isNamed) {
      // An ERROR can hold `{` glued to the command after it: the first word of `{rm,-rf,~}`.
      if (
        node.type === 'ERROR' &&
        child.type === '{' &&
        next &&
        next.startIndex === child.endIndex &&
        (next.type === 'command' || next.type === 'command_name')
      ) {
        emitCommand(
          state,
          next.type === 'command' ? next : SyntaxNode.around('command', [next], node),
          NO_REDIRECTS,
          target,
          child,
        );
        k++;
      }
      continue;
    }
    if (node.type === 'for_statement' && field === 'variable') {
      place.scope.assign(child.text, undefined);
      loopStart = state.commands.length;
      continue;
    }
    if (node.type === 'for_statement' && field === 'body') loopOrigin(state, node, place, loopStart);
    walkStatement(state, child, background ? { ...target, background: true } : target);
  }
}

/**
 * `for f in $(ls ~/.ssh/id_*)`: when every word of the loop is one whole substitution, the variable
 * holds, each time round, part of what the commands run since `first` printed.
 */
function loopOrigin(state: AnalysisState, node: SyntaxNode, place: Place, first: number): void {
  const variable = node.childForFieldName('variable')?.text;
  const words = node.children.filter((c) => c.field === 'value');
  if (!variable || words.length === 0 || !words.every(isWholeSubstitution) || state.commands.length <= first) return;
  place.scope.assign(variable, undefined, { origin: { kind: 'output', commands: emittedSince(state, first) } });
}

function isWholeSubstitution(word: SyntaxNode): boolean {
  if (word.type === 'command_substitution') return true;
  const inner = word.type === 'string' && word.namedChildren.length === 1 ? word.namedChildren[0] : undefined;
  return inner?.type === 'command_substitution' && word.text === `"${inner.text}"`;
}

/** `for NAME in WORDS`: the variable, and the words as written and as expanded. */
function forLoopOf(state: AnalysisState, node: SyntaxNode, place: Place): ForLoop {
  const words = node.children.filter((c) => c.field === 'value');
  const values = words.flatMap((word) =>
    expandWord([word], wordContext(state, place)).words.flatMap((w) => (w.dynamic ? [] : [w.value])),
  );
  return { variable: node.childForFieldName('variable')?.text ?? '', words: words.map((c) => c.text), values };
}

export function walkStatement(state: AnalysisState, node: SyntaxNode, outerPlace: Place): void {
  if (outerPlace.nesting >= MAX_NESTING) {
    state.truncated = true;
    return;
  }
  const place = { ...outerPlace, nesting: outerPlace.nesting + 1 };
  switch (node.type) {
    case 'command':
      return emitCommand(state, node, NO_REDIRECTS, place);
    case 'redirected_statement':
      return walkRedirected(state, node, place);
    case 'pipeline':
      return walkPipelineNode(state, node, place);
    case 'list':
      return walkList(state, node, place);
    case 'subshell': {
      const inner = deeper(state, place, 'subshell', { scope: place.scope.child() });
      if (inner) walkBlock(state, node, inner);
      return;
    }
    case 'function_definition': {
      const body = node.childForFieldName('body');
      // Its body runs when it is called, as often as it is: a branch of the shell that defines it.
      // Its $1, $2, … are a call's words, not the script's: unknown here.
      const frame = { ...place.frame, positional: [] };
      const inner = deeper(state, place, 'function', { pipeline: undefined, background: false, frame });
      if (body && inner) inBranch(inner, (inside) => walkStatement(state, body, inside));
      // A call reads the body again, with its arguments as $1, $2, … (followHops).
      const name = node.childForFieldName('name')?.text;
      if (body && name) place.scope.defineFunction(name, body.text);
      return;
    }
    case 'variable_assignment':
      return walkAssignment(state, node, place);
    case 'declaration_command':
    case 'unset_command':
      return walkDeclaration(state, node, place);
    case 'comment':
      return;
    case 'ERROR':
      state.hasParseErrors = true;
      return walkBlock(state, node, place);
    default:
      if (CONTROL.has(node.type)) return inBranch(place, (body) => walkBlock(state, node, place, body));
      if (STATEMENTS.has(node.type) || BLOCKS.has(node.type)) return walkBlock(state, node, place);
      if (REDIRECT_TYPES.has(node.type))
        return emitCommand(state, undefined, resolveRedirects([node], wordContext(state, place)), place);
      return walkSubstitutions(state, substitutionsIn(node), place);
  }
}

/** The outermost command and process substitutions inside a node (itself included). */
function substitutionsIn(node: SyntaxNode): SyntaxNode[] {
  if (SUBSTITUTIONS.includes(node.type)) return [node];
  return node.descendantsOfType(SUBSTITUTIONS, true);
}

/** Walks the commands inside $(…), `…`, <(…) and >(…). */
export function walkSubstitutions(state: AnalysisState, substitutions: readonly SyntaxNode[], place: Place): void {
  for (const substitution of substitutions) {
    if (place.frame.skipSubstitutions.has(substitution.text)) continue;
    const via = substitution.type === 'process_substitution' ? 'process-substitution' : 'command-substitution';
    const inner = deeper(state, place, via, {
      scope: place.scope.child(),
      pipeline: undefined,
      redirects: [],
    });
    if (!inner) continue;
    const first = state.commands.length;
    walkBlock(state, substitution, { ...inner, nesting: place.nesting + 1 });
    state.substituted.set(substitution.text, emittedSince(state, first));
  }
}

function walkRedirected(state: AnalysisState, node: SyntaxNode, place: Place): void {
  const body = node.childForFieldName('body');
  const redirectNodes = node.children.filter((c) => REDIRECT_TYPES.has(c.type));
  const resolved = resolveRedirects(redirectNodes, wordContext(state, place));
  for (const child of node.children) if (child.type === 'ERROR') state.hasParseErrors = true;
  walkWithRedirects(state, body, { ...resolved, trailing: [], pipeTail: undefined }, resolved.pipeTail, place);
  for (const statement of resolved.trailing) inBranch(place, (inside) => walkStatement(state, statement, inside));
}

/**
 * A statement followed by redirects. The grammar hangs redirects written after `a && b | c` on
 * the whole list, but bash gives them to the last simple command (c); only a compound command
 * ({ …; }, ( … ), loops, if, case) shares them with everything inside. `pipeTail` is the rest of
 * a pipeline written after a heredoc (cat <<EOF | sh).
 */
function walkWithRedirects(
  state: AnalysisState,
  body: SyntaxNode | undefined,
  redirects: ResolvedRedirects,
  pipeTail: SyntaxNode | undefined,
  place: Place,
): void {
  if (body?.type === 'list') {
    const operands = listOperands(body);
    // The grammar reads `a && b 2>/dev/null | c` as `(a && b) 2>/dev/null | c`; bash runs
    // `a && (b 2>/dev/null | c)`: only the last operand is the pipeline's first stage.
    const before = place.pipeline?.place.index === 0 ? { ...place, pipeline: undefined } : place;
    operands.forEach((operand, k) => {
      const walk = (operandPlace: Place) =>
        k === operands.length - 1
          ? walkWithRedirects(state, operand, redirects, pipeTail, operandPlace)
          : walkStatement(state, operand, { ...operandPlace, pipeline: before.pipeline });
      if (alwaysRuns(body, operands, k)) walk(place);
      else inBranch(place, walk);
    });
    return;
  }
  if (body?.type === 'negated_command' && body.namedChildren.length === 1) {
    return walkWithRedirects(state, body.namedChildren[0], redirects, pipeTail, place);
  }
  if (body?.type === 'pipeline') {
    const { stages, rest } = pipelineParts(body);
    if (rest.length > 0) {
      walkPipeline(
        state,
        stages.map((stage) => ({ node: stage, redirects: NO_REDIRECTS })),
        place,
      );
      rest.forEach((operand, k) =>
        inBranch(place, (inside) =>
          k === rest.length - 1
            ? walkWithRedirects(state, operand, redirects, pipeTail, inside)
            : walkStatement(state, operand, inside),
        ),
      );
      return;
    }
    const tail = pipeTail ? pipelineParts(pipeTail) : { stages: [], rest: [] };
    const all = stages.map((stage, k) => ({
      node: stage,
      redirects: k === stages.length - 1 ? redirects : NO_REDIRECTS,
    }));
    walkPipeline(state, [...all, ...tail.stages.map((stage) => ({ node: stage, redirects: NO_REDIRECTS }))], place);
    for (const operand of tail.rest) inBranch(place, (inside) => walkStatement(state, operand, inside));
    return;
  }
  if (pipeTail) return walkPipelineNode(state, pipeTail, place, { node: body, redirects });
  walkStage(state, body, redirects, place);
}

function walkStage(
  state: AnalysisState,
  body: SyntaxNode | undefined,
  redirects: ResolvedRedirects,
  place: Place,
): void {
  if (!body || body.type === 'command') return emitCommand(state, body, redirects, place);
  if (body.type === 'list' || body.type === 'pipeline' || body.type === 'negated_command')
    return walkWithRedirects(state, body, redirects, undefined, place);
  walkSubstitutions(state, redirects.substitutions, place);
  walkStatement(state, body, { ...place, redirects: [...place.redirects, ...redirects.redirects] });
  for (const statement of redirects.trailing) inBranch(place, (inside) => walkStatement(state, statement, inside));
}

function stagesOf(pipeline: SyntaxNode): SyntaxNode[] {
  return pipeline.namedChildren.filter((c) => c.type !== 'comment');
}

function walkPipeline(
  state: AnalysisState,
  stages: { node: SyntaxNode | undefined; redirects: ResolvedRedirects }[],
  place: Place,
): void {
  const id = state.nextPipelineId++;
  const feed = { outputs: [] as (string | undefined)[], commands: [] as number[][] };
  stages.forEach((stage, index) => {
    const first = state.commands.length;
    // Every stage of a pipeline runs in a subshell of its own.
    const stagePlace: Place = {
      ...place,
      scope: place.scope.child(),
      pipeline: { place: { id, index, length: stages.length }, feed },
    };
    walkStage(state, stage.node, stage.redirects, stagePlace);
    feed.commands[index] = emittedSince(state, first);
  });
}

/** The operands of a && b || c; the grammar nests lists to the left, so the chain is unrolled without recursion. */
function listOperands(node: SyntaxNode): SyntaxNode[] {
  const pieces: SyntaxNode[][] = [];
  let current: SyntaxNode = node;
  for (;;) {
    const children = current.children;
    const first = children.find((c) => c.isNamed && c.type !== 'comment');
    if (first && first.type === 'list' && first.startIndex === current.startIndex) {
      pieces.push(children.filter((c) => c !== first));
      current = first;
      continue;
    }
    pieces.push(children);
    break;
  }
  return pieces
    .reverse()
    .flat()
    .filter((c) => c.isNamed && c.type !== 'comment');
}

function walkList(state: AnalysisState, node: SyntaxNode, place: Place): void {
  const operands = listOperands(node);
  operands.forEach((operand, k) => {
    // What follows the first operand may or may not run, unless what came before decides it.
    if (alwaysRuns(node, operands, k)) walkStatement(state, operand, place);
    else inBranch(place, (inside) => walkStatement(state, operand, inside));
  });
}

/**
 * Whether operand k of `a && b || c` runs whatever happens: the first one does, and so does one after
 * `true &&`, `: &&` or `false ||` that itself always runs.
 */
function alwaysRuns(list: SyntaxNode, operands: readonly SyntaxNode[], k: number): boolean {
  for (let at = k; at > 0; at--) {
    const before = operands[at - 1]!;
    // Only a bare `true`, `:` or `false` decides; the operator is the token just before the operand.
    const word = before.endIndex - before.startIndex <= 5 ? before.text : '';
    if (word !== 'true' && word !== ':' && word !== 'false') return false;
    const operand = operands[at]!;
    const siblings = operand.parent?.children ?? list.children;
    const operator = siblings
      .slice(0, siblings.indexOf(operand))
      .reverse()
      .find((c) => !c.isNamed)?.type;
    if (operator !== (word === 'false' ? '||' : '&&')) return false;
  }
  return true;
}

/**
 * The stages of a pipeline, and the list operands that follow it. The grammar reads
 * `a | b | c && d` as `a | (b | c && d)`; bash binds the pipe tighter: `(a | b | c) && d`.
 */
function pipelineParts(node: SyntaxNode): { stages: SyntaxNode[]; rest: SyntaxNode[] } {
  let stages = stagesOf(node);
  let rest: SyntaxNode[] = [];
  for (let last = stages[stages.length - 1]; last && last.type === 'list'; last = stages[stages.length - 1]) {
    const [first, ...others] = listOperands(last);
    rest = [...others, ...rest];
    stages = [...stages.slice(0, -1), ...(first ? (first.type === 'pipeline' ? stagesOf(first) : [first]) : [])];
  }
  return { stages, rest };
}

function walkPipelineNode(
  state: AnalysisState,
  node: SyntaxNode,
  place: Place,
  first?: { node: SyntaxNode | undefined; redirects: ResolvedRedirects },
): void {
  const { stages, rest } = pipelineParts(node);
  const all = [...(first ? [first] : []), ...stages.map((stage) => ({ node: stage, redirects: NO_REDIRECTS }))];
  walkPipeline(state, all, place);
  for (const operand of rest) inBranch(place, (inside) => walkStatement(state, operand, inside));
}

function walkAssignment(state: AnalysisState, node: SyntaxNode, place: Place): void {
  const { name, value, text, substitutions, elements } = assignedValue(state, node, place);
  const first = state.commands.length;
  walkSubstitutions(state, substitutions, place);
  const origin = value === undefined ? runTimeOrigin(text, substitutions, first, state.commands.length) : undefined;
  // `a[3]=~/.ssh/id_rsa`: one more value the array may give.
  const array = /^([A-Za-z_]\w*)\[[^\]]+\]$/.exec(name)?.[1];
  if (array !== undefined) return addElement(place, array, value);
  place.scope.assign(name, value, {
    ...(origin ? { origin } : {}),
    ...(elements?.length ? { alternatives: elements } : {}),
  });
}

function addElement(place: Place, array: string, value: string | undefined): void {
  const known = place.scope.lookup(array);
  const held = known.known ? [known.value] : (place.scope.alternatives(array) ?? []);
  place.scope.assign(array, undefined, { alternatives: value === undefined ? held : [...held, value] });
}

/** `X=$!`, or `X=$(cmd)` whose one substitution is the whole value: where X's value comes from. */
function runTimeOrigin(
  text: string,
  substitutions: readonly SyntaxNode[],
  first: number,
  end: number,
): RunTimeOrigin | undefined {
  const bare = text.replace(/^"(.*)"$/s, '$1');
  if (bare === '$!') return { kind: 'background-pid' };
  if (substitutions.length !== 1 || substitutions[0]?.text !== bare || end <= first) return undefined;
  return { kind: 'output', commands: Array.from({ length: end - first }, (_, i) => first + i) };
}

/** export/declare/local/readonly/typeset/unset: reported as commands, and their assignments tracked. */
function walkDeclaration(state: AnalysisState, node: SyntaxNode, place: Place): void {
  const keyword = node.children[0]?.text ?? '';
  const argv = [keyword];
  const dynamicWords: number[] = [];
  const substitutions: SyntaxNode[] = [];
  const exported =
    keyword === 'export' || node.namedChildren.some((c) => c.type === 'word' && /^-[a-zA-Z]*x/.test(c.text));
  const exportedValues: Record<string, string> = {};
  // `declare -n r=f`, `local -n r=f`: r is another name for f.
  const nameref = node.namedChildren.some((c) => c.type === 'word' && /^-[a-zA-Z]*n/.test(c.text));
  for (const child of node.namedChildren) {
    if (child.type === 'comment') continue;
    if (child.type === 'variable_assignment') {
      const assigned = assignedValue(state, child, place);
      const elements = assigned.elements?.length ? { alternatives: assigned.elements } : {};
      if (nameref && assigned.value !== undefined) place.scope.setNameref(assigned.name, assigned.value);
      else if (keyword !== 'unset') place.scope.assign(assigned.name, assigned.value, { exported, ...elements });
      if (exported && assigned.value !== undefined) exportedValues[assigned.name] = assigned.value;
      if (assigned.value === undefined) dynamicWords.push(argv.length);
      argv.push(`${assigned.name}=${assigned.text}`);
      substitutions.push(...assigned.substitutions);
    } else if (child.type === 'variable_name') {
      if (keyword === 'unset') place.scope.assign(child.text, '');
      else if (exported) place.scope.markExported(child.text);
      argv.push(child.text);
    } else {
      const expanded = expandWord([child], wordContext(state, place));
      for (const word of expanded.words) {
        if (word.dynamic) dynamicWords.push(argv.length);
        argv.push(word.value);
      }
      substitutions.push(...expanded.substitutions);
    }
  }
  const index = state.commands.length;
  state.commands.push({
    argv,
    name: keyword,
    dynamicWords,
    assignments: {},
    redirects: [...place.redirects],
    pipeline: pipelinePlaceOf(state, place),
    background: place.background,
    via: [...place.via],
    wrappers: [...place.wrappers],
    ...(place.parent !== undefined ? { parent: place.parent } : {}),
    text: node.text,
  });
  walkSubstitutions(state, substitutions, { ...place, parent: index });
  followExportedHops(state, index, place, exportedValues);
}
