// One call's Cloud review: the machine's questions and the `cloud` block go to the org's endpoint
// in place of the configured judge; the machine decides its own policies from the answers and
// merges Cloud's verdict with its own. Never throws: anything short of a complete, well-formed
// reply is degraded, and the local result stands.
import type { Merged, Outcome } from '../types';
import { combine } from '../verdict/combine';
import type { CloudPart, VerdictRecord } from '../verdict/record';
import { decide, type SemanticDecision, type Thresholds } from '../semantic/decide';
import type { BuiltEnvelope } from '../semantic/envelope';
import { systemoneBody, SYSTEMONE_DEFAULT_MODEL } from '../semantic/judges/systemone';
import { checkAnswers, JudgeError } from '../semantic/judges/types';
import type { QuestionSet } from '../semantic/questions';
import type { ScrubOptions } from '../semantic/scrub';
import type { SemanticStartInput } from '../semantic/start';
import { buildCloudBlock } from './block';
import type { CloudClient } from './client';
import { mergeWithCloud } from './merge';
import { CloudReplyError, parseCloudReply, type CloudReply } from './reply';

export type SemanticMode = 'off' | 'observe' | 'enforce';
export type CloudMode = 'observe' | 'enforce';

export interface CloudReviewInput {
  start: SemanticStartInput;
  built: BuiltEnvelope;
  /** The global questions, and the machine's own policies when its semantic tier is on. */
  selection: QuestionSet;
  semanticMode: SemanticMode;
  cloudMode: CloudMode;
  thresholds: Thresholds;
  client: CloudClient;
  key: string | undefined;
  humanTurnCap: number;
  redaction: ScrubOptions;
  signal: AbortSignal;
  started: number;
}

export interface CloudReviewResult {
  status: VerdictRecord['semantic'];
  cloud: CloudPart;
  merge(deterministic: Outcome[]): Merged;
}

const elapsed = (started: number): number => Math.round(performance.now() - started);

/** The record's Cloud part when there is no valid reply. */
export function degradedCloudPart(mode: CloudMode, reason: string, latencyMs: number | null): CloudPart {
  return {
    mode,
    status: 'degraded',
    reason,
    latencyMs,
    decision: null,
    asked: [],
    droppedLocal: [],
    droppedCloud: [],
    outcomes: [],
    observed: [],
    observedAsked: [],
  };
}

export function degradedCloudReview(mode: CloudMode, reason: string, started: number): CloudReviewResult {
  const latencyMs = elapsed(started);
  return {
    status: { status: 'degraded', reason: `the Cloud review degraded: ${reason}`, latencyMs, model: null },
    cloud: degradedCloudPart(mode, reason, latencyMs),
    merge: (deterministic) => combine(deterministic),
  };
}

/** Answers of a reply with nothing to decide: read leniently, none is required. */
function presentAnswers(answers: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, p] of Object.entries(answers))
    if (typeof p === 'number' && Number.isFinite(p) && p >= 0 && p <= 1) out[id] = p;
  return out;
}

function summary(reply: CloudReply, local: SemanticDecision, localAsked: number): string {
  const org = `org review ${reply.verdict.decision} (${reply.asked.length} org check${reply.asked.length === 1 ? '' : 's'} asked${reply.observed.length ? `, ${reply.observed.length} observed would have objected` : ''})`;
  const fired = local.verdicts.filter((v) => v.fired).map((v) => `${v.policy} ${v.verdict}`);
  const mine = fired.length ? `fired: ${fired.join(', ')}` : `no semantic policy fired (${localAsked} asked)`;
  return `${org}; ${mine}${local.injectionSuspected ? '; injection suspected' : ''}`;
}

