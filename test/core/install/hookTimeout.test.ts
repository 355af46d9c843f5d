// How long Claude Code waits for Warden's hook, read back from where Warden wrote it: only
// Warden's own PreToolUse entries count, the shortest wins, and a file that cannot be read says
// nothing (no cap) rather than a guess.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPlan, planInstall } from '../../../src/core/install/claude';
import { claudeHookTimeoutSeconds } from '../../../src/core/install/hookTimeout';
import { aTempDir, removeDir } from '../../builders/tempProject';

function project(t: { after(fn: () => void): void }): { root: string; home: string } {
  const dir = aTempDir('hook-timeout');
  t.after(() => removeDir(dir));
  const root = join(dir, 'project');
  const home = join(dir, 'home');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(home);
  return { root, home };
}

const install = (
  root: string,
  home: string,
  scope: 'local' | 'project' | 'user',
  approvalTimeoutSeconds: number,
  bridge = false,
) =>
  applyPlan(
    planInstall({
      scope,
      projectRoot: root,
      home,
      url: 'http://127.0.0.1:7345',
      token: 't',
      claudeVersion: '2.1.332',
      approvalTimeoutSeconds,
      ...(bridge ? { bridge: true, bridgeCommand: 'agent-warden' } : {}),
    }),
  );

test('no Warden hook written: nothing is known', (t) => {
  const { root, home } = project(t);
  assert.equal(claudeHookTimeoutSeconds(root, home), undefined);
});

test('the timeout Warden wrote at connect time (approvals.timeoutSeconds + 30) is read back', (t) => {
  const { root, home } = project(t);
  install(root, home, 'local', 120);
  assert.equal(claudeHookTimeoutSeconds(root, home), 150);
});

test('the bridge entry counts too, and the shortest of the scopes wins', (t) => {
  const { root, home } = project(t);
  install(root, home, 'user', 600);
  install(root, home, 'project', 60, true);
  assert.equal(claudeHookTimeoutSeconds(root, home), 90);
});

test("other hooks' timeouts are not Warden's, and a file that is not JSON says nothing", (t) => {
  const { root, home } = project(t);
  mkdirSync(join(root, '.claude'));
  writeFileSync(
    join(root, '.claude', 'settings.local.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: '*', hooks: [{ type: 'command', command: 'my-linter --check', timeout: 5 }] },
          { matcher: '*', hooks: [{ type: 'http', url: 'https://example.com/hooks/claude', timeout: 7 }] },
        ],
      },
    }),
  );
  assert.equal(claudeHookTimeoutSeconds(root, home), undefined);
  writeFileSync(join(root, '.claude', 'settings.json'), '{ not json');
  assert.equal(claudeHookTimeoutSeconds(root, home), undefined);
});
