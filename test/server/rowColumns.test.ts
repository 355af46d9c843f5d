// Rows kept as columns read back exactly as they were written, whatever they hold (times that are not
// ISO times, lists holding the join character, values outside their sets are kept whole), and the
// slots under them keep the newest ids in order, reuse a dropped id's slot and let go of its strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Slots } from '../../src/core/activity/slots';
import { ANSWER_SOURCES, OUTCOME_LABELS, type RowOutcome, type RowSummary } from '../../src/protocol';
import { RowColumns } from '../../src/server/rowColumns';

const decision = fc.constantFrom('allow', 'instruct', 'ask', 'deny' as const);
const text = fc.oneof(fc.string(), fc.constantFrom('', 'git status', '\u0000', 'a\u0000b'));
const time = fc.oneof(
  fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2026-12-06T09:00:00Z', 'not a time', '', '2026-12-06T09:00:00.000+01:00'),
);
const answer = fc.option(
  fc.record({
    state: fc.constantFrom('pending', 'approved', 'refused', 'expired', 'withdrawn', 'licensed' as const),
    source: fc.constantFrom(null, ...ANSWER_SOURCES),
    scope: fc.constantFrom(null, 'once', 'session' as const),
    at: fc.option(time, { nil: null }),
    edited: fc.boolean(),
  }),
  { nil: null },
);

const row: fc.Arbitrary<RowSummary> = fc
  .record({
    id: fc.uuid(),
    ts: time,
    agent: text,
    agentName: text,
    sessionId: text,
    kind: fc.constantFrom('call', 'event' as const),
    event: text,
    toolName: fc.option(text, { nil: null }),
    callKeys: fc.array(text, { maxLength: 3 }),
    summary: text,
    prompt: fc.option(text, { nil: undefined }),
    decision,
    outcome: fc.constantFrom(...(Object.keys(OUTCOME_LABELS) as RowOutcome[])),
    answer,
    policies: fc.array(text, { maxLength: 4 }),
    redactedInCall: fc.nat(),
    cut: fc.boolean(),
    semantic: fc.record({
      status: fc.constantFrom('off', 'ok', 'degraded', 'observe', 'skipped' as const),
      reason: fc.option(text, { nil: null }),
      wouldDecide: fc.option(decision, { nil: null }),
    }),
    paused: fc.boolean(),
    orgDecided: fc.boolean(),
    failed: fc.boolean(),
    latencyMs: fc.double({ noNaN: true, min: 0, max: 1e6 }),
    searchText: text,
  })
  // Plain objects throughout (fast-check may build records without a prototype).
  .map(({ prompt, semantic, answer: asked, ...rest }) => ({
    ...rest,
    semantic: { ...semantic },
    answer: asked && { ...asked },
    ...(prompt === undefined ? {} : { prompt }),
  }));

test('every row reads back exactly as it was written, in any slot, over rows written before it', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat({ max: 600 }), row), { minLength: 1, maxLength: 40 }), (writes) => {
      const columns = new RowColumns(1000, (s) => s);
      const latest = new Map<number, RowSummary>();
      for (const [slot, written] of writes) {
        columns.write(slot, written);
        latest.set(slot, written);
      }
      for (const [slot, written] of latest) assert.deepEqual(columns.read(slot), written);
    }),
  );
});

test('a value outside its set is kept whole, not turned into another', () => {
  const columns = new RowColumns(4, (s) => s);
  const odd = { ...sample(), outcome: 'something new' as RowOutcome };
  columns.write(0, odd);
  assert.equal(columns.read(0).outcome, 'something new');
  columns.write(0, sample());
  assert.equal(columns.read(0).outcome, 'deny');
});

test('the strings a row holds are the pool’s copies', () => {
  const pooled = new Map<string, string>();
  const pool = (s: string) => pooled.get(s) ?? (pooled.set(s, s), s);
  const columns = new RowColumns(4, pool);
  columns.write(0, sample());
  columns.write(1, { ...sample(), id: 'b' });
  assert.ok(pooled.has('git status') && pooled.has('Claude Code') && pooled.has('\u0000bash-guard\u0000secrets'));
  assert.deepEqual(columns.read(1).policies, ['bash-guard', 'secrets']);
});

test('slots keep the newest ids in order, drop the oldest first, and hand a freed slot on', () => {
  const released: number[] = [];
  const slots = new Slots(3, (slot) => released.push(slot));
  for (const id of ['a', 'b', 'c']) slots.place(id);
  assert.deepEqual(
    [...slots.entries()],
    [
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ],
  );
  // A fourth id drops the oldest and takes its slot.
  assert.equal(slots.place('d'), 0);
  assert.deepEqual(released, [0]);
  assert.deepEqual(
    [...slots.entries()].map(([id]) => id),
    ['b', 'c', 'd'],
  );
  // An id placed again becomes the newest, in a fresh slot, and gives up its old one.
  slots.place('b');
  assert.deepEqual(
    [...slots.entries()].map(([id]) => id),
    ['c', 'd', 'b'],
  );
  assert.equal(slots.size, 3);
  assert.equal(slots.span, 3, 'never more slots than the limit');
  slots.remove('c');
  assert.equal(slots.has('c'), false);
  slots.clear();
  assert.equal(slots.size, 0);
  assert.throws(() => new Slots(0), /limit of 1 or more/);
});

test('ten thousand rows churned through keep their slots within the limit and read back the newest', () => {
  const limit = 100;
  const columns = new RowColumns(limit, (s) => s);
  const slots = new Slots(limit, (slot) => columns.release(slot));
  for (let i = 0; i < 10_000; i++) columns.write(slots.place(`id-${i}`), { ...sample(), id: `id-${i}`, latencyMs: i });
  assert.equal(slots.span, limit);
  const newest = [...slots.entries()].map(([, slot]) => columns.read(slot));
  assert.deepEqual(
    newest.map((r) => r.latencyMs),
    Array.from({ length: limit }, (_, i) => 9_900 + i),
  );
  assert.deepEqual(
    newest.map((r) => r.id),
    Array.from({ length: limit }, (_, i) => `id-${9_900 + i}`),
  );
});

function sample(): RowSummary {
  return {
    id: 'a',
    ts: '2026-12-06T09:00:00.000Z',
    agent: 'claude',
    agentName: 'Claude Code',
    sessionId: 's-1',
    kind: 'call',
    event: 'PreToolUse',
    toolName: 'Bash',
    callKeys: ['use:toolu_1'],
    summary: 'git status',
    decision: 'deny',
    outcome: 'deny',
    answer: null,
    policies: ['bash-guard', 'secrets'],
    redactedInCall: 0,
    cut: false,
    semantic: { status: 'off', reason: null, wouldDecide: null },
    paused: false,
    orgDecided: false,
    failed: false,
    latencyMs: 1.5,
    searchText: 'bash git status',
  };
}
