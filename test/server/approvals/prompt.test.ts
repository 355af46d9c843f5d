// Asks that go to the agent's own prompt: with no panel connected (at once), or
// when the deadline passes with the panel silent; and the agent's
// PermissionRequest for the same call, answered from the ledger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { argsDigest } from '../../../src/core/approvals/digest';
import {
  ASK_REASON,
  hookBody,
  json,
  openPanel,
  pendingList,
  postApproval,
  postHook,
  send,
  panelHeaders,
  startEndpoint,
  type Endpoint,
} from './harness';

const ASK_INPUT = { command: 'echo ask-me please', description: 'approval test' };
const ASK_DIGEST = argsDigest('Bash', ASK_INPUT);
const PERMISSION_ALLOW = {
  hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
};

async function withEndpoint(timeoutSeconds: number, body: (endpoint: Endpoint) => Promise<void>): Promise<void> {
  const endpoint = await startEndpoint({ approvalTimeoutSeconds: timeoutSeconds });
  try {
    await body(endpoint);
  } finally {
    await endpoint.close();
  }
}

/** Waits until the server has taken in a call of this event (its record is published before any wait starts). */
async function recordArrived(endpoint: Endpoint, event: string, sessionId: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const result = await send(`${endpoint.url}/api/records`, { headers: panelHeaders(endpoint) });
    const records = json(result)['records'] as Array<Record<string, unknown>>;
    if (records.some((r) => r['event'] === event && r['sessionId'] === sessionId)) return;
    await sleep(10);
  }
  throw new Error(`no ${event} record for ${sessionId} reached the server`);
}

/** The no-panel ask: the PreToolUse is answered `ask` at once and the ask stays pending. */
async function askAtPrompt(endpoint: Endpoint, sessionId = 'session-A'): Promise<string> {
  const reply = await postHook(endpoint, hookBody(endpoint, { sessionId }));
  const out = reply['hookSpecificOutput'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(reply), ['hookSpecificOutput']);
  assert.equal(out['hookEventName'], 'PreToolUse');
  assert.equal(out['permissionDecision'], 'ask');
  assert.ok(String(out['permissionDecisionReason']).includes(ASK_REASON), String(out['permissionDecisionReason']));
  const pending = await pendingList(endpoint);
  assert.equal(pending.length, 1);
  assert.equal(pending[0]!['digest'], ASK_DIGEST);
  assert.equal(pending[0]!['sessionId'], sessionId);
  return String(pending[0]!['id']);
}

test('no panel: the ask goes to the agent at once; its PermissionRequest is held and answered from the ledger when the person approves', () =>
  withEndpoint(60, async (endpoint) => {
    const id = await askAtPrompt(endpoint);
    const permission = postHook(endpoint, hookBody(endpoint, { event: 'PermissionRequest' }));
    permission.catch(() => undefined);
    await recordArrived(endpoint, 'PermissionRequest', 'session-A');
    const answer = await postApproval(endpoint, id, { decision: 'approve', scope: 'once', digest: ASK_DIGEST });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(await permission, PERMISSION_ALLOW);
    assert.deepEqual(await pendingList(endpoint), []);
  }));

test('no panel: a refusal reaches the held PermissionRequest as a deny with the message', () =>
  withEndpoint(60, async (endpoint) => {
    const id = await askAtPrompt(endpoint);
    const permission = postHook(endpoint, hookBody(endpoint, { event: 'PermissionRequest' }));
    permission.catch(() => undefined);
    await recordArrived(endpoint, 'PermissionRequest', 'session-A');
    assert.equal(
      (await postApproval(endpoint, id, { decision: 'refuse', digest: ASK_DIGEST, message: 'not today' })).status,
      200,
    );
    const reply = await permission;
    const decision = (reply['hookSpecificOutput'] as Record<string, unknown>)['decision'] as Record<string, unknown>;
    assert.equal(decision['behavior'], 'deny');
    assert.match(String(decision['message']), /not today/);
  }));

