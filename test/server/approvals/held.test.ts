// Asks held open while a panel is connected, answered through the approval API
// of the real server: explicit allow, 409 on a wrong digest, refusal, session
// licences, edits re-screened, disconnects, not-bindable bytes, and the log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { argsDigest } from '../../../src/core/approvals/digest';
import { recordsWithAnswers } from '../../../src/core/activity/answers';
import { verdictRecordSchema, type VerdictRecord } from '../../../src/core/verdict/record';
import {
  ASK_REASON,
  DENY_REASON,
  hookBody,
  json,
  openPanel,
  pendingList,
  postApproval,
  postHook,
  startEndpoint,
  type CallShape,
  type Endpoint,
  type PanelStream,
} from './harness';

const TIMEOUT_SECONDS = 60;
const ASK_INPUT = { command: 'echo ask-me please', description: 'approval test' };
const ASK_DIGEST = argsDigest('Bash', ASK_INPUT);

async function withPanel(body: (endpoint: Endpoint, panel: PanelStream) => Promise<void>): Promise<void> {
  const endpoint = await startEndpoint({ approvalTimeoutSeconds: TIMEOUT_SECONDS });
  const panel = await openPanel(endpoint);
  try {
    await body(endpoint, panel);
  } finally {
    panel.close();
    await endpoint.close();
  }
}

interface Held {
  reply: Promise<Record<string, unknown>>;
  pending: Record<string, unknown>;
  id: string;
}

/** Sends a PreToolUse that the test policy asks for and waits until the panel sees it pending. */
async function holdAsk(
  endpoint: Endpoint,
  panel: PanelStream,
  shape: CallShape = {},
  signal?: AbortSignal,
): Promise<Held> {
  const body = hookBody(endpoint, shape);
  const reply = postHook(endpoint, body, signal);
  reply.catch(() => undefined);
  const event = await panel.next('pending', (data) => {
    const pending = data['pending'] as Record<string, unknown>;
    return (
      pending['sessionId'] === body['session_id'] &&
      JSON.stringify(pending['toolInput']) === JSON.stringify(body['tool_input'])
    );
  });
  const pending = event['pending'] as Record<string, unknown>;
  return { reply, pending, id: String(pending['id']) };
}

/** Approves the held ask once with edited arguments; the answer must be taken. */
async function approveEdited(endpoint: Endpoint, held: Held, edit: Record<string, unknown>) {
  const answer = await postApproval(endpoint, held.id, {
    decision: 'approve',
    scope: 'once',
    digest: ASK_DIGEST,
    editedInput: edit,
  });
  assert.equal(answer.status, 200, answer.text);
  return answer;
}

function decisionOf(reply: Record<string, unknown>): Record<string, unknown> {
  const out = reply['hookSpecificOutput'];
  assert.ok(out && typeof out === 'object', `no hookSpecificOutput in ${JSON.stringify(reply)}`);
  return out as Record<string, unknown>;
}

test('held with a panel connected: the pending event carries id and digest; approving with that digest answers an explicit allow', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    assert.match(held.id, /^[A-Za-z0-9_-]+$/);
    assert.equal(held.pending['digest'], ASK_DIGEST);
    assert.equal(held.pending['toolName'], 'Bash');
    assert.deepEqual(held.pending['toolInput'], ASK_INPUT);
    assert.ok(String(held.pending['reason']).includes(ASK_REASON), String(held.pending['reason']));
    assert.ok(Date.parse(String(held.pending['deadline'])) > Date.parse(String(held.pending['createdAt'])));

    const answer = await postApproval(endpoint, held.id, { decision: 'approve', scope: 'once', digest: ASK_DIGEST });
    assert.equal(answer.status, 200, answer.text);
    const body = json(answer);
    const resolution = body['resolution'] as Record<string, unknown>;
    assert.equal(resolution['state'], 'approved');
    assert.equal(resolution['scope'], 'once');
    assert.equal(resolution['digest'], ASK_DIGEST);
    const record = body['record'] as Record<string, unknown>;
    assert.equal(record['id'], held.pending['recordId']);
    assert.equal((record['approval'] as Record<string, unknown>)['state'], 'approved');

    const out = decisionOf(await held.reply);
    assert.equal(out['hookEventName'], 'PreToolUse');
    assert.equal(out['permissionDecision'], 'allow');
    assert.equal(out['updatedInput'], undefined);
    const resolved = await panel.next(
      'resolved',
      (data) => (data['resolution'] as Record<string, unknown>)['id'] === held.id,
    );
    assert.equal((resolved['resolution'] as Record<string, unknown>)['state'], 'approved');
    assert.deepEqual(await pendingList(endpoint), []);

    // Approved once: the same call again is asked again.
    const again = await holdAsk(endpoint, panel);
    assert.notEqual(again.id, held.id);
    assert.equal((await postApproval(endpoint, again.id, { decision: 'refuse', digest: ASK_DIGEST })).status, 200);
    assert.equal(decisionOf(await again.reply)['permissionDecision'], 'deny');
  }));

