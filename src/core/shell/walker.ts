// Walks a bash syntax tree statement by statement, following everything that runs commands.
import type { Node } from '@vscode/tree-sitter-wasm';
import { assignedValue, emitCommand, wordContext } from './command';
import { deeper, MAX_NESTING, type AnalysisState, type Place } from './context';
import { parseWithoutContinuations } from './continuations';
import { resolveRedirects, REDIRECT_TYPES, type ResolvedRedirects } from './redirects';
import { expandWord } from './words';

const NO_REDIRECTS: ResolvedRedirects = { redirects: [], substitutions: [], trailing: [], pipeTail: undefined, end: -1 };
const SUBSTITUTIONS = ['command_substitution', 'process_substitution'];
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
/** Node types whose children are statements or words that the generic walk handles. */
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

/** Parses `source` and walks it at `place`; the tree is freed before returning. */
export function analyzeSource(
  state: AnalysisState,
  source: string,
  place: Place,
): { comments: { start: number; end: number }[]; removed: { start: number; length: number }[] } {
  const parsed = parseWithoutContinuations(source);
  const frame = { ...place.frame, source: parsed.source };
  try {
    const root = parsed.tree.rootNode;
    if (root.hasError) state.hasParseErrors = true;
    const comments: { start: number; end: number }[] = [];
    for (const comment of root.descendantsOfType('comment')) {
      if (!comment) continue;
      state.comments.push(comment.text.replace(/^#/, ''));
      comments.push({ start: comment.startIndex, end: comment.endIndex });
    }
    walkBlock(state, root, { ...place, frame });
    return { comments, removed: parsed.removed };
  } finally {
    parsed.tree.delete();
  }
}

/** Statements of a block, in order; one followed by `&` runs in the background. */
function walkBlock(state: AnalysisState, node: Node, place: Place, bodyPlace: Place = place): void {
  const children = node.children;
  for (let k = 0; k < children.length; k++) {
    const child = children[k];
    if (!child) continue;
    const next = children[k + 1];
    const background = next?.type === '&' && !next.isNamed;
    const field = node.fieldNameForChild(k);
    const target = CONTROL.has(node.type) && field !== 'condition' && field !== 'value' ? bodyPlace : place;
    if (!child.isNamed) {
      // An ERROR can hold `{` glued to the command after it: the first word of `{rm,-rf,~}`.
      const following = children[k + 1];
      if (node.type === 'ERROR' && child.type === '{' && following?.type === 'command' && following.startIndex === child.endIndex) {
        emitCommand(state, following, NO_REDIRECTS, target, child);
        k++;
      }
      continue;
    }
    if (node.type === 'for_statement' && field === 'variable') {
      place.scope.assign(child.text, undefined, { conditional: false });
      continue;
    }
    walkStatement(state, child, background ? { ...target, background: true } : target);
  }
}

export function walkStatement(state: AnalysisState, node: Node, outerPlace: Place): void {
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
      return walkPipeline(state, stagesOf(node).map((stage) => ({ node: stage, redirects: NO_REDIRECTS })), place);
    case 'list':
      return walkList(state, node, place);
    case 'subshell': {
      const inner = deeper(state, place, 'subshell', { scope: place.scope.child() });
      if (inner) walkBlock(state, node, inner);
      return;
    }
    case 'function_definition': {
      const body = node.childForFieldName('body');
      const inner = deeper(state, place, 'function', { scope: place.scope.child(), conditional: true, pipeline: undefined, background: false });
      if (body && inner) walkStatement(state, body, inner);
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
      if (CONTROL.has(node.type)) return walkBlock(state, node, place, { ...place, conditional: true });
      if (STATEMENTS.has(node.type) || BLOCKS.has(node.type)) return walkBlock(state, node, place);
      if (REDIRECT_TYPES.has(node.type)) return emitCommand(state, undefined, resolveRedirects([node], wordContext(place)), place);
      return walkSubstitutions(state, substitutionsIn(node), place);
  }
}

/** The outermost command and process substitutions inside a node (itself included). */
export function substitutionsIn(node: Node): Node[] {
  if (SUBSTITUTIONS.includes(node.type)) return [node];
  const found: Node[] = [];
  for (const candidate of node.descendantsOfType(SUBSTITUTIONS)) {
    if (!candidate) continue;
    let nested = false;
    for (let up = candidate.parent; up && up.id !== node.id; up = up.parent) {
      if (SUBSTITUTIONS.includes(up.type)) nested = true;
    }
    if (!nested) found.push(candidate);
  }
  return found;
}

/** Walks the commands inside $(…), `…`, <(…) and >(…). */
export function walkSubstitutions(state: AnalysisState, substitutions: readonly Node[], place: Place): void {
  for (const substitution of substitutions) {
    if (place.frame.skipSubstitutions.has(substitution.text)) continue;
    const via = substitution.type === 'process_substitution' ? 'process-substitution' : 'command-substitution';
    const inner = deeper(state, place, via, { scope: place.scope.child(), pipeline: undefined, redirects: [], conditional: false });
    if (!inner) continue;
    walkBlock(state, substitution, { ...inner, nesting: place.nesting + 1 });
  }
}

function walkRedirected(state: AnalysisState, node: Node, place: Place): void {
  const body = node.childForFieldName('body');
  const redirectNodes = node.children.filter((c): c is Node => c !== null && REDIRECT_TYPES.has(c.type));
  const resolved = resolveRedirects(redirectNodes, wordContext(place));
  for (const child of node.children) if (child?.type === 'ERROR') state.hasParseErrors = true;
  if (resolved.pipeTail) {
    // cat <<EOF | sh: the grammar hangs the rest of the pipeline on the heredoc.
    const stages = [{ node: body, redirects: resolved }, ...stagesOf(resolved.pipeTail).map((stage) => ({ node: stage, redirects: NO_REDIRECTS }))];
    walkPipeline(state, stages, place);
    for (const statement of resolved.trailing) walkStatement(state, statement, { ...place, conditional: true });
    return;
  }
  walkStage(state, body, resolved, place);
}

function walkStage(state: AnalysisState, body: Node | null, redirects: ResolvedRedirects, place: Place): void {
  if (!body || body.type === 'command') return emitCommand(state, body ?? undefined, redirects, place);
  walkSubstitutions(state, redirects.substitutions, place);
  walkStatement(state, body, { ...place, redirects: [...place.redirects, ...redirects.redirects] });
  for (const statement of redirects.trailing) walkStatement(state, statement, { ...place, conditional: true });
}

function stagesOf(pipeline: Node): Node[] {
  return pipeline.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
}

function walkPipeline(state: AnalysisState, stages: { node: Node | null; redirects: ResolvedRedirects }[], place: Place): void {
  const id = state.nextPipelineId++;
  const feed = { outputs: [] as (string | undefined)[] };
  stages.forEach((stage, index) => {
    // Every stage of a pipeline runs in a subshell of its own.
    const stagePlace: Place = { ...place, scope: place.scope.child(), pipeline: { place: { id, index, length: stages.length }, feed } };
    walkStage(state, stage.node, stage.redirects, stagePlace);
  });
}

/** a && b || c; the grammar nests lists to the left, so the chain is unrolled without recursion. */
function walkList(state: AnalysisState, node: Node, place: Place): void {
  const pieces: Node[][] = [];
  let current: Node = node;
  for (;;) {
    const children = current.children.filter((c): c is Node => c !== null);
    const first = children.find((c) => c.isNamed && c.type !== 'comment');
    if (first && first.type === 'list' && first.startIndex === current.startIndex) {
      pieces.push(children.filter((c) => c !== first));
      current = first;
      continue;
    }
    pieces.push(children);
    break;
  }
  let operands = 0;
  for (const child of pieces.reverse().flat()) {
    if (!child.isNamed) continue;
    // Everything after the first operand may or may not run.
    walkStatement(state, child, operands++ === 0 ? place : { ...place, conditional: true });
  }
}

function walkAssignment(state: AnalysisState, node: Node, place: Place): void {
  const { name, value, substitutions } = assignedValue(node, place);
  walkSubstitutions(state, substitutions, place);
  place.scope.assign(name, value, { conditional: place.conditional });
}

/** export/declare/local/readonly/typeset/unset: reported as commands, and their assignments tracked. */
function walkDeclaration(state: AnalysisState, node: Node, place: Place): void {
  const keyword = node.child(0)?.text ?? '';
  const argv = [keyword];
  const dynamicWords: number[] = [];
  const substitutions: ReturnType<typeof substitutionsIn> = [];
  const exported = keyword === 'export' || node.namedChildren.some((c) => c?.type === 'word' && /^-[a-zA-Z]*x/.test(c.text));
  for (const child of node.namedChildren) {
    if (!child || child.type === 'comment') continue;
    if (child.type === 'variable_assignment') {
      const assigned = assignedValue(child, place);
      if (keyword !== 'unset') place.scope.assign(assigned.name, assigned.value, { conditional: place.conditional, exported });
      if (assigned.value === undefined) dynamicWords.push(argv.length);
      argv.push(`${assigned.name}=${assigned.text}`);
      substitutions.push(...assigned.substitutions);
    } else if (child.type === 'variable_name') {
      if (keyword === 'unset') place.scope.assign(child.text, '', { conditional: place.conditional });
      else if (exported) place.scope.markExported(child.text);
      argv.push(child.text);
    } else {
      const expanded = expandWord([child], wordContext(place));
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
    pipeline: place.pipeline ? place.pipeline.place : { id: state.nextPipelineId++, index: 0, length: 1 },
    background: place.background,
    via: [...place.via],
    wrappers: [...place.wrappers],
    ...(place.parent !== undefined ? { parent: place.parent } : {}),
    text: node.text,
  });
  walkSubstitutions(state, substitutions, { ...place, parent: index });
}
