import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { agentIcon } from '../../media/src/agents';
import { rowView } from '../../media/src/rows';
import { NO_FILTERS, PanelStore, type Filters } from '../../media/src/store';
import { describeSeries, summaryView } from '../../media/src/summary';
import { groupByPrompt, timelineView } from '../../media/src/timeline';
import { statusView } from '../../media/src/toolbar';
import { findAll, hasClass, textOf, type VNode } from '../../media/src/vnode';
import { deniedInTheEnd, RowStreamTally, SummaryTally, type RowSummary } from '../../src/protocol';
import { statusText, statusTooltip } from '../../src/extension/statusWords';
import { aVerdictRecord } from '../builders/record';
import type { VerdictRecord } from '../../src/core/verdict/record';

// The summary at the top of the panel and the session timeline: counts kept
// one row at a time that always equal a count of the rows held, bars over
// time, toggles that filter the list, and a session's prompts with their calls.

const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 0, 1, 12, minute, second)).toISOString();
const deny = (policy: string) => ({
  decision: 'deny' as const,
  outcomes: [{ policy, tier: 'deterministic' as const, verdict: 'deny' as const, reason: 'no' }],
});
const asked = (state: 'pending' | 'approved' | 'refused', policy = 'sudo') => ({
  decision: 'ask' as const,
  outcomes: [{ policy, tier: 'deterministic' as const, verdict: 'ask' as const, reason: 'ask' }],
  approval: {
    state,
    scope: state === 'pending' ? null : ('once' as const),
    digest: null,
    answeredBy: state === 'pending' ? null : 'vscode-panel',
    answeredAt: state === 'pending' ? null : at(0, 30),
  },
});
const prompt = (over: Partial<VerdictRecord> = {}) =>
  aVerdictRecord()
    .with({ event: 'UserPromptSubmit', toolName: null, toolInput: null, argsDigest: null, ...over })
    .row();

function byHand(rows: RowSummary[]) {
  const calls = rows.filter((r) => r.kind === 'call');
  return {
    calls: calls.length,
    asks: calls.filter((r) => r.answer !== null).length,
    denies: calls.filter(deniedInTheEnd).length,
    redacted: calls.filter((r) => r.redactedInCall > 0).length,
  };
}

test('the tally counts calls, asks, denials and secrets, and an answered ask moves from asked to denied', () => {
  const tally = new SummaryTally();
  const ask = aVerdictRecord()
    .with({ id: 'ask', ts: at(1), ...asked('pending') })
    .row();
  const rows = [
    aVerdictRecord()
      .with({ ts: at(0) })
      .row(),
    aVerdictRecord()
      .with({ ts: at(0), ...deny('secrets-read') })
      .row(),
    aVerdictRecord()
      .with({ ts: at(2), redactions: { count: 2, byLabel: { token: 2 }, inArguments: 2 } })
      .row(),
    ask,
    prompt({ ts: at(0) }),
  ];
  for (const row of rows) tally.add(row);
  assert.deepEqual(
    { ...tally.total },
    { calls: 4, asks: 1, denies: 1, askedNotDenied: 1, redacted: 1, markers: 2 },
    'the prompt is a session event, not a call',
  );
  const refused = aVerdictRecord()
    .with({ id: 'ask', ts: at(1), ...asked('refused') })
    .row();
  tally.remove(ask);
  tally.add(refused);
  assert.deepEqual(
    { calls: tally.total.calls, asks: tally.total.asks, denies: tally.total.denies, open: tally.total.askedNotDenied },
    { calls: 4, asks: 1, denies: 2, open: 0 },
  );
  assert.deepEqual(tally.topPolicies(), [
    { policy: 'secrets-read', count: 1 },
    { policy: 'sudo', count: 1 },
  ]);
  const session = tally.session('session-a')!;
  assert.equal(session.prompts, 1);
  assert.equal(session.calls, 4);
  assert.equal(session.firstTs, at(0));
  assert.equal(session.lastTs, at(2));
  for (const row of [...rows.slice(0, 3), refused, rows[4]!]) tally.remove(row);
  assert.deepEqual(tally.agents(), [], 'nothing is left once every row went');
  assert.deepEqual(tally.sessions(), []);
  assert.deepEqual(tally.series().bars, []);
});