test('a wrong digest gets 409, licenses nothing, and the ask stays pending and held', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    const wrong = argsDigest('Bash', { command: 'echo ask-me something else' });
    const answer = await postApproval(endpoint, held.id, { decision: 'approve', scope: 'session', digest: wrong });
    assert.equal(answer.status, 409, answer.text);
    assert.match(String(json(answer)['error']), /not the one shown/);
    const pending = await pendingList(endpoint);
    assert.deepEqual(
      pending.map((p) => [p['id'], p['digest']]),
      [[held.id, ASK_DIGEST]],
    );

    const right = await postApproval(endpoint, held.id, { decision: 'approve', scope: 'once', digest: ASK_DIGEST });
    assert.equal(right.status, 200, right.text);
    assert.equal(decisionOf(await held.reply)['permissionDecision'], 'allow');
  }));

test('refused with a message: the held call is denied and the agent reads the message once', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    const message = 'use the project script instead';
    const answer = await postApproval(endpoint, held.id, { decision: 'refuse', digest: ASK_DIGEST, message });
    assert.equal(answer.status, 200, answer.text);
    assert.equal((json(answer)['resolution'] as Record<string, unknown>)['state'], 'refused');
    const out = decisionOf(await held.reply);
    assert.equal(out['permissionDecision'], 'deny');
    const reason = String(out['permissionDecisionReason']);
    assert.ok(reason.includes(message), reason);
    assert.equal(reason.split(message).length - 1, 1, `the message is repeated: ${reason}`);
  }));

test('approved for the session: the identical call in that session is allowed at once; another session or other arguments are asked again', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel, { sessionId: 'session-A' });
    assert.equal(
      (await postApproval(endpoint, held.id, { decision: 'approve', scope: 'session', digest: ASK_DIGEST })).status,
      200,
    );
    assert.equal(decisionOf(await held.reply)['permissionDecision'], 'allow');

    for (let run = 0; run < 2; run++) {
      const licensed = decisionOf(await postHook(endpoint, hookBody(endpoint, { sessionId: 'session-A' })));
      assert.equal(licensed['permissionDecision'], 'allow');
      assert.match(String(licensed['permissionDecisionReason']), /for this session/);
    }
    assert.deepEqual(await pendingList(endpoint), []);

    const otherSession = await holdAsk(endpoint, panel, { sessionId: 'session-B' });
    assert.equal(otherSession.pending['digest'], ASK_DIGEST);
    const otherArgs = await holdAsk(endpoint, panel, { sessionId: 'session-A', command: 'echo ask-me louder' });
    assert.equal(
      otherArgs.pending['digest'],
      argsDigest('Bash', { command: 'echo ask-me louder', description: 'approval test' }),
    );
    assert.deepEqual((await pendingList(endpoint)).map((p) => p['id']).sort(), [otherSession.id, otherArgs.id].sort());
    for (const held2 of [otherSession, otherArgs]) {
      assert.equal(
        (await postApproval(endpoint, held2.id, { decision: 'refuse', digest: String(held2.pending['digest']) }))
          .status,
        200,
      );
      assert.equal(decisionOf(await held2.reply)['permissionDecision'], 'deny');
    }
  }));

test('an edited approval that screens clean is allowed with updatedInput equal to the edit', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    const edit = { command: 'echo edited-and-harmless', description: 'edited in the panel' };
    const answer = await approveEdited(endpoint, held, edit);
    const resolution = json(answer)['resolution'] as Record<string, unknown>;
    assert.equal(resolution['state'], 'approved');
    assert.equal(resolution['digest'], argsDigest('Bash', edit));
    const out = decisionOf(await held.reply);
    assert.equal(out['permissionDecision'], 'allow');
    assert.deepEqual(out['updatedInput'], edit);
  }));

