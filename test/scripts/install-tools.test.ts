// .ci/install-tools.sh's system-package check, as `npm test` runs it first. A non-root user who
// lacks one of the system packages gets one sentence naming the single command that installs
// them, and nothing reaches apt-get, sudo or npm; as root the packages are installed with apt-get.
// The check finds programs on PATH and asks `id -u` and `dpkg -s`, so each run gets a PATH of its
// own: the programs a case has, stand-ins for `id` and `dpkg` where a case says who the user is or
// which package is installed, and traps for apt-get, sudo and npm that log every call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../builders/process';
import { aTempDir } from '../builders/tempProject';

const NOBODY = 65534;
const runningAsRoot = process.getuid?.() === 0;
const TRAPPED = ['apt-get', 'sudo', 'npm'];
const SENTENCE =
  /^\[install-tools\] Missing system packages \(([a-z0-9 -]+)\): install them once with `sudo apt-get install -y \1`, then run npm test again\.$/;

interface Machine {
  /** The user's id as `id -u` gives it; omitted: the real `id`. */
  uid?: number;
  /** Packages `dpkg -s` reports installed; omitted: the real `dpkg`. */
  dpkgInstalled?: string[];
  /** Programs on PATH besides the shell's own tools. */
  programs: Array<'chromium' | 'git'>;
}

interface Run {
  code: number | null;
  stderrLines: string[];
  /** Every call that reached a trap, one `name args…` each. */
  trapped: string[];
  toolsFolderMade: boolean;
}

function which(program: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error(`${program} is not on this machine's PATH`);
  return found;
}

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** A PATH folder for `machine`, in `dir`; traps append to `<dir>/trapped.log`. */
function pathFor(dir: string, machine: Machine): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const tool of ['bash', 'env', 'grep', 'mkdir']) symlinkSync(which(tool), join(bin, tool));
  if (machine.uid === undefined) symlinkSync(which('id'), join(bin, 'id'));
  else script(join(bin, 'id'), `[ "$1" = -u ] && echo ${machine.uid} && exit 0\nexit 1`);
  if (machine.dpkgInstalled === undefined) symlinkSync(which('dpkg'), join(bin, 'dpkg'));
  else script(join(bin, 'dpkg'), `case "$2" in ${[...machine.dpkgInstalled, '-'].join('|')}) exit 0 ;; esac\nexit 1`);
  if (machine.programs.includes('git')) symlinkSync(which('git'), join(bin, 'git'));
  if (machine.programs.includes('chromium')) script(join(bin, 'chromium'), 'exit 0');
  // apt-get "succeeds" so that a root run goes on to the tools; npm fails so that it stops there.
  for (const name of TRAPPED)
    script(
      join(bin, name),
      `echo "${name} $*" >> ${JSON.stringify(join(dir, 'trapped.log'))}\nexit ${name === 'npm' ? 1 : 0}`,
    );
  return bin;
}

function readRun(dir: string, result: ReturnType<typeof spawnSync>): Run {
  const log = join(dir, 'trapped.log');
  return {
    code: result.status,
    stderrLines: String(result.stderr)
      .split('\n')
      .filter((line) => line !== ''),
    trapped: existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
      : [],
    toolsFolderMade: existsSync(join(dir, 'tools')),
  };
}

