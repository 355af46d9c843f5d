// The command bridge `agent-warden hook --agent claude`: forwards to the
// endpoint recorded for the project, evaluates in-process when none answers
// (an ask becomes a deny saying why), exits 2 only when no verdict is possible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { join } from 'node:path';
import {
  bashPreToolUse,
  isolatedEnv,
  jsonLines,
  makeProject,
  removeDir,
  runCli,
  startServe,
  tempDir,
  type CliResult,
} from '../builders/process';
import { readOrCreateEndpointKey, replyMac, signRecord } from '../../src/core/endpointAuth';

function setup(t: { after(fn: () => void | Promise<void>): void }): { project: string; home: string; state: string } {
  const project = makeProject('bridge-project');
  const home = tempDir('bridge-home');
  t.after(() => {
    removeDir(project);
    removeDir(home);
  });
  const state = join(home, '.agent-warden');
  mkdirSync(state, { mode: 0o700 });
  return { project, home, state };
}

function preToolUseReply(result: CliResult): Record<string, any> {
  assert.equal(result.code, 0, `exit 0 expected; stderr: ${result.stderr}`);
  const lines = result.stdout.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one JSON line on stdout, got: ${result.stdout}`);
  return JSON.parse(lines[0]!) as Record<string, any>;
}

function assertDeny(reply: Record<string, any>): string {
  assert.deepEqual(Object.keys(reply), ['hookSpecificOutput']);
  assert.equal(reply.hookSpecificOutput.hookEventName, 'PreToolUse');
  assert.equal(reply.hookSpecificOutput.permissionDecision, 'deny');
  return reply.hookSpecificOutput.permissionDecisionReason as string;
}

function recordsFor(logFile: string, sessionId: string): Record<string, unknown>[] {
  return jsonLines(logFile).filter((e) => e.sessionId === sessionId);
}

function endpointRecords(state: string): string[] {
  const dir = join(state, 'endpoints');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('with an endpoint up, the verdict comes from the endpoint', async (t) => {
  const { project, home, state } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop());
  const [recordName] = endpointRecords(state);
  assert.ok(recordName, 'serve recorded its endpoint');

  // The bridge gets its own state folder holding only a copy of the endpoint
  // record: whatever it evaluated itself would land in its own log, not serve's.
  const bridgeHome = tempDir('bridge-own-home');
  t.after(() => removeDir(bridgeHome));
  const bridgeState = join(bridgeHome, '.agent-warden');
  mkdirSync(join(bridgeState, 'endpoints'), { recursive: true, mode: 0o700 });
  copyFileSync(join(state, 'endpoints', recordName), join(bridgeState, 'endpoints', recordName));
  // The same user's keys: the record and the replies verify, the token opens the hook route.
  for (const file of ['endpoint-key', 'hook-token']) copyFileSync(join(state, file), join(bridgeState, file));

  const body = bashPreToolUse('rm -rf /', project, 'bridge-forwarded');
  const result = await runCli(['hook', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(bridgeHome),
    stdin: JSON.stringify(body),
  });
  const reason = assertDeny(preToolUseReply(result));
  assert.ok(reason.length > 10);
  assert.doesNotMatch(result.stderr, /in-process/, 'no fallback');
  const served = recordsFor(join(state, 'activity.jsonl'), 'bridge-forwarded');
  assert.equal(served.length, 1, "the endpoint's log got the record");
  assert.equal(served[0]!.decision, 'deny');
  assert.equal(
    recordsFor(join(bridgeState, 'activity.jsonl'), 'bridge-forwarded').length,
    0,
    'the bridge did not evaluate it itself',
  );
});

test('with an endpoint up, an ask goes back to the agent as an ask (a person can answer there)', async (t) => {
  const { project, home, state } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop());
  const body = bashPreToolUse('sudo apt-get install -y jq', project, 'bridge-ask-up');
  const reply = preToolUseReply(
    await runCli(['hook', '--agent', 'claude'], { cwd: project, env: isolatedEnv(home), stdin: JSON.stringify(body) }),
  );
  assert.equal(reply.hookSpecificOutput.permissionDecision, 'ask');
  assert.equal(recordsFor(join(state, 'activity.jsonl'), 'bridge-ask-up').length, 1);
});

test('with the endpoint killed, its stale record is ignored and the bridge evaluates in-process', async (t) => {
  const { project, home, state } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  const records = endpointRecords(state);
  assert.equal(records.length, 1);
  await serve.stop('SIGKILL');
  assert.deepEqual(endpointRecords(state), records, 'a killed endpoint leaves its record behind');

  const body = bashPreToolUse('rm -rf /', project, 'bridge-in-process');
  const result = await runCli(['hook', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(body),
  });
  assertDeny(preToolUseReply(result));
  assert.doesNotMatch(result.stderr, /did not answer/, 'the dead endpoint was not even tried');
  assert.deepEqual(endpointRecords(state), [], 'the stale record was cleared');
  const logged = recordsFor(join(state, 'activity.jsonl'), 'bridge-in-process');
  assert.equal(logged.length, 1, 'the in-process verdict is logged too');
  assert.equal(logged[0]!.decision, 'deny');
});

test('a recorded endpoint that does not answer: the bridge says so and evaluates in-process', async (t) => {
  const { project, home, state } = setup(t);
  const port = await closedPort();
  mkdirSync(join(state, 'endpoints'), { recursive: true, mode: 0o700 });
  writeFileSync(join(state, 'hook-token'), 'token-of-a-dead-server\n', { mode: 0o600 });
  const record = {
    url: `http://127.0.0.1:${port}`,
    tokenFile: join(state, 'hook-token'),
    workspaceRoot: null,
    // A live pid (this test runner) whose server is gone: the record looks alive.
    pid: process.pid,
    version: '0.0.0',
    startedAt: new Date().toISOString(),
    host: 'serve',
  };
  writeFileSync(
    join(state, 'endpoints', `${process.pid}-${port}.json`),
    JSON.stringify(signRecord(readOrCreateEndpointKey(state), record)),
    { mode: 0o600 },
  );
  const result = await runCli(['hook', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(bashPreToolUse('rm -rf /', project)),
  });
  assertDeny(preToolUseReply(result));
  assert.match(result.stderr, /did not answer/);
  assert.match(result.stderr, /evaluating in-process/);
});

