// The CLI contract of DESIGN.md: serve's one ready line and its token, check,
// evaluate, --config errors that name the key and the file, policies, digest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { verdictRecordSchema } from '../../src/core/verdict/record';
import { VERSION } from '../../src/core/version';
import { isolatedEnv, jsonLines, runCli, shellHookPath, startServe } from '../builders/process';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectWithHome, aTempDir, removeDir } from '../builders/tempProject';

function setup(t: { after(fn: () => void | Promise<void>): void }) {
  return aProjectWithHome(t, 'cli');
}

test('serve prints exactly one stdout line: a JSON object with an absolute url and token file', async (t) => {
  const { project, home, state } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop());
  const ready = JSON.parse(serve.readyLine) as Record<string, unknown>;
  assert.equal(typeof ready, 'object');
  assert.match(String(ready.url), /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(ready.tokenFile, join(state, 'hook-token'));
  for (const [key, value] of Object.entries(ready))
    if (/File$/.test(key)) assert.ok(isAbsolute(String(value)), `${key} is an absolute path`);

  const health = await fetch(`${serve.url}/health`);
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { ok: true, version: VERSION });

  const records = readdirSync(join(state, 'endpoints')).filter((name) => name.endsWith('.json'));
  assert.equal(records.length, 1);
  assert.deepEqual(
    readdirSync(join(state, 'endpoints')).sort(),
    [...records, records[0]!.replace(/json$/, 'shrec')].sort(),
    'and its shell-bridge record',
  );
  const record = JSON.parse(readFileSync(join(state, 'endpoints', records[0]!), 'utf8')) as Record<string, unknown>;
  assert.equal(record.url, serve.url);
  assert.equal(record.pid, serve.child.pid);
  assert.equal(record.tokenFile, ready.tokenFile);

  await serve.stop();
  assert.equal(serve.stdout(), serve.readyLine + '\n', 'nothing else ever reached stdout');
  assert.match(serve.stderr(), /serving on/, 'logs go to stderr');
  assert.deepEqual(readdirSync(join(state, 'endpoints')), [], 'a clean stop removes the endpoint record');
});

test('the hook token file is 0600 and holds at least 128 random bits; the state folder is 0700', async (t) => {
  const { project, home, state } = setup(t);
  const first = await startServe({ cwd: project, env: isolatedEnv(home) });
  await first.stop();
  assert.equal(statSync(first.tokenFile).mode & 0o777, 0o600);
  assert.equal(statSync(state).mode & 0o777, 0o700);
  const token = readFileSync(first.tokenFile, 'utf8').trim();
  assert.match(token, /^[A-Za-z0-9_-]+$/, 'URL-safe');
  assert.ok(Buffer.from(token, 'base64url').length >= 16, `at least 128 bits (${token.length} characters)`);

  const again = await startServe({ cwd: project, env: isolatedEnv(home) });
  await again.stop();
  assert.equal(readFileSync(again.tokenFile, 'utf8').trim(), token, 'the token is kept across restarts');

  const otherHome = aTempDir('cli-home-other');
  t.after(() => removeDir(otherHome));
  const other = await startServe({ cwd: project, env: isolatedEnv(otherHome) });
  await other.stop();
  assert.notEqual(readFileSync(other.tokenFile, 'utf8').trim(), token, 'another state folder gets another token');
});

test('serve answers hooks with its token and refuses without it', async (t) => {
  const { project, home } = setup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop());
  const token = readFileSync(serve.tokenFile, 'utf8').trim();
  const body = JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body());
  const refused = await fetch(`${serve.url}/hooks/claude`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(refused.status, 401);
  const answered = await fetch(`${serve.url}/hooks/claude`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  assert.equal(answered.status, 200);
  const reply = (await answered.json()) as { hookSpecificOutput: { permissionDecision: string } };
  assert.equal(reply.hookSpecificOutput.permissionDecision, 'deny');
});

