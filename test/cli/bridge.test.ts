// The command bridge, as dist/hook.js and as `agent-warden hook`: forwards to
// the endpoint recorded for the project (only records whose MAC verifies, on
// loopback, of a live process; only replies whose MAC verifies for this very
// request), evaluates in-process when none answers (an ask becomes a deny that
// says why), and refuses in the agent's own form when no verdict is possible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readOrCreateEndpointKey, replyMac } from '../../src/core/endpointAuth';
import {
  bridgeSetup as setup,
  closedPort,
  impostor,
  logRecordsFor as recordsFor,
  singleJsonReply as reply,
  claudeDenyReason as assertDeny,
  writeSignedRecord,
} from '../builders/endpoints';
import {
  isolatedEnv,
  runCli,
  runHook,
  runNode,
  runShellHook,
  hookPath,
  startServe,
  type CliResult,
  type CliOptions,
} from '../builders/process';
import { reasonOf, verdictOf } from '../builders/agentPayloads';
import { aHookEvent } from '../builders/hookEvent';
import { aTempDir, removeDir } from '../builders/tempProject';

type Runner = (args: string[], opts: CliOptions) => Promise<CliResult>;
const ENTRIES: [string, Runner][] = [
  ['dist/hook.js', (args, opts) => runHook(args, opts)],
  // The shell bridge: every case here that it cannot forward exactly, it hands to dist/hook.js.
  ['dist/hook.sh', (args, opts) => runShellHook(args, opts)],
  ['agent-warden hook', (args, opts) => runCli(['hook', ...args], opts)],
];

function endpointRecords(state: string): string[] {
  const dir = join(state, 'endpoints');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
}

for (const [entry, run] of ENTRIES) {
  test(`${entry}: with an endpoint up, the verdict comes from the endpoint`, async (t) => {
    const { project, home, state } = setup(t);
    const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
    t.after(() => serve.stop());
    const [recordName] = endpointRecords(state);
    assert.ok(recordName, 'serve recorded its endpoint');
    assert.ok(JSON.parse(readFileSync(join(state, 'endpoints', recordName), 'utf8')).mac, 'the record is signed');

    // The bridge gets its own state folder holding only the key, the token and a copy of
    // the record: whatever it evaluated itself would land in its own log, not serve's.
    const bridgeHome = aTempDir('bridge-own-home');
    t.after(() => removeDir(bridgeHome));
    const bridgeState = join(bridgeHome, '.agent-warden');
    mkdirSync(join(bridgeState, 'endpoints'), { recursive: true, mode: 0o700 });
    for (const name of readdirSync(join(state, 'endpoints')))
      copyFileSync(join(state, 'endpoints', name), join(bridgeState, 'endpoints', name));
    for (const name of ['endpoint-key', 'hook-token', 'bridge-key.pem'])
      copyFileSync(join(state, name), join(bridgeState, name));

    const body = aHookEvent().bash('rm -rf /').inCwd(project).session(`forwarded-${entry}`).body();
    const result = await run(['--agent', 'claude'], {
      cwd: project,
      env: isolatedEnv(bridgeHome),
      stdin: JSON.stringify(body),
    });
    assert.ok(assertDeny(reply(result)).length > 10);
    assert.equal(result.stderr, '', 'no fallback, no warning');
    const served = recordsFor(join(state, 'activity.jsonl'), `forwarded-${entry}`);
    assert.equal(served.length, 1, "the endpoint's log got the record");
    assert.equal(recordsFor(join(bridgeState, 'activity.jsonl'), `forwarded-${entry}`).length, 0, 'not evaluated here');
  });
}

