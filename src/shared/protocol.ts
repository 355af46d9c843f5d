import { z } from 'zod';
import { verdictRecordSchema, type VerdictRecord } from '../core/verdict/record';

// The one message protocol between the panel UI (media/) and its host: the
// extension (postMessage) or the standalone server (an event stream plus the
// approval API). Both sides import this module. Hosts validate every message
// from the panel with these schemas; the panel trusts nothing it renders (text only).

export const PROTOCOL_VERSION = 1;

/** A pending approval as the panel shows it: the full arguments, in memory only, never persisted. */
export const pendingViewSchema = z.object({
  id: z.string(),
  recordId: z.string(),
  agent: z.string(),
  sessionId: z.string(),
  toolName: z.string(),
  toolInput: z.record(z.string(), z.unknown()),
  digest: z.string().nullable(),
  notBindable: z.string().optional(),
  reason: z.string(),
  personOnly: z.boolean(),
  createdAt: z.string(),
  deadline: z.string(),
});
export type PendingView = z.infer<typeof pendingViewSchema>;

export const resolutionViewSchema = z.object({
  id: z.string(),
  state: z.enum(['approved', 'refused', 'expired', 'withdrawn']),
  scope: z.enum(['once', 'session']).nullable(),
  digest: z.string().nullable(),
  answeredBy: z.string().nullable(),
  answeredAt: z.string(),
  message: z.string().optional(),
});
export type ResolutionView = z.infer<typeof resolutionViewSchema>;

/** Host → panel. On the server's event stream each is one `event: <type>` with the JSON as data. */
export type HostNotification =
  | { type: 'snapshot'; records: VerdictRecord[]; pending: PendingView[] }
  | { type: 'record'; record: VerdictRecord }
  | { type: 'pending'; pending: PendingView }
  | { type: 'resolved'; resolution: ResolutionView };

export const hostNotificationSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), records: z.array(verdictRecordSchema), pending: z.array(pendingViewSchema) }),
  z.object({ type: z.literal('record'), record: verdictRecordSchema }),
  z.object({ type: z.literal('pending'), pending: pendingViewSchema }),
  z.object({ type: z.literal('resolved'), resolution: resolutionViewSchema }),
]);

/** The approval API body (`POST /api/approvals/<id>`), also the panel's approve/refuse request. */
export const approvalAnswerSchema = z
  .object({
    decision: z.enum(['approve', 'refuse']),
    scope: z.enum(['once', 'session']).default('once'),
    digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a digest: "sha256:" and 64 hex digits'),
    editedInput: z.record(z.string(), z.unknown()).optional(),
    message: z.string().max(2000).optional(),
  })
  .strict();
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>;
