import { z } from 'zod';
import type { CallRecord } from '../../protocol/records';

// The one shape the panel shows, the log stores and `evaluate` prints.
// Parsed with this schema wherever it is read back (log files, the web panel).

export const RECORD_SCHEMA_VERSION = 1;

const decision = z.enum(['allow', 'instruct', 'ask', 'deny']);

export const outcomeSchema = z.object({
  policy: z.string(),
  tier: z.enum(['deterministic', 'semantic', 'cloud']),
  verdict: decision,
  reason: z.string(),
  evidence: z.string().optional(),
  reviewableBy: z.array(z.string()).optional(),
  personOnly: z.boolean().optional(),
  additionalContext: z.string().optional(),
  updatedOutput: z.unknown().optional(),
  probability: z.number().optional(),
  observed: z.boolean().optional(),
  /** Cloud outcomes: the org policy that owns the check, and its version. */
  cloudPolicyId: z.string().optional(),
  cloudVersion: z.number().optional(),
});

const cloudDecision = z.enum(['allow', 'instruct', 'deny']);

/** One Cloud check's outcome as the reply gave it (its verdict in the contract's own words). */
export const cloudOutcomeSchema = z.object({
  check: z.string(),
  cloudPolicyId: z.string(),
  cloudVersion: z.number(),
  verdict: z.enum(['deny', 'instruct', 'overridden', 'none']),
  evidence: z.number(),
  reason: z.string().nullable(),
});

/** What an observed Cloud check would have done: recorded, never applied. */
export const cloudObservedSchema = z.object({
  cloudPolicyId: z.string(),
  cloudVersion: z.number(),
  check: z.string(),
  decision: z.enum(['deny', 'instruct']),
  reason: z.string(),
});

/** The Cloud review's part of a record (org-managed checks). */
export const cloudPartSchema = z.object({
  mode: z.enum(['observe', 'enforce']),
  /** ok: a valid reply; degraded: none, and the local result stood; skipped: not sent (no side effects). */
  status: z.enum(['ok', 'degraded', 'skipped']),
  /** Why degraded or skipped. */
  reason: z.string().nullable(),
  latencyMs: z.number().nullable(),
  /** Cloud's verdict on its enforced checks; null when there was no valid reply. */
  decision: cloudDecision.nullable(),
  /** In observe mode: what applying Cloud's verdict would have decided. */
  wouldDecide: decision.optional(),
  asked: z.array(z.string()),
  droppedLocal: z.array(z.string()),
  droppedCloud: z.array(z.string()),
  outcomes: z.array(cloudOutcomeSchema),
  observed: z.array(cloudObservedSchema),
  observedAsked: z.array(z.string()),
});

export const redactionSpanSchema = z.object({
  part: z.string(),
  label: z.string(),
  detector: z.string(),
  start: z.number(),
  end: z.number(),
  valueLength: z.number(),
});

export const envelopeSchema = z.object({
  userSaid: z.array(z.string()),
  agentLastMessage: z.string().nullable(),
  facts: z.record(z.string(), z.unknown()),
  request: z.string(),
  comments: z.array(z.string()).optional(),
});

export const approvalInfoSchema = z.object({
  state: z.enum(['none', 'pending', 'approved', 'refused', 'expired', 'withdrawn', 'licensed']),
  scope: z.enum(['once', 'session']).nullable(),
  digest: z.string().nullable(),
  answeredBy: z.string().nullable(),
  answeredAt: z.string().nullable(),
  approvalId: z.string().optional(),
  edited: z.boolean().optional(),
  note: z.string().optional(),
  ranInput: z.unknown().optional(),
  message: z.string().optional(),
});

/** What the call's facts rested on: the file system and git answers, and what could not be read. */
export const factsRecordSchema = z.object({
  io: z.array(z.object({ op: z.string(), arg: z.string(), answer: z.string() })),
  unread: z.array(z.object({ reason: z.string(), detail: z.string() })),
});

export const verdictRecordSchema = z.object({
  type: z.literal('record').default('record'),
  schemaVersion: z.number(),
  id: z.string(),
  ts: z.string(),
  agent: z.string(),
  event: z.string(),
  sessionId: z.string(),
  cwd: z.string().optional(),
  projectRoot: z.string().optional(),
  toolName: z.string().nullable(),
  toolUseId: z.string().optional(),
  toolInput: z.unknown(),
  /** Exact-args digest; in the log it is keyed (see activity/log.ts), never plain. */
  argsDigest: z.string().nullable(),
  notBindable: z.string().optional(),
  decision,
  reason: z.string(),
  outcomes: z.array(outcomeSchema),
  envelope: envelopeSchema.nullable(),
  redactions: z.object({
    count: z.number(),
    byLabel: z.record(z.string(), z.number()),
    spans: z.array(redactionSpanSchema).optional(),
    inArguments: z.number().optional(),
  }),
  cut: z.object({ request: z.boolean(), userSaid: z.boolean(), truncated: z.boolean() }),
  semantic: z.object({
    status: z.enum(['off', 'ok', 'degraded', 'observe']),
    reason: z.string().nullable(),
    latencyMs: z.number().nullable(),
    model: z.string().nullable(),
    wouldDecide: decision.optional(),
  }),
  cloud: cloudPartSchema.optional(),
  approval: approvalInfoSchema,
  latencyMs: z.number(),
  failure: z.string().optional(),
  paused: z.boolean().optional(),
  facts: factsRecordSchema.optional(),
});

export type VerdictRecord = z.infer<typeof verdictRecordSchema>;
// The panel's protocol declares the record without zod; this keeps the two in step.
type Assignable<T extends U, U> = T;
type _RecordMatchesProtocol = Assignable<VerdictRecord, CallRecord>;
export type Envelope = z.infer<typeof envelopeSchema>;
export type CloudPart = z.infer<typeof cloudPartSchema>;
export type CloudObserved = z.infer<typeof cloudObservedSchema>;
export type ApprovalInfo = z.infer<typeof approvalInfoSchema>;

export const NO_APPROVAL: ApprovalInfo = {
  state: 'none',
  scope: null,
  digest: null,
  answeredBy: null,
  answeredAt: null,
};
export const SEMANTIC_OFF: VerdictRecord['semantic'] = { status: 'off', reason: null, latencyMs: null, model: null };
export const NO_CUT: VerdictRecord['cut'] = { request: false, userSaid: false, truncated: false };
