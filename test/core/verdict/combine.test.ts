// combine: deny > ask > instruct > allow, every outcome kept, one reason line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { combine, mostSevere, severity } from '../../../src/core/verdict/combine';
import type { Decision, Outcome, Tier } from '../../../src/core/types';

function outcome(
  policy: string,
  verdict: Decision,
  reason = `${policy} says ${verdict}`,
  tier: Tier = 'deterministic',
): Outcome {
  return { policy, tier, verdict, reason };
}

test('no outcomes is an allow that says nothing objected', () => {
  const merged = combine([]);
  assert.equal(merged.decision, 'allow');
  assert.deepEqual(merged.outcomes, []);
  assert.match(merged.reason, /no policy objected/);
});

test('the order of severity is deny > ask > instruct > allow', () => {
  const order: Decision[] = ['allow', 'instruct', 'ask', 'deny'];
  for (let i = 0; i < order.length; i++) {
    for (let j = 0; j < order.length; j++) {
      const expected = order[Math.max(i, j)]!;
      assert.equal(mostSevere(order[i]!, order[j]!), expected, `${order[i]} vs ${order[j]}`);
      assert.equal(
        combine([outcome('a', order[i]!), outcome('b', order[j]!)]).decision,
        expected,
        `${order[i]} + ${order[j]}`,
      );
    }
  }
  assert.ok(
    severity('deny') > severity('ask') &&
      severity('ask') > severity('instruct') &&
      severity('instruct') > severity('allow'),
  );
});

test('a deny wins over asks and instructs from any tier, and every outcome is kept with its policy and tier', () => {
  const outcomes = [
    outcome('judge-intent', 'ask', 'the judge is unsure', 'semantic'),
    outcome('git-force-push', 'instruct', 'a force push rewrites history'),
    outcome('rm-outside-project', 'deny', 'rm -rf / deletes outside the project'),
    outcome('cloud-check', 'instruct', 'the cloud saw this before', 'cloud'),
  ];
  const merged = combine(outcomes);
  assert.equal(merged.decision, 'deny');
  assert.deepEqual(merged.outcomes, outcomes);
  assert.deepEqual(
    merged.outcomes.map((o) => [o.policy, o.tier, o.verdict]),
    [
      ['judge-intent', 'semantic', 'ask'],
      ['git-force-push', 'deterministic', 'instruct'],
      ['rm-outside-project', 'deterministic', 'deny'],
      ['cloud-check', 'cloud', 'instruct'],
    ],
  );
});

test('the reason is one line: the deciding outcome, its policy, and how many more there are', () => {
  const merged = combine([
    outcome('a', 'instruct', 'just a note'),
    outcome('b', 'ask', 'a person should confirm this push'),
    outcome('c', 'ask', 'second ask'),
  ]);
  assert.equal(merged.decision, 'ask');
  assert.match(merged.reason, /a person should confirm this push/);
  assert.match(merged.reason, /\bb\b/, 'names the deciding policy');
  assert.match(merged.reason, /\+2 more findings/);
  assert.doesNotMatch(merged.reason, /second ask/, 'only the first deciding outcome speaks');
  assert.equal(merged.reason.includes('\n'), false);

  const single = combine([outcome('sudo', 'deny', 'sudo runs as root')]);
  assert.equal(single.reason.includes('more finding'), false);
  assert.match(combine([outcome('x', 'deny'), outcome('y', 'allow')]).reason, /\+1 more finding\b/);
});

test('a reason that spans lines is folded into one line', () => {
  const merged = combine([outcome('multi', 'deny', 'first part\nsecond part\r\n  third part')]);
  assert.equal(merged.decision, 'deny');
  assert.doesNotMatch(merged.reason, /[\r\n]/);
  assert.match(merged.reason, /first part second part third part/);
  assert.equal(
    merged.outcomes[0]!.reason,
    'first part\nsecond part\r\n  third part',
    'the outcome itself keeps its text',
  );
});

test('allow outcomes alone stay an allow', () => {
  const merged = combine([outcome('a', 'allow'), outcome('b', 'allow')]);
  assert.equal(merged.decision, 'allow');
  assert.equal(merged.outcomes.length, 2);
});

const arbitraryOutcome = fc.record({
  policy: fc.stringMatching(/^[a-z][a-z0-9-]{0,19}$/),
  tier: fc.constantFrom<Tier>('deterministic', 'semantic', 'cloud'),
  verdict: fc.constantFrom<Decision>('allow', 'instruct', 'ask', 'deny'),
  reason: fc.string({ maxLength: 60 }),
});

test('property: the merged decision is the most severe verdict, and nothing is dropped', () => {
  fc.assert(
    fc.property(fc.array(arbitraryOutcome, { maxLength: 12 }), (outcomes) => {
      const merged = combine(outcomes);
      const maxSeverity = Math.max(severity('allow'), ...outcomes.map((o) => severity(o.verdict)));
      assert.equal(severity(merged.decision), maxSeverity);
      assert.deepEqual(merged.outcomes, outcomes);
      assert.equal(/[\r\n]/.test(merged.reason), false, 'one line');
      if (merged.decision !== 'allow') {
        const first = outcomes.find((o) => o.verdict === merged.decision)!;
        assert.ok(merged.reason.includes(`[${first.policy}]`), merged.reason);
      }
    }),
  );
});

test('property: combine does not depend on the order of outcomes for its decision', () => {
  fc.assert(
    fc.property(
      fc
        .array(arbitraryOutcome, { maxLength: 8 })
        .chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length })),
        ),
      ([list, shuffled]) => {
        assert.equal(combine(list).decision, combine(shuffled).decision);
      },
    ),
  );
});
