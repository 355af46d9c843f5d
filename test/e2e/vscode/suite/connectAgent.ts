import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { verdictOf } from '../../../builders/agentPayloads';
import { aHookEvent } from '../../../builders/hookEvent';

// "Connect Another Agent" as a person runs it: the command looks for agents on
// PATH (here a stand-in `codex`, which is all the command looks at), offers them
// in a quick pick, and writes the chosen agent's own hook file merged with the
// person's entries. The hook it wrote then runs the bridge against this
// window's endpoint, and the CLI's uninstall gives the person's bytes back.

/** A Codex user hook file as a person might already have it, with entries of their own. */
const PERSONS_CODEX_HOOKS = {
  description: 'my hooks',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/audit.sh', timeout: 5 }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

type Json = Record<string, any>;

function runShell(
  command: string,
  input: string,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

export async function checkConnectAnotherAgent(folder: string, log: (message: string) => void): Promise<void> {
  const home = process.env.HOME;
  assert.ok(home, 'the runner gives the host a home of its own');
  const extensionPath = vscode.extensions.getExtension('agent-warden.agent-warden')!.extensionPath;
  const bin = join(home, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'codex'), 0o755);
  const hooksFile = join(home, '.codex', 'hooks.json');
  mkdirSync(join(home, '.codex'), { recursive: true });
  const original = JSON.stringify(PERSONS_CODEX_HOOKS, null, 2) + '\n';
  writeFileSync(hooksFile, original);

  const savedPath = process.env.PATH;
  process.env.PATH = `${bin}${delimiter}${savedPath ?? ''}`;
  try {
    // The modal that shows the change is skipped (yes); the agent is chosen in the quick pick.
    let settled = false;
    const connecting = Promise.resolve(vscode.commands.executeCommand('agentWarden.connectAgent', { yes: true })).then(
      (plan) => {
        settled = true;
        return plan as { path: string; changed: boolean } | undefined;
      },
    );
    // Codex is the first agent the command offers; accepting the highlighted item picks it.
    for (let tries = 0; !settled && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 300));
      if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    }
    const plan = await connecting;
    assert.ok(plan, 'the command returned its plan (an agent was picked)');
    assert.equal(plan.path, hooksFile, "Codex's own user hook file");
    assert.equal(plan.changed, true);
  } finally {
    process.env.PATH = savedPath;
  }

  const written = readFileSync(hooksFile, 'utf8');
  const doc = JSON.parse(written) as Json;
  // Codex refuses top-level keys other than hooks and description.
  assert.deepEqual(Object.keys(doc).sort(), ['description', 'hooks']);
  assert.equal(doc.description, PERSONS_CODEX_HOOKS.description);
  assert.deepEqual(doc.hooks.Stop, PERSONS_CODEX_HOOKS.hooks.Stop, "the person's other event is untouched");
  const pre = doc.hooks.PreToolUse as Json[];
  assert.deepEqual(pre[0], PERSONS_CODEX_HOOKS.hooks.PreToolUse[0], "the person's own PreToolUse entry comes first");
  assert.equal(pre.length, 2, `one entry added: ${written}`);
  const warden = pre[1]!.hooks as Json[];
  assert.equal(warden.length, 1);
  const handler = warden[0]!;
  // This machine has sh, curl and openssl: the shell bridge, handing off to a node named by its
  // absolute path (a bare `node` is looked up on the agent's PATH, where the agent can plant one).
  const bridge = `/bin/sh "${join(extensionPath, 'dist', 'hook.sh')}" `;
  assert.equal(handler.type, 'command');
  const command = String(handler.command);
  const bridgeTimeout = /^(.*) --agent codex --timeout (\d+)$/.exec(command);
  assert.ok(bridgeTimeout, `the bridge for Codex: ${command}`);
  assert.ok(bridgeTimeout[1]!.startsWith(bridge), `the shell bridge: ${command}`);
  const hookNode = bridgeTimeout[1]!.slice(bridge.length).replace(/^"(.*)"$/, '$1');
  assert.ok(isAbsolute(hookNode), `the hook's node by its absolute path: ${hookNode}`);
  const nodeRuns = spawnSync(hookNode, ['-e', 'process.stdout.write(process.release.name)'], { encoding: 'utf8' });
  assert.equal(nodeRuns.stdout, 'node', `${hookNode} is a Node`);
  // Codex's hook timeout is in seconds, above the bridge's own wait.
  assert.equal(typeof handler.timeout, 'number');
  assert.ok(handler.timeout > Number(bridgeTimeout[2]) && handler.timeout < 3600, `seconds: ${handler.timeout}`);
  log('connect another agent: Codex picked, ~/.codex/hooks.json merged with the person’s entries');

  // The hook as Codex runs it: the written command, Codex's input on stdin, this window's endpoint answers.
  // Not spawnSync: this host serves the endpoint the bridge asks, so its event loop must keep running.
  const ran = await runShell(
    command,
    JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(folder).session('connect-agent-e2e').body('codex')),
    folder,
  );
  // The endpoint answers in Codex's JSON form (exit 0); only the bridge's last resort uses exit 2.
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(verdictOf('codex', JSON.parse(ran.stdout) as Json), 'deny', ran.stdout);
  assert.doesNotMatch(ran.stderr, /evaluating in-process/, 'the endpoint answered, not the fallback');
  log('the written Codex hook ran the bridge: rm -rf / refused by the endpoint in the form Codex reads');

  const removed = spawnSync(
    'node',
    [join(extensionPath, 'dist', 'cli.js'), 'uninstall', '--agent', 'codex', '--scope', 'user'],
    {
      env: process.env,
      cwd: folder,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.equal(removed.status, 0, removed.stderr);
  assert.equal(readFileSync(hooksFile, 'utf8'), original, "uninstall gives back the person's file byte for byte");
  log('uninstall --agent codex restored ~/.codex/hooks.json byte-identical');
}
