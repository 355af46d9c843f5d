// What the evaluator hands the semantic tier (and the Cloud review) for one call.
import type { ResolvedConfig } from '../config/load';
import type { ToolCall } from '../policies/types';
import type { HookEvent } from '../types';

export interface SemanticStartInput {
  event: HookEvent;
  call: ToolCall;
  config: ResolvedConfig;
  projectRoot: string;
}
