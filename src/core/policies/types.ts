import type { z } from 'zod';
import type { Decision, HookEvent, HookEventName } from '../types';
import type { ToolCall } from '../facts/call';
import type { IoFacts } from '../facts/io';

export type { ToolCall, TouchedPath } from '../facts/call';

export type PolicyCategory =
  | 'output-sanitizing'
  | 'secrets'
  | 'dangerous-commands'
  | 'infrastructure'
  | 'git'
  | 'database'
  | 'packages-and-system'
  | 'filesystem'
  | 'network'
  | 'agent-integrity'
  | 'workflow'
  | 'taint';

/** Per-session memory that policies such as repetition and taint keep between calls. */
export interface SessionMemory {
  get<T>(policy: string, key: string): T | undefined;
  set<T>(policy: string, key: string, value: T): void;
}

export interface PolicyContext<P> {
  event: HookEvent;
  /** Present for tool events (PreToolUse, PermissionRequest, PostToolUse). */
  call?: ToolCall;
  params: P;
  session: SessionMemory;
  /** Warden's own state folder, which self-protection guards. */
  stateDir: string;
  /** The folder of Warden's running program (its dist), which self-protection also guards; unset where a host did not say. */
  programDir: string | undefined;
  /** The file system and git, for policies that need them (Stop events have no call, so it is here too). */
  io: IoFacts;
}

export interface PolicyHit {
  reason: string;
  evidence?: string;
  /** Overrides the policy's decision kind for this hit (for instance a softer instruct). */
  decision?: Decision;
  /** Only a person may answer this ask, for this very call (taint). */
  personOnly?: boolean;
  /** PostToolUse: text to hand back to the agent in place of or beside the tool output. */
  additionalContext?: string;
  updatedOutput?: unknown;
}

export interface PolicyDefinition<P = Record<string, unknown>> {
  name: string;
  category: PolicyCategory;
  description: string;
  defaultEnabled: boolean;
  decision: Exclude<Decision, 'allow'>;
  params: z.ZodType<P>;
  /** Which normalized events the policy looks at; default PreToolUse and PermissionRequest. */
  events?: HookEventName[];
  /** Self-protection: no scope can turn it off. */
  alwaysOn?: boolean;
  /** Semantic policies that may clear this policy's finding (semantic issue). */
  reviewableBy?: string[];
  evaluate(ctx: PolicyContext<P>): PolicyHit | null;
}

// Erases the parameter type so heterogeneous policies can live in one list.
export type AnyPolicy = PolicyDefinition<any>;

export function definePolicy<P>(policy: PolicyDefinition<P>): PolicyDefinition<P> {
  return policy;
}
