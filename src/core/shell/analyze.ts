// The entry point: reads a shell command the way bash would, without running any of it.
import { homedir } from 'node:os';
import type { AnalysisState, Place } from './context';
import { assertParserReady } from './parser';
import { Scope } from './scope';
import type { AnalyzeOptions, ShellAnalysis } from './types';
import { analyzeSource, walkStatement, walkSubstitutions } from './walker';

const DEFAULT_MAX_DEPTH = 8;
/** Parsing time allowed per analysis; a typical 100 KB script takes about half a second of CPU. */
const DEFAULT_PARSE_BUDGET_MS = 5000;

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
    deadline: Date.now() + Math.max(0, opts.parseBudgetMs ?? DEFAULT_PARSE_BUDGET_MS),
    walker: { analyzeSource, walkStatement, walkSubstitutions },
    prefixOnly: new Map(),
    substituted: new Map(),
  };
  const place: Place = {
    frame: { source, skipSubstitutions: new Set(), positional: undefined },
    scope: Scope.fromEnvironment(env, home),
    via: [],
    wrappers: [],
    parent: undefined,
    pipeline: undefined,
    background: false,
    redirects: [],
    nesting: 0,
  };
  assertParserReady();
  let comments: { start: number; end: number }[] = [];
  try {
    comments = analyzeSource(state, source, place);
  } catch {
    // Input must never make the analyzer throw (a stack overflow on some nesting we did not
    // foresee, say): what was found stands, and the result says it is incomplete.
    state.truncated = true;
    state.hasParseErrors = true;
  }
  return {
    commands: state.commands,
    comments: state.comments,
    withoutComments: removeRanges(source, comments),
    hasParseErrors: state.hasParseErrors,
    truncated: state.truncated,
  };
}

function removeRanges(source: string, ranges: readonly { start: number; end: number }[]): string {
  let out = '';
  let from = 0;
  for (const range of ranges) {
    out += source.slice(from, range.start);
    from = Math.max(from, range.end);
  }
  return out + source.slice(from);
}
