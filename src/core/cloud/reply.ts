// The reply's `cloud` block, validated field by field and rebuilt, so that nothing but the fields
// below crosses into Warden. Any rule broken refuses the whole reply (CloudReplyError): a reply
// that contradicts itself cannot be told apart from one that was tampered with, and a refused
// reply leaves the local result standing.
import { z } from 'zod';
import { CLOUD_POLICY_ID } from '../config/schema';
import type { CloudObserved } from '../verdict/record';
import {
  MAX_CLOUD_LIST,
  MAX_CLOUD_NAME_CHARS,
  MAX_CLOUD_REASON_CHARS,
  type CloudDecision,
  type CloudVerdictWord,
} from './contract';

export class CloudReplyError extends Error {
  constructor(message: string) {
    super(`the Cloud reply was refused: ${message}`);
    this.name = 'CloudReplyError';
  }
}

const probability = z.number().min(0).max(1);
const checkName = z.string().min(1).max(MAX_CLOUD_NAME_CHARS);
const nameList = z
  .array(checkName)
  .max(MAX_CLOUD_LIST)
  .nullish()
  .transform((list) => list ?? []);

const outcomeShape = z.object({
  policy: checkName,
  mode: z.enum(['deny', 'instruct']),
  evidence: probability,
  exempt: probability.nullish(),
  userAsked: probability.nullish(),
  targetNamedByUser: z.boolean(),
  escalatedByInjection: z.boolean(),
  verdict: z.enum(['deny', 'instruct', 'overridden', 'none']),
  intent: z.enum(['op-requested', 'task-step', 'downgraded-task-step']).optional(),
  targetScanIncomplete: z.literal(true).optional(),
  userCanOverride: z.boolean().optional(),
  origin: z.object({
    cloudPolicyId: z.string().regex(CLOUD_POLICY_ID, 'not a Cloud policy id'),
    cloudVersion: z
      .number()
      .int()
      .min(0)
      .refine((n) => Number.isSafeInteger(n), 'not a safe integer'),
  }),
  effect: z.enum(['enforce', 'observe']).optional(),
  reason: z.string().nullish(),
});

const verdictShape = z.object({
  decision: z.enum(['allow', 'instruct', 'deny']),
  reason: z.string().nullish(),
  outcomes: z.array(outcomeShape).max(MAX_CLOUD_LIST),
  beyondTask: z.boolean().optional(),
  injectionSuspected: probability.nullish(),
  scopeWithinRequest: probability.nullish(),
});

const blockShape = z.object({
  verdict: verdictShape,
  asked: nameList,
  droppedLocal: nameList,
  droppedCloud: nameList,
  observed: z.object({ verdict: verdictShape, asked: nameList }).nullish(),
});

/** The reply around the block: the judge's answers (systemone shape) and the block. */
const replyShape = z.object({
  model: z.string().optional(),
  answers: z.record(z.string(), z.object({ noul: z.unknown() })).optional(),
  cloud: z.unknown().optional(),
});

/** One Cloud check's outcome, as far as Warden keeps it. */
export interface CloudOutcome {
  check: string;
  mode: 'deny' | 'instruct';
  verdict: CloudVerdictWord;
  evidence: number;
  cloudPolicyId: string;
  cloudVersion: number;
  reason: string | null;
}

export interface CloudVerdict {
  decision: CloudDecision;
  reason: string | null;
  /** The enforced checks only: observed ones never reach a verdict. */
  outcomes: CloudOutcome[];
  beyondTask: boolean;
  injectionSuspected: number | null;
  scopeWithinRequest: number | null;
}

export interface CloudReply {
  verdict: CloudVerdict;
  asked: string[];
  droppedLocal: string[];
  droppedCloud: string[];
  /** What the observed checks would have done, one per Cloud policy (its most severe check). */
  observed: CloudObserved[];
  observedAsked: string[];
}

export interface ParsedReply {
  model: string | null;
  /** The answers as sent, still to be checked against the questions the machine needs. */
  answers: Record<string, unknown>;
  cloud: CloudReply;
}

function describe(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `${where} has an unexpected shape`;
  const path = [where, ...issue.path.map(String)].join('.');
  return `${path}: ${issue.message}`;
}

function capReason(reason: string | null | undefined): string | null {
  if (typeof reason !== 'string') return null;
  return reason.length > MAX_CLOUD_REASON_CHARS ? `${reason.slice(0, MAX_CLOUD_REASON_CHARS - 1)}…` : reason;
}

type OutcomeShape = z.infer<typeof outcomeShape>;
type VerdictShape = z.infer<typeof verdictShape>;

function rebuild(o: OutcomeShape): CloudOutcome {
  return {
    check: o.policy,
    mode: o.mode,
    verdict: o.verdict,
    evidence: o.evidence,
    cloudPolicyId: o.origin.cloudPolicyId,
    cloudVersion: o.origin.cloudVersion,
    reason: capReason(o.reason),
  };
}

