// The editor closed (the endpoint disposed) while an ask is held for the panel:
// the agent's request gets an answer, a deny that says why, never a dropped
// connection (which an agent without fail-closed hooks would read as "go ahead").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hookBody, pendingList, postHook, startEndpoint } from './approvals/harness';

test('closing the endpoint with an ask held answers the held request with a deny', async () => {
  const endpoint = await startEndpoint({ approvalTimeoutSeconds: 60 });
  const detach = endpoint.host.broker.attachPanel();
  const held = postHook(endpoint, hookBody(endpoint));
  for (let i = 0; i < 200 && (await pendingList(endpoint)).length === 0; i++)
    await new Promise((r) => setTimeout(r, 25));
  assert.equal((await pendingList(endpoint)).length, 1, 'the ask is held');
  const closing = endpoint.host.close();
  const reply = (await held) as {
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  await closing;
  detach();
  assert.equal(reply.hookSpecificOutput?.permissionDecision, 'deny');
  assert.match(reply.hookSpecificOutput?.permissionDecisionReason ?? '', /Warden stopped/);
  await endpoint.close();
});
