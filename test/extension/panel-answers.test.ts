import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { detailView, type DetailActions } from '../../media/src/detail';
import { answerText } from '../../media/src/format';
import { rowView } from '../../media/src/rows';
import { PanelStore } from '../../media/src/store';
import { emptyView, licencesView, policiesView, sessionLabel } from '../../media/src/toolbar';
import { findAll, hasClass, textOf } from '../../media/src/vnode';
import { LicenceBook } from '../../src/core/approvals/licences';
import { ApprovalLedger } from '../../src/core/approvals/ledger';
import { addIgnores, maskToken, missingIgnores } from '../../src/extension/connectSafety';
import { recordsWithAnswers, toCsv } from '../../src/extension/exportActivity';
import { toRowSummary } from '../../src/server/rowSummary';
import { aVerdictRecord } from '../builders/record';
import { aTempDir } from '../builders/tempProject';
import type { VerdictRecord } from '../../src/core/verdict/record';

// The panel's item-1 fixes: every answer shown with who gave it, the states a
// person must see (observe verdicts, paused calls, expiries), the events that
// are not tool calls, and the export, Connect and licence fixes around them.

const noop = () => undefined;
const detailActions: DetailActions = {
  copyDigest: noop,
  markerInfo: noop,
  reveal: noop,
  hideRevealed: noop,
  notSecret: noop,
  close: noop,
};
const toolbarActions = { setFilter: noop, togglePolicy: noop, revokeLicence: noop, connect: noop };
const answered = (state: 'approved' | 'refused' | 'licensed' | 'expired' | 'withdrawn', answeredBy: string | null) =>
  ({
    state,
    scope: state === 'approved' ? 'once' : null,
    digest: null,
    answeredBy,
    answeredAt: '2026-01-01T12:00:05.000Z',
  }) as const;

