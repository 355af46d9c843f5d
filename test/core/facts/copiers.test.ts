// A copier's words are read with its own options: `cp -i` and `rsync -P` take no value, where scp's -i
// and -P do. Read with one table for all of them, the option swallowed the source, the destination was
// taken for a lone source, and `cp -i payload ~/.bashrc` wrote a login script no policy saw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, run, HOME, ROOT } from '../policies/harness';
import { analyzeShell } from '../../../src/core/shell';
import { copierOperands, isRemoteSpec } from '../../../src/core/facts/copiers';
import type { Outcome } from '../../../src/core/types';

const blocking = (outcomes: Outcome[]) =>
  outcomes.filter((o) => o.verdict === 'deny' || o.verdict === 'ask').map((o) => `${o.policy}=${o.verdict}`);

function operandsOf(command: string) {
  const cmd = analyzeShell(command).commands[0];
  assert.ok(cmd, `${command} parses to a command`);
  return copierOperands(cmd);
}

test('each copier is read with its own options', async () => {
  await ready();
  const cases: [string, { sources: string[]; destination: string | undefined; namedFolder: boolean }][] = [
    ['cp -i a.txt b.txt', { sources: ['a.txt'], destination: 'b.txt', namedFolder: false }],
    ['cp -P a.txt b.txt', { sources: ['a.txt'], destination: 'b.txt', namedFolder: false }],
    ['cp --backup a.txt b.txt', { sources: ['a.txt'], destination: 'b.txt', namedFolder: false }],
    ['cp -S .orig a.txt b.txt', { sources: ['a.txt'], destination: 'b.txt', namedFolder: false }],
    ['cp --sparse always a b', { sources: ['a'], destination: 'b', namedFolder: false }],
    ['mv -i a b', { sources: ['a'], destination: 'b', namedFolder: false }],
    [
      'install -m 755 -o root tool /usr/local/bin/tool',
      { sources: ['tool'], destination: '/usr/local/bin/tool', namedFolder: false },
    ],
    ['install -t bin a b', { sources: ['a', 'b'], destination: 'bin', namedFolder: true }],
    ['cp --target-directory=out a b', { sources: ['a', 'b'], destination: 'out', namedFolder: true }],
    ['rsync -P -e ssh a host:b', { sources: ['a'], destination: 'host:b', namedFolder: false }],
    ['rsync -avP --exclude .git src/ backup/', { sources: ['src/'], destination: 'backup/', namedFolder: false }],
    ['scp -i key.pem -P 2222 a host:b', { sources: ['a'], destination: 'host:b', namedFolder: false }],
    ['ln -s /tmp/tool', { sources: ['/tmp/tool'], destination: 'tool', namedFolder: false }],
    [
      'ln -sf ../common/config.yml config.yml',
      { sources: ['../common/config.yml'], destination: 'config.yml', namedFolder: false },
    ],
  ];
  for (const [command, expected] of cases) assert.deepEqual(operandsOf(command), expected, command);
  assert.equal(operandsOf('cat a b'), undefined, 'another program has no copier operands');
});

test('a remote copy spec is told from a local path, a Windows drive included', () => {
  for (const word of ['host:path', 'dev@build.example:out/x', 'rsync://mirror.example/x', 'scp://h/x'])
    assert.equal(isRemoteSpec(word), true, word);
  for (const word of ['C:\\Users\\dev\\x', 'C:/Users/dev/x', './a:b', '/tmp/a', 'a.txt'])
    assert.equal(isRemoteSpec(word), false, word);
});

test('a copy over a login script or the ssh keys is seen whatever flags come first', async () => {
  await ready();
  for (const command of [
    `cp -i notes.txt ${HOME}/.bashrc`,
    `cp -P notes.txt ${HOME}/.ssh/authorized_keys`,
    `rsync -P notes.txt ${HOME}/.bashrc`,
    `mv -i notes.txt ${HOME}/.profile`,
    `cp --backup notes.txt ${HOME}/.zshrc`,
    `install -m 644 notes.txt ${HOME}/.bashrc`,
  ]) {
    const found = blocking(run({ bash: command }));
    assert.ok(found.includes('persistence-mechanisms=deny'), `${command}: ${found.join(', ')}`);
  }
});

test('a recursive copy of a credential folder is a secret read whatever flags come first', async () => {
  await ready();
  for (const command of [`cp -ri ${HOME}/.ssh ${ROOT}/backup`, `rsync -aP ${HOME}/.aws ${ROOT}/tmp-aws`]) {
    const found = blocking(run({ bash: command }));
    assert.ok(
      found.some((f) => f.startsWith('secret-file-read=')),
      `${command}: ${found.join(', ')}`,
    );
  }
});

test('copies inside the project stay unremarked with the same flags', async () => {
  await ready();
  for (const command of [
    'cp -i README.md docs/README.md',
    'rsync -aP src/ build/src/',
    'mv -i old.txt new.txt',
    'install -m 755 scripts/tool.sh bin/tool',
    'ln -s ../common/config.yml config.yml',
  ])
    assert.deepEqual(blocking(run({ bash: command })), [], command);
});
