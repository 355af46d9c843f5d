import { z } from 'zod';
import type { ApprovalAnswer, MarkerRef, PanelCommand, PanelMessage, RequestMethod } from '../protocol';

// The hosts' boundary for what a panel sends: every message is parsed with
// these schemas and dropped when it fails. The protocol module declares the
// types (no zod there, so the webview bundle carries none); the checks at the
// end keep each schema's output assignable to its protocol type.

const DIGEST = /^sha256:[0-9a-f]{64}$/;
const id = z.string().min(1).max(200);

export const approvalAnswerSchema = z
  .object({
    decision: z.enum(['approve', 'refuse']),
    scope: z.enum(['once', 'session']).default('once'),
    digest: z.string().regex(DIGEST, 'a digest: "sha256:" and 64 hex digits'),
    editedInput: z.record(z.string(), z.unknown()).optional(),
    message: z.string().max(2000).optional(),
  })
  .strict();

export const markerRefSchema = z.object({
  recordId: id,
  source: z.enum(['envelope', 'arguments']),
  spanIndex: z.number().int().min(0).max(100_000),
});

export const panelCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), protocolVersion: z.number().int() }),
  z.object({ type: z.literal('togglePolicy'), policy: id, enabled: z.boolean() }),
  z.object({ type: z.literal('copyDigest'), digest: z.string().regex(/^(sha256|hmac-sha256):[0-9a-f]{64}$/) }),
  markerRefSchema.extend({ type: z.literal('notSecret') }),
  z.object({ type: z.literal('openLog') }),
  z.object({ type: z.literal('connect') }),
  z.object({ type: z.literal('revokeLicence'), licenceId: id }),
]);

/** Every request's parameters, by method. */
export const requestParamSchemas = {
  approve: z.object({ approvalId: id, answer: approvalAnswerSchema }),
  refuse: z.object({
    approvalId: id,
    digest: approvalAnswerSchema.shape.digest,
    message: z.string().max(2000).optional(),
  }),
  rescreenEdit: z.object({ approvalId: id, editedInput: z.record(z.string(), z.unknown()) }),
  detail: z.object({ recordId: id }),
  reveal: markerRefSchema,
  markerInfo: markerRefSchema,
} satisfies Record<RequestMethod, z.ZodType>;

const requestIdSchema = z.number().int().min(0);
const requestSchema = z.discriminatedUnion(
  'method',
  (Object.keys(requestParamSchemas) as RequestMethod[]).map((method) =>
    z.object({
      type: z.literal('request'),
      id: requestIdSchema,
      method: z.literal(method),
      params: requestParamSchemas[method],
    }),
  ) as unknown as [z.ZodObject<{ method: z.ZodLiteral<RequestMethod> }>],
);

/** Anything a panel may post; the host parses with this and drops what fails. */
export const panelMessageSchema = z.union([
  z.object({ type: z.literal('command'), command: panelCommandSchema }),
  requestSchema,
]) as unknown as z.ZodType<PanelMessage>;

type Assignable<T extends U, U> = T;
export type SchemasMatchProtocol = [
  Assignable<z.infer<typeof approvalAnswerSchema>, ApprovalAnswer>,
  Assignable<z.infer<typeof markerRefSchema>, MarkerRef>,
  Assignable<z.infer<typeof panelCommandSchema>, PanelCommand>,
  Assignable<z.infer<(typeof requestParamSchemas)['approve']>, import('../protocol').RequestParams<'approve'>>,
  Assignable<z.infer<(typeof requestParamSchemas)['refuse']>, import('../protocol').RequestParams<'refuse'>>,
  Assignable<
    z.infer<(typeof requestParamSchemas)['rescreenEdit']>,
    import('../protocol').RequestParams<'rescreenEdit'>
  >,
  Assignable<z.infer<(typeof requestParamSchemas)['detail']>, import('../protocol').RequestParams<'detail'>>,
];
