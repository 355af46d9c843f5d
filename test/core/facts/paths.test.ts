// Paths as the system resolves them: tilde forms, globs against the credential list, other
// accounts' homes, symlinks and /proc through a fake file system; and the landing helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, verdictOf } from '../policies/harness';
import { expandTilde, resolveSystemPath } from '../../../src/core/facts/system-paths';
import { secretKindOfGlob, secretKindOfPath } from '../../../src/core/facts/sensitive';
import { couldLandIn, type Landing } from '../../../src/core/facts/landing';
import { runTimePartsAsGlob } from '../../../src/core/facts/globs';
import { IoFacts, NO_FACT_SOURCE, type FactSource } from '../../../src/core/facts/io';

const HOME = '/home/dev';
const PLACE = { cwd: '/home/dev/proj', home: HOME };

test('tilde forms resolve as bash does; ~- stays unresolved', () => {
  const rows: [string, string, boolean][] = [
    ['~', HOME, true],
    ['~/x', `${HOME}/x`, true],
    ['~+/src', '/home/dev/proj/src', true],
    ['~bob/.aws/credentials', '/home/bob/.aws/credentials', true],
    ['~root/.ssh/id_rsa', '/root/.ssh/id_rsa', true],
    ['~-/x', '~-/x', false],
    ['~/../bob', '/home/dev/../bob', true],
  ];
  for (const [word, text, resolved] of rows) assert.deepEqual(expandTilde(word, PLACE), { text, resolved }, word);
});

test('/proc views: <pid>/root is /, self/cwd is the folder, another pid cwd is unknown', () => {
  assert.equal(
    resolveSystemPath('/proc/self/root/home/dev/.aws/credentials', PLACE).absolute,
    '/home/dev/.aws/credentials',
  );
  assert.equal(resolveSystemPath('/proc/1234/root/etc/shadow', PLACE).absolute, '/etc/shadow');
  assert.equal(resolveSystemPath('/proc/self/cwd/.env', PLACE).absolute, '/home/dev/proj/.env');
  assert.equal(resolveSystemPath('/proc/1234/cwd/x', PLACE).resolved, false);
  assert.equal(resolveSystemPath('/proc/cpuinfo', PLACE).absolute, '/proc/cpuinfo');
});

test('credential files under any account home; near misses are ordinary', () => {
  assert.ok(secretKindOfPath('/home/alice/.aws/credentials', HOME));
  assert.ok(secretKindOfPath('/Users/alice/.ssh/id_ed25519', HOME));
  assert.ok(secretKindOfPath('/root/.bash_history', HOME));
  assert.equal(secretKindOfPath('/home/alice/.ssh/known_hosts', HOME), null);
  assert.equal(secretKindOfPath('/home/alice/projects/readme.md', HOME), null);
  assert.equal(secretKindOfPath('/home/alice/.aws-notes.txt', HOME), null);
});

test('a glob that could match a credential file counts as that file', () => {
  const hits = [
    '/home/dev/.a?s/cred*',
    '/home/dev/.ssh/id_*',
    '/home/*/.aws/credentials',
    '/home/dev/.*/credentials',
    '/home/dev/proj/*.pem',
    '/home/dev/proj/.env*',
    '/home/dev/.ssh/*',
    '/home/dev/.kube/conf[a-z]g',
    '/etc/shad?w',
    '/home/dev/**/id_rsa',
    '/home/dev/proj/*.key',
    '/home/dev/proj/*credentials*.json',
    '/home/dev/proj/service-account*',
  ];
  for (const glob of hits) assert.ok(secretKindOfGlob(glob, HOME), glob);
  const misses = [
    '/home/dev/proj/*',
    '/home/dev/proj/src/*.ts',
    '/home/dev/*/credentials',
    '/home/dev/.ssh/*.pub',
    '/home/dev/.ssh/known_hosts*',
    '/home/dev/proj/*.log',
    '/home/dev/proj/.env.exampl?',
    // A file type alone: credentials.json is a .json file, but *.json names every config file.
    '/home/dev/proj/*.json',
    '/home/dev/proj/config/*.yml',
  ];
  for (const glob of misses) assert.equal(secretKindOfGlob(glob, HOME), null, glob);
});

