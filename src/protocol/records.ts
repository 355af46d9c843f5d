// The call record as both sides see it: plain types, no schema library, so the
// webview bundle carries none. The host parses records with zod at its own
// boundary (src/core/verdict/record.ts); a compile-time check there keeps that
// schema's type assignable to CallRecord.

export type Decision = 'allow' | 'instruct' | 'ask' | 'deny';
export type Tier = 'deterministic' | 'semantic' | 'cloud';

export interface CallOutcome {
  policy: string;
  tier: Tier;
  verdict: Decision;
  reason: string;
  evidence?: string;
  reviewableBy?: string[];
  personOnly?: boolean;
  additionalContext?: string;
  updatedOutput?: unknown;
  probability?: number;
  /** Found by the semantic tier in observe mode: shown, never enforced. */
  observed?: boolean;
  /** Cloud outcomes: the org policy that owns the check, and its version. */
  cloudPolicyId?: string;
  cloudVersion?: number;
}

/** One Cloud check's outcome, its verdict in the Cloud review contract's words. */
export interface CallCloudOutcome {
  check: string;
  cloudPolicyId: string;
  cloudVersion: number;
  verdict: 'deny' | 'instruct' | 'overridden' | 'none';
  evidence: number;
  reason: string | null;
}

/** What an observed Cloud check would have done: recorded, never applied. */
export interface CallCloudObserved {
  cloudPolicyId: string;
  cloudVersion: number;
  check: string;
  decision: 'deny' | 'instruct';
  reason: string;
}

/** The Cloud review's part of a record (org-managed checks). */
export interface CallCloudPart {
  mode: 'observe' | 'enforce';
  status: 'ok' | 'degraded' | 'skipped';
  reason: string | null;
  latencyMs: number | null;
  decision: 'allow' | 'instruct' | 'deny' | null;
  wouldDecide?: Decision;
  asked: string[];
  droppedLocal: string[];
  droppedCloud: string[];
  outcomes: CallCloudOutcome[];
  observed: CallCloudObserved[];
  observedAsked: string[];
}

export interface RedactionSpan {
  part: string;
  label: string;
  detector: string;
  start: number;
  end: number;
  valueLength: number;
}

export interface CallEnvelope {
  userSaid: string[];
  agentLastMessage: string | null;
  facts: Record<string, unknown>;
  request: string;
  comments?: string[];
}

export type ApprovalState = 'none' | 'pending' | 'approved' | 'refused' | 'expired' | 'withdrawn' | 'licensed';

export interface CallApproval {
  state: ApprovalState;
  scope: 'once' | 'session' | null;
  digest: string | null;
  answeredBy: string | null;
  answeredAt: string | null;
  approvalId?: string;
  /** The person approved edited arguments: what ran is not what the agent asked for. */
  edited?: boolean;
  /** Why an ask closed without an answer here (expired, handed to the agent's prompt, withdrawn). */
  note?: string;
  /** The arguments that ran instead of the asked ones (an approved edit), redacted like the call's own. */
  ranInput?: unknown;
  /** What the person wrote with their answer (a refusal's message), redacted. */
  message?: string;
}

export type SemanticStatus = 'off' | 'ok' | 'degraded' | 'observe';

export interface CallRecord {
  type: 'record';
  schemaVersion: number;
  id: string;
  ts: string;
  agent: string;
  event: string;
  sessionId: string;
  cwd?: string;
  projectRoot?: string;
  toolName: string | null;
  toolUseId?: string;
  toolInput: unknown;
  argsDigest: string | null;
  notBindable?: string;
  decision: Decision;
  reason: string;
  outcomes: CallOutcome[];
  envelope: CallEnvelope | null;
  redactions: {
    count: number;
    byLabel: Record<string, number>;
    spans?: RedactionSpan[];
    /** Markers in the call's own arguments (the rest are in the envelope: the person's prompt, the transcript). */
    inArguments?: number;
  };
  cut: { request: boolean; userSaid: boolean; truncated: boolean };
  semantic: {
    status: SemanticStatus;
    reason: string | null;
    latencyMs: number | null;
    model: string | null;
    wouldDecide?: Decision;
  };
  cloud?: CallCloudPart;
  approval: CallApproval;
  latencyMs: number;
  failure?: string;
  paused?: boolean;
}

/** True when an org-managed check decided the call: a Cloud outcome at the decision's own severity. */
export function orgDecided(record: Pick<CallRecord, 'decision' | 'outcomes'>): boolean {
  return (
    record.decision !== 'allow' && record.outcomes.some((o) => o.tier === 'cloud' && o.verdict === record.decision)
  );
}