test('bars over time: the finest slice that fits, every slice present, each call in its own slice', () => {
  const tally = new SummaryTally();
  tally.add(
    aVerdictRecord()
      .with({ ts: at(0, 5) })
      .row(),
  );
  tally.add(
    aVerdictRecord()
      .with({ ts: at(0, 50), ...deny('rm-home') })
      .row(),
  );
  tally.add(
    aVerdictRecord()
      .with({ ts: at(9, 1), ...asked('approved') })
      .row(),
  );
  const minutes = tally.series();
  assert.equal(minutes.minutes, 1);
  assert.equal(minutes.bars.length, 10, 'ten one-minute bars, the empty ones too');
  assert.deepEqual(
    minutes.bars.map((b) => b.calls),
    [2, 0, 0, 0, 0, 0, 0, 0, 0, 1],
  );
  assert.equal(minutes.bars[0]!.denies, 1);
  assert.equal(minutes.bars[9]!.askedNotDenied, 1);
  // Two hours and a bit: five-minute slices do not fit in 24 bars, fifteen-minute ones do.
  tally.add(
    aVerdictRecord()
      .with({ ts: new Date(Date.UTC(2026, 0, 1, 14, 10)).toISOString() })
      .row(),
  );
  const wide = tally.series(24);
  assert.equal(wide.minutes, 15);
  assert.ok(wide.bars.length <= 24);
  assert.equal(
    wide.bars.reduce((n, b) => n + b.calls, 0),
    4,
  );
  assert.equal(
    describeSeries(wide),
    'Calls per 15 minutes from 12:00 to 14:15 UTC: 4 calls, 1 asked, 1 denied; busiest 12:00 with 3 calls.',
  );
});

test('the store keeps its counts one row at a time and they always equal a count of the rows it holds', () => {
  const op = fc.record({
    id: fc.integer({ min: 0, max: 40 }),
    kind: fc.constantFrom('allow', 'deny', 'pending', 'approved', 'refused', 'secret', 'prompt'),
    minute: fc.integer({ min: 0, max: 59 }),
  });
  fc.assert(
    fc.property(fc.array(op, { maxLength: 120 }), fc.integer({ min: 5, max: 30 }), (ops, limit) => {
      const store = new PanelStore(limit);
      const kinds = new Map<number, string>();
      for (const o of ops) {
        // A row that comes again keeps its kind of event (an ask is answered, a call stays a call).
        const kind = o.kind === 'prompt' || kinds.get(o.id) === 'prompt' ? (kinds.get(o.id) ?? o.kind) : o.kind;
        kinds.set(o.id, kind);
        const base = { id: `r${o.id}`, ts: at(o.minute), sessionId: `s${o.id % 3}` };
        const row =
          kind === 'prompt'
            ? prompt(base)
            : kind === 'deny'
              ? aVerdictRecord()
                  .with({ ...base, ...deny('p') })
                  .row()
              : kind === 'secret'
                ? aVerdictRecord()
                    .with({ ...base, redactions: { count: 1, byLabel: { k: 1 }, inArguments: 1 } })
                    .row()
                : kind === 'allow'
                  ? aVerdictRecord().with(base).row()
                  : aVerdictRecord()
                      .with({ ...base, ...asked(kind as 'pending' | 'approved' | 'refused') })
                      .row();
        store.apply({ type: 'rows', rows: [row] });
      }
      store.setShowEvents(true);
      const held = store.visibleRows();
      const counts = store.counts();
      assert.deepEqual(
        { calls: counts.calls, asks: counts.asks, denies: counts.denies, redacted: counts.redacted },
        byHand(held),
      );
      const bars = store.tally.series(1000).bars;
      assert.equal(
        bars.reduce((n, b) => n + b.calls, 0),
        counts.calls,
      );
      for (const line of store.tally.sessions())
        assert.deepEqual(
          store.sessionRows(line.sessionId).map((r) => r.id),
          held
            .filter((r) => r.sessionId === line.sessionId)
            .map((r) => r.id)
            .reverse(),
          'a session keeps its rows oldest first',
        );
      assert.deepEqual(store.filterChoices().session, [...new Set(held.map((r) => r.sessionId))].sort());
    }),
    { numRuns: 150 },
  );
});

test('a host counts a stream of rows where only open asks come again, remembering only those', () => {
  const stream = new RowStreamTally();
  stream.take(aVerdictRecord().with({ id: 'a' }).row());
  stream.take(
    aVerdictRecord()
      .with({ id: 'b', ...asked('pending') })
      .row(),
  );
  stream.take(
    aVerdictRecord()
      .with({ id: 'b', ...asked('refused') })
      .row(),
  );
  stream.take(
    aVerdictRecord()
      .with({ id: 'c', ...deny('p') })
      .row(),
  );
  assert.deepEqual(
    { calls: stream.tally.total.calls, asks: stream.tally.total.asks, denies: stream.tally.total.denies },
    { calls: 3, asks: 1, denies: 2 },
  );
});