test('with an endpoint up, every agent gets its own shape through the bridge, and an ask stays an ask where the agent can ask', async (t) => {
  const { project, home, state } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop());
  for (const agent of ['claude', 'codex', 'gemini', 'cursor', 'copilot'] as const) {
    const denied = reply(
      await runHook(['--agent', agent], {
        cwd: project,
        env: isolatedEnv(home),
        stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body(agent)),
      }),
    );
    assert.equal(verdictOf(agent, denied), 'deny', `${agent}: ${JSON.stringify(denied)}`);
  }
  const ask = reply(
    await runHook(['--agent', 'claude'], {
      cwd: project,
      env: isolatedEnv(home),
      stdin: JSON.stringify(aHookEvent().bash('sudo apt-get install -y jq').inCwd(project).session('ask-up').body()),
    }),
  );
  assert.equal(ask.hookSpecificOutput.permissionDecision, 'ask');
  const codexAsk = reply(
    await runHook(['--agent', 'codex'], {
      cwd: project,
      env: isolatedEnv(home),
      stdin: JSON.stringify(aHookEvent().bash('sudo apt-get install -y jq').inCwd(project).body('codex')),
    }),
  );
  assert.match(reasonOf('codex', codexAsk), /Codex CLI cannot ask its user from a hook/);
  assert.equal(recordsFor(join(state, 'activity.jsonl'), 'ask-up').length, 1);
});

test('dist/hook.js forwards without loading the evaluation core, and loads it only to fall back', async (t) => {
  const { project, home } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  const probe = join(home, 'loaded.json');
  const preload = join(home, 'probe.js');
  writeFileSync(
    preload,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(probe)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));\n`,
  );
  const stdin = JSON.stringify(aHookEvent().bash('ls').inCwd(project).body());
  const forwarded = await runNode(['-r', preload, hookPath(), '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin,
  });
  assert.deepEqual(reply(forwarded), {});
  const loaded = JSON.parse(readFileSync(probe, 'utf8')) as { files: string[]; builtins: string[] };
  assert.ok(!loaded.files.some((m) => m.endsWith('cli.js') || /zod|undici/.test(m)), loaded.files.join('\n'));
  // What the forwarding path's speed rests on: none of the costlier built-ins (node:crypto, node:http,
  // the code cache's node:vm) is loaded to forward, only node:net.
  const costly = loaded.builtins.filter((m) => /^NativeModule (crypto|http|vm|v8|worker_threads)$/.test(m));
  assert.deepEqual(costly, [], costly.join(', '));
  assert.ok(loaded.builtins.includes('NativeModule net'), 'the probe sees the built-ins the bridge loads');
  await serve.stop();
  const fallback = await runNode(['-r', preload, hookPath(), '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin,
  });
  assert.deepEqual(reply(fallback), {});
  // The code cache path compiles cli.js itself; the plain path requires it. Either way it was loaded.
  assert.ok(existsSync(join(home, '.agent-warden', 'code-cache')), 'the fallback wrote a code cache for the next call');
  // The next call uses it: V8 accepts it, so it is not written again (data made after the parser's
  // compile toggled a V8 flag was rejected by every later process and rewritten on every call).
  const cacheDir = join(home, '.agent-warden', 'code-cache');
  const written = new Map(readdirSync(cacheDir).map((name) => [name, readFileSync(join(cacheDir, name))]));
  assert.deepEqual(reply(await runHook(['--agent', 'claude'], { cwd: project, env: isolatedEnv(home), stdin })), {});
  for (const [name, bytes] of written)
    assert.ok(readFileSync(join(cacheDir, name)).equals(bytes), `${name} was accepted, not written again`);

  // Damaged cached data is never handed to V8 (a crash there would end the hook with no verdict):
  // the fallback compiles anew, still answers, and writes a sound cache again.
  const cacheFiles = readdirSync(cacheDir).map((name) => join(cacheDir, name));
  assert.ok(cacheFiles.length > 0);
  for (const file of cacheFiles) {
    const bytes = readFileSync(file);
    for (let i = 64; i < bytes.length; i += 97) bytes[i] = bytes[i]! ^ 0xa5;
    writeFileSync(file, bytes);
  }
  const afterDamage = await runNode([hookPath(), '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body()),
  });
  assertDeny(reply(afterDamage));
  for (const file of readdirSync(cacheDir).map((name) => join(cacheDir, name))) {
    const bytes = readFileSync(file);
    const digest = createHash('sha256').update(bytes.subarray(32)).digest();
    assert.ok(digest.equals(bytes.subarray(0, 32)), `${file} was written again, whole`);
  }
});

test('with the endpoint killed, its stale record is ignored and removed, and the bridge evaluates in-process', async (t) => {
  const { project, home, state } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  const records = endpointRecords(state);
  assert.equal(records.length, 1);
  await serve.stop('SIGKILL');
  assert.deepEqual(endpointRecords(state), records, 'a killed endpoint leaves its record behind');
  const result = await runHook(['--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).session('in-process').body()),
  });
  assertDeny(reply(result));
  assert.doesNotMatch(result.stderr, /did not answer/, 'the dead endpoint was not even tried');
  assert.deepEqual(endpointRecords(state), [], 'the stale record was cleared');
  const logged = recordsFor(join(state, 'activity.jsonl'), 'in-process');
  assert.equal(logged.length, 1, 'the in-process verdict is logged too');
  assert.equal(logged[0]!.decision, 'deny');
});

test('a recorded endpoint that does not answer: the bridge says so and evaluates in-process', async (t) => {
  const { project, home, state } = setup(t);
  writeSignedRecord(state, `http://127.0.0.1:${await closedPort()}`);
  const result = await runHook(['--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body()),
  });
  assertDeny(reply(result));
  assert.match(result.stderr, /did not answer/);
  assert.match(result.stderr, /evaluating in-process/);
});