test('no panel: an answer given before the PermissionRequest arrives is delivered to it once; other arguments get no decision', () =>
  withEndpoint(60, async (endpoint) => {
    const id = await askAtPrompt(endpoint);
    assert.equal(
      (await postApproval(endpoint, id, { decision: 'approve', scope: 'once', digest: ASK_DIGEST })).status,
      200,
    );
    const otherArgs = await postHook(
      endpoint,
      hookBody(endpoint, { event: 'PermissionRequest', command: 'echo ask-me louder' }),
    );
    assert.deepEqual(otherArgs, {}, 'a PermissionRequest for other bytes was answered from this approval');
    const otherSession = await postHook(
      endpoint,
      hookBody(endpoint, { event: 'PermissionRequest', sessionId: 'session-B' }),
    );
    assert.deepEqual(otherSession, {}, 'a PermissionRequest from another session was answered from this approval');
    assert.deepEqual(await postHook(endpoint, hookBody(endpoint, { event: 'PermissionRequest' })), PERMISSION_ALLOW);
    assert.deepEqual(
      await postHook(endpoint, hookBody(endpoint, { event: 'PermissionRequest' })),
      {},
      'a once-approval answered twice',
    );
  }));

test('left to expire with a panel connected: the held call is handed to the agent as ask, and the id is gone', () =>
  withEndpoint(2, async (endpoint) => {
    const panel = await openPanel(endpoint);
    try {
      const reply = postHook(endpoint, hookBody(endpoint));
      reply.catch(() => undefined);
      const pending = (await panel.next('pending'))['pending'] as Record<string, unknown>;
      const id = String(pending['id']);
      const out = (await reply)['hookSpecificOutput'] as Record<string, unknown>;
      assert.equal(out['permissionDecision'], 'ask');
      assert.match(String(out['permissionDecisionReason']), /no answer in the Warden panel within 2 s/);
      const resolved = await panel.next(
        'resolved',
        (data) => (data['resolution'] as Record<string, unknown>)['id'] === id,
      );
      assert.equal((resolved['resolution'] as Record<string, unknown>)['state'], 'expired');
      assert.deepEqual(await pendingList(endpoint), []);
      const late = await postApproval(endpoint, id, { decision: 'approve', scope: 'once', digest: ASK_DIGEST });
      assert.equal(late.status, 404, late.text);
    } finally {
      panel.close();
    }
  }));

test('asks left to the agent prompt are bounded: past the bound the oldest closes (withdrawn, its call with the agent) and its line is logged', async () => {
  const endpoint = await startEndpoint({ approvalTimeoutSeconds: 60, maxPromptAsks: 2 });
  try {
    for (const session of ['s1', 's2', 's3']) {
      const reply = await postHook(endpoint, hookBody(endpoint, { sessionId: session }));
      assert.equal((reply['hookSpecificOutput'] as Record<string, unknown>)['permissionDecision'], 'ask');
    }
    const open = await pendingList(endpoint);
    assert.deepEqual(
      open.map((p) => p['sessionId']),
      ['s2', 's3'],
      'the oldest ask (s1) is still open past the bound',
    );
    const oldest = await send(`${endpoint.url}/api/records`, { headers: panelHeaders(endpoint) });
    const rows = json(oldest)['records'] as Array<Record<string, unknown>>;
    const s1 = rows.find((r) => r['sessionId'] === 's1')!;
    assert.equal((s1['answer'] as Record<string, unknown>)['state'], 'withdrawn');
    assert.equal((s1['answer'] as Record<string, unknown>)['source'], "agent's prompt");
    // A PermissionRequest for the closed ask gets no decision from Warden: the agent's prompt settles it.
    assert.deepEqual(await postHook(endpoint, hookBody(endpoint, { event: 'PermissionRequest', sessionId: 's1' })), {});
    const lines = readFileSync(endpoint.logPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const withdrawn = lines.filter((l) => l['type'] === 'approval' && l['answer'] === 'withdrawn');
    assert.equal(withdrawn.length, 1);
    assert.match(String(withdrawn[0]!['reason']), /over 2 asks were open at once/);
  } finally {
    await endpoint.close();
  }
});
