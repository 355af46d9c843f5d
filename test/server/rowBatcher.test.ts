// Rows for a panel in batches: one message per window in a burst, each row once in its latest state
// and in the order rows first came; a flush sends what waits before a message that must follow it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RowBatcher } from '../../src/server/rowBatcher';
import { toRowSummary } from '../../src/server/rowSummary';
import { aVerdictRecord } from '../builders/record';

const row = (id: string, decision: 'allow' | 'ask' = 'allow') =>
  toRowSummary(aVerdictRecord().with({ id, decision }).build());

test('a burst of rows goes out as one message, each row once, in its latest state and first place', async () => {
  const sent: string[][] = [];
  const batcher = new RowBatcher((rows) => sent.push(rows.map((r) => `${r.id}:${r.outcome}`)), 20);
  for (let i = 0; i < 100; i++) batcher.add([row(`r${i}`)]);
  batcher.add([row('r5', 'ask')]);
  assert.equal(sent.length, 0, 'nothing before the window closes');
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.length, 100);
  assert.equal(sent[0]![5], 'r5:ask');
  assert.equal(sent[0]![99], 'r99:allow');
});

test('flush sends at once what waits, and nothing when nothing waits; dispose drops the rest', async () => {
  const sent: string[][] = [];
  const batcher = new RowBatcher((rows) => sent.push(rows.map((r) => r.id)), 20);
  batcher.flush();
  assert.equal(sent.length, 0);
  batcher.add([row('a'), row('b')]);
  batcher.flush();
  assert.deepEqual(sent, [['a', 'b']]);
  batcher.add([row('c')]);
  batcher.dispose();
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(sent, [['a', 'b']]);
});
