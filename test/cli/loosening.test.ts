// Loosening needs a person, end to end through the built CLI: `check` keeps the
// confirmed config and says what is held; a confirmation recorded the way the
// editor records it is honoured by the next one-shot process; and at serve's own
// terminal, `confirm <code>` applies exactly the change it announced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openState } from '../../src/core/root/state';
import { cliPath, isolatedEnv, runCli } from '../builders/process';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

function setup(t: { after(fn: () => void): void }) {
  const project = aProjectDir('loosening-project');
  const home = aTempDir('loosening-home');
  t.after(() => {
    removeDir(project);
    removeDir(home);
  });
  const state = join(home, '.agent-warden');
  mkdirSync(state, { recursive: true, mode: 0o700 });
  return { project, home, state, userConfig: join(state, 'config.json') };
}

const SUDO_OFF = JSON.stringify({ policies: { sudo: { enabled: false } } });

async function decisionOf(
  project: string,
  home: string,
  command: string,
): Promise<{ decision: string; stderr: string }> {
  const result = await runCli(['check', '--agent', 'claude'], {
    cwd: project,
    env: isolatedEnv(home),
    stdin: JSON.stringify(aHookEvent().bash(command).inCwd(project).body()),
  });
  assert.equal(result.code, 0, result.stderr);
  const reply = JSON.parse(result.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  return { decision: reply.hookSpecificOutput?.permissionDecision ?? 'none', stderr: result.stderr };
}

test('check: a policy switched off in the user config is held (and said so) until a person confirms it', async (t) => {
  const { project, home, state, userConfig } = setup(t);
  writeFileSync(userConfig, SUDO_OFF);
  const held = await decisionOf(project, home, 'sudo apt-get update');
  assert.equal(held.decision, 'deny', 'the sudo policy is still in force');
  assert.match(held.stderr, /would loosen protection: policies\.sudo\.enabled: \(unset\) → false/);
  assert.match(held.stderr, /confirms this change in VS Code or at the agent-warden serve terminal/);

  // What the editor's modal does when the person applies the change.
  openState({ AGENT_WARDEN_HOME: state }).confirmations().confirm(userConfig, SUDO_OFF, 'person');
  const confirmed = await decisionOf(project, home, 'sudo apt-get update');
  assert.equal(confirmed.decision, 'none', 'the confirmed loosening applies');
  assert.doesNotMatch(confirmed.stderr, /would loosen/);
});

test("serve's terminal: the held change is announced with a code, and only `confirm <code>` applies it", async (t) => {
  const { project, home, userConfig } = setup(t);
  const child = spawn(process.execPath, [cliPath(), 'serve', '--port', '0'], {
    cwd: project,
    env: { ...isolatedEnv(home), PATH: process.env.PATH ?? '' } as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  t.after(() => void child.kill('SIGKILL'));
  const stderrLines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderrLines.push(line);
    for (const w of [...waiters])
      if (w.pattern.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
  });
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const found = stderrLines.find((l) => pattern.test(l));
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no ${pattern} on stderr:\n${stderrLines.join('\n')}`)), 30_000);
      waiters.push({ pattern, resolve: (l) => (clearTimeout(timer), resolve(l)) });
    });
  const ready = await new Promise<{ url: string; tokenFile: string }>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line))),
  );
  const token = readFileSync(ready.tokenFile, 'utf8').trim();
  const post = async (command: string) => {
    const res = await fetch(`${ready.url}/hooks/claude`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-agent-warden-headless': '1' },
      body: JSON.stringify(aHookEvent().bash(command).inCwd(project).body()),
    });
    return ((await res.json()) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput
      ?.permissionDecision;
  };
  assert.equal(await post('sudo apt-get update'), 'deny');
  writeFileSync(userConfig, SUDO_OFF);
  const announced = await waitFor(/To apply it, type here: confirm [0-9a-f]{6}/);
  const code = /confirm ([0-9a-f]{6})/.exec(announced)![1]!;
  assert.ok(stderrLines.some((l) => /policies\.sudo\.enabled: \(unset\) → false/.test(l)));
  assert.equal(await post('sudo apt-get update'), 'deny', 'held: not applied before the person confirms');
  child.stdin!.write('confirm 000000\n');
  await waitFor(/"confirm 000000" is not a pending confirmation/);
  assert.equal(await post('sudo apt-get update'), 'deny');
  child.stdin!.write(`confirm ${code}\n`);
  await waitFor(/confirmed: .*config\.json applies as shown/);
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(await post('sudo apt-get update'), undefined, 'confirmed: the policy is off');
});
