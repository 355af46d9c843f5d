import { z } from 'zod';
import type { VerdictRecord } from '../core/verdict/record';

// The one message protocol between the panel UI (media/) and its host: the
// extension (postMessage) or the standalone server (an event stream plus the
// approval API). Both sides import this module. Hosts validate every message
// from the panel with these schemas; the panel trusts nothing it renders (text only).

export const PROTOCOL_VERSION = 1;

// The webview reaches the core only through this module (a lint zone holds it to that).
export type { VerdictRecord };
export { builtInFace } from '../core/config/faces';

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

// ── Panel → host ────────────────────────────────────────────────────────────
// Two kinds, after the pattern of GitLens' IPC: a command is fire-and-forget;
// a request carries an id and gets exactly one typed response.

/** A policy as the panel's toggles show it. */
export const policyViewSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  source: z.string(),
  alwaysOn: z.boolean(),
  description: z.string(),
});
export type PolicyView = z.infer<typeof policyViewSchema>;

/** The host's own state: whether the workspace is guarded, and how enforcement stands. */
export const hostStateSchema = z.object({
  host: z.enum(['vscode', 'web']),
  guarded: z.boolean(),
  guardDetail: z.string(),
  endpointUrl: z.string().nullable(),
  pausedUntil: z.string().nullable(),
  policies: z.array(policyViewSchema),
});
export type HostState = z.infer<typeof hostStateSchema>;

/**
 * One <redacted:label> marker of a record: in the envelope (an index into
 * record.redactions.spans) or in the logged arguments (the nth marker of their JSON).
 */
export const markerRefSchema = z.object({
  recordId: z.string().min(1).max(200),
  source: z.enum(['envelope', 'arguments']),
  spanIndex: z.number().int().min(0).max(100_000),
});
export type MarkerRef = z.infer<typeof markerRefSchema>;

export const ipcCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), protocolVersion: z.number().int() }),
  z.object({ type: z.literal('togglePolicy'), policy: z.string().min(1).max(200), enabled: z.boolean() }),
  z.object({ type: z.literal('copyDigest'), digest: z.string().regex(/^(sha256|hmac-sha256):[0-9a-f]{64}$/) }),
  markerRefSchema.extend({ type: z.literal('notSecret') }),
  z.object({ type: z.literal('openLog') }),
]);
export type IpcCommand = z.infer<typeof ipcCommandSchema>;

const editedInputSchema = z.record(z.string(), z.unknown());

/** Every request with its parameters and the type of its response. */
export const ipcRequestSchemas = {
  approve: z.object({ approvalId: z.string().min(1).max(200), answer: approvalAnswerSchema }),
  refuse: z.object({
    approvalId: z.string().min(1).max(200),
    digest: approvalAnswerSchema.shape.digest,
    message: z.string().max(2000).optional(),
  }),
  rescreenEdit: z.object({ approvalId: z.string().min(1).max(200), editedInput: editedInputSchema }),
  reveal: markerRefSchema,
  markerInfo: markerRefSchema,
} as const;
export type IpcRequestMethod = keyof typeof ipcRequestSchemas;
export type IpcRequestParams<M extends IpcRequestMethod> = z.infer<(typeof ipcRequestSchemas)[M]>;

export interface IpcResponses {
  /** The approval API's answer: 200 with the resulting record, 400, 404 or 409. */
  approve: { status: number; body: unknown };
  refuse: { status: number; body: unknown };
  /** What every tier says of the edited arguments, before the person commits to them. */
  rescreenEdit: { decision: 'allow' | 'instruct' | 'ask' | 'deny'; reason: string; digest: string | null };
  /** The original value behind a marker: only while the call is still in memory. */
  reveal: { available: boolean; value?: string; why?: string };
  /** Which detector matched a marker, where, and the value's length (never the value). */
  markerInfo: {
    available: boolean;
    label?: string;
    detector?: string;
    part?: string;
    valueLength?: number;
    why?: string;
  };
}

export const ipcRequestSchema = z.discriminatedUnion('method', [
  z.object({
    type: z.literal('request'),
    id: z.number().int().min(0),
    method: z.literal('approve'),
    params: ipcRequestSchemas.approve,
  }),
  z.object({
    type: z.literal('request'),
    id: z.number().int().min(0),
    method: z.literal('refuse'),
    params: ipcRequestSchemas.refuse,
  }),
  z.object({
    type: z.literal('request'),
    id: z.number().int().min(0),
    method: z.literal('rescreenEdit'),
    params: ipcRequestSchemas.rescreenEdit,
  }),
  z.object({
    type: z.literal('request'),
    id: z.number().int().min(0),
    method: z.literal('reveal'),
    params: ipcRequestSchemas.reveal,
  }),
  z.object({
    type: z.literal('request'),
    id: z.number().int().min(0),
    method: z.literal('markerInfo'),
    params: ipcRequestSchemas.markerInfo,
  }),
]);
export type IpcRequest = z.infer<typeof ipcRequestSchema>;

/** Anything the panel may post; the host parses with this and drops what fails. */
export const panelMessageSchema = z.union([
  z.object({ type: z.literal('command'), command: ipcCommandSchema }),
  ipcRequestSchema,
]);
export type PanelMessage = z.infer<typeof panelMessageSchema>;

/** Host → panel, beyond the notifications: a request's response and the host's state. */
export type IpcResponseMessage =
  | { type: 'response'; id: number; ok: true; result: unknown }
  | { type: 'response'; id: number; ok: false; error: string };
export type HostMessage =
  HostNotification | IpcResponseMessage | { type: 'state'; state: HostState } | { type: 'toast'; text: string };