test('an edit that screens to deny is answered deny, naming why', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    const answer = await postApproval(endpoint, held.id, {
      decision: 'approve',
      scope: 'session',
      digest: ASK_DIGEST,
      editedInput: { command: 'rm -rf /' },
    });
    assert.equal(answer.status, 200, answer.text);
    assert.equal((json(answer)['resolution'] as Record<string, unknown>)['state'], 'refused');
    const out = decisionOf(await held.reply);
    assert.equal(out['permissionDecision'], 'deny');
    assert.equal(out['updatedInput'], undefined);
    assert.ok(String(out['permissionDecisionReason']).includes(DENY_REASON), String(out['permissionDecisionReason']));
    // Nothing was licensed: neither the edit nor the original runs without a new ask.
    const again = await holdAsk(endpoint, panel);
    assert.equal((await postApproval(endpoint, again.id, { decision: 'refuse', digest: ASK_DIGEST })).status, 200);
    await again.reply;
  }));

test('the agent hanging up withdraws the pending ask', () =>
  withPanel(async (endpoint, panel) => {
    const hangUp = new AbortController();
    const held = await holdAsk(endpoint, panel, {}, hangUp.signal);
    hangUp.abort();
    await assert.rejects(held.reply);
    const resolved = await panel.next(
      'resolved',
      (data) => (data['resolution'] as Record<string, unknown>)['id'] === held.id,
    );
    assert.equal((resolved['resolution'] as Record<string, unknown>)['state'], 'withdrawn');
    assert.deepEqual(await pendingList(endpoint), []);
    const late = await postApproval(endpoint, held.id, { decision: 'approve', scope: 'once', digest: ASK_DIGEST });
    assert.equal(late.status, 404, late.text);
  }));

test('arguments with a duplicate key cannot be approved: 409 naming the key and where, still pending; a refusal still works', () =>
  withPanel(async (endpoint, panel) => {
    const body = hookBody(endpoint);
    const raw = JSON.stringify(body).replace(
      JSON.stringify(body['tool_input']),
      '{"command":"echo ask-me first","command":"echo ask-me second","description":"approval test"}',
    );
    const reply = postHook(endpoint, raw);
    reply.catch(() => undefined);
    const event = await panel.next('pending');
    const pending = event['pending'] as Record<string, unknown>;
    const id = String(pending['id']);
    assert.equal(pending['digest'], null);
    assert.equal(pending['notBindable'], 'a duplicate key "command" at $.tool_input');

    // The panel can only send back what it can see: the digest of the parsed arguments.
    const visible = argsDigest('Bash', pending['toolInput']);
    for (const scope of ['once', 'session']) {
      const answer = await postApproval(endpoint, id, { decision: 'approve', scope, digest: visible });
      assert.equal(answer.status, 409, answer.text);
      assert.ok(String(json(answer)['error']).includes('a duplicate key "command" at $.tool_input'), answer.text);
    }
    assert.deepEqual(
      (await pendingList(endpoint)).map((p) => p['id']),
      [id],
    );

    const refusal = await postApproval(endpoint, id, {
      decision: 'refuse',
      digest: visible,
      message: 'send plain arguments',
    });
    assert.equal(refusal.status, 200, refusal.text);
    const out = decisionOf(await reply);
    assert.equal(out['permissionDecision'], 'deny');
  }));