export async function runCloudReview(input: CloudReviewInput): Promise<CloudReviewResult> {
  const { built, selection, start } = input;
  const model = start.config.semantic.model ?? SYSTEMONE_DEFAULT_MODEL;
  let reply: ReturnType<typeof parseCloudReply>;
  try {
    const block = buildCloudBlock({
      event: start.event,
      call: start.call,
      projectRoot: start.projectRoot,
      built,
      localPolicies: selection.policies.map((p) => p.name),
      machineId: start.config.cloud.machineId ?? '',
      humanTurnCap: input.humanTurnCap,
      redaction: input.redaction,
    });
    const body = {
      ...(systemoneBody({ envelope: built.envelope, questions: selection.questions }, model) as object),
      cloud: block,
    };
    const json = await input.client.post(body, input.key, input.signal);
    reply = parseCloudReply(json, start.config.cloud.observedPolicies ?? []);
  } catch (err) {
    const reason =
      err instanceof JudgeError || err instanceof CloudReplyError
        ? err.message
        : `the Cloud review failed: ${(err as Error).message}`;
    return degradedCloudReview(input.cloudMode, reason, input.started);
  }

  // Only the machine's own groups can be dropped from its side; a name it did not send is not Cloud's to drop.
  const own = new Set(selection.policies.map((p) => p.name));
  const dropped = new Set(reply.cloud.droppedLocal.filter((name) => own.has(name)));
  const kept = selection.policies.filter((p) => !dropped.has(p.name));
  const droppedProbes = new Set(selection.policies.filter((p) => dropped.has(p.name)).flatMap((p) => p.probeIds));
  const expected = selection.questions.filter((q) => !droppedProbes.has(q.id));
  const cloud = reply.cloud;
  // Nothing of the machine's left and no Cloud check asked: Cloud asked no judge, so no answer is owed.
  const shortCircuit =
    kept.length === 0 &&
    cloud.asked.length === 0 &&
    cloud.verdict.outcomes.length === 0 &&
    cloud.observedAsked.length === 0;
  let answers: Record<string, number>;
  try {
    answers = shortCircuit ? presentAnswers(reply.answers) : checkAnswers(expected, reply.answers);
  } catch (err) {
    return degradedCloudReview(input.cloudMode, `Cloud's reply: ${(err as Error).message}`, input.started);
  }

  const local = decide({
    policies: kept,
    answers,
    thresholds: input.thresholds,
    taskProbes: selection.taskProbes,
    cut: built.cut,
    targetScanComplete: built.scan.complete,
    namedAllTargets: built.naming.named,
    unnamedTargets: built.naming.unnamed,
  });
  const latencyMs = elapsed(input.started);
  const status: VerdictRecord['semantic'] = {
    status: input.semanticMode === 'observe' ? 'observe' : 'ok',
    reason: summary(cloud, local, kept.length),
    latencyMs,
    model: reply.model ?? model,
  };
  const part: CloudPart = {
    mode: input.cloudMode,
    status: 'ok',
    reason: null,
    latencyMs,
    decision: cloud.verdict.decision,
    asked: cloud.asked,
    droppedLocal: [...dropped],
    droppedCloud: cloud.droppedCloud,
    outcomes: cloud.verdict.outcomes.map((o) => ({
      check: o.check,
      cloudPolicyId: o.cloudPolicyId,
      cloudVersion: o.cloudVersion,
      verdict: o.verdict,
      evidence: o.evidence,
      reason: o.reason,
    })),
    observed: cloud.observed,
    observedAsked: cloud.observedAsked,
  };
  const localApplied = input.semanticMode === 'enforce' ? local : null;
  const cloudApplied = input.cloudMode === 'enforce' ? cloud.verdict : null;
  return {
    status,
    cloud: part,
    merge(deterministic: Outcome[]): Merged {
      const merged = mergeWithCloud({ deterministic, local: localApplied, cloud: cloudApplied });
      if (input.semanticMode === 'observe')
        status.wouldDecide = mergeWithCloud({ deterministic, local, cloud: cloudApplied }).decision;
      if (input.cloudMode === 'observe')
        part.wouldDecide = mergeWithCloud({ deterministic, local: localApplied, cloud: cloud.verdict }).decision;
      return merged;
    },
  };
}
