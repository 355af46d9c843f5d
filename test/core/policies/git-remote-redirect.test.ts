// A remote's URL decides where every later push goes: changing it to another host or owner asks; a
// switch of protocol on the same host and owner (read from .git/config), a new remote, or a remote on
// this machine does not.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyTable } from './table';
import { ready, verdictOf } from './harness';
import { aTempDir } from '../../builders/tempProject';

policyTable('git-remote-redirect', [
  {
    note: 'a submodule pointed at an outside fork',
    spec: 'git submodule set-url lib/openzeppelin-contracts https://git.evil.example/oz/openzeppelin-contracts.git',
    expect: 'ask',
  },
  { note: 'near miss: a submodule pointed at a folder here', spec: 'git submodule set-url lib/oz ../oz', expect: null },
  {
    note: "near miss: a submodule moved to the organisation's own git server",
    spec: 'git submodule set-url esp/components/ble https://git.acme.internal/fw/esp-ble.git',
    expect: null,
  },
  {
    note: "near miss: origin moved to the organisation's own git server",
    spec: 'git remote set-url origin git@git.corp.internal:platform/api.git',
    expect: null,
  },
  {
    note: "origin's pushes to a bare address",
    spec: 'git remote set-url --push origin git@203.0.113.45:harbor-sre/harbor.git',
    expect: 'ask',
  },
  {
    note: "origin's pushurl set in config",
    spec: 'git config remote.origin.pushurl https://git.evil.example/x/harbor.git',
    expect: 'ask',
  },
  { note: 'near miss: a new remote', spec: 'git remote add upstream git@github.com:acme-corp/api.git', expect: null },
  { note: 'near miss: a remote on this machine', spec: 'git remote set-url backup /srv/git/harbor.git', expect: null },
  { note: 'near miss: reading the URL', spec: 'git config --get remote.origin.url', expect: null },
  {
    note: "a submodule's URL moved to another owner",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/project/.gitmodules',
        old_string: '\turl = https://github.com/acme/design-tokens.git',
        new_string: '\turl = https://github.com/design-tokens-community/design-tokens.git',
      },
    },
    expect: 'ask',
  },
  {
    note: "near miss: a submodule's URL switched to ssh on the same owner",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/project/.gitmodules',
        old_string: '\turl = https://github.com/acme/design-tokens.git',
        new_string: '\turl = git@github.com:acme/design-tokens.git',
      },
    },
    expect: null,
  },
  {
    note: 'near miss: a submodule added',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/project/.gitmodules',
        old_string: '[submodule "a"]\n\tpath = a\n\turl = https://github.com/acme/a.git\n',
        new_string:
          '[submodule "a"]\n\tpath = a\n\turl = https://github.com/acme/a.git\n[submodule "b"]\n\tpath = b\n\turl = https://github.com/acme/b.git\n',
      },
    },
    expect: null,
  },
]);

test('a switch of protocol on the same host and owner is no redirect; another owner is', async () => {
  await ready();
  const project = aTempDir('git-remote', after);
  mkdirSync(join(project, '.git'));
  writeFileSync(
    join(project, '.git', 'config'),
    '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://github.com/acme-corp/billing.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
  );
  const verdict = (command: string) =>
    verdictOf('git-remote-redirect', { bash: command, cwd: project, root: project })?.verdict;
  assert.equal(verdict('git remote set-url origin git@github.com:acme-corp/billing.git'), undefined);
  assert.equal(verdict('git remote set-url origin git@github.com:kvdev42/billing.git'), 'ask');
  assert.equal(
    verdict('git remote set-url --push upstream git@github.com:acme-corp/billing.git'),
    'ask',
    'another remote',
  );
});
