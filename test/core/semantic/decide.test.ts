// decide and merge: the rules, case by case, then as invariants over thousands of random answer sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decide, DEFAULT_THRESHOLDS, type DecideInput } from '../../../src/core/semantic/decide';
import { mergeEnforced, mergeOutcomes } from '../../../src/core/semantic/merge';
import { SEMANTIC_POLICIES, selectQuestions, type SelectedPolicy } from '../../../src/core/semantic/questions';
import { combine, severity } from '../../../src/core/verdict/combine';
import type { Decision, Outcome } from '../../../src/core/types';

const ALL = selectQuestions('shell', true).policies.concat(
  selectQuestions('read', true).policies.filter((p) => p.name === 'read-outside-workspace'),
);
const byName = (name: string): SelectedPolicy => {
  const found = SEMANTIC_POLICIES.find((p) => p.name === name)!;
  return { name, mode: found.defaultMode, probeIds: found.probes.map((p) => p.id) };
};
const NO_CUT = { request: false, userSaid: false, truncated: false };

/** The human asked for exactly this: every override condition holds. */
function agreeing(
  policies: SelectedPolicy[],
  policyAnswers: Record<string, number>,
  extra: Partial<DecideInput> = {},
): DecideInput {
  return {
    policies,
    answers: {
      injection: 0.02,
      'task-step': 0.95,
      'user-asked-operation': 0.93,
      'beyond-task': 0.05,
      ...policyAnswers,
    },
    thresholds: DEFAULT_THRESHOLDS,
    taskProbes: true,
    cut: NO_CUT,
    targetScanComplete: true,
    namedAllTargets: true,
    ...extra,
  };
}

test('the twelve semantic policies exist, each for the families it concerns, with one or two probes', () => {
  assert.ok(SEMANTIC_POLICIES.length >= 12);
  for (const name of [
    'destructive-deletion',
    'production-infra-change',
    'git-history-rewrite',
    'protected-branch-push',
    'secret-exposure',
    'credential-exfiltration',
    'remote-code-execution',
    'privilege-escalation',
    'database-destruction',
    'read-outside-workspace',
    'agent-config-tampering',
    'external-data-egress',
  ]) {
    const policy = SEMANTIC_POLICIES.find((p) => p.name === name);
    assert.ok(policy, name);
    assert.ok(policy.probes.length >= 1 && policy.probes.length <= 2);
  }
  const ids = SEMANTIC_POLICIES.flatMap((p) => p.probes.map((q) => q.id));
  assert.equal(new Set(ids).size, ids.length, 'probe ids are unique');
  assert.deepEqual(
    selectQuestions('read', false).policies.map((p) => p.name),
    ['read-outside-workspace'],
  );
  assert.ok(!selectQuestions('read', true).policies.some((p) => p.name === 'git-history-rewrite'));
  const noHuman = selectQuestions('shell', false);
  assert.equal(noHuman.taskProbes, false);
  assert.equal(noHuman.questions[0]?.id, 'injection');
  assert.ok(!noHuman.questions.some((q) => ['task-step', 'user-asked-operation', 'beyond-task'].includes(q.id)));
  assert.deepEqual(
    selectQuestions('network', true)
      .questions.slice(0, 4)
      .map((q) => q.id),
    ['injection', 'task-step', 'user-asked-operation', 'beyond-task'],
  );
  assert.deepEqual(
    selectQuestions('shell', true, { 'git-history-rewrite': { enabled: false } }).policies.find(
      (p) => p.name === 'git-history-rewrite',
    ),
    undefined,
  );
  assert.equal(
    selectQuestions('shell', true, { 'protected-branch-push': { mode: 'deny' } }).policies.find(
      (p) => p.name === 'protected-branch-push',
    )?.mode,
    'deny',
  );
});