test('an answered ask shows its answer and who gave it in the row: panel, notification, web panel, licence, expiry, agent prompt', () => {
  const cases: [VerdictRecord['approval'], string, RegExp][] = [
    [answered('approved', 'vscode-panel'), 'approved', /by the panel/],
    [{ ...answered('approved', 'vscode-panel'), edited: true }, 'approved-edited', /edited, by the panel/],
    [answered('refused', 'vscode-notification'), 'refused', /by the notification/],
    [answered('approved', 'web-panel'), 'approved', /by the web panel/],
    [{ ...answered('licensed', 'vscode-panel'), scope: 'session' }, 'licensed', /session licence/],
    [answered('expired', null), 'expired', /no answer in time: agent's prompt/],
    [{ ...answered('withdrawn', null), note: 'agent-prompt' }, 'withdrawn', /answered at the agent's prompt/],
  ];
  for (const [approval, outcome, words] of cases) {
    const row = toRowSummary(aVerdictRecord().with({ decision: 'ask', approval }).build());
    assert.equal(row.outcome, outcome, JSON.stringify(approval));
    const text = textOf(rowView(row, { selected: false, index: 0, onSelect: noop }));
    assert.match(text, words, text);
    assert.match(answerText(row), words);
  }
  const waiting = toRowSummary(
    aVerdictRecord()
      .with({ decision: 'ask', approval: { ...answered('approved', null), state: 'pending' } })
      .build(),
  );
  assert.equal(waiting.outcome, 'ask');
  assert.match(answerText(waiting), /waiting for a person/);
});

test("the detail's approval line says what became of the ask and who answered", () => {
  const approved = aVerdictRecord()
    .with({ decision: 'ask', approval: { ...answered('approved', 'vscode-panel'), edited: true } })
    .build();
  const line = findAll(detailView(approved, {}, detailActions), (n) => n.attrs?.class === 'approval')[0];
  assert.ok(line, 'an approval line');
  assert.match(textOf(line), /approved once with edited arguments by vscode-panel at 12:00:05/);
  const expired = aVerdictRecord()
    .with({ decision: 'ask', approval: answered('expired', null) })
    .build();
  assert.match(textOf(detailView(expired, {}, detailActions)), /nobody answered in time.*agent's own prompt/);
  const plain = aVerdictRecord().build();
  assert.equal(findAll(detailView(plain, {}, detailActions), (n) => n.attrs?.class === 'approval').length, 0);
});

test('the detail of an approved edit shows what the agent asked for and what ran, with the change', () => {
  const record = aVerdictRecord()
    .with({
      decision: 'ask',
      toolInput: { command: 'rm -rf build', description: 'clean' },
      approval: {
        ...answered('approved', 'vscode-panel'),
        edited: true,
        ranInput: { command: 'rm -rf build/tmp', description: 'clean' },
      },
    })
    .build();
  const view = detailView(record, {}, detailActions);
  const titles = findAll(view, (n) => n.tag === 'h3').map(textOf);
  assert.ok(titles.includes('Arguments the agent asked for (as logged)'), titles.join(' | '));
  assert.ok(titles.includes('Arguments that ran (edited by the person, as logged)'), titles.join(' | '));
  assert.match(textOf(findAll(view, (n) => hasClass(n, 'ran-json'))[0]!), /rm -rf build\/tmp/);
  const changes = findAll(view, (n) => /^diff-(added|removed)$/.test(n.attrs?.class ?? '')).map(textOf);
  assert.deepEqual(changes, ['-   "command": "rm -rf build",', '+   "command": "rm -rf build/tmp",']);
  const plain = detailView(aVerdictRecord().build(), {}, detailActions);
  assert.deepEqual(
    findAll(plain, (n) => n.tag === 'h3')
      .map(textOf)
      .slice(0, 1),
    ['Arguments (as logged)'],
  );
  assert.equal(findAll(plain, (n) => hasClass(n, 'ran-json')).length, 0);
});

test("the detail of a refusal shows the person's message (as the record keeps it, redacted)", () => {
  const record = aVerdictRecord()
    .with({
      decision: 'ask',
      approval: { ...answered('refused', 'vscode-panel'), message: 'use make clean, not <redacted:github-token>' },
    })
    .build();
  const line = findAll(detailView(record, {}, detailActions), (n) => n.attrs?.class === 'approval')[0]!;
  assert.match(
    textOf(line),
    /refused by vscode-panel at 12:00:05\.Their message: use make clean, not <redacted:github-token>$/,
  );
});

test("the detail's header shows the call's end as its row does, with Warden's verdict beside an answered ask", () => {
  const head = (record: ReturnType<ReturnType<typeof aVerdictRecord>['build']>) =>
    textOf(findAll(detailView(record, {}, detailActions), (n) => n.attrs?.class === 'detail-head')[0]!);
  const refused = aVerdictRecord()
    .with({ decision: 'ask', approval: answered('refused', 'vscode-panel') })
    .build();
  assert.match(head(refused), /^refused \(Warden: ask\)/);
  const edited = aVerdictRecord()
    .with({ decision: 'ask', approval: { ...answered('approved', 'vscode-panel'), edited: true } })
    .build();
  assert.match(head(edited), /^approved \(edited\) \(Warden: ask\)/);
  assert.equal(toRowSummary(edited).outcome, 'approved-edited', 'the row and the detail say the same');
  const denied = aVerdictRecord().with({ decision: 'deny' }).build();
  assert.match(head(denied), /^deny /);
  assert.doesNotMatch(head(denied), /Warden:/);
});

test('observe mode: the row says what the judge would have done, the detail lists the observed findings', () => {
  const record = aVerdictRecord()
    .with({
      decision: 'allow',
      semantic: { status: 'observe', reason: '2 of 9 fired', latencyMs: 40, model: 'm', wouldDecide: 'deny' },
      outcomes: [
        { policy: 'injection', tier: 'semantic', verdict: 'deny', reason: 'injection suspected', observed: true },
      ],
    })
    .build();
  const row = toRowSummary(record);
  assert.equal(row.outcome, 'allow', 'what the agent was told');
  assert.match(textOf(rowView(row, { selected: false, index: 0, onSelect: noop })), /judge: would deny/);
  const detail = textOf(detailView(record, {}, detailActions));
  assert.match(detail, /Observe mode: the judge \(m\) would have answered deny/);
  assert.match(detail, /injection.*semantic \(observed\).*would deny.*injection suspected/);
});

test('no "degraded" chip unless the judge really failed; a deterministic deny that skipped the judge shows none', () => {
  const skipped = aVerdictRecord()
    .with({
      decision: 'deny',
      semantic: {
        status: 'off',
        reason: 'not asked: a deterministic policy denied the call',
        latencyMs: null,
        model: null,
      },
    })
    .row();
  assert.equal(skipped.semantic.status, 'skipped');
  assert.doesNotMatch(textOf(rowView(skipped, { selected: false, index: 0, onSelect: noop })), /degraded/);
  const degraded = aVerdictRecord()
    .with({ semantic: { status: 'degraded', reason: 'timed out', latencyMs: 1, model: null } })
    .row();
  assert.match(textOf(rowView(degraded, { selected: false, index: 0, onSelect: noop })), /judge degraded/);
});

test('a call made while paused shows as allowed while paused, and is not counted as denied', () => {
  const row = aVerdictRecord().with({ decision: 'deny', paused: true }).row();
  assert.equal(row.outcome, 'paused-allow');
  assert.match(textOf(rowView(row, { selected: false, index: 0, onSelect: noop })), /allowed \(paused\)/);
  const store = new PanelStore();
  store.apply({ type: 'snapshot', rows: [row], pending: [] });
  assert.equal(store.counts().denies, 0);
  const detail = textOf(
    detailView(aVerdictRecord().with({ decision: 'deny', paused: true }).build(), {}, detailActions),
  );
  assert.match(detail, /Enforcement was paused: the agent was told no objection.*would have been: deny/);
});

test('events that are not tool calls: PostToolUse and PermissionRequest attach to their call, prompts and Stop are session events; counts match the agent', () => {
  const store = new PanelStore();
  const digest = `sha256:${'e'.repeat(64)}`;
  const input = { command: 'npm test' };
  const rows = [
    aVerdictRecord()
      .with({ id: 'prompt', event: 'UserPromptSubmit', toolName: null, toolInput: null, argsDigest: null })
      .row(),
    aVerdictRecord().with({ id: 'pre', toolUseId: 'toolu_1', argsDigest: digest, toolInput: input }).row(),
    aVerdictRecord().with({ id: 'perm', event: 'PermissionRequest', argsDigest: digest, toolInput: input }).row(),
    aVerdictRecord()
      .with({ id: 'post', event: 'PostToolUse', toolUseId: 'toolu_1', argsDigest: digest, toolInput: input })
      .row(),
    aVerdictRecord()
      .with({ id: 'refused', decision: 'ask', approval: answered('refused', 'vscode-panel') })
      .row(),
    aVerdictRecord().with({ id: 'stop', event: 'Stop', toolName: null, toolInput: null, argsDigest: null }).row(),
  ];
  for (const row of rows) store.apply({ type: 'rows', rows: [row] });
  assert.deepEqual(
    store.visibleRows().map((r) => [r.id, r.kind]),
    [
      ['stop', 'event'],
      ['refused', 'call'],
      ['pre', 'call'],
      ['prompt', 'event'],
    ],
  );
  assert.deepEqual(
    store.eventsOf('pre').map((r) => r.id),
    ['perm', 'post'],
  );
  assert.deepEqual(store.counts(), { calls: 2, asks: 1, denies: 1, redacted: 0, pending: 0 });
  store.setShowEvents(false);
  assert.deepEqual(
    store.visibleRows().map((r) => r.id),
    ['refused', 'pre'],
  );
});

test('a call shows only the secrets in its own arguments, not those of the prompt the judge saw', () => {
  const row = aVerdictRecord()
    .with({ redactions: { count: 3, byLabel: { 'aws-key': 3 }, inArguments: 0 } })
    .row();
  assert.equal(row.redactedInCall, 0);
  assert.doesNotMatch(textOf(rowView(row, { selected: false, index: 0, onSelect: noop })), /redacted/);
});

test('filters: a select keeps its value as rows arrive; session choices are named; policies are labelled', () => {
  assert.match(
    sessionLabel('0123456789abcdef', '2026-01-01T12:34:00.000Z', 'claude'),
    /^claude · 01234567 · from 12:34$/,
  );
  const policies = policiesView(
    {
      host: 'vscode',
      guarded: true,
      guardDetail: '',
      endpointUrl: null,
      pausedUntil: null,
      policies: [{ name: 'sudo', enabled: true, source: 'built-in', alwaysOn: false, description: 'root' }],
    },
    toolbarActions,
  )!;
  assert.match(textOf(policies), /Policies \(1 of 1 on\)/);
  const label = findAll(policies, (n) => n.tag === 'label')[0]!;
  assert.equal(label.attrs?.for, 'policy-sudo');
  assert.equal(findAll(policies, (n) => n.attrs?.id === 'policy-sudo').length, 1, 'the label names its checkbox');
});

test('the empty panel says what to do and offers Connect', () => {
  const calls: string[] = [];
  const view = emptyView(
    {
      host: 'vscode',
      guarded: false,
      guardDetail: '',
      endpointUrl: null,
      pausedUntil: null,
      policies: [],
      canConnect: true,
    },
    { ...toolbarActions, connect: () => void calls.push('connect') },
  );
  assert.match(textOf(view), /not connected/);
  const button = findAll(view, (n) => n.attrs?.['data-action'] === 'connect')[0]!;
  button.on!.click!({} as Event);
  assert.deepEqual(calls, ['connect']);
});

test('Reveal has Hide', () => {
  const record = aVerdictRecord()
    .with({ toolInput: { command: 'echo <redacted:aws-key>' } })
    .build();
  const state = {
    openMarker: { source: 'arguments' as const, index: 0 },
    revealed: { source: 'arguments' as const, index: 0, text: 'AKIA…' },
  };
  const hidden: string[] = [];
  const view = detailView(record, state, { ...detailActions, hideRevealed: () => void hidden.push('hide') });
  const hide = findAll(view, (n) => n.attrs?.['data-action'] === 'hide')[0];
  assert.ok(hide, 'a Hide button while the original is shown');
  hide.on!.click!({} as Event);
  assert.deepEqual(hidden, ['hide']);
  assert.equal(
    findAll(
      detailView(record, { openMarker: state.openMarker }, detailActions),
      (n) => n.attrs?.['data-action'] === 'hide',
    ).length,
    0,
  );
});

test('session licences are listed and revocable', () => {
  const book = new LicenceBook(() => Date.parse('2026-01-01T12:00:00Z'));
  const licence = book.grantStanding({
    kind: 'answered',
    approvalId: 'a1',
    recordId: 'r1',
    sessionId: 's1',
    toolName: 'Bash',
    shownDigest: `sha256:${'a'.repeat(64)}`,
    edited: false,
    answeredBy: 'vscode-panel',
    answeredAt: '2026-01-01T12:00:00.000Z',
    decision: 'allow',
    answer: 'approve',
    scope: 'session',
    digest: `sha256:${'a'.repeat(64)}`,
    reason: 'r',
  });
  assert.deepEqual(
    book.listStanding().map((l) => l.id),
    [licence.id],
  );
  const revoked: string[] = [];
  const view = licencesView(
    book.listStanding().map((l) => ({ ...l })),
    { ...toolbarActions, revokeLicence: (id) => void revoked.push(id) },
  )!;
  findAll(view, (n) => n.attrs?.['data-action'] === 'revoke-licence')[0]!.on!.click!({} as Event);
  assert.deepEqual(revoked, [licence.id]);
  assert.equal(book.revoke(licence.id), true);
  assert.equal(book.find('s1', 'Bash', licence.digest, false), null, 'the same call is asked again');
  assert.equal(book.revoke(licence.id), false);
});

test('approvals.timeoutSeconds is read again for every ask', () => {
  let seconds = 30;
  const ledger = new ApprovalLedger({
    timeoutSeconds: () => seconds,
    screen: async () => ({ decision: 'allow', reason: '' }),
  });
  const first = ledger.open({
    recordId: 'r',
    agent: 'claude',
    sessionId: 's',
    toolName: 'Bash',
    toolInput: { command: 'a' },
    reason: 'r',
    personOnly: false,
    delivery: 'held',
  });
  seconds = 90;
  const second = ledger.open({
    recordId: 'r2',
    agent: 'claude',
    sessionId: 's',
    toolName: 'Bash',
    toolInput: { command: 'b' },
    reason: 'r',
    personOnly: false,
    delivery: 'held',
  });
  const span = (p: { createdAt: string; deadline: string }) =>
    (Date.parse(p.deadline) - Date.parse(p.createdAt)) / 1000;
  assert.equal(span(first.pending), 30);
  assert.equal(span(second.pending), 90);
  ledger.close();
});

test('export: the approval lines join their records; CSV has the command, the outcome and who answered', () => {
  const record = aVerdictRecord()
    .with({ id: 'r1', decision: 'ask', toolInput: { command: 'sudo make install' } })
    .build();
  const entries = [
    { ...record },
    {
      type: 'approval',
      recordId: 'r1',
      approvalId: 'a1',
      decision: 'deny',
      answer: 'refuse',
      scope: null,
      answeredBy: 'vscode-panel',
      answeredAt: '2026-01-01T12:00:09.000Z',
      edited: false,
      reason: 'The person refused this call in Agent Warden.',
      message: 'not on this machine',
    },
  ];
  const joined = recordsWithAnswers(entries as Record<string, unknown>[], (e) => e as typeof record);
  assert.equal(joined[0]!.approval.state, 'refused');
  assert.equal(joined[0]!.approval.answeredBy, 'vscode-panel');
  const [head, line] = toCsv(joined).split('\r\n');
  const columns = head!.split(',');
  const cells = line!.split(',');
  assert.equal(cells[columns.indexOf('command')], 'sudo make install');
  assert.equal(cells[columns.indexOf('outcome')], 'refused');
  assert.equal(cells[columns.indexOf('approval')], 'refused');
  assert.equal(cells[columns.indexOf('answeredBy')], 'vscode-panel');
  assert.equal(cells[columns.indexOf('message')], 'not on this machine', 'the message is exported');
  assert.equal(cells[columns.indexOf('ranCommand')], '', 'nothing was edited, so nothing else ran');
});

test('Connect: the preview hides the token; .gitignore gains the two local files once, in a git project only', (t) => {
  const token = 'tok_0123456789abcdef';
  const masked = maskToken(`{"Authorization": "Bearer ${token}"}`, token);
  assert.ok(!masked.includes(token));
  assert.match(masked, /the hook token, hidden/);
  const project = aTempDir('ignore', t);
  assert.deepEqual(missingIgnores(project), [], 'not a git project: nothing to add');
  mkdirSync(join(project, '.git'));
  writeFileSync(join(project, '.gitignore'), 'node_modules\n/.claude/settings.local.json');
  assert.deepEqual(missingIgnores(project), ['.agent-warden/config.local.json']);
  addIgnores(project, missingIgnores(project));
  const text = readFileSync(join(project, '.gitignore'), 'utf8');
  assert.match(
    text,
    /^node_modules\n\/\.claude\/settings\.local\.json\n# Agent Warden.*\n\.agent-warden\/config\.local\.json\n$/,
  );
  assert.deepEqual(missingIgnores(project), []);
});

test('CSV export: an edited approval exports what ran beside what was asked', () => {
  const edited = aVerdictRecord()
    .with({
      toolName: 'Bash',
      toolInput: { command: 'rm -rf build' },
      decision: 'ask',
      approval: { ...answered('approved', 'vscode-panel'), edited: true, ranInput: { command: 'rm -rf build/tmp' } },
    })
    .build();
  const [head, line] = toCsv([edited]).split('\r\n');
  const columns = head!.split(',');
  const cells = line!.split(',');
  assert.equal(cells[columns.indexOf('command')], 'rm -rf build');
  assert.equal(cells[columns.indexOf('ranCommand')], 'rm -rf build/tmp');
});
