import { z } from 'zod';

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
  }),
  cut: z.object({ request: z.boolean(), userSaid: z.boolean(), truncated: z.boolean() }),
  semantic: z.object({
    status: z.enum(['off', 'ok', 'degraded', 'observe']),
    reason: z.string().nullable(),
    latencyMs: z.number().nullable(),
    model: z.string().nullable(),
    wouldDecide: decision.optional(),
  }),
  approval: approvalInfoSchema,
  latencyMs: z.number(),
  failure: z.string().optional(),
  paused: z.boolean().optional(),
  facts: factsRecordSchema.optional(),
});

export type VerdictRecord = z.infer<typeof verdictRecordSchema>;
export type Envelope = z.infer<typeof envelopeSchema>;
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
