// Connect writes Claude Code's hook timeout as approvals.timeoutSeconds + 30, and a running
// session keeps it. When approvals.timeoutSeconds is raised later (it is read again for every
// ask), a held ask ends before the agent's hook gives up, so Warden's answer settles the call, and
// the card says why. The hook timeout is read back from the settings Warden wrote (the real
// installer writes them here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPlan, planInstall } from '../../../src/core/install/claude';
import { agentHookTimeoutSeconds } from '../../../src/core/install/hookTimeout';
import { hookBody, openPanel, postHook, startEndpoint, type Endpoint, type PanelStream } from './harness';

async function heldPending(
  approvalTimeoutSeconds: () => number,
  connectedWith: number,
): Promise<{ pending: Record<string, unknown>; endpoint: Endpoint; panel: PanelStream }> {
  let home = '';
  const endpoint = await startEndpoint({
    approvalTimeoutSeconds,
    hookTimeoutSeconds: (event) => agentHookTimeoutSeconds(event, home),
  });
  home = endpoint.project;
  applyPlan(
    planInstall({
      scope: 'local',
      projectRoot: endpoint.project,
      url: endpoint.url,
      token: endpoint.hookToken,
      claudeVersion: '2.1.332',
      approvalTimeoutSeconds: connectedWith,
    }),
  );
  const panel = await openPanel(endpoint);
  const reply = postHook(endpoint, hookBody(endpoint));
  reply.catch(() => undefined);
  const event = await panel.next('pending');
  return { pending: event['pending'] as Record<string, unknown>, endpoint, panel };
}

const secondsOf = (p: Record<string, unknown>) =>
  Math.round((Date.parse(String(p['deadline'])) - Date.parse(String(p['createdAt']))) / 1000);

test('approvals.timeoutSeconds raised after Connect: the ask ends 5 s before the hook Warden wrote, and the card says so', async () => {
  let configured = 60;
  const connected = configured;
  configured = 600;
  const { pending, endpoint, panel } = await heldPending(() => configured, connected);
  try {
    assert.equal(secondsOf(pending), 85, 'the hook waits 90 s (60 + 30): the ask ends at 85 s, not 600 s');
    assert.match(String(pending['reason']), /ends after 85 s, not the configured 600 s/);
    assert.match(String(pending['reason']), /stops waiting after 90 s.*Connect again/);
  } finally {
    panel.close();
    await endpoint.close().catch(() => undefined);
  }
});

test('the configured timeout within the hook timeout: the ask keeps it and nothing is added to the card', async () => {
  const { pending, endpoint, panel } = await heldPending(() => 45, 60);
  try {
    assert.equal(secondsOf(pending), 45);
    assert.doesNotMatch(String(pending['reason']), /Connect again/);
  } finally {
    panel.close();
    await endpoint.close().catch(() => undefined);
  }
});
