import type { CallApproval, Decision, SemanticStatus } from './records';

// What the list needs of a call, and nothing more: the host keeps these in
// memory, sends them to the panel, and reads a call's full record back (from
// memory or the activity log) only when a person opens it.

/** Who settled an ask, in words a person reads in the row. */
export const ANSWER_SOURCES = [
  'panel',
  'notification',
  'web panel',
  'licence',
  'expiry',
  "agent's prompt",
  'withdrawn',
  'someone else',
] as const;
export type AnswerSource = (typeof ANSWER_SOURCES)[number];

/** The state of the ask behind a row, if the call needed a person. */
export interface RowAnswer {
  state: Exclude<CallApproval['state'], 'none'>;
  source: AnswerSource | null;
  scope: 'once' | 'session' | null;
  at: string | null;
  edited: boolean;
}

/**
 * A tool call is a row ('call'); anything else the agent reported (a prompt, a
 * tool's result, the end of a turn) is a session event: attached to its call
 * when it names one, else shown as a session line.
 */
export type RowKind = 'call' | 'event';

export interface RowSummary {
  id: string;
  ts: string;
  agent: string;
  /** The agent as a person names it (Claude Code, Codex CLI…). */
  agentName: string;
  sessionId: string;
  kind: RowKind;
  /** The agent's own event name (PreToolUse, PostToolUse, UserPromptSubmit…). */
  event: string;
  toolName: string | null;
  /** Link a PostToolUse or a PermissionRequest to the PreToolUse of the same call (tool use id, exact arguments). */
  callKeys: string[];
  /** One line of the arguments (the command, the path, the URL), redacted. */
  summary: string;
  /** A prompt event: the person's words, redacted and cut to one line, when the record kept them. */
  prompt?: string;
  /** What the policies concluded. */
  decision: Decision;
  /** What the agent was told, after the person's answer, a licence or a pause. */
  outcome: RowOutcome;
  answer: RowAnswer | null;
  /** Policies whose verdict was not allow (observed ones too, marked by observe). */
  policies: string[];
  /** Markers in the call's own arguments; secrets elsewhere (a prompt) are not the call's. */
  redactedInCall: number;
  cut: boolean;
  semantic: { status: SemanticStatus | 'skipped'; reason: string | null; wouldDecide: Decision | null };
  paused: boolean;
  /** An org-managed check (Cloud) decided the call. */
  orgDecided: boolean;
  failed: boolean;
  latencyMs: number;
  /** Text the search box matches: tool, summary, reason, policies (lower case). */
  searchText: string;
}

/** The verdict a row shows: what happened to the call in the end. */
export type RowOutcome =
  | 'allow'
  | 'instruct'
  | 'ask'
  | 'deny'
  | 'approved'
  | 'approved-edited'
  | 'refused'
  | 'licensed'
  | 'expired'
  | 'withdrawn'
  | 'paused-allow'
  | 'event';

export const OUTCOME_LABELS: Record<RowOutcome, string> = {
  allow: 'allow',
  instruct: 'instruct',
  ask: 'ask',
  deny: 'deny',
  approved: 'approved',
  'approved-edited': 'approved (edited)',
  refused: 'refused',
  licensed: 'allowed by licence',
  expired: 'expired',
  withdrawn: 'withdrawn',
  'paused-allow': 'allowed (paused)',
  event: 'event',
};

/** What happened to a call in the end: the person's answer (or its absence) over Warden's verdict. */
export function finalOutcome(record: { decision: Decision; approval: CallApproval; paused?: boolean }): RowOutcome {
  if (record.paused && record.decision !== 'allow') return 'paused-allow';
  switch (record.approval.state) {
    case 'approved':
      return record.approval.edited ? 'approved-edited' : 'approved';
    case 'refused':
      return 'refused';
    case 'licensed':
      return 'licensed';
    case 'expired':
      return 'expired';
    case 'withdrawn':
      return 'withdrawn';
    default:
      return record.decision;
  }
}

/** The colour family of an outcome, for its badge. */
export function outcomeTone(outcome: RowOutcome): 'allow' | 'instruct' | 'ask' | 'deny' | 'neutral' {
  switch (outcome) {
    case 'allow':
    case 'approved':
    case 'approved-edited':
    case 'licensed':
      return 'allow';
    case 'instruct':
    case 'paused-allow':
      return 'instruct';
    case 'ask':
      return 'ask';
    case 'deny':
    case 'refused':
      return 'deny';
    default:
      return 'neutral';
  }
}

/** Whether the agent was, in the end, not allowed to run the call. */
export function deniedInTheEnd(row: RowSummary): boolean {
  return row.outcome === 'deny' || row.outcome === 'refused';
}
