// The shell bridge (dist/hook.sh): forwards by itself, with sh, curl and openssl,
// only what it can forward exactly as the Node bridge would, to a record and with
// a reply that verify under the endpoints' public key; everything else it hands,
// unchanged, to dist/hook.js, which decides as always. AGENT_WARDEN_BRIDGE_TRACE
// makes it say which it did, so each case checks the path as well as the verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readOrCreateEndpointKey } from '../../src/core/endpointAuth';
import { bridgePublicKeyPem, signShellReply } from '../../src/core/shellBridgeAuth';
import { bridgeCommandFor, shellBridgeWorks } from '../../src/core/install/shellBridge';
import { isWardenCommand } from '../../src/core/install/commandAgents';
import {
  bridgeSetup,
  claudeDenyReason,
  impostor,
  logRecordsFor,
  singleJsonReply,
  writeSignedRecord,
} from '../builders/endpoints';
import { isolatedEnv, runHook, runShellHook, shellHookPath, startServe } from '../builders/process';
import { verdictOf } from '../builders/agentPayloads';
import { aHookEvent } from '../builders/hookEvent';
import { aTempDir, removeDir } from '../builders/tempProject';

const FORWARDED = /\(sh bridge\): forwarded to http:\/\/127\.0\.0\.1:\d+/;
const HANDED_OFF = /\(sh bridge\): (.*); handing the call to the Node bridge/;

function traced(home: string, extra: Record<string, string | undefined> = {}) {
  return isolatedEnv(home, { AGENT_WARDEN_BRIDGE_TRACE: '1', ...extra });
}

test('with serve up, the shell bridge forwards by itself for every agent whose input names its cwd; Cursor goes to the Node bridge', async (t) => {
  const { project, home, state } = bridgeSetup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop());
  assert.ok(
    readdirSync(join(state, 'endpoints')).some((n) => n.endsWith('.shrec')),
    'serve wrote a shell record',
  );
  for (const agent of ['claude', 'codex', 'gemini', 'copilot', 'cursor'] as const) {
    const session = `shell-${agent}`;
    const result = await runShellHook(['--agent', agent], {
      cwd: project,
      env: traced(home),
      stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).session(session).body(agent)),
    });
    assert.equal(verdictOf(agent, singleJsonReply(result)), 'deny', `${agent}: ${result.stdout}`);
    if (agent === 'cursor') assert.match(result.stderr, /agent "cursor" is left to the Node bridge/);
    else assert.match(result.stderr, FORWARDED, `${agent}: ${result.stderr}`);
  }
  // Content the shell must carry untouched: here-document delimiters, expansions, quotes, non-ASCII.
  const tricky = 'EOF\nBODY\n$(rm -rf ~) `id` ${HOME} \\ "q" \u00e9\u2603\n'.repeat(2000);
  const writeBody = JSON.stringify(
    aHookEvent()
      .tool('Write', { file_path: join(project, 'notes.txt'), content: tricky })
      .inCwd(project)
      .session('shell-tricky')
      .body(),
  );
  const viaShell = await runShellHook(['--agent', 'claude'], { cwd: project, env: traced(home), stdin: writeBody });
  assert.match(viaShell.stderr, FORWARDED);
  const viaNode = await runHook(['--agent', 'claude'], { cwd: project, env: isolatedEnv(home), stdin: writeBody });
  assert.deepEqual(singleJsonReply(viaShell), singleJsonReply(viaNode), 'the same verdict as the Node bridge');

  // Programs the agent could write earlier on its PATH are not the ones the bridge runs.
  const planted = join(home, 'planted-bin');
  mkdirSync(planted);
  writeFileSync(join(planted, 'openssl'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(
    join(planted, 'curl'),
    "#!/bin/sh\nprintf 'HTTP/1.1 200 OK\\r\\nx-warden-reply-signature: ab\\r\\n\\r\\n{}'\n",
    {
      mode: 0o755,
    },
  );
  const notFooled = await runShellHook(['--agent', 'claude'], {
    cwd: project,
    env: traced(home, { PATH: `${planted}:${process.env.PATH}` }),
    stdin: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body()),
  });
  claudeDenyReason(singleJsonReply(notFooled));
  assert.match(notFooled.stderr, FORWARDED);
  const harmless = await runShellHook(['--agent', 'claude'], {
    cwd: project,
    env: traced(home),
    stdin: JSON.stringify(aHookEvent().bash('ls -la').inCwd(project).session('shell-harmless').body()),
  });
  assert.deepEqual(singleJsonReply(harmless), {}, 'no objection stays no objection (never an allow)');
  assert.match(harmless.stderr, FORWARDED);
  assert.equal(logRecordsFor(join(state, 'activity.jsonl'), 'shell-claude').length, 1, "the endpoint's log has it");
});