/** Each outcome answers a check the block says was asked, and each (policy, check) only once. */
function checkAnswered(verdict: VerdictShape, asked: string[], where: string): void {
  const askedSet = new Set(asked);
  const seen = new Set<string>();
  verdict.outcomes.forEach((o, i) => {
    if (!askedSet.has(o.policy))
      throw new CloudReplyError(`${where}.outcomes.${i} answers ${JSON.stringify(o.policy)}, which was not asked`);
    const key = `${o.origin.cloudPolicyId}\u0000${o.policy}`;
    if (seen.has(key)) throw new CloudReplyError(`${where}.outcomes.${i} answers ${JSON.stringify(o.policy)} twice`);
    seen.add(key);
  });
}

const RANK: Record<CloudDecision, number> = { allow: 0, instruct: 1, deny: 2 };

/** Per Cloud policy, its most severe check that fired; a check that did not fire would have done nothing. */
function wouldHave(outcomes: CloudOutcome[], soleReason: string | null): CloudObserved[] {
  const firing = outcomes.filter((o) => o.verdict === 'deny' || o.verdict === 'instruct');
  const byPolicy = new Map<string, CloudObserved>();
  for (const o of firing) {
    const decision = o.verdict as 'deny' | 'instruct';
    const seen = byPolicy.get(o.cloudPolicyId);
    if (seen && RANK[seen.decision] >= RANK[decision]) continue;
    byPolicy.set(o.cloudPolicyId, {
      cloudPolicyId: o.cloudPolicyId,
      cloudVersion: o.cloudVersion,
      check: o.check,
      decision,
      reason: o.reason ?? (firing.length === 1 ? soleReason : null) ?? `the org check ${o.check} flagged this call`,
    });
  }
  return [...byPolicy.values()];
}

/**
 * The reply's block. `observedPolicies`: Cloud policy ids this machine only observes; their checks
 * are recorded like those Cloud marks `effect: "observe"`, and never applied.
 */
export function parseCloudBlock(raw: unknown, observedPolicies: ReadonlyArray<string> = []): CloudReply {
  if (raw === undefined || raw === null) throw new CloudReplyError('it has no cloud block');
  const parsed = blockShape.safeParse(raw);
  if (!parsed.success) throw new CloudReplyError(describe(parsed.error, 'cloud'));
  const block = parsed.data;
  checkAnswered(block.verdict, block.asked, 'cloud.verdict');
  const watched = block.observed ?? null;
  if (watched) {
    checkAnswered(watched.verdict, watched.asked, 'cloud.observed.verdict');
    if (watched.verdict.outcomes.some((o) => o.verdict === 'deny') && watched.verdict.decision !== 'deny')
      throw new CloudReplyError('an observed check denied but the observed verdict does not');
  }
  const observeIds = new Set(observedPolicies);
  const isObserved = (o: OutcomeShape): boolean => o.effect === 'observe' || observeIds.has(o.origin.cloudPolicyId);
  const enforced = block.verdict.outcomes.filter((o) => !isObserved(o)).map(rebuild);
  const observedHere = block.verdict.outcomes.filter(isObserved);
  if (enforced.some((o) => o.verdict === 'deny') && block.verdict.decision !== 'deny')
    throw new CloudReplyError('a check denied but the verdict does not');
  let decision: CloudDecision = block.verdict.decision;
  let reason = capReason(block.verdict.reason);
  if (observedHere.length > 0) {
    // Decided again from the enforced checks alone, never above what Cloud said; when that
    // lowers the decision, Cloud's reason no longer describes it.
    const own: CloudDecision = enforced.some((o) => o.verdict === 'deny')
      ? 'deny'
      : enforced.some((o) => o.verdict === 'instruct') || block.verdict.beyondTask === true
        ? 'instruct'
        : 'allow';
    if (RANK[own] < RANK[decision]) {
      decision = own;
      reason = null;
    }
  }
  const watchedOutcomes = watched?.verdict.outcomes.map(rebuild) ?? [];
  const watchedFiring = watchedOutcomes.filter((o) => o.verdict === 'deny' || o.verdict === 'instruct');
  const observed = [
    ...wouldHave(observedHere.map(rebuild), null),
    ...wouldHave(watchedOutcomes, watchedFiring.length === 1 ? capReason(watched?.verdict.reason) : null),
  ];
  return {
    verdict: {
      decision,
      reason,
      outcomes: enforced,
      beyondTask: block.verdict.beyondTask === true,
      injectionSuspected: block.verdict.injectionSuspected ?? null,
      scopeWithinRequest: block.verdict.scopeWithinRequest ?? null,
    },
    asked: block.asked,
    droppedLocal: block.droppedLocal,
    droppedCloud: block.droppedCloud,
    observed,
    observedAsked: [...observedHere.map((o) => o.policy), ...(watched?.asked ?? [])],
  };
}

/** The whole reply: the answers beside the block. */
export function parseCloudReply(raw: unknown, observedPolicies: ReadonlyArray<string> = []): ParsedReply {
  const parsed = replyShape.safeParse(raw);
  if (!parsed.success) throw new CloudReplyError(describe(parsed.error, 'reply'));
  const answers = Object.fromEntries(Object.entries(parsed.data.answers ?? {}).map(([id, a]) => [id, a.noul]));
  return {
    model: parsed.data.model ?? null,
    answers,
    cloud: parseCloudBlock(parsed.data.cloud, observedPolicies),
  };
}