test('a slow endpoint: past --timeout the bridge stops waiting and evaluates in-process', async (t) => {
  const { project, home, state } = setup(t);
  const slow = await impostor({ delayMs: 60_000 });
  t.after(() => slow.close());
  writeSignedRecord(state, slow.url);
  const result = await runHook(['--agent', 'codex', '--timeout', '1'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body('codex')),
  });
  assert.equal(verdictOf('codex', reply(result)), 'deny');
  assert.equal(slow.calls(), 1, 'the endpoint was tried');
  assert.match(result.stderr, /no verdict within 1 s/);
});

test('a reply without a valid MAC is never used: an impostor answering "no objection" cannot let rm -rf / through', async (t) => {
  const { project, home, state } = setup(t);
  for (const mac of [undefined, 'ab'.repeat(32)]) {
    const fake = await impostor(mac ? { headers: { 'x-warden-reply-mac': mac } } : {});
    writeSignedRecord(state, fake.url);
    const result = await runHook(['--agent', 'claude'], {
      cwd: project,
      env: isolatedEnv(home),
      stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body()),
    });
    assertDeny(reply(result));
    assert.equal(fake.calls(), 1);
    assert.match(result.stderr, /failed authentication/);
    await fake.close();
  }
});

test('a reply MAC made for another nonce (a replayed reply) is never used', async (t) => {
  const { project, home, state } = setup(t);
  // A valid MAC under the real key, but for a request the bridge never sent.
  mkdirSync(state, { recursive: true, mode: 0o700 });
  const mac = replyMac(readOrCreateEndpointKey(state), 'ab'.repeat(16), '{}');
  const fake = await impostor({ headers: { 'x-warden-reply-mac': mac } });
  t.after(() => fake.close());
  writeSignedRecord(state, fake.url);
  const result = await runHook(['--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body()),
  });
  assertDeny(reply(result));
  assert.equal(fake.calls(), 1);
  assert.match(result.stderr, /failed authentication/);
});

