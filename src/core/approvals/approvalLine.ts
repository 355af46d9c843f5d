// How an answer appears outside the ledger: the activity log's approval line (linked to the
// call's record by recordId) and the VerdictRecord's `approval` field. Plain data; the activity
// module writes it and, per DESIGN.md, replaces the plain digests with keyed ones before they
// reach disk.

import type { AnsweredResolution, ApprovalScope, Resolution } from './approvalTypes';

export interface ApprovalLine {
  type: 'approval';
  recordId: string;
  approvalId: string;
  /** What the agent was told. */
  decision: 'allow' | 'deny';
  /** What the person chose; an approved edit that the screen denied reads approve + deny. */
  answer: 'approve' | 'refuse';
  scope: ApprovalScope | null;
  /** The licensed digest; null when nothing was licensed. */
  digest: string | null;
  /** The digest the person was shown. */
  shownDigest: string | null;
  answeredBy: string;
  answeredAt: string;
  edited: boolean;
  reason: string;
  /** The arguments that ran instead of the asked ones (an approved edit); redacted before the log. */
  ranInput?: Record<string, unknown>;
  /** The person's words with their answer; redacted before the log. */
  message?: string;
}

export function approvalLine(resolution: AnsweredResolution): ApprovalLine {
  return {
    type: 'approval',
    recordId: resolution.recordId,
    approvalId: resolution.approvalId,
    decision: resolution.decision,
    answer: resolution.answer,
    scope: resolution.scope,
    digest: resolution.digest,
    shownDigest: resolution.shownDigest,
    answeredBy: resolution.answeredBy,
    answeredAt: resolution.answeredAt,
    edited: resolution.edited,
    reason: resolution.reason,
    ...(resolution.edited && resolution.decision === 'allow' && resolution.updatedInput
      ? { ranInput: resolution.updatedInput }
      : {}),
    ...(resolution.message?.trim() ? { message: resolution.message.trim() } : {}),
  };
}

export type ApprovalState = 'pending' | 'approved' | 'refused' | 'expired' | 'withdrawn';

/** The VerdictRecord's `approval` field: {state, scope, digest, answeredBy, answeredAt}. */
export interface ApprovalSummary {
  state: ApprovalState;
  scope: ApprovalScope | null;
  digest: string | null;
  answeredBy: string | null;
  answeredAt: string | null;
}

/** The summary of an ask: still pending when `resolution` is null. An edit the screen denied reads refused. */
export function approvalSummary(resolution: Resolution | null): ApprovalSummary {
  if (resolution === null) return { state: 'pending', scope: null, digest: null, answeredBy: null, answeredAt: null };
  if (resolution.kind !== 'answered')
    return { state: resolution.kind, scope: null, digest: null, answeredBy: null, answeredAt: null };
  return {
    state: resolution.decision === 'allow' ? 'approved' : 'refused',
    scope: resolution.scope,
    digest: resolution.digest,
    answeredBy: resolution.answeredBy,
    answeredAt: resolution.answeredAt,
  };
}