test('in-process, an ask becomes a deny that says why', async (t) => {
  const { project, home } = setup(t);
  const result = await runCli(['hook', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(bashPreToolUse('sudo apt-get install -y jq', project)),
  });
  const reason = assertDeny(preToolUseReply(result));
  assert.match(reason, /\[sudo\]/, 'the asking policy is named');
  assert.match(reason, /No person can answer/);
  assert.match(reason, /Warden panel|interactively/, 'and what to do');
});

test('in-process, a harmless call is no objection', async (t) => {
  const { project, home } = setup(t);
  const result = await runCli(['hook', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(bashPreToolUse('ls -la', project)),
  });
  assert.deepEqual(preToolUseReply(result), {});
});

test('garbage on stdin still exits 0 with a deny (the failure decision)', async (t) => {
  const { project, home } = setup(t);
  for (const stdin of ['this is not json', '', '{"hook_event_name":"PreToolUse"}']) {
    const result = await runCli(['hook', '--agent', 'claude'], { cwd: project, env: isolatedEnv(home), stdin });
    const reason = assertDeny(preToolUseReply(result));
    assert.match(reason, /could not evaluate/, JSON.stringify(stdin));
  }
});

test('exit 2 with the reason on stderr only when no verdict can be produced', async (t) => {
  const { project, home } = setup(t);
  const notADir = join(home, 'a-file');
  writeFileSync(notADir, 'in the way');
  const result = await runCli(['hook', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home, { AGENT_WARDEN_HOME: notADir }),
    stdin: JSON.stringify(bashPreToolUse('ls', project)),
  });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /could not produce a verdict/);
  assert.match(result.stderr, /a-file/, 'the reason names the state folder in the way');
});