test('records that fail authentication or leave loopback are never used', async (t) => {
  const { project, home, state } = setup(t);
  const fake = await impostor();
  t.after(() => fake.close());
  // Signed with another key: the agent cannot read the real one, so it cannot sign.
  writeSignedRecord(state, fake.url);
  const endpointsDir = join(state, 'endpoints');
  const [name] = readdirSync(endpointsDir);
  const forged = JSON.parse(readFileSync(join(endpointsDir, name!), 'utf8'));
  forged.mac = 'cd'.repeat(32);
  writeFileSync(join(endpointsDir, name!), JSON.stringify(forged));
  // Signed properly but pointing off loopback.
  writeSignedRecord(state, 'http://192.0.2.1:8080', { pid: process.pid });
  const result = await runHook(['--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body()),
  });
  assertDeny(reply(result));
  assert.equal(fake.calls(), 0, 'the forged record was not followed');
  assert.match(result.stderr, /ignored the endpoint record .*MAC does not verify/);
  assert.match(result.stderr, /ignored the endpoint record .*not on loopback/);
});

test('in-process, an ask becomes a deny that says why; a harmless call is no objection', async (t) => {
  const { project, home } = setup(t);
  const ask = await runHook(['--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('sudo apt-get install -y jq').inCwd(project).body()),
  });
  const reason = assertDeny(reply(ask));
  assert.match(reason, /\[sudo\]/, 'the asking policy is named');
  assert.match(reason, /No person can answer/);
  const harmless = await runHook(['--agent', 'gemini'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('ls -la').inCwd(project).body('gemini')),
  });
  assert.deepEqual(reply(harmless), {});
});

test("garbage on stdin still exits 0 with a deny in the agent's shape", async (t) => {
  const { project, home } = setup(t);
  for (const stdin of ['this is not json', '', '{"hook_event_name":"PreToolUse"}']) {
    const result = await runHook(['--agent', 'claude'], { cwd: project, env: isolatedEnv(home), stdin });
    assert.match(assertDeny(reply(result)), /could not evaluate/, JSON.stringify(stdin));
    const cursor = await runHook(['--agent', 'cursor'], { cwd: project, env: isolatedEnv(home), stdin });
    assert.equal(reply(cursor).permission, 'deny');
  }
});

test('no verdict at all: each agent gets the refusal it enforces (exit 2 + stderr, or its deny JSON)', async (t) => {
  const { project, home } = setup(t);
  const notADir = join(home, 'a-file');
  writeFileSync(notADir, 'in the way');
  const env = isolatedEnv(home, { AGENT_WARDEN_HOME: notADir });
  const stdin = JSON.stringify(aHookEvent().bash('ls').inCwd(project).body());
  for (const [entry, run] of ENTRIES) {
    const result = await run(['--agent', 'claude'], { cwd: project, env, stdin });
    assert.equal(result.code, 2, entry);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /could not produce a verdict/);
    assert.match(result.stderr, /a-file/, 'the reason names the state folder in the way');
  }
  const copilot = await runHook(['--agent', 'copilot'], {
    cwd: project,
    env,
    stdin: JSON.stringify(aHookEvent().bash('ls').inCwd(project).body('copilot')),
  });
  assert.equal(copilot.code, 0);
  assert.equal(
    JSON.parse(copilot.stdout).permissionDecision,
    'deny',
    'Copilot ignores failing hooks: a deny JSON instead',
  );
  const gemini = await runHook(['--agent', 'gemini'], {
    cwd: project,
    env,
    stdin: JSON.stringify(aHookEvent().bash('ls').inCwd(project).body('gemini')),
  });
  assert.equal(gemini.code, 2);
  assert.equal(JSON.parse(gemini.stdout).decision, 'deny');
});

test('bad bridge arguments are a usage error (exit 2)', async () => {
  for (const args of [
    [],
    ['--agent', 'nobody'],
    ['--agent', 'claude', '--timeout', 'soon'],
    ['--agent', 'claude', '--what'],
  ]) {
    const result = await runHook(args, { stdin: '{}' });
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.stderr, /agent|timeout|unknown argument/);
  }
});