/** A tiny file system: symlinks map a path to its target; `files` exist as they are. */
function fakeFs(links: Record<string, string>, files: string[]): FactSource {
  const real = (p: string): string | null => {
    for (const [from, to] of Object.entries(links)) {
      if (p === from) return real(to) ?? to;
      if (p.startsWith(`${from}/`)) return real(to + p.slice(from.length));
    }
    return files.includes(p) || files.some((f) => f.startsWith(`${p}/`)) ? p : null;
  };
  return { ...NO_FACT_SOURCE, realpath: real, exists: (p) => real(p) !== null };
}

test('a symlink planted in the project and then read is read as its target', async () => {
  await ready();
  const source = fakeFs({ '/home/dev/proj/notes.txt': '/home/dev/.aws/credentials' }, [
    '/home/dev/.aws/credentials',
    '/home/dev/proj/readme.md',
  ]);
  assert.equal(verdictOf('secret-file-read', { bash: 'cat notes.txt', source })?.verdict, 'deny');
  assert.equal(
    verdictOf('secret-file-read', { tool: 'Read', input: { file_path: '/home/dev/proj/notes.txt' }, source })?.verdict,
    'deny',
  );
  assert.equal(verdictOf('secret-file-read', { bash: 'cat readme.md', source }), undefined);
  assert.equal(
    verdictOf('secret-file-read', { bash: 'cat notes.txt' }),
    undefined,
    'without the link it is an ordinary file',
  );
});

test("the issue's path cases are denied by secret-file-read", async () => {
  await ready();
  for (const command of [
    'cat ~/.a?s/cred*',
    'cat /home/alice/.aws/credentials',
    'cat ~bob/.ssh/id_rsa',
    'cat /proc/self/root/home/dev/.aws/credentials',
    'head -c 100 /home/*/.aws/credentials',
  ])
    assert.equal(verdictOf('secret-file-read', { bash: command })?.verdict, 'deny', command);
  for (const command of ['cat ~/.ssh/id_rsa.pub', 'cat /home/alice/README.md', 'cat src/*.ts', 'cat ~+/package.json'])
    assert.equal(verdictOf('secret-file-read', { bash: command }), undefined, command);
});

test('couldLandIn: yes, maybe and no for literal, glob, run-time and symlinked paths', () => {
  const dir = '/home/dev/.agent-warden';
  const rows: [string, Landing, boolean?][] = [
    ['~/.agent-warden/log.jsonl', 'yes'],
    ['/home/dev/.agent-warden', 'yes'],
    ['~/.agent-*/x', 'maybe'],
    ['~/.agent-w?rden', 'maybe'],
    ['~/*', 'no'],
    ['~/.*', 'maybe'],
    ['$HOME/.agent-warden', 'maybe'],
    ['$X/log', 'maybe'],
    ['/tmp/$X', 'no'],
    ['~-/x', 'maybe'],
    ['~', 'no'],
    ['~', 'yes', true],
    ['~/.*', 'maybe', true],
    ['/home/dev/proj/x', 'no'],
    ['/proc/self/root/home/dev/.agent-warden/token', 'yes'],
  ];
  for (const [word, expected, recursive] of rows)
    assert.equal(
      couldLandIn(word, dir, PLACE, { recursive: recursive ?? false }),
      expected,
      `${word} recursive=${recursive}`,
    );
  const io = new IoFacts(
    fakeFs({ '/home/dev/proj/state': '/home/dev/.agent-warden' }, ['/home/dev/.agent-warden/log']),
  );
  assert.equal(couldLandIn('state/log', dir, PLACE, { io }), 'yes');
  assert.equal(couldLandIn('state/log', dir, PLACE), 'no');
  assert.ok(io.records.some((r) => r.op === 'realpath' && r.answer === '/home/dev/.agent-warden/log'));
});

test('run-time parts of a path stand for a wildcard, whatever slashes they hold', () => {
  assert.equal(runTimePartsAsGlob("/proc/$(pgrep -f 'a/b' | head -1)/environ"), '/proc/*/environ');
  assert.equal(runTimePartsAsGlob('/home/dev/${DIR:-x/y}/`ls a/b`.pem'), '/home/dev/*/*.pem');
  assert.equal(runTimePartsAsGlob('/home/dev/project/src/a.ts'), '/home/dev/project/src/a.ts');
  assert.equal(runTimePartsAsGlob('/tmp/$(unclosed/x'), '/tmp/*', 'an unclosed part runs to the end');
});
