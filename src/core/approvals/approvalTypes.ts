// The plain data of approvals: what a pending ask holds, how a person answers it, how it ends,
// and the licences an answer leaves behind. Times are ISO-8601 UTC strings.

import type { AgentName, Decision } from '../types';

export type ApprovalScope = 'once' | 'session';

/**
 * Who receives the answer to a pending ask:
 * - 'held': the caller holds the agent's request open and awaits `settled` (a panel is connected);
 * - 'agent-prompt': the agent was told `ask`, so its own prompt is up, and the agent's
 *   PermissionRequest for the same call claims the answer (ApprovalLedger.awaitAnswerFor).
 */
export type Delivery = 'held' | 'agent-prompt';

export interface PendingApproval {
  /** Random and URL-safe: the panel's handle in `/api/approvals/<id>`. */
  id: string;
  /** The VerdictRecord of the call that asked. */
  recordId: string;
  agent: AgentName;
  sessionId: string;
  toolName: string;
  /** The full, unredacted arguments: held in memory only, never logged. */
  toolInput: unknown;
  /** The exact-args digest the person is shown and must send back; null when not bindable. */
  digest: string | null;
  /** Why the arguments are not bindable (one sentence); null when `digest` is set. */
  bindProblem: string | null;
  /** Why the call was asked. */
  reason: string;
  /** Demanded by cross-boundary taint: only a person's answer to this very call retires it. */
  personOnly: boolean;
  delivery: Delivery;
  createdAt: string;
  deadline: string;
}

export interface ApprovalAnswer {
  decision: 'approve' | 'refuse';
  /** Ignored for a refusal. */
  scope: ApprovalScope;
  /** The digest the person was shown (null for arguments that were not bindable). */
  digest: string | null;
  /** Approve this version instead: it must be a bindable JSON object and is screened again. */
  editedInput?: unknown;
  /** Passed to the agent (with a refusal, as the reason it reads). */
  message?: string;
  /** Who answered, as the log should name them (e.g. "panel", "web:alice"). */
  answeredBy: string;
}

export interface ScreenResult {
  decision: Decision;
  reason: string;
}

/** Runs every tier on edited arguments. A rejection counts as a deny (fail closed). */
export type ScreenEdit = (
  toolName: string,
  editedInput: Record<string, unknown>,
  sessionId: string,
  /** The record of the call the ask is for: the screen rebuilds that call's own event from it. */
  recordId: string,
) => Promise<ScreenResult>;

interface ResolutionBase {
  approvalId: string;
  recordId: string;
  sessionId: string;
  toolName: string;
  /** One line for the agent and the log. */
  reason: string;
}

export interface AnsweredResolution extends ResolutionBase {
  kind: 'answered';
  /** What the agent is told: allow only for a person's approval of bindable arguments that screened clean. */
  decision: Extract<Decision, 'allow' | 'deny'>;
  /** What the person chose (an edit they approved can still end in deny by the screen). */
  answer: 'approve' | 'refuse';
  /** Null when nothing was licensed. */
  scope: ApprovalScope | null;
  /** The digest the person was shown. */
  shownDigest: string | null;
  /** The digest licensed: the edited arguments' when edited; null on deny. */
  digest: string | null;
  edited: boolean;
  /** The arguments to run instead (an approved edit only). */
  updatedInput?: Record<string, unknown>;
  /** The screen's verdict on an edit, e.g. to pass an instruct warning on to the agent. */
  screen?: ScreenResult;
  message?: string;
  answeredBy: string;
  answeredAt: string;
}

export interface ClosedResolution extends ResolutionBase {
  /** expired: the deadline passed; withdrawn: the agent went away or the session ended. */
  kind: 'expired' | 'withdrawn';
  at: string;
}

export type Resolution = AnsweredResolution | ClosedResolution;

export type AnswerResult =
  | { kind: 'ok'; resolution: AnsweredResolution }
  /** Unknown, already answered, being answered, expired or withdrawn (HTTP 404). */
  | { kind: 'not-found' }
  /** The digest sent is not the one shown; nothing changed, the ask is still pending (HTTP 409). */
  | { kind: 'digest-mismatch'; shownDigest: string | null }
  /** Approval refused fail-closed; the ask is still pending (a refusal or a bindable edit still work). */
  | { kind: 'not-bindable'; problem: string };

export interface Licence {
  id: string;
  /** once: one use, then gone; session: standing for this session. */
  kind: ApprovalScope;
  sessionId: string;
  toolName: string;
  digest: string;
  approvalId: string;
  recordId: string;
  grantedBy: string;
  grantedAt: string;
  /** When an unused once-licence lapses; null for standing licences. */
  expiresAt: string | null;
}

export type LedgerEvent =
  { type: 'pending'; pending: PendingApproval } | { type: 'resolved'; id: string; resolution: Resolution };
