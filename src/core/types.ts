// The plain typed data that flows inside the core once the boundary schemas have parsed it.

export type Decision = 'allow' | 'instruct' | 'ask' | 'deny';
export type Tier = 'deterministic' | 'semantic' | 'cloud';
export type AgentName = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';

/** Normalized hook event names; agents' own names are mapped by their adapters. */
export type HookEventName =
  'PreToolUse' | 'PermissionRequest' | 'PostToolUse' | 'UserPromptSubmit' | 'Stop' | 'SessionStart' | 'Other';

/** One hook call from an agent, as its adapter normalized it. */
export interface HookEvent {
  agent: AgentName;
  event: HookEventName;
  /** The agent's own event name, kept for events Warden does not know. */
  rawEventName: string;
  sessionId: string;
  cwd: string;
  transcriptPath?: string;
  permissionMode?: string;
  toolName?: string;
  toolInput?: Record<string, unknown>;
  toolUseId?: string;
  /** PostToolUse: what the tool returned. */
  toolResponse?: unknown;
  /** UserPromptSubmit: what the person typed. */
  prompt?: string;
  /** Whether the run is headless (no person at the agent's own prompt). */
  headless?: boolean;
  /** Why the raw bytes cannot be bound to an approval (a duplicate key, an overflowing number), found before parsing dropped it. */
  bindProblem?: string;
  /** The body exactly as parsed (never logged unredacted). */
  raw: Record<string, unknown>;
}

/** What one policy (of any tier) concluded about one call. */
export interface Outcome {
  policy: string;
  tier: Tier;
  verdict: Decision;
  reason: string;
  evidence?: string;
  /** A deterministic outcome that the named semantic policies may clear (semantic issue). */
  reviewableBy?: string[];
  /** Set on an ask that only a person may answer for this very call (taint). */
  personOnly?: boolean;
  /** PostToolUse output sanitizing: context for the model, or output that replaces the tool's. */
  additionalContext?: string;
  updatedOutput?: unknown;
  /** Cloud outcomes: the org policy that owns the check, and its version. */
  cloudPolicyId?: string;
  cloudVersion?: number;
}

export interface Merged {
  decision: Decision;
  reason: string;
  outcomes: Outcome[];
}
