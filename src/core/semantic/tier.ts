import type { HookEvent, Merged, Outcome } from '../types';
import type { ResolvedConfig } from '../config/load';
import type { ToolCall } from '../policies/types';
import type { Envelope, VerdictRecord } from '../verdict/record';

// The contract between the evaluator and the semantic tier. The tier runs in
// parallel with the deterministic policies; the evaluator aborts it when a
// policy hard-denies, and lets it merge the outcomes otherwise.

export interface SemanticStartInput {
  event: HookEvent;
  call: ToolCall;
  config: ResolvedConfig;
  projectRoot: string;
}

export interface SemanticResult {
  envelope: Envelope | null;
  redactions: VerdictRecord['redactions'];
  cut: VerdictRecord['cut'];
  status: VerdictRecord['semantic'];
  /** The semantic outcomes (empty when off or degraded). */
  outcomes: Outcome[];
  /** Combines the deterministic outcomes with the semantic ones under the tier's rules. */
  merge(deterministic: Outcome[]): Merged;
}

export interface SemanticRun {
  result: Promise<SemanticResult>;
  /** Stops the judge call; the returned result records why (and merges like combine). */
  abort(reason: string): SemanticResult;
}

export interface SemanticTier {
  /** Undefined when the tier is off for this call's config. */
  start(input: SemanticStartInput): SemanticRun | undefined;
}
