// Replies in the Cloud review contract's own shapes, written from the contract's text (its field
// names, value sets and rules), not from Warden's types: every builder returns plain JSON, so a
// test can break any field in any way the contract's parser refuses.

export type Json = Record<string, unknown>;

/** One outcome as the contract lists its fields: a Cloud check that fired and denied. */
export function outcome(over: Json = {}): Json {
  return {
    policy: 'no-prod-deploy',
    mode: 'deny',
    evidence: 0.93,
    exempt: null,
    userAsked: 0.05,
    targetNamedByUser: false,
    escalatedByInjection: false,
    verdict: 'deny',
    intent: 'op-requested',
    userCanOverride: true,
    origin: { cloudPolicyId: 'acme.prod-guard', cloudVersion: 3 },
    reason: 'Production deploys go through the release pipeline (acme policy)',
    ...over,
  };
}

/** A check that was asked and found nothing. */
export function quietOutcome(over: Json = {}): Json {
  return outcome({ verdict: 'none', evidence: 0.04, reason: null, ...over });
}

/** The `verdict` object of a reply block. */
export function verdict(over: Json = {}): Json {
  return {
    decision: 'allow',
    reason: null,
    outcomes: [],
    injectionSuspected: 0.02,
    scopeWithinRequest: 0.9,
    beyondTask: false,
    ...over,
  };
}

/** A reply block: the enforced verdict, what was asked, what was dropped. */
export function block(over: Json = {}): Json {
  return { verdict: verdict(), asked: [], droppedLocal: [], droppedCloud: [], ...over };
}

/** A Cloud deny by one check. */
export function denyBlock(): Json {
  return block({
    verdict: verdict({
      decision: 'deny',
      reason: 'Deploying to production from an agent is not allowed here',
      outcomes: [outcome()],
    }),
    asked: ['no-prod-deploy'],
  });
}

/** The request as the fake receives it. */
export interface CapturedReview {
  model?: string;
  state?: Json;
  questions: Record<string, { type: string; instructions: string; criteria?: { true: string; false: string } }>;
  cloud: Json;
}

/**
 * The whole reply: every question of the request answered (as Cloud's judge would), the answers
 * to Cloud's own checks' questions, and the block. `answerFor` returns undefined to leave one out.
 */
export function reply(
  request: CapturedReview,
  cloudBlock: unknown,
  answerFor: (id: string) => number | undefined = () => 0.05,
): Json {
  const answers: Record<string, { noul: number }> = {};
  for (const id of Object.keys(request.questions)) {
    const p = answerFor(id);
    if (p !== undefined) answers[id] = { noul: p };
  }
  answers['no-prod-deploy.deploys'] = { noul: 0.93 };
  const out: Json = { model: 'jev-1.13.0', answers, usage: { input_tokens: 900 } };
  if (cloudBlock !== undefined) out.cloud = cloudBlock;
  return out;
}
