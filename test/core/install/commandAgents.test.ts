// install / uninstall for Codex CLI, Gemini CLI, Cursor and Copilot CLI: each
// agent's own file and format, the person's own entries left byte-identical
// through a round trip, no key the agent rejects, timeouts in its unit. Then
// the same through the CLI, and the hook it writes really runs the bridge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import {
  applyCommandPlan,
  hasWardenHook,
  hookFile,
  isWardenCommand,
  planCommandInstall,
  planCommandUninstall,
  type CommandAgent,
  type Scope,
} from '../../../src/core/install/commandAgents';
import { detectCommandAgents, findOnPath } from '../../../src/core/install/detectAgents';
import { isolatedEnv, runCli } from '../../builders/process';
import { verdictOf } from '../../builders/agentPayloads';
import { aHookEvent } from '../../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../../builders/tempProject';

type Json = Record<string, any>;

/** Each agent's file as a person might already have it, with hooks of their own. */
const PERSONS_FILE: Record<CommandAgent, Json> = {
  codex: {
    description: 'my hooks',
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/audit.sh', timeout: 5 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    },
  },
  gemini: {
    theme: 'GitHub',
    security: { auth: { selectedType: 'gemini-api-key' } },
    hooks: {
      BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './lint.sh', timeout: 3000 }] }],
      AfterAgent: [{ hooks: [{ type: 'command', command: 'echo done' }] }],
    },
  },
  cursor: {
    version: 1,
    hooks: { preToolUse: [{ command: './guard.sh', matcher: 'Shell' }], stop: [{ command: './stop.sh' }] },
  },
  copilot: { version: 1, hooks: { preToolUse: [{ type: 'command', bash: './mine.sh', timeoutSec: 10 }] } },
};

const AGENTS = Object.keys(PERSONS_FILE) as CommandAgent[];
const BRIDGE = '"/usr/bin/node" "/opt/warden/dist/hook.js"';

function setup(t: { after(fn: () => void): void }): { project: string; home: string } {
  const project = aProjectDir('install-agents');
  const home = aTempDir('install-agents-home');
  t.after(() => {
    removeDir(project);
    removeDir(home);
  });
  return { project, home };
}

function install(agent: CommandAgent, scope: Scope, project: string, home: string) {
  return planCommandInstall({
    agent,
    scope,
    projectRoot: project,
    home,
    env: {},
    bridgeCommand: BRIDGE,
    approvalTimeoutSeconds: 120,
  });
}

/** Warden's one handler in an installed file. */
function wardenHandler(agent: CommandAgent, doc: Json): Json {
  const found: Json[] = [];
  for (const list of Object.values(doc.hooks ?? {}) as unknown[][])
    for (const entry of list as Json[])
      for (const handler of (entry.hooks ?? [entry]) as Json[])
        if (isWardenCommand(String(handler.command ?? handler.bash ?? ''), agent)) found.push(handler);
  assert.equal(found.length, 1, `one Warden handler in ${JSON.stringify(doc)}`);
  return found[0]!;
}

test('each agent writes its own file, for the scopes it has', (t) => {
  const { project, home } = setup(t);
  const expected: Record<CommandAgent, [string, string]> = {
    codex: [join(project, '.codex', 'hooks.json'), join(home, '.codex', 'hooks.json')],
    gemini: [join(project, '.gemini', 'settings.json'), join(home, '.gemini', 'settings.json')],
    cursor: [join(project, '.cursor', 'hooks.json'), join(home, '.cursor', 'hooks.json')],
    copilot: [
      join(project, '.github', 'hooks', 'agent-warden.json'),
      join(home, '.copilot', 'hooks', 'agent-warden.json'),
    ],
  };
  for (const agent of AGENTS) {
    assert.equal(hookFile(agent, 'project', { projectRoot: project, home }), expected[agent][0]);
    assert.equal(hookFile(agent, 'user', { projectRoot: project, home }), expected[agent][1]);
    assert.throws(() => hookFile(agent, 'local', { projectRoot: project, home }), /no local .*--scope project/);
  }
  assert.equal(
    hookFile('codex', 'user', { projectRoot: project, home, env: { CODEX_HOME: '/x/codex' } }),
    '/x/codex/hooks.json',
  );
  assert.equal(
    hookFile('copilot', 'user', { projectRoot: project, home, env: { COPILOT_HOME: '/x/cop' } }),
    '/x/cop/hooks/agent-warden.json',
  );
});

