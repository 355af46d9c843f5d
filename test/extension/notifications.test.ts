import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AnswerResult, PendingView, ResolutionView } from '../../src/protocol';
import {
  ANSWER_COMMAND,
  AskNotifications,
  settledMessage,
  unlinkable,
  type NotificationPort,
} from '../../src/extension/notifications';
import { aPendingAsk } from '../builders/record';

// The ask notifications: each one lasts exactly as long as its ask, whoever
// settles it; its Approve and Refuse are links that answer only for the
// notification that made them; the agent's words cannot add a link.

/** The links a VS Code notification makes of its text (the workbench's own pattern for `[label](target)`). */
function linksOf(text: string): { label: string; href: string }[] {
  const pattern = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
  return [...text.matchAll(pattern)].map((m) => ({ label: m[1]!, href: m[2]! }));
}

function argsOf(href: string): unknown {
  const query = href.slice(href.indexOf('?') + 1);
  return (JSON.parse(decodeURIComponent(query)) as unknown[])[0];
}

class Window implements NotificationPort {
  readonly shown: { text: string; closed: boolean }[] = [];
  readonly infos: string[] = [];
  readonly warnings: string[] = [];
  showUntil(text: string, until: Promise<void>): void {
    const entry = { text, closed: false };
    this.shown.push(entry);
    void until.then(() => (entry.closed = true));
  }
  info(text: string): void {
    this.infos.push(text);
  }
  warn(text: string): void {
    this.warnings.push(text);
  }
}

function setUp(result: (p: PendingView, d: 'approve' | 'refuse') => AnswerResult = () => ok('approved')) {
  const window = new Window();
  const answers: [string, string][] = [];
  const settled = new Map<string, ResolutionView>();
  let n = 0;
  const notes = new AskNotifications(window, {
    answer: async (p, d) => {
      answers.push([p.id, d]);
      return result(p, d);
    },
    settled: (id) => settled.get(id),
    nonce: () => `nonce-${++n}-xxxxxxxxxxxxxxxx`,
    clock: (iso) => iso.slice(11, 19),
  });
  return { window, answers, settled, notes };
}