test('serve and check refuse a write over the program the hooks run (their own dist), and leave it be', async (t) => {
  const { project, home } = setup(t);
  const env = isolatedEnv(home);
  const bridge = shellHookPath();
  const before = readFileSync(bridge);
  const overwrite = (session: string) =>
    JSON.stringify(
      aHookEvent().tool('Write', { file_path: bridge, content: 'exit 0\n' }).inCwd(project).session(session).body(),
    );
  const checked = await runCli(['check', '--agent', 'claude'], {
    cwd: project,
    env,
    stdin: overwrite('program-check'),
  });
  assert.equal(checked.code, 0, checked.stderr);
  const checkReply = JSON.parse(checked.stdout) as { hookSpecificOutput: Record<string, string> };
  assert.equal(checkReply.hookSpecificOutput.permissionDecision, 'deny');
  assert.match(checkReply.hookSpecificOutput.permissionDecisionReason ?? '', /Warden's own program/);

  const serve = await startServe({ cwd: project, env });
  t.after(() => serve.stop());
  const token = readFileSync(serve.tokenFile, 'utf8').trim();
  const answered = await fetch(`${serve.url}/hooks/claude`, {
    method: 'POST',
    body: overwrite('program-serve'),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  const reply = (await answered.json()) as { hookSpecificOutput: Record<string, string> };
  assert.equal(reply.hookSpecificOutput.permissionDecision, 'deny');
  assert.match(reply.hookSpecificOutput.permissionDecisionReason ?? '', /Warden's own program/);
  assert.deepEqual(readFileSync(bridge), before);
});

test('check prints the reply JSON and exits 0, for a deny and for an allow', async (t) => {
  const { project, home, state } = setup(t);
  const env = isolatedEnv(home);
  const denied = await runCli(['check', '--agent', 'claude'], {
    cwd: project,
    env,
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).session('check-deny').body()),
  });
  assert.equal(denied.code, 0, denied.stderr);
  const reply = JSON.parse(denied.stdout) as { hookSpecificOutput: Record<string, unknown> };
  assert.equal(reply.hookSpecificOutput.hookEventName, 'PreToolUse');
  assert.equal(reply.hookSpecificOutput.permissionDecision, 'deny');
  assert.equal(typeof reply.hookSpecificOutput.permissionDecisionReason, 'string');
  assert.equal(denied.stdout.trim().split('\n').length, 1);

  const allowed = await runCli(['check', '--agent', 'claude'], {
    cwd: project,
    env,
    stdin: JSON.stringify(aHookEvent().bash('ls -la').inCwd(project).session('check-allow').body()),
  });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, '{}\n');

  const logged = jsonLines(join(state, 'activity.jsonl'));
  assert.deepEqual(
    logged.filter((e) => String(e.sessionId).startsWith('check-')).map((e) => [e.sessionId, e.decision]),
    [
      ['check-deny', 'deny'],
      ['check-allow', 'allow'],
    ],
  );
});

test('check on a body it cannot evaluate still prints a deny and exits 0', async (t) => {
  const { project, home } = setup(t);
  const result = await runCli(['check', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: '{"broken": ',
  });
  assert.equal(result.code, 0);
  const reply = JSON.parse(result.stdout) as { hookSpecificOutput: Record<string, unknown> };
  assert.equal(reply.hookSpecificOutput.permissionDecision, 'deny');
  assert.match(String(reply.hookSpecificOutput.permissionDecisionReason), /not valid JSON/);
});

test('check without --agent, or with an unknown one, is a usage error naming the agents', async (t) => {
  const { project, home } = setup(t);
  const none = await runCli(['check'], { cwd: project, env: isolatedEnv(home), stdin: '{}' });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--agent is required.*claude/);
  const unknown = await runCli(['check', '--agent', 'nobody'], { cwd: project, env: isolatedEnv(home), stdin: '{}' });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown agent "nobody"/);
});