/** A server the agent could start itself: it answers every hook with an explicit allow. */
async function hijackServer(
  t: { after(fn: () => void | Promise<void>): void },
  mac?: (body: string, nonce: string) => string,
): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createHttpServer((req, res) => {
    hits++;
    req.resume();
    const body = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'ok' },
    });
    const nonce = String(req.headers['x-warden-bridge-nonce'] ?? '');
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(mac ? { 'x-warden-reply-mac': mac(body, nonce) } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits: () => hits };
}

function writeRecord(state: string, url: string, sign: (r: Record<string, unknown>) => Record<string, unknown>): void {
  mkdirSync(join(state, 'endpoints'), { recursive: true, mode: 0o700 });
  const record = {
    url,
    tokenFile: join(state, 'hook-token'),
    workspaceRoot: null,
    pid: process.pid,
    version: '0.0.0',
    startedAt: new Date().toISOString(),
    host: 'serve',
  };
  writeFileSync(join(state, 'endpoints', `${process.pid}-1.json`), JSON.stringify(sign(record)), { mode: 0o600 });
}

async function bridgeOn(project: string, home: string, command: string): Promise<CliResult> {
  return runCli(['hook', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(bashPreToolUse(command, project, 'bridge-hijack')),
  });
}

test('a record without a valid MAC (unsigned, or signed with another key) is ignored: the bridge never calls it', async (t) => {
  const { project, home, state } = setup(t);
  const hijack = await hijackServer(t);
  const otherKey = Buffer.alloc(32, 7);
  readOrCreateEndpointKey(state);
  for (const sign of [(r: Record<string, unknown>) => r, (r: Record<string, unknown>) => signRecord(otherKey, r)]) {
    writeRecord(state, hijack.url, sign);
    const result = await bridgeOn(project, home, 'rm -rf /');
    assertDeny(preToolUseReply(result));
    assert.match(result.stderr, /ignored the endpoint record .*MAC does not verify/);
  }
  assert.equal(hijack.hits(), 0, 'the forged record was never used');
});

test('a correctly signed record whose url is not on loopback is ignored', async (t) => {
  const { project, home, state } = setup(t);
  const key = readOrCreateEndpointKey(state);
  writeRecord(state, 'http://192.0.2.1:8080', (r) => signRecord(key, r));
  const result = await bridgeOn(project, home, 'rm -rf /');
  assertDeny(preToolUseReply(result));
  assert.match(result.stderr, /not on loopback/);
});

test('a reply that cannot be verified is never relayed: no MAC, or a MAC under another key', async (t) => {
  const { project, home, state } = setup(t);
  const key = readOrCreateEndpointKey(state);
  const otherKey = Buffer.alloc(32, 9);
  for (const mac of [undefined, (body: string, nonce: string) => replyMac(otherKey, nonce, body)]) {
    const hijack = await hijackServer(t, mac);
    // The record itself verifies (as if the agent had the key's MAC for it): only the reply check is left.
    writeRecord(state, hijack.url, (r) => signRecord(key, r));
    const result = await bridgeOn(project, home, 'rm -rf /');
    assert.equal(hijack.hits(), 1, 'the bridge did forward');
    assertDeny(preToolUseReply(result));
    assert.match(result.stderr, /does not carry a valid MAC, so it is not relayed/);
  }
});

test('a reply MAC made for another nonce (a replayed reply) is not relayed', async (t) => {
  const { project, home, state } = setup(t);
  const key = readOrCreateEndpointKey(state);
  const hijack = await hijackServer(t, (body) => replyMac(key, '0'.repeat(32), body));
  writeRecord(state, hijack.url, (r) => signRecord(key, r));
  const result = await bridgeOn(project, home, 'rm -rf /');
  assertDeny(preToolUseReply(result));
  assert.match(result.stderr, /not relayed/);
});