function clickables(node: VNode, attr: string): VNode[] {
  return findAll(node, (n) => n.tag === 'button' && n.attrs?.[attr] !== undefined);
}

test('the summary reads in a second, and its agents, sessions and policies filter the list when clicked', () => {
  const store = new PanelStore();
  store.apply({
    type: 'snapshot',
    pending: [],
    rows: [
      prompt({ ts: at(0), sessionId: 'sess-claude-1' }),
      aVerdictRecord()
        .with({ ts: at(0, 10), sessionId: 'sess-claude-1', ...deny('secrets-read') })
        .row(),
      aVerdictRecord()
        .with({ ts: at(1), sessionId: 'sess-claude-1', ...asked('approved') })
        .row(),
      aVerdictRecord()
        .with({ ts: at(2), agent: 'codex', sessionId: 'sess-codex-1', toolName: 'shell' })
        .row(),
    ],
  });
  const set: Partial<Filters>[] = [];
  const view = summaryView(store.tally, store.filters, 1, { setFilter: (f) => set.push(f) });
  const text = textOf(view);
  assert.match(text, /3 calls/);
  assert.match(text, /1 asked/);
  assert.match(text, /1 denied/);
  assert.match(text, /1 waiting/);
  const chart = findAll(view, (n) => n.tag === 'svg' && hasClass(n, 'spark'))[0]!;
  assert.equal(chart.attrs?.role, 'img');
  assert.match(
    chart.attrs?.['aria-label'] ?? '',
    /^Calls per minute from 12:00 to 12:03 UTC: 3 calls, 1 asked, 1 denied/,
  );
  assert.equal(findAll(chart, (n) => n.tag === 'rect' && hasClass(n, 'bar-deny')).length, 1);
  assert.equal(findAll(chart, (n) => n.tag === 'rect' && hasClass(n, 'bar-ask')).length, 1);

  const agents = clickables(view, 'data-agent');
  assert.deepEqual(
    agents.map((a) => [textOf(a).trim(), a.attrs?.title]),
    [
      ['Claude Code 2 · 1 denied', 'Claude Code: 2 calls · 1 asked · 1 denied'],
      ['Codex CLI 1', 'Codex CLI: 1 call'],
    ],
  );
  agents[1]!.on!.click!({} as Event);
  const sessions = clickables(view, 'data-session');
  assert.equal(sessions[0]!.attrs?.['data-session'], 'sess-codex-1', 'the most recent session first');
  assert.match(sessions[1]!.attrs?.title ?? '', /^Claude Code · sess-cla · 12:00–12:01 · 1 prompt · 2 calls/);
  sessions[1]!.on!.click!({} as Event);
  clickables(view, 'data-policy')[0]!.on!.click!({} as Event);
  assert.deepEqual([...set], [{ agent: 'codex' }, { session: 'sess-claude-1' }, { policy: 'secrets-read' }]);

  // Pressed toggles say so, and a second click lets go of the filter.
  store.setFilters({ agent: 'codex' });
  const again = summaryView(store.tally, store.filters, 0, { setFilter: (f) => set.push(f) });
  const codex = clickables(again, 'data-agent').find((a) => a.attrs?.['data-agent'] === 'codex')!;
  assert.equal(codex.attrs?.['aria-pressed'], 'true');
  codex.on!.click!({} as Event);
  assert.deepEqual(set.at(-1), { agent: '' });
  assert.doesNotMatch(textOf(again), /waiting/);
  assert.deepEqual(
    store.visibleRows().map((r) => r.agent),
    ['codex'],
  );
});

