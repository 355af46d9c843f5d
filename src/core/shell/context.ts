// The state of one analysis, and where in the script the walker stands.
import type { SyntaxNode } from './nodes';
import type { Scope } from './scope';
import type { ForLoop, PipelinePlace, Redirect, SimpleCommand, Via } from './types';

/**
 * The walker's entry points. A command walks its substitutions and re-parsed scripts with them,
 * and the walker emits commands: handing them over in the state keeps the two files from
 * importing each other.
 */
export interface Walker {
  analyzeSource(state: AnalysisState, source: string, place: Place): { start: number; end: number }[];
  walkStatement(state: AnalysisState, node: SyntaxNode, place: Place): void;
  walkSubstitutions(state: AnalysisState, substitutions: readonly SyntaxNode[], place: Place): void;
}

export interface AnalysisState {
  commands: SimpleCommand[];
  comments: string[];
  hasParseErrors: boolean;
  truncated: boolean;
  nextPipelineId: number;
  maxDepth: number;
  /** Date.now() after which no more parsing starts or continues. */
  deadline: number;
  walker: Walker;
  /** A command's own prefix assignments, where its `assignments` also hold what the script exported before it. */
  prefixOnly: Map<number, Record<string, string>>;
  /** The commands each substitution ran (by its text, the latest walk of it): where `<(ls …)` read from. */
  substituted: Map<string, number[]>;
}

/** One piece of source being walked: the top-level command or a string parsed again. */
export interface Frame {
  source: string;
  /** Texts of substitutions the level that produced this source already walked (`eval "$(x)"`). */
  skipSubstitutions: ReadonlySet<string>;
  /** $0, $1, … of this source (a `bash -c` string's words, a function call's); `set --` in it replaces them. */
  positional: readonly (string | undefined)[] | undefined;
}

/** What later stages of a pipeline know about earlier ones. */
export interface PipelineFeed {
  /** The exact output of a stage, when it is a literal (echo, printf, cat of a heredoc). */
  outputs: (string | undefined)[];
  /** The commands each stage ran (indexes into `commands`), for what a later stage reads. */
  commands: number[][];
}

export interface PipelineStage {
  place: PipelinePlace;
  feed: PipelineFeed;
}

export interface Place {
  frame: Frame;
  scope: Scope;
  via: readonly Via[];
  wrappers: readonly string[];
  parent: number | undefined;
  pipeline: PipelineStage | undefined;
  background: boolean;
  /** The `for NAME in WORDS` loops whose body this is, outermost first. */
  loops?: readonly ForLoop[];
  /** Redirections of enclosing compound commands ({ …; } > f), which their commands share. */
  redirects: readonly Redirect[];
  /** Syntax nesting, to keep recursion bounded on hostile input. */
  nesting: number;
}

/** Deeper syntax than this is not walked (and the analysis is marked truncated). */
export const MAX_NESTING = 200;

/** Walks a region that may not run (see Scope.branch) in a scope of its own, then settles it. */
export function inBranch(place: Place, walk: (inside: Place) => void): void {
  const scope = place.scope.branch();
  walk({ ...place, scope });
  scope.settle();
}

/** One hop further in (substitution, subshell, wrapper, re-parsed string); undefined past maxDepth. */
export function deeper(state: AnalysisState, place: Place, via: Via, changes: Partial<Place>): Place | undefined {
  if (place.via.length + 1 > state.maxDepth) {
    state.truncated = true;
    return undefined;
  }
  return { ...place, ...changes, via: [...place.via, via] };
}

/** The indexes from `first` up to the number of commands now: what was emitted since. */
export function emittedSince(state: AnalysisState, first: number): number[] {
  return Array.from({ length: state.commands.length - first }, (_, i) => first + i);
}

export function pipelinePlaceOf(state: AnalysisState, place: Place): PipelinePlace {
  return place.pipeline ? place.pipeline.place : { id: state.nextPipelineId++, index: 0, length: 1 };
}