test('a policy fires at 0.70, denies at 0.85 in deny mode, and only warns in warn mode', () => {
  const git = byName('git-history-rewrite');
  const push = byName('protected-branch-push');
  const run = (p: number, policy: SelectedPolicy) =>
    decide({ ...agreeing([policy], { [policy.probeIds[0]!]: p }), namedAllTargets: false }).verdicts[0]!;
  assert.equal(run(0.69, git).fired, false);
  assert.equal(run(0.69, git).verdict, 'allow');
  assert.equal(run(0.7, git).verdict, 'instruct');
  assert.equal(run(0.84, git).verdict, 'instruct');
  assert.equal(run(0.85, git).verdict, 'deny');
  assert.equal(run(0.99, push).verdict, 'instruct');
});

test("a policy's evidence is the lowest of its probes", () => {
  const deletion = byName('destructive-deletion');
  const d = decide({
    ...agreeing([deletion], { 'destructive-deletion.deletes': 0.97, 'destructive-deletion.unrecoverable': 0.4 }),
    namedAllTargets: false,
  });
  assert.equal(d.verdicts[0]!.evidence, 0.4);
  assert.equal(d.verdicts[0]!.fired, false);
  assert.deepEqual(d.outcomes, []);
});

test("the human's request softens a firing deny to a warning and clears a firing warning, when every condition holds", () => {
  const deny = decide(agreeing([byName('git-history-rewrite')], { 'git-history-rewrite': 0.95 }));
  assert.equal(deny.verdicts[0]!.verdict, 'instruct');
  assert.equal(deny.verdicts[0]!.change, 'softened');
  const warn = decide(agreeing([byName('protected-branch-push')], { 'protected-branch-push': 0.95 }));
  assert.equal(warn.verdicts[0]!.verdict, 'allow');
  assert.equal(warn.verdicts[0]!.change, 'cleared');
});

test('each missing condition alone keeps the firing policy as it is, and says why', () => {
  const policy = byName('git-history-rewrite');
  const base = agreeing([policy], { 'git-history-rewrite': 0.95 });
  const cases: Array<[string, Partial<DecideInput>, RegExp]> = [
    ['no human turn', { taskProbes: false }, /no human request/],
    ['target not named', { namedAllTargets: false, unnamedTargets: ['main'] }, /did not name every target: main/],
    ['call cut', { cut: { ...NO_CUT, request: true, truncated: true } }, /part of the call was cut/],
    ['human turn cut', { cut: { ...NO_CUT, userSaid: true, truncated: true } }, /request was cut/],
    ['scan incomplete', { targetScanComplete: false }, /not every target/],
    ['not a task step', { answers: { ...base.answers, 'task-step': 0.5 } }, /step of the task/],
    ['not asked', { answers: { ...base.answers, 'user-asked-operation': 0.69 } }, /asked for this operation/],
    ['beyond the task', { answers: { ...base.answers, 'beyond-task': 0.31 } }, /beyond the task/],
    ['injection', { answers: { ...base.answers, injection: 0.7 } }, /address the reviewer/],
  ];
  for (const [label, change, why] of cases) {
    const d = decide({ ...base, ...change });
    assert.equal(d.overrideAllowed, false, label);
    assert.equal(d.verdicts[0]!.verdict, 'deny', label);
    assert.ok(
      d.overrideBlockers.some((b) => why.test(b)),
      `${label}: ${d.overrideBlockers.join('; ')}`,
    );
  }
});

test('a suspected injection escalates a firing warning to deny, but alone it only warns', () => {
  const push = byName('protected-branch-push');
  const d = decide(agreeing([push], { 'protected-branch-push': 0.75, injection: 0.9 }));
  assert.equal(d.verdicts[0]!.verdict, 'deny');
  assert.equal(d.verdicts[0]!.change, 'escalated');
  assert.match(d.outcomes.find((o) => o.policy === 'protected-branch-push')!.reason, /address the reviewer/);
  const alone = decide(agreeing([push], { 'protected-branch-push': 0.1, injection: 0.99 }));
  assert.deepEqual(
    alone.outcomes.map((o) => [o.policy, o.verdict]),
    [['injection', 'instruct']],
  );
});

