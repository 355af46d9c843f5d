// Where Warden keeps its state when HOME is not an absolute path (empty, relative, or a Windows path on
// Linux): the account's own home folder, never a folder relative to wherever Warden runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { stateDir, userHome } from '../../src/core/state';

function withHome<T>(home: string | undefined, body: () => T): T {
  const saved = process.env.HOME;
  if (home === undefined) delete process.env.HOME;
  else process.env.HOME = home;
  try {
    return body();
  } finally {
    if (saved === undefined) delete process.env.HOME;
    else process.env.HOME = saved;
  }
}

test('a HOME that is not absolute here gives way to the account’s home folder', () => {
  const account = userInfo().homedir;
  assert.ok(isAbsolute(account));
  for (const home of ['C:\\Users\\dev', 'relative/home', '.']) {
    assert.equal(
      withHome(home, () => userHome()),
      account,
      home,
    );
    assert.equal(
      withHome(home, () => stateDir({})),
      join(account, '.agent-warden'),
      home,
    );
  }
});

test('an absolute HOME is kept, and AGENT_WARDEN_HOME still wins', () => {
  assert.equal(
    withHome('/home/someone', () => userHome()),
    '/home/someone',
  );
  assert.equal(
    withHome('/home/someone', () => stateDir({})),
    '/home/someone/.agent-warden',
  );
  assert.equal(
    withHome('C:\\Users\\dev', () => stateDir({ AGENT_WARDEN_HOME: '/srv/warden' })),
    '/srv/warden',
  );
});