test('the activity log gets an approval line linked to the call by recordId, with keyed digests only', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    assert.equal(
      (await postApproval(endpoint, held.id, { decision: 'approve', scope: 'session', digest: ASK_DIGEST })).status,
      200,
    );
    await held.reply;

    const text = readFileSync(endpoint.logPath, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const record = lines.find((line) => line['type'] === 'record' && line['id'] === held.pending['recordId']);
    assert.ok(record, `no record line for ${String(held.pending['recordId'])}`);
    assert.equal(record['decision'], 'ask');
    const approval = lines.find((line) => line['type'] === 'approval');
    assert.ok(approval, 'no approval line');
    assert.equal(approval['recordId'], record['id']);
    assert.equal(approval['approvalId'], held.id);
    assert.equal(approval['answer'], 'approve');
    assert.equal(approval['decision'], 'allow');
    assert.equal(approval['scope'], 'session');
    assert.equal(approval['answeredBy'], 'web-panel');
    assert.ok(!Number.isNaN(Date.parse(String(approval['answeredAt']))));
    for (const digest of [record['argsDigest'], approval['digest'], approval['shownDigest']])
      assert.match(String(digest), /^hmac-sha256:[0-9a-f]{64}$/);
    // The same call, the same key: the record's and the approval's keyed digests agree.
    assert.equal(approval['digest'], record['argsDigest']);
    assert.equal(text.includes(ASK_DIGEST.slice('sha256:'.length)), false, 'a plain digest reached the log');
    assert.doesNotMatch(text, /"sha256:/);
  }));

const A_TOKEN = 'ghp_' + 'Qw12Er34Ty56Ui78Op90As12Df34Gh56Jk78';

function logLines(endpoint: Endpoint): { text: string; lines: Record<string, unknown>[] } {
  const text = readFileSync(endpoint.logPath, 'utf8');
  return {
    text,
    lines: text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

test('an approved edit: what ran is kept in the approval line and the record (redacted), the agent runs the edit as typed', () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    const edit = { command: `echo edited GITHUB_TOKEN=${A_TOKEN}`, description: 'edited in the panel' };
    const answer = await approveEdited(endpoint, held, edit);
    assert.deepEqual(decisionOf(await held.reply)['updatedInput'], edit, 'the agent gets the edit word for word');

    const record = json(answer)['record'] as VerdictRecord;
    assert.deepEqual(record.toolInput, ASK_INPUT, 'the record still holds what the agent asked for');
    const ran = record.approval.ranInput as Record<string, unknown>;
    assert.equal(ran['command'], 'echo edited GITHUB_TOKEN=<redacted:github-token>');
    assert.equal(ran['description'], 'edited in the panel');
    assert.equal(answer.text.includes(A_TOKEN), false, 'the token reached the panel');

    const { text, lines } = logLines(endpoint);
    assert.equal(text.includes(A_TOKEN), false, 'the token reached the log');
    const line = lines.find((l) => l['type'] === 'approval')!;
    assert.deepEqual(line['ranInput'], ran);
    assert.equal(line['edited'], true);
    assert.match(String(line['digest']), /^hmac-sha256:/, 'the edit is licensed by its keyed digest');
    assert.notEqual(line['digest'], line['shownDigest']);
    // A host listing its rows again after a restart (and the export) joins the line to the record.
    const [joined] = recordsWithAnswers(lines, (e) => verdictRecordSchema.parse(e));
    assert.equal(joined!.approval.state, 'approved');
    assert.deepEqual(joined!.approval.ranInput, ran);
  }));

test("a refusal's message is kept in the approval line and the record (redacted); the agent reads it word for word", () =>
  withPanel(async (endpoint, panel) => {
    const held = await holdAsk(endpoint, panel);
    const message = `not with my token ${A_TOKEN}, use the project script`;
    const answer = await postApproval(endpoint, held.id, { decision: 'refuse', digest: ASK_DIGEST, message });
    assert.equal(answer.status, 200, answer.text);
    assert.ok(String(decisionOf(await held.reply)['permissionDecisionReason']).includes(message));

    const redacted = 'not with my token <redacted:github-token>, use the project script';
    const body = json(answer);
    assert.equal((body['resolution'] as Record<string, unknown>)['message'], redacted);
    const record = body['record'] as VerdictRecord;
    assert.equal(record.approval.state, 'refused');
    assert.equal(record.approval.message, redacted);
    assert.equal(record.approval.ranInput, undefined);
    assert.equal(answer.text.includes(A_TOKEN), false, 'the token reached the panel');

    const { text, lines } = logLines(endpoint);
    assert.equal(text.includes(A_TOKEN), false, 'the token reached the log (the reason quotes the message too)');
    const line = lines.find((l) => l['type'] === 'approval')!;
    assert.equal(line['message'], redacted);
    assert.ok(String(line['reason']).endsWith(redacted), String(line['reason']));
    const [joined] = recordsWithAnswers(lines, (e) => verdictRecordSchema.parse(e));
    assert.equal(joined!.approval.message, redacted);
  }));