test('a reviewable deterministic finding is cleared only when every semantic policy it names was asked, answered and did not fire', () => {
  const finding: Outcome = {
    policy: 'rm-recursive',
    tier: 'deterministic',
    verdict: 'deny',
    reason: 'rm -rf',
    reviewableBy: ['destructive-deletion'],
  };
  const policies = [byName('destructive-deletion')];
  const quiet = decide(
    agreeing(policies, { 'destructive-deletion.deletes': 0.9, 'destructive-deletion.unrecoverable': 0.1 }),
  );
  assert.equal(mergeEnforced([finding], quiet).decision, 'allow');
  assert.match(mergeEnforced([finding], quiet).reason, /no policy objected/);
  const fired = decide(
    agreeing(policies, { 'destructive-deletion.deletes': 0.9, 'destructive-deletion.unrecoverable': 0.9 }),
  );
  assert.equal(mergeEnforced([finding], fired).decision, 'deny');
  const notAsked = decide(agreeing([byName('git-history-rewrite')], { 'git-history-rewrite': 0.1 }));
  assert.equal(mergeEnforced([finding], notAsked).decision, 'deny');
  const twoNames = { ...finding, reviewableBy: ['destructive-deletion', 'git-history-rewrite'] };
  assert.equal(mergeEnforced([twoNames], quiet).decision, 'deny');
  const incomplete = decide({
    ...agreeing(policies, { 'destructive-deletion.deletes': 0.1, 'destructive-deletion.unrecoverable': 0.1 }),
    targetScanComplete: false,
  });
  assert.equal(mergeEnforced([finding], incomplete).decision, 'deny');
  const personOnly = { ...finding, verdict: 'ask' as const, personOnly: true };
  assert.equal(mergeEnforced([personOnly], quiet).decision, 'ask');
  const observe = mergeOutcomes([finding], quiet, 'observe');
  assert.equal(observe.merged.decision, 'deny');
  assert.equal(observe.wouldDecide, 'allow');
});

// ---- invariants over random answer sets ----

const probability = fc.double({ min: 0, max: 1, noNaN: true });
const decision = fc.constantFrom<Decision>('allow', 'instruct', 'ask', 'deny');
const policyNames = ALL.map((p) => p.name);