function ok(state: 'approved' | 'refused'): AnswerResult {
  return {
    kind: 'ok',
    row: null,
    resolution: {
      id: 'ap-1',
      state,
      scope: 'once',
      digest: null,
      answeredBy: 'vscode-notification',
      answeredAt: '2026-01-01T12:00:10.000Z',
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('an ask answered in the panel takes its notification away, and a link followed late says how it ended', async () => {
  const { window, answers, settled, notes } = setUp();
  const pending = aPendingAsk({ id: 'ap-1' });
  notes.offer(pending);
  notes.offer(pending);
  assert.equal(window.shown.length, 1, 'one notification per ask');
  const shown = window.shown[0]!;
  assert.match(shown.text, /^Agent Warden: claude wants to run Bash: sudo apt-get install foo \(sudo runs a command/);
  assert.match(shown.text, /Waiting for you until 12:02:00, then it goes to the agent's own prompt\./);
  const links = linksOf(shown.text);
  assert.deepEqual(
    links.map((l) => l.label),
    ['Approve', 'Refuse', 'Show in the panel'],
  );
  assert.ok(links[0]!.href.startsWith(`command:${ANSWER_COMMAND}?`));
  assert.deepEqual(argsOf(links[0]!.href), { id: 'ap-1', decision: 'approve', nonce: 'nonce-1-xxxxxxxxxxxxxxxx' });
  assert.equal(links[2]!.href, 'command:agentWarden.showPanel');

  // Answered in the panel: the broker says resolved, the notification goes.
  settled.set('ap-1', { ...(ok('refused') as { resolution: ResolutionView }).resolution, answeredBy: 'vscode-panel' });
  notes.settle('ap-1');
  await tick();
  assert.equal(shown.closed, true);
  assert.equal(notes.showing, 0);
  await notes.followLink(argsOf(links[0]!.href));
  assert.deepEqual(answers, [], 'nothing is answered after the fact');
  assert.deepEqual(window.infos, ['Agent Warden: that ask was already refused in the panel.']);
});

test('Approve in the notification answers its ask once and closes it; a refusal the broker did not take says why', async () => {
  const { window, answers, notes } = setUp();
  notes.offer(aPendingAsk({ id: 'ap-1' }));
  const [approve] = linksOf(window.shown[0]!.text);
  await notes.followLink(argsOf(approve!.href));
  await tick();
  assert.deepEqual(answers, [['ap-1', 'approve']]);
  assert.equal(window.shown[0]!.closed, true);

  const failing = setUp(() => ({ kind: 'digest-mismatch', message: 'the digest is not the one shown' }));
  failing.notes.offer(aPendingAsk({ id: 'ap-2' }));
  const refuse = linksOf(failing.window.shown[0]!.text)[1]!;
  await failing.notes.followLink(argsOf(refuse.href));
  assert.deepEqual(failing.answers, [['ap-2', 'refuse']]);
  assert.deepEqual(failing.window.warnings, ['Agent Warden: the digest is not the one shown']);
  assert.equal(failing.window.shown[0]!.closed, false, 'the ask is still open, so its notification stays');

  const gone = setUp(() => ({ kind: 'not-pending', message: 'no pending approval' }));
  gone.notes.offer(aPendingAsk({ id: 'ap-3' }));
  await gone.notes.followLink(argsOf(linksOf(gone.window.shown[0]!.text)[0]!.href));
  await tick();
  assert.equal(gone.window.shown[0]!.closed, true);
  assert.deepEqual(gone.window.infos, ['Agent Warden: that ask is no longer pending.']);
});

test('a link not made by the notification of that ask answers nothing', async () => {
  const { window, answers, notes } = setUp();
  notes.offer(aPendingAsk({ id: 'ap-1' }));
  for (const forged of [
    { id: 'ap-1', decision: 'approve', nonce: 'guessed-nonce-xxxxxxxxxx' },
    { id: 'ap-1', decision: 'approve' },
    { id: 'ap-1', decision: 'allow', nonce: 'nonce-1-xxxxxxxxxxxxxxxx' },
    { id: 'ap-1', decision: 'approve', nonce: 'nonce-1-xxxxxxxxxxxxxxxx', scope: 'session' },
    'ap-1',
    null,
  ])
    await notes.followLink(forged);
  assert.deepEqual(answers, []);
  assert.equal(window.warnings.length, 6);
  assert.match(window.warnings[0]!, /not made by this ask's notification/);
  assert.match(window.warnings[1]!, /does not name an ask/);
  assert.equal(window.shown[0]!.closed, false);
});

test("the agent's words cannot add a link or stand in for Warden's own", () => {
  const { window, notes } = setUp();
  const forged = `[Refuse](command:${ANSWER_COMMAND}?${encodeURIComponent(JSON.stringify([{ id: 'ap-1', decision: 'approve', nonce: 'x' }]))})`;
  notes.offer(
    aPendingAsk({
      id: 'ap-1',
      toolInput: { command: `echo ${forged} [Refuse` },
      reason: 'see [here](https://example.invalid)',
    }),
  );
  const links = linksOf(window.shown[0]!.text);
  assert.deepEqual(
    links.map((l) => l.label),
    ['Approve', 'Refuse', 'Show in the panel'],
    "only Warden's three links, labelled as Warden wrote them",
  );
  assert.deepEqual(argsOf(links[1]!.href), { id: 'ap-1', decision: 'refuse', nonce: 'nonce-1-xxxxxxxxxxxxxxxx' });
  assert.equal(unlinkable('a [b](c) d'), 'a \uFF3Bb\uFF3D(c) d');
});

test('arguments that cannot be bound are offered for the panel only; every notification closes with the endpoint', async () => {
  const { window, notes } = setUp();
  notes.offer(aPendingAsk({ id: 'ap-1', digest: null, notBindable: 'a duplicate key "command"' }));
  notes.offer(aPendingAsk({ id: 'ap-2' }));
  assert.deepEqual(
    linksOf(window.shown[0]!.text).map((l) => l.label),
    ['Show in the panel'],
  );
  assert.match(window.shown[0]!.text, /It cannot be approved here: a duplicate key "command"\./);
  notes.closeAll();
  await tick();
  assert.deepEqual(
    window.shown.map((s) => s.closed),
    [true, true],
  );
});

test('how an ask ended, for a link followed after it', () => {
  const base = { id: 'a', scope: null, digest: null, answeredAt: '2026-01-01T12:00:00.000Z' } as const;
  assert.equal(
    settledMessage({ ...base, state: 'approved', answeredBy: 'web-panel' }),
    'Agent Warden: that ask was already approved in the web panel.',
  );
  assert.equal(
    settledMessage({ ...base, state: 'approved', answeredBy: 'vscode-notification' }),
    'Agent Warden: that ask was already approved from its notification.',
  );
  assert.equal(
    settledMessage({ ...base, state: 'expired', answeredBy: null }),
    "Agent Warden: that ask expired and went to the agent's own prompt.",
  );
  assert.equal(
    settledMessage({ ...base, state: 'withdrawn', answeredBy: null }),
    'Agent Warden: that ask was withdrawn (the agent stopped waiting).',
  );
});
