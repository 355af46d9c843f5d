import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PanelStore } from '../../media/src/store';
import { PostMessageTransport } from '../../media/src/transport';
import { PROTOCOL_VERSION } from '../../src/protocol';
import { aVerdictRecord, aPendingAsk } from '../builders/record';

test('records arrive newest first, are capped, and a record sent again replaces the old one', () => {
  const store = new PanelStore(3);
  const records = [1, 2, 3, 4].map((n) =>
    aVerdictRecord()
      .with({ id: `r${n}` })
      .row(),
  );
  for (const row of records) store.apply({ type: 'rows', rows: [row] });
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    ['r4', 'r3', 'r2'],
  );
  assert.equal(store.row('r1'), undefined);
  store.apply({ type: 'rows', rows: [{ ...records[2]!, decision: 'deny', outcome: 'deny' }] });
  assert.deepEqual(
    store.visibleRows().map((r) => [r.id, r.decision]),
    [
      ['r4', 'allow'],
      ['r3', 'deny'],
      ['r2', 'allow'],
    ],
  );
});

test('filters by decision, agent, tool, session and policy, and a text search', () => {
  const store = new PanelStore();
  store.apply({
    type: 'snapshot',
    pending: [],
    rows: [
      aVerdictRecord()
        .with({
          id: 'a',
          decision: 'deny',
          outcomes: [{ policy: 'sudo', tier: 'deterministic', verdict: 'deny', reason: 'r' }],
        })
        .row(),
      aVerdictRecord()
        .with({ id: 'b', agent: 'codex', toolName: 'shell', toolInput: { command: 'rm -rf build' } })
        .row(),
      aVerdictRecord().with({ id: 'c', sessionId: 'other' }).row(),
    ],
  });
  store.setFilters({ decision: 'deny' });
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    ['a'],
  );
  store.setFilters({ decision: '', agent: 'codex' });
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    ['b'],
  );
  store.setFilters({ agent: '', tool: 'Bash', session: 'other' });
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    ['c'],
  );
  store.setFilters({ tool: '', session: '', policy: 'sudo' });
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    ['a'],
  );
  store.setFilters({ policy: '', text: 'RM -RF' });
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    ['b'],
  );
  assert.deepEqual(store.filterChoices().agent, ['claude', 'codex']);
  assert.deepEqual(store.counts(), { calls: 3, asks: 0, denies: 1, redacted: 0, pending: 0 });
});

test('pending asks come and go with pending and resolved notifications', () => {
  const store = new PanelStore();
  store.apply({ type: 'pending', pending: aPendingAsk({ id: 'p1' }) });
  store.apply({ type: 'pending', pending: aPendingAsk({ id: 'p2' }) });
  assert.deepEqual(
    store.pending.map((p) => p.id),
    ['p2', 'p1'],
  );
  assert.equal(
    store.apply({
      type: 'resolved',
      resolution: { id: 'p1', state: 'approved', scope: 'once', digest: null, answeredBy: 'x', answeredAt: 't' },
    }).pending,
    true,
  );
  assert.deepEqual(
    store.pending.map((p) => p.id),
    ['p2'],
  );
});

test('a 10,000-row snapshot filters without copying the view on every read', () => {
  const store = new PanelStore();
  const rows = Array.from({ length: 10_000 }, (_, i) =>
    aVerdictRecord()
      .with({ id: `n${i}`, decision: i % 10 === 0 ? 'deny' : 'allow' })
      .row(),
  );
  store.apply({ type: 'snapshot', rows, pending: [] });
  const first = store.visibleRows();
  assert.equal(first.length, 10_000);
  assert.equal(first[0]!.id, 'n9999');
  assert.equal(store.visibleRows(), first, 'cached until something changes');
  store.setFilters({ decision: 'deny' });
  assert.equal(store.visibleRows().length, 1000);
});

test('the postMessage transport sends the ready handshake, matches responses to requests, and passes notifications on', async () => {
  const posted: unknown[] = [];
  let deliver: ((e: Event) => void) | undefined;
  const transport = new PostMessageTransport({ postMessage: (m) => posted.push(m) }, {
    addEventListener: (_type: string, l: (e: Event) => void) => (deliver = l),
  } as unknown as Window);
  const received: unknown[] = [];
  transport.start((m) => received.push(m));
  assert.deepEqual(posted[0], { type: 'command', command: { type: 'ready', protocolVersion: PROTOCOL_VERSION } });
  const answer = transport.request('approve', {
    approvalId: 'p1',
    answer: { decision: 'approve', scope: 'once', digest: `sha256:${'c'.repeat(64)}` },
  });
  const sent = posted[1] as { type: string; id: number; method: string };
  assert.equal(sent.type, 'request');
  assert.equal(sent.method, 'approve');
  const failing = transport.request('reveal', { recordId: 'r', source: 'envelope', spanIndex: 0 });
  const sentReveal = posted[2] as { id: number };
  deliver!({ data: { type: 'response', id: sentReveal.id, ok: false, error: 'nope' } } as MessageEvent);
  deliver!({
    data: { type: 'response', id: sent.id, ok: true, result: { kind: 'not-pending', message: 'm' } },
  } as MessageEvent);
  deliver!({ data: { type: 'rows', rows: [aVerdictRecord().with({ id: 'z' }).row()] } } as MessageEvent);
  assert.deepEqual(await answer, { kind: 'not-pending', message: 'm' });
  await assert.rejects(failing, /nope/);
  assert.equal((received[0] as { type: string }).type, 'rows');
});