const scenario = fc.record({
  policies: fc
    .subarray(ALL, { minLength: 0 })
    .chain((ps) =>
      fc.tuple(...ps.map((p) => fc.constantFrom<'deny' | 'warn'>('deny', 'warn').map((mode) => ({ ...p, mode })))),
    ),
  answers: fc.dictionary(
    fc.constantFrom(...ALL.flatMap((p) => p.probeIds), 'task-step', 'user-asked-operation', 'beyond-task'),
    probability,
  ),
  injection: probability,
  thresholds: fc
    .record({
      fire: fc.double({ min: 0.3, max: 0.9, noNaN: true }),
      injection: fc.double({ min: 0.3, max: 0.95, noNaN: true }),
      taskAgree: probability,
      beyondTask: probability,
    })
    .chain((t) => fc.double({ min: t.fire, max: 1, noNaN: true }).map((deny) => ({ ...t, deny }))),
  taskProbes: fc.boolean(),
  cut: fc.record({ request: fc.boolean(), userSaid: fc.boolean(), truncated: fc.boolean() }),
  targetScanComplete: fc.boolean(),
  namedAllTargets: fc.boolean(),
  deterministic: fc.array(
    fc.record({
      policy: fc.constantFrom('rm-recursive', 'force-push', 'curl-pipe-sh', 'read-secrets'),
      verdict: decision,
      reviewableBy: fc.option(fc.subarray([...policyNames, 'not-a-semantic-policy'], { minLength: 1, maxLength: 3 }), {
        nil: undefined,
      }),
      personOnly: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function inputOf(s: Scenario, injection: number): DecideInput {
  return {
    policies: s.policies,
    answers: { ...s.answers, injection },
    thresholds: s.thresholds,
    taskProbes: s.taskProbes,
    cut: s.cut,
    targetScanComplete: s.targetScanComplete,
    namedAllTargets: s.namedAllTargets,
  };
}

function deterministicOf(s: Scenario): Outcome[] {
  return s.deterministic.map((d) => ({
    policy: d.policy,
    tier: 'deterministic',
    verdict: d.verdict,
    reason: d.policy,
    ...(d.reviewableBy ? { reviewableBy: d.reviewableBy } : {}),
    ...(d.personOnly ? { personOnly: true } : {}),
  }));
}

const RUNS = { numRuns: 5000 };

test('invariant: an injection suspicion only ever tightens, policy by policy and overall', () => {
  fc.assert(
    fc.property(scenario, fc.double({ min: 0, max: 1, noNaN: true }), (s, bump) => {
      const low = s.thresholds.injection * bump * 0.999;
      const high = s.thresholds.injection + (1 - s.thresholds.injection) * bump;
      const calm = decide(inputOf(s, low));
      const suspicious = decide(inputOf(s, high));
      assert.equal(calm.injectionSuspected, false);
      assert.equal(suspicious.injectionSuspected, true);
      calm.verdicts.forEach((v, i) =>
        assert.ok(severity(suspicious.verdicts[i]!.verdict) >= severity(v.verdict), v.policy),
      );
      const det = deterministicOf(s);
      assert.ok(severity(mergeEnforced(det, suspicious).decision) >= severity(mergeEnforced(det, calm).decision));
      assert.equal(suspicious.overrideAllowed, false);
      assert.ok(!suspicious.verdicts.some((v) => v.change === 'cleared' || v.change === 'softened'));
    }),
    RUNS,
  );
});

test('invariant: every deny has a firing policy behind it, and injection never denies alone', () => {
  fc.assert(
    fc.property(scenario, (s) => {
      const d = decide(inputOf(s, s.injection));
      for (const v of d.verdicts)
        if (v.verdict !== 'allow') assert.ok(v.fired, `${v.policy} is ${v.verdict} without firing`);
      for (const outcome of d.outcomes.filter((o) => o.verdict === 'deny')) {
        assert.ok(
          d.verdicts.find((v) => v.policy === outcome.policy)?.fired,
          `${outcome.policy} denied without firing`,
        );
      }
      const det = deterministicOf(s);
      const merged = mergeEnforced(det, d);
      if (merged.decision === 'deny') {
        const deterministicDeny = det.some((o) => o.verdict === 'deny');
        assert.ok(
          deterministicDeny || d.verdicts.some((v) => v.fired && v.verdict === 'deny'),
          'a deny with nothing firing',
        );
      }
      if (!d.verdicts.some((v) => v.fired)) assert.ok(!d.outcomes.some((o) => o.verdict === 'deny'));
    }),
    RUNS,
  );
});

test('invariant: an incomplete scan or a cut call clears nothing, semantic or deterministic', () => {
  fc.assert(
    fc.property(scenario, fc.constantFrom('scan', 'cut'), (s, blocker) => {
      const blocked: Scenario =
        blocker === 'scan' ? { ...s, targetScanComplete: false } : { ...s, cut: { ...s.cut, request: true } };
      const d = decide(inputOf(blocked, s.injection));
      assert.equal(d.overrideAllowed, false);
      assert.equal(d.clearingAllowed, false);
      for (const v of d.verdicts) {
        assert.ok(v.change !== 'cleared' && v.change !== 'softened');
        assert.ok(severity(v.verdict) >= severity(v.base));
      }
      const det = deterministicOf(blocked);
      assert.ok(severity(mergeEnforced(det, d).decision) >= severity(combine(det).decision));
    }),
    RUNS,
  );
});

test('invariant: the semantic tier never loosens a finding that is not reviewable, and never changes the decision in observe mode', () => {
  fc.assert(
    fc.property(scenario, (s) => {
      const d = decide(inputOf(s, s.injection));
      const det = deterministicOf(s);
      const floor = det
        .filter((o) => !o.reviewableBy?.length || o.personOnly)
        .reduce((max, o) => Math.max(max, severity(o.verdict)), 0);
      assert.ok(severity(mergeEnforced(det, d).decision) >= floor);
      const observed = mergeOutcomes(det, d, 'observe');
      assert.equal(observed.merged.decision, combine(det).decision);
      assert.equal(observed.wouldDecide, mergeEnforced(det, d).decision);
    }),
    RUNS,
  );
});