test('a fresh file holds only what the agent accepts, timeouts in its unit', (t) => {
  const { project, home } = setup(t);
  const docs = Object.fromEntries(
    AGENTS.map((a) => [a, JSON.parse(install(a, 'project', project, home).after!)]),
  ) as Record<CommandAgent, Json>;
  // Codex refuses a top-level key other than hooks/description: no version.
  assert.deepEqual(Object.keys(docs.codex), ['hooks']);
  assert.deepEqual(wardenHandler('codex', docs.codex), {
    type: 'command',
    command: `${BRIDGE} --agent codex --timeout 135`,
    timeout: 150,
  });
  assert.deepEqual(Object.keys(docs.codex.hooks), ['PreToolUse']);
  // Gemini: BeforeTool, milliseconds.
  assert.equal(wardenHandler('gemini', docs.gemini).timeout, 150_000);
  assert.deepEqual(Object.keys(docs.gemini.hooks), ['BeforeTool']);
  // Cursor rejects unknown fields: version, hooks, and a handler with its command only.
  assert.deepEqual(docs.cursor, {
    version: 1,
    hooks: { preToolUse: [{ command: `${BRIDGE} --agent cursor --timeout 135` }] },
  });
  // Copilot: version 1, bash + timeoutSec in seconds.
  assert.deepEqual(docs.copilot, {
    version: 1,
    hooks: { preToolUse: [{ type: 'command', bash: `${BRIDGE} --agent copilot --timeout 135`, timeoutSec: 150 }] },
  });
});

for (const agent of AGENTS) {
  test(`${agent}: install keeps the person's entries, a second install changes nothing, uninstall restores the bytes`, (t) => {
    const { project, home } = setup(t);
    const path = hookFile(agent, 'project', { projectRoot: project, home });
    mkdirSync(dirname(path), { recursive: true });
    const original = JSON.stringify(PERSONS_FILE[agent], null, 2) + '\n';
    writeFileSync(path, original);

    const plan = install(agent, 'project', project, home);
    applyCommandPlan(plan);
    const installed = JSON.parse(readFileSync(path, 'utf8')) as Json;
    wardenHandler(agent, installed);
    // Everything of the person's is still there, untouched.
    for (const [key, value] of Object.entries(PERSONS_FILE[agent]))
      if (key !== 'hooks') assert.deepEqual(installed[key], value, key);
    for (const [event, list] of Object.entries(PERSONS_FILE[agent].hooks as Json))
      for (const entry of list as Json[])
        assert.ok(JSON.stringify(installed.hooks[event]).includes(JSON.stringify(entry)), event);
    assert.ok(hasWardenHook(agent, 'project', { projectRoot: project, home }));
    if (agent === 'cursor')
      assert.match(
        String(installed.hooks.preToolUse[0].command),
        /--agent cursor/,
        "Warden's handler comes first: Cursor versions have run only the first",
      );

    assert.equal(install(agent, 'project', project, home).changed, false, 'idempotent');
    const removal = planCommandUninstall(agent, 'project', { projectRoot: project, home });
    applyCommandPlan(removal);
    assert.equal(readFileSync(path, 'utf8'), original, "the person's file is byte-identical again");
    assert.equal(planCommandUninstall(agent, 'project', { projectRoot: project, home }).changed, false);
  });

  test(`${agent}: a file Warden created is removed again by uninstall`, (t) => {
    const { project, home } = setup(t);
    applyCommandPlan(install(agent, 'user', project, home));
    const path = hookFile(agent, 'user', { projectRoot: project, home });
    assert.ok(existsSync(path));
    applyCommandPlan(planCommandUninstall(agent, 'user', { projectRoot: project, home }));
    assert.equal(existsSync(path), false);
  });
}

test('a Warden handler inside a group the person shares keeps their handler', (t) => {
  const { project, home } = setup(t);
  const path = hookFile('codex', 'project', { projectRoot: project, home });
  mkdirSync(dirname(path), { recursive: true });
  const shared = {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'mine.sh' },
            { type: 'command', command: 'agent-warden-hook --agent codex --timeout 10' },
          ],
        },
      ],
    },
  };
  writeFileSync(path, JSON.stringify(shared));
  applyCommandPlan(planCommandUninstall('codex', 'project', { projectRoot: project, home }));
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'mine.sh' }] }] },
  });
});