test("a session's timeline groups its calls under the prompt they followed, in order, and opens a call", () => {
  const rows = [
    aVerdictRecord()
      .with({ id: 'early', ts: at(0) })
      .row(),
    prompt({
      id: 'p1',
      ts: at(1),
      envelope: { userSaid: ['tidy the build folder'], agentLastMessage: null, facts: {}, request: '' },
    }),
    aVerdictRecord()
      .with({ id: 'c1', ts: at(1, 5), toolInput: { command: 'ls build' } })
      .row(),
    aVerdictRecord()
      .with({ id: 'c2', ts: at(1, 9), toolInput: { command: 'rm -rf ~' }, ...deny('rm-home') })
      .row(),
    aVerdictRecord()
      .with({ id: 'stop', ts: at(1, 20), event: 'Stop', toolName: null, toolInput: null, argsDigest: null })
      .row(),
    prompt({ id: 'p2', ts: at(2) }),
    aVerdictRecord()
      .with({ id: 'c3', ts: at(2, 5) })
      .row(),
  ];
  const groups = groupByPrompt(rows);
  assert.deepEqual(
    groups.map((g) => [g.prompt?.id ?? null, g.calls.map((c) => c.id), g.events]),
    [
      [null, ['early'], 0],
      ['p1', ['c1', 'c2'], 1],
      ['p2', ['c3'], 0],
    ],
  );
  const store = new PanelStore();
  store.apply({ type: 'snapshot', pending: [], rows });
  const selected: string[] = [];
  let closed = 0;
  const view = timelineView(store.tally.session('session-a')!, 'Claude Code', store.sessionRows('session-a'), 'c2', {
    select: (id) => selected.push(id),
    close: () => closed++,
  });
  const text = textOf(view);
  assert.ok(
    text.indexOf('tidy the build folder') < text.indexOf('ls build') &&
      text.indexOf('ls build') < text.indexOf('rm -rf ~'),
    'the prompt comes before its calls, the calls in order',
  );
  assert.match(text, /the words are not kept/, 'a prompt whose words the record did not keep says so');
  const calls = findAll(view, (n) => n.tag === 'button' && n.attrs?.['data-id'] !== undefined);
  assert.deepEqual(
    calls.map((c) => c.attrs?.['data-id']),
    ['early', 'c1', 'c2', 'c3'],
  );
  assert.equal(calls[2]!.attrs?.['aria-current'], 'true');
  assert.match(calls[2]!.attrs?.title ?? '', /rm -rf ~: deny\. Open its details\.$/);
  assert.equal(textOf(calls[2]!), 'denyBash rm -rf ~', 'its name is what it shows: the outcome and the call');
  calls[1]!.on!.click!({} as Event);
  findAll(view, (n) => n.attrs?.['data-action'] === 'close-timeline')[0]!.on!.click!({} as Event);
  assert.deepEqual(selected, ['c1']);
  assert.equal(closed, 1);
});

test('rows carry the agent by name and glyph; the status line and bar name the connected agents', () => {
  const row = aVerdictRecord()
    .with({ agent: 'gemini', toolName: 'run_shell_command', toolInput: { command: 'ls' } })
    .row();
  assert.equal(row.agentName, 'Gemini CLI');
  const view = rowView(row, { selected: false, index: 0, onSelect: () => undefined });
  assert.match(textOf(view), /Gemini CLI/);
  assert.equal(findAll(view, (n) => n.tag === 'svg' && hasClass(n, 'agent-gemini')).length, 1);
  assert.equal(
    agentIcon('constructor').attrs?.class,
    'agent-icon agent-other',
    'an unknown agent gets the plain glyph',
  );
  assert.equal(aVerdictRecord().with({ agent: 'somebody' }).row().agentName, 'somebody');

  const agents = [
    { agent: 'claude', name: 'Claude Code', how: 'http hook' },
    { agent: 'codex', name: 'Codex CLI', how: 'command hook through the bridge' },
  ];
  const status = statusView(
    {
      host: 'vscode',
      guarded: true,
      guardDetail: 'hooks point here',
      endpointUrl: null,
      pausedUntil: null,
      policies: [],
      connectedAgents: agents,
    },
    { calls: 0, asks: 0, denies: 0, redacted: 0, pending: 0 },
  );
  const connected = findAll(status, (n) => hasClass(n, 'connected'))[0]!;
  assert.equal(textOf(connected), 'connected: Claude Code Codex CLI');
  const bar = { guarded: true, detail: 'hooks point here', pending: 1, calls: 5, denies: 2, paused: false, agents };
  assert.equal(statusText(bar), '$(shield) Warden · Claude Code, Codex CLI $(bell-dot) 1 · 5 calls · 2 denied');
  assert.equal(
    statusText({ ...bar, agents: [...agents, { agent: 'gemini', name: 'Gemini CLI', how: 'x' }] }),
    '$(shield) Warden · 3 agents $(bell-dot) 1 · 5 calls · 2 denied',
  );
  assert.match(
    statusTooltip(bar),
    /Connected: Claude Code \(http hook\); Codex CLI \(command hook through the bridge\)/,
  );
  assert.match(statusTooltip({ ...bar, agents: [] }), /No agent is connected\./);
});

test('a prompt row keeps the words the record kept, and the search finds them', () => {
  const row = prompt({
    envelope: { userSaid: ['older', 'deploy  the\nsite'], agentLastMessage: null, facts: {}, request: '' },
  });
  assert.equal(row.kind, 'event');
  assert.equal(row.prompt, 'deploy the site');
  const store = new PanelStore();
  store.apply({ type: 'rows', rows: [row, aVerdictRecord().row()] });
  store.setFilters({ ...NO_FILTERS, text: 'deploy the' });
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    [row.id],
  );
});