test('evaluate prints a whole VerdictRecord that the record schema accepts', async (t) => {
  const { project, home } = setup(t);
  const body = aHookEvent().bash('rm -rf /').inCwd(project).session('evaluate-session').body();
  const result = await runCli(['evaluate', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(body),
  });
  assert.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as Record<string, unknown>;
  const parsed = verdictRecordSchema.safeParse(json);
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
  const record = parsed.data;
  assert.equal(record.agent, 'claude');
  assert.equal(record.event, 'PreToolUse');
  assert.equal(record.sessionId, 'evaluate-session');
  assert.equal(record.toolName, 'Bash');
  assert.deepEqual(record.toolInput, body.tool_input);
  assert.equal(record.decision, 'deny');
  assert.ok(record.outcomes.some((o) => o.verdict === 'deny' && o.tier === 'deterministic'));
  assert.match(record.ts, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(typeof record.argsDigest, 'string');
  for (const key of Object.keys(json)) assert.ok(key in verdictRecordSchema.shape, `${key} is a known record field`);

  const digest = await runCli(['digest'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify({ tool_name: 'Bash', tool_input: body.tool_input }),
  });
  assert.equal(digest.code, 0, digest.stderr);
  assert.equal(digest.stdout.trim(), record.argsDigest, '`digest` prints the same exact-args digest');
});

test('evaluate on input that is not a hook event is a usage error naming the problem', async (t) => {
  const { project, home } = setup(t);
  const body = aHookEvent().bash('ls').inCwd(project).body();
  delete body.tool_name;
  const result = await runCli(['evaluate', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(body),
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /tool_name/);
  assert.equal(result.stdout, '');
});

test('--config with a bad key: an error naming the key and the file, for every command that reads it', async (t) => {
  const { project, home } = setup(t);
  const file = join(home, 'warden.config.json');
  writeFileSync(file, JSON.stringify({ policies: { sudo: { enabled: true } }, failure: { decison: 'deny' } }));
  const stdin = JSON.stringify(aHookEvent().bash('ls').inCwd(project).body());
  for (const args of [
    ['check', '--agent', 'claude'],
    ['evaluate', '--agent', 'claude'],
    ['policies'],
    ['hook', '--agent', 'claude'],
  ]) {
    const result = await runCli([...args, '--config', file], { cwd: project, env: isolatedEnv(home), stdin });
    assert.equal(result.code, 2, `${args[0]}: exit 2, got ${result.code}; stdout ${result.stdout}`);
    assert.ok(result.stderr.includes(file), `${args[0]}: names the file: ${result.stderr}`);
    assert.match(result.stderr, /decison/, `${args[0]}: names the key`);
    assert.equal(result.stdout, '', `${args[0]}: prints no verdict from a refused config`);
  }
  const serve = await runCli(['serve', '--port', '0', '--config', file], { cwd: project, env: isolatedEnv(home) });
  assert.equal(serve.code, 2);
  assert.ok(serve.stderr.includes(file));
  assert.match(serve.stderr, /decison/);
  assert.equal(serve.stdout, '', 'no ready line for a refused config');
});

test('a broken user config still gets a verdict, and stderr names the file and the key', async (t) => {
  const { project, home, state } = setup(t);
  const userConfig = join(state, 'config.json');
  mkdirSync(state, { recursive: true, mode: 0o700 });
  writeFileSync(userConfig, JSON.stringify({ polices: {} }));
  const result = await runCli(['check', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body()),
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    (JSON.parse(result.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
      .permissionDecision,
    'deny',
  );
  assert.ok(result.stderr.includes(userConfig), `names the file: ${result.stderr}`);
  assert.match(result.stderr, /polices/);
});

test('--config naming a file that does not exist is refused, naming it', async (t) => {
  const { project, home } = setup(t);
  const missing = join(home, 'nope.json');
  const result = await runCli(['policies', '--config', missing], { cwd: project, env: isolatedEnv(home) });
  assert.equal(result.code, 2);
  assert.ok(result.stderr.includes(missing));
});

test('--config takes effect: a policy it switches off no longer objects', async (t) => {
  const { project, home } = setup(t);
  const file = join(home, 'no-sudo.json');
  writeFileSync(file, JSON.stringify({ policies: { sudo: { enabled: false } } }));
  const stdin = JSON.stringify(aHookEvent().bash('sudo apt-get update').inCwd(project).body());
  const defaultReply = JSON.parse(
    (await runCli(['check', '--agent', 'claude'], { cwd: project, env: isolatedEnv(home), stdin })).stdout,
  ) as Record<string, any>;
  assert.equal(defaultReply.hookSpecificOutput?.permissionDecision, 'deny', 'headless: the sudo ask becomes a deny');
  const withConfig = await runCli(['check', '--agent', 'claude', '--config', file], {
    cwd: project,
    env: isolatedEnv(home),
    stdin,
  });
  assert.equal(withConfig.code, 0, withConfig.stderr);
  assert.equal(withConfig.stdout, '{}\n');
});

test('policies --json lists every policy with its state, source and parameters', async (t) => {
  const { project, home } = setup(t);
  const result = await runCli(['policies', '--json'], { cwd: project, env: isolatedEnv(home) });
  assert.equal(result.code, 0, result.stderr);
  const list = JSON.parse(result.stdout) as {
    name: string;
    enabled: boolean;
    source: string;
    params: unknown;
    decision: string;
  }[];
  assert.ok(Array.isArray(list) && list.length >= 12, `at least 12 policies, got ${list.length}`);
  const names = list.map((p) => p.name);
  assert.equal(new Set(names).size, names.length, 'names are unique');
  for (const name of [
    'recursive-delete-outside-project',
    'sudo',
    'download-piped-to-shell',
    'git-force-push',
    'disk-wipe',
    'reverse-shell',
  ])
    assert.ok(names.includes(name), name);
  for (const policy of list) {
    assert.equal(typeof policy.enabled, 'boolean', policy.name);
    assert.equal(typeof policy.source, 'string', policy.name);
    assert.ok(['deny', 'ask', 'instruct'].includes(policy.decision), policy.name);
  }

  const file = join(home, 'off.json');
  writeFileSync(file, JSON.stringify({ policies: { sudo: { enabled: false } } }));
  const configured = JSON.parse(
    (await runCli(['policies', '--json', '--config', file], { cwd: project, env: isolatedEnv(home) })).stdout,
  ) as typeof list;
  const sudo = configured.find((p) => p.name === 'sudo')!;
  assert.equal(sudo.enabled, false);
  assert.equal(sudo.source, 'cli');

  const table = await runCli(['policies'], { cwd: project, env: isolatedEnv(home) });
  assert.equal(table.code, 0);
  assert.match(table.stdout, /recursive-delete-outside-project/);
});

test('--version and an unknown command', async (t) => {
  const { project, home } = setup(t);
  const version = await runCli(['--version'], { cwd: project, env: isolatedEnv(home) });
  assert.equal(version.stdout, `${VERSION}\n`);
  const unknown = await runCli(['frobnicate'], { cwd: project, env: isolatedEnv(home) });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  assert.ok(!existsSync(join(home, '.agent-warden', 'activity.jsonl')), 'nothing was evaluated');
});