test("only the bridge for that agent counts as Warden's", () => {
  assert.ok(isWardenCommand('"/n/node" "/w/dist/hook.js" --agent codex --timeout 9', 'codex'));
  assert.ok(isWardenCommand('agent-warden-hook --agent gemini', 'gemini'));
  assert.ok(isWardenCommand('agent-warden hook --agent cursor', 'cursor'));
  assert.ok(!isWardenCommand('agent-warden-hook --agent codex', 'gemini'));
  assert.ok(!isWardenCommand('./my-hook.sh --agent codex', 'codex'));
  assert.ok(!isWardenCommand('sh ./hook.sh --agent codex', 'codex'));
  assert.ok(isWardenCommand('sh "/w/dist/hook.sh" "/n/node" --agent codex --timeout 9', 'codex'));
  assert.ok(!isWardenCommand('agent-warden-hook --agent codexx', 'codex'));
});

test('a file that is not JSON is refused, not overwritten', (t) => {
  const { project, home } = setup(t);
  const path = hookFile('gemini', 'project', { projectRoot: project, home });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '{ "theme": ');
  assert.throws(() => install('gemini', 'project', project, home), /not valid JSON/);
  assert.equal(readFileSync(path, 'utf8'), '{ "theme": ');
});

test('the CLI installs for each agent, and the command it wrote is the working bridge', async (t) => {
  const { project, home } = setup(t);
  const env = isolatedEnv(home);
  for (const agent of AGENTS) {
    const result = await runCli(['install', '--agent', agent, '--scope', 'user'], { cwd: project, env });
    assert.equal(result.code, 0, result.stderr);
    const path = hookFile(agent, 'user', { projectRoot: project, home });
    const command = String(
      wardenHandler(agent, JSON.parse(readFileSync(path, 'utf8'))).command ??
        wardenHandler(agent, JSON.parse(readFileSync(path, 'utf8'))).bash,
    );
    // This machine has sh, curl and openssl: the shell bridge, which hands off to dist/hook.js.
    assert.match(command, /^\/bin\/sh ".*dist\/hook\.sh" ".*node[^"]*" --agent/);
    // Run exactly what the agent would run: no endpoint here, so the bridge evaluates in-process.
    const out = execFileSync('/bin/sh', ['-c', command], {
      input: JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).body(agent)),
      env: env as NodeJS.ProcessEnv,
      cwd: project,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    assert.equal(verdictOf(agent, JSON.parse(out)), 'deny', `${agent}: ${out}`);
    const removed = await runCli(['uninstall', '--agent', agent, '--scope', 'user'], { cwd: project, env });
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(existsSync(path), false);
  }
  const local = await runCli(['install', '--agent', 'codex', '--scope', 'local'], { cwd: project, env });
  assert.equal(local.code, 2);
  assert.match(local.stderr, /no local/);
  const project2 = await runCli(['install', '--agent', 'cursor', '--scope', 'project', '--dry-run'], {
    cwd: project,
    env,
  });
  assert.match(
    project2.stdout,
    /"command": "agent-warden-hook --agent cursor --timeout \d+"/,
    'a committed file names the bin, not a path',
  );
});

test("the agents offered for Connect: a CLI on PATH or the agent's folder in the workspace", (t) => {
  const { project, home } = setup(t);
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'codex'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(join(bin, 'gemini'), 'not executable', { mode: 0o644 });
  mkdirSync(join(project, '.cursor'));
  const found = detectCommandAgents(project, bin);
  assert.deepEqual(found, [
    { agent: 'codex', why: '`codex` on PATH' },
    { agent: 'cursor', why: '.cursor in the workspace' },
  ]);
});

test('findOnPath gives the first executable of that name by its path, skipping folders where it is not executable', (t) => {
  const root = aTempDir('find-on-path', t);
  const [first, second, third] = ['a', 'b', 'c'].map((name) => join(root, name));
  for (const dir of [first!, second!, third!]) mkdirSync(dir);
  writeFileSync(join(first!, 'node'), 'not executable', { mode: 0o644 });
  writeFileSync(join(second!, 'node'), '#!/bin/sh\n', { mode: 0o755 });
  writeFileSync(join(third!, 'node'), '#!/bin/sh\n', { mode: 0o755 });
  const path = [first, second, third].join(delimiter);
  assert.equal(findOnPath('node', path), join(second!, 'node'));
  assert.equal(findOnPath('node', [first, join(root, 'missing')].join(delimiter)), undefined);
  assert.equal(findOnPath('node', ''), undefined);
});