test('whatever it cannot forward exactly, it hands to the Node bridge, and the verdict is the same', async (t) => {
  const { project, home } = bridgeSetup(t);
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop());
  const plain = JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body());
  const withToolCwd = JSON.parse(plain) as { tool_input: Record<string, unknown> };
  withToolCwd.tool_input.cwd = '/tmp';
  // curl is the one program missing: a folder of links to everything else the script runs.
  const bin = join(home, 'bin-without-curl');
  mkdirSync(bin);
  for (const program of ['sh', 'cat', 'od', 'openssl']) {
    const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(found, join(bin, program));
  }
  const cases: { why: RegExp; stdin: string; env?: Record<string, string> }[] = [
    {
      why: /needs unescaping or normalising/,
      // JSON may escape a slash; only the Node bridge unescapes.
      stdin: plain.replace(/"cwd":"\/([^"]*)"/, (_, p: string) => `"cwd":"/${p.replace(/\//g, '\\/')}"`),
    },
    { why: /needs unescaping or normalising/, stdin: plain.replace(/"cwd":"([^"]*)"/, '"cwd":"$1/sub/.."') },
    { why: /names cwd more than once/, stdin: JSON.stringify(withToolCwd) },
    { why: /no plain absolute cwd/, stdin: plain.replace('"cwd":"', '"cwd": "') },
    { why: /no curl/, stdin: plain, env: { AGENT_WARDEN_BRIDGE_PATH: bin } },
    { why: /no endpoint record for/, stdin: plain, env: { AGENT_WARDEN_HOME: join(home, 'empty-state') } },
  ];
  for (const { why, stdin, env } of cases) {
    if (env?.AGENT_WARDEN_HOME) {
      mkdirSync(join(env.AGENT_WARDEN_HOME, 'endpoints'), { recursive: true });
      writeFileSync(
        join(env.AGENT_WARDEN_HOME, 'bridge-key.pem'),
        readFileSync(join(home, '.agent-warden', 'bridge-key.pem')),
      );
    }
    const result = await runShellHook(['--agent', 'claude'], { cwd: project, env: traced(home, env), stdin });
    assert.match(result.stderr, HANDED_OFF, String(why));
    assert.match(HANDED_OFF.exec(result.stderr)![1]!, why);
    assert.ok(claudeDenyReason(singleJsonReply(result)).length > 10, String(why));
  }
});

test('a record or a reply that does not verify is never used: an impostor cannot answer for Warden', async (t) => {
  const { project, home, state } = bridgeSetup(t);
  mkdirSync(state, { recursive: true, mode: 0o700 });
  const key = readOrCreateEndpointKey(state);
  writeFileSync(join(state, 'bridge-key.pem'), bridgePublicKeyPem(key));
  const stdin = JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body());
  const replayed = signShellReply(key, 'ab'.repeat(16), '{}');
  const cases: { why: RegExp; headers?: Record<string, string>; tamper?: (shrec: string) => string }[] = [
    { why: /the reply is not signed/ },
    { why: /the reply does not verify/, headers: { 'x-warden-reply-signature': replayed } },
    { why: /the reply does not verify/, headers: { 'x-warden-reply-signature': 'ab'.repeat(36) } },
    { why: /does not verify/, tamper: (text) => text.replace('root=\n', `root=${project}\n`) },
  ];
  for (const { why, headers, tamper } of cases) {
    rmSync(join(state, 'endpoints'), { recursive: true, force: true });
    const fake = await impostor(headers ? { headers } : {});
    const json = writeSignedRecord(state, fake.url, {}, { shell: true });
    const shrec = json.replace(/\.json$/, '.shrec');
    if (tamper) writeFileSync(shrec, tamper(readFileSync(shrec, 'utf8')));
    const result = await runShellHook(['--agent', 'claude'], { cwd: project, env: traced(home), stdin });
    assert.match(HANDED_OFF.exec(result.stderr)?.[1] ?? result.stderr, why);
    // The Node bridge then refuses the impostor's reply too (no valid MAC) and evaluates in-process.
    claudeDenyReason(singleJsonReply(result));
    assert.match(result.stderr, /failed authentication/);
    assert.equal(fake.calls(), tamper ? 1 : 2, 'a tampered record is not even sent the call by the shell bridge');
    await fake.close();
  }
});

test('install uses the shell bridge where the probe passes, and uninstall still knows its command', (t) => {
  const hookSh = shellHookPath();
  assert.equal(shellBridgeWorks(hookSh), true, 'sh, curl and openssl on this machine verify as the bridge needs');
  assert.equal(shellBridgeWorks(hookSh, 'win32'), false, 'never on Windows');
  assert.equal(shellBridgeWorks(join(hookSh, '..', 'no-such-hook.sh')), false);
  const key = randomBytes(32);
  const dir = aTempDir('shell-bridge-probe');
  t.after(() => removeDir(dir));
  writeFileSync(join(dir, 'key.pem'), bridgePublicKeyPem(key));
  const probe = (signature: string) =>
    spawnSync('sh', [hookSh, '--probe', join(dir, 'key.pem'), signature, 'reply\nn\n{}']).status;
  assert.equal(probe(signShellReply(key, 'n', '{}')), 0);
  assert.equal(probe(signShellReply(randomBytes(32), 'n', '{}')), 1, 'another key does not verify');
  const distDir = join(hookSh, '..');
  const command = bridgeCommandFor(distDir, '/opt/node/bin/node');
  assert.equal(command, `/bin/sh "${join(distDir, 'hook.sh')}" "/opt/node/bin/node"`);
  assert.equal(
    bridgeCommandFor(distDir, '/opt/$HOME/node'),
    `/bin/sh "${join(distDir, 'hook.sh')}" '/opt/$HOME/node'`,
    'a character double quotes would expand: single quotes',
  );
  const installed = `${command} --agent codex --timeout 615`;
  assert.ok(isWardenCommand(installed, 'codex'));
  assert.ok(!isWardenCommand(installed, 'gemini'));
});