/** Runs the installer alone with the given stand-ins, as the current user. */
function installTools(t: { after(fn: () => void): void }, machine: Machine): Run {
  const dir = aTempDir('install-tools', t);
  const result = spawnSync('bash', [join(repoRoot(), '.ci', 'install-tools.sh')], {
    cwd: repoRoot(),
    env: { PATH: pathFor(dir, machine), HOME: dir, AGENT_WARDEN_TOOLS: join(dir, 'tools') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return readRun(dir, result);
}

const MISSING_CASES: Array<[string, Machine, string]> = [
  ['all three missing', { uid: 1000, dpkgInstalled: [], programs: [] }, 'chromium libkrb5-dev git'],
  ['only chromium missing', { uid: 1000, dpkgInstalled: ['libkrb5-dev'], programs: ['git'] }, 'chromium'],
  ['only libkrb5-dev missing', { uid: 1000, dpkgInstalled: [], programs: ['chromium', 'git'] }, 'libkrb5-dev'],
  ['only git missing', { uid: 1000, dpkgInstalled: ['libkrb5-dev'], programs: ['chromium'] }, 'git'],
];

for (const [name, machine, packages] of MISSING_CASES)
  test(`not root, ${name}: one sentence names the one command, and nothing reaches apt, sudo or npm`, (t) => {
    const run = installTools(t, machine);
    assert.equal(run.code, 1);
    assert.deepEqual(run.stderrLines, [
      `[install-tools] Missing system packages (${packages}): install them once with \`sudo apt-get install -y ${packages}\`, then run npm test again.`,
    ]);
    assert.deepEqual(run.trapped, []);
    assert.equal(run.toolsFolderMade, false);
  });

test('root, chromium missing: apt-get installs it, then the npm tools are installed', (t) => {
  const run = installTools(t, { uid: 0, dpkgInstalled: ['libkrb5-dev'], programs: ['git'] });
  assert.deepEqual(run.trapped.slice(0, 2), ['apt-get update -qq', 'apt-get install -y -qq chromium']);
  assert.match(run.trapped[2] ?? '', /^npm install .*@anthropic-ai\/claude-code@/, 'on to the npm tools');
  assert.equal(run.toolsFolderMade, true);
  assert.ok(!run.stderrLines.some((line) => SENTENCE.test(line)), run.stderrLines.join('\n'));
});

test('not root, every system package present: no sentence, straight on to the npm tools', (t) => {
  const run = installTools(t, { uid: 1000, dpkgInstalled: ['libkrb5-dev'], programs: ['chromium', 'git'] });
  assert.ok(!run.stderrLines.some((line) => SENTENCE.test(line)), run.stderrLines.join('\n'));
  assert.equal(run.trapped.length, 1, run.trapped.join('\n'));
  assert.match(run.trapped[0]!, /^npm install .*@anthropic-ai\/claude-code@/);
});

// The real thing: `npm test`'s own runner, spawned as an unprivileged user (nobody when this test
// runs as root, as CI does; otherwise the user running it), with the real `id` and `dpkg` and no
// chromium on PATH.
test('npm test as a real non-root user without chromium: step 1 stops with the one sentence, no step 2', (t) => {
  const dir = aTempDir('npm-test-nonroot', t);
  const bin = pathFor(dir, { programs: ['git'] });
  const home = join(dir, 'home');
  mkdirSync(home);
  // The runner and the installer, copied where nobody can read them: the checkout itself may sit in
  // a folder only root can enter (CI unpacks it into a mktemp folder).
  const repo = join(dir, 'repo');
  for (const file of ['scripts/npm-test.mjs', '.ci/install-tools.sh']) {
    mkdirSync(dirname(join(repo, file)), { recursive: true });
    copyFileSync(join(repoRoot(), file), join(repo, file));
  }
  // Only these: chown follows links, and bin/ links to the machine's own programs.
  const owned = [dir, home, repo, join(repo, 'scripts'), join(repo, '.ci'), join(repo, 'scripts/npm-test.mjs')];
  if (runningAsRoot) for (const path of [...owned, join(repo, '.ci/install-tools.sh')]) chownSync(path, NOBODY, NOBODY);
  const result = spawnSync(process.execPath, [join(repo, 'scripts', 'npm-test.mjs')], {
    cwd: repo,
    env: { PATH: bin, HOME: home, AGENT_WARDEN_TOOLS: join(dir, 'tools') },
    encoding: 'utf8',
    timeout: 60_000,
    ...(runningAsRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  const run = readRun(dir, result);
  assert.notEqual(run.code, 0);
  const [started, sentence, failed, ...more] = run.stderrLines;
  assert.equal(started, '[npm test 1/9] install the test tools …');
  assert.match(sentence ?? '', SENTENCE);
  assert.ok(SENTENCE.exec(sentence!)![1]!.split(' ').includes('chromium'), sentence);
  assert.match(failed ?? '', /^\[npm test 1\/9\] install the test tools: failed after \d+ s$/);
  assert.deepEqual(more, [], 'nothing after step 1');
  assert.deepEqual(run.trapped, []);
  assert.equal(run.toolsFolderMade, false);
});
