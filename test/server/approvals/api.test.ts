// The approval API's refusals: 400 for a bad body, 401 without the panel token
// (the hook token is not one), 403 for a foreign Origin, 404 for ids that are
// unknown or already answered; and the one-time panel link that sets the cookie.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsDigest } from '../../../src/core/approvals/digest';
import {
  getPending,
  hookBody,
  json,
  pendingList,
  postApproval,
  postHook,
  send,
  startEndpoint,
  type Endpoint,
} from './harness';

const ASK_DIGEST = argsDigest('Bash', { command: 'echo ask-me please', description: 'approval test' });

/** An endpoint with one ask pending at the agent's prompt (no panel connected). */
async function withPendingAsk(body: (endpoint: Endpoint, id: string) => Promise<void>): Promise<void> {
  const endpoint = await startEndpoint({ approvalTimeoutSeconds: 60 });
  try {
    const reply = await postHook(endpoint, hookBody(endpoint));
    assert.equal((reply['hookSpecificOutput'] as Record<string, unknown>)['permissionDecision'], 'ask');
    const pending = await pendingList(endpoint);
    assert.equal(pending.length, 1);
    await body(endpoint, String(pending[0]!['id']));
  } finally {
    await endpoint.close();
  }
}

test('400 for a bad approval body, and the ask stays pending', () =>
  withPendingAsk(async (endpoint, id) => {
    const bad: Array<[string, string]> = [
      ['not JSON', '{"decision":'],
      ['an unknown decision', JSON.stringify({ decision: 'maybe', digest: ASK_DIGEST })],
      ['no digest', JSON.stringify({ decision: 'approve', scope: 'once' })],
      ['a digest of the wrong form', JSON.stringify({ decision: 'approve', digest: 'sha256:abc' })],
      ['an unknown scope', JSON.stringify({ decision: 'approve', scope: 'forever', digest: ASK_DIGEST })],
      ['an unknown key', JSON.stringify({ decision: 'approve', digest: ASK_DIGEST, approvedBy: 'me' })],
      [
        'an edit that is not an object',
        JSON.stringify({ decision: 'approve', digest: ASK_DIGEST, editedInput: ['rm'] }),
      ],
      ['a JSON array', '[]'],
    ];
    for (const [what, body] of bad) {
      const result = await postApproval(endpoint, id, body);
      assert.equal(result.status, 400, `${what}: ${result.status} ${result.text}`);
      assert.equal(typeof json(result)['error'], 'string', what);
    }
    assert.deepEqual(
      (await pendingList(endpoint)).map((p) => p['id']),
      [id],
    );
  }));

test('401 without a panel session: no bearer token opens a panel route, the hook token least of all (nor the reverse)', () =>
  withPendingAsk(async (endpoint, id) => {
    const answer = { decision: 'approve', scope: 'once', digest: ASK_DIGEST };
    const hookBearer = { authorization: `Bearer ${endpoint.hookToken}` };
    for (const headers of [
      {},
      hookBearer,
      { authorization: 'Bearer not-the-panel-token' },
      { cookie: `agent_warden_panel=${endpoint.hookToken}` },
      { authorization: `Bearer ${endpoint.panelCookie.split('=')[1]}` },
    ]) {
      assert.equal((await send(`${endpoint.url}/api/pending`, { headers })).status, 401, JSON.stringify(headers));
      assert.equal((await send(`${endpoint.url}/api/events`, { headers })).status, 401, JSON.stringify(headers));
      assert.equal((await postApproval(endpoint, id, answer, headers)).status, 401, JSON.stringify(headers));
    }
    assert.deepEqual(
      (await pendingList(endpoint)).map((p) => p['id']),
      [id],
      'an unauthorised answer changed the ask',
    );
    const hookWithPanelSession = await send(`${endpoint.url}/hooks/claude`, {
      method: 'POST',
      headers: { cookie: endpoint.panelCookie },
      body: JSON.stringify(hookBody(endpoint)),
    });
    assert.equal(hookWithPanelSession.status, 401);
  }));

test('403 for a request from a foreign origin, even with the panel session', () =>
  withPendingAsk(async (endpoint, id) => {
    const result = await postApproval(
      endpoint,
      id,
      { decision: 'approve', scope: 'once', digest: ASK_DIGEST },
      {
        cookie: endpoint.panelCookie,
        origin: 'http://evil.example',
      },
    );
    assert.equal(result.status, 403);
    const own = await send(`${endpoint.url}/api/pending`, {
      headers: { cookie: endpoint.panelCookie, origin: endpoint.url },
    });
    assert.equal(own.status, 200);
    assert.deepEqual(
      (await pendingList(endpoint)).map((p) => p['id']),
      [id],
    );
  }));

test('404 for an unknown id and for one already answered', () =>
  withPendingAsk(async (endpoint, id) => {
    const answer = { decision: 'approve', scope: 'once', digest: ASK_DIGEST };
    assert.equal((await postApproval(endpoint, 'no-such-approval', answer)).status, 404);
    assert.equal((await postApproval(endpoint, id, answer)).status, 200);
    for (const again of [answer, { decision: 'refuse', digest: ASK_DIGEST }]) {
      const result = await postApproval(endpoint, id, again);
      assert.equal(result.status, 404, result.text);
    }
  }));

test('the one-time panel link sets the HttpOnly SameSite=Strict cookie, which then opens the API; the link works once', () =>
  withPendingAsk(async (endpoint) => {
    const link = await send(`${endpoint.url}/api/panel-link`, {
      method: 'POST',
      headers: { cookie: endpoint.panelCookie },
    });
    assert.equal(link.status, 200);
    const url = String(json(link)['url']);
    assert.ok(url.startsWith(`${endpoint.url}/panel?once=`), url);
    const opened = await send(url);
    assert.equal(opened.status, 303);
    const cookie = String(opened.headers['set-cookie']?.[0] ?? '');
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    const pair = cookie.split(';')[0]!;
    const viaCookie = await send(`${endpoint.url}/api/pending`, { headers: { cookie: pair } });
    assert.equal(viaCookie.status, 200);
    assert.equal((json(viaCookie)['pending'] as unknown[]).length, 1);
    assert.equal((await send(url)).status, 401, 'a one-time link opened twice');
    assert.equal((await getPending(endpoint)).status, 200);
  }));
