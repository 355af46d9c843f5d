// The entry point: reads a shell command the way bash would, without running any of it.
import { homedir } from 'node:os';
import type { AnalysisState, Place } from './context';
import { originalIndex } from './continuations';
import { Scope } from './scope';
import type { AnalyzeOptions, ShellAnalysis } from './types';
import { analyzeSource } from './walker';

const DEFAULT_MAX_DEPTH = 8;

/** Analyzes a shell command. Synchronous; initShellParser() must have been awaited once before. */
export function analyzeShell(source: string, opts: AnalyzeOptions = {}): ShellAnalysis {
  const env = opts.env ?? {};
  const home = opts.home ?? env.HOME ?? homedir();
  const state: AnalysisState = {
    commands: [],
    comments: [],
    hasParseErrors: false,
    truncated: false,
    nextPipelineId: 0,
    maxDepth: Math.max(0, Math.floor(opts.maxDepth ?? DEFAULT_MAX_DEPTH)),
  };
  const place: Place = {
    frame: { source, skipSubstitutions: new Set(), positional: undefined },
    scope: Scope.fromEnvironment(env, home),
    via: [],
    wrappers: [],
    parent: undefined,
    pipeline: undefined,
    background: false,
    conditional: false,
    redirects: [],
    nesting: 0,
  };
  const walked = analyzeSource(state, source, place);
  return {
    commands: state.commands,
    comments: state.comments,
    withoutComments: removeComments(source, walked.comments, walked.removed),
    hasParseErrors: state.hasParseErrors,
    truncated: state.truncated,
  };
}

function removeComments(source: string, comments: readonly { start: number; end: number }[], removed: Parameters<typeof originalIndex>[1]): string {
  if (comments.length === 0) return source;
  let out = '';
  let from = 0;
  for (const comment of comments) {
    const start = originalIndex(comment.start, removed);
    out += source.slice(from, start);
    from = originalIndex(comment.end, removed);
  }
  return out + source.slice(from);
}
