// install / uninstall for Claude Code: merged with the user's own hooks and
// keys, removed exactly, no literal token in a project file, fail-closed only
// where the installed Claude Code supports it. Then the same through the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyPlan,
  compareVersions,
  FAIL_CLOSED_EVENTS,
  HOOK_EVENTS,
  isWardenHook,
  planInstall,
  planUninstall,
  settingsPath,
  TOKEN_ENV,
  type InstallOptions,
} from '../../../src/core/install/claude';
import { fakeClaude, isolatedEnv, runCli } from '../../builders/process';
import { aProjectDir, aTempDir, removeDir } from '../../builders/tempProject';

type Json = Record<string, any>;

const USER_SETTINGS: Json = {
  permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'], ask: ['Bash(git push:*)'] },
  env: { FOO: 'bar', DEBUG: '1' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/my-audit.sh', timeout: 5 }] }],
    Notification: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:7777/notify', headers: { 'X-Me': '1' } }] }],
  },
  model: 'opus',
  statusLine: { type: 'command', command: 'echo hi' },
};

const TWO_SPACE = JSON.stringify(USER_SETTINGS, null, 2) + '\n';

function options(project: string, home: string, extra: Partial<InstallOptions> = {}): InstallOptions {
  return {
    scope: 'local',
    projectRoot: project,
    home,
    url: 'http://127.0.0.1:4567',
    token: 'literal-token-ABCDEFGHIJKLMNOP',
    claudeVersion: '2.1.300',
    approvalTimeoutSeconds: 120,
    ...extra,
  };
}

function withUserFile(project: string, home: string, scope: InstallOptions['scope'], text: string): string {
  const path = settingsPath(scope, project, home);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function wardenHooksOf(settings: Json): { event: string; hook: Json }[] {
  const found: { event: string; hook: Json }[] = [];
  for (const [event, groups] of Object.entries((settings.hooks ?? {}) as Json)) {
    for (const group of groups as Json[])
      for (const hook of group.hooks as Json[]) if (isWardenHook(hook)) found.push({ event, hook });
  }
  return found;
}

/** The settings with Warden's groups taken out by hand, to compare with what the user had. */
function userPart(settings: Json): Json {
  const copy = structuredClone(settings);
  for (const [event, groups] of Object.entries((copy.hooks ?? {}) as Json)) {
    copy.hooks[event] = (groups as Json[]).filter((g) => !(g.hooks as Json[]).some(isWardenHook));
    if (copy.hooks[event].length === 0 && !(event in USER_SETTINGS.hooks)) delete copy.hooks[event];
  }
  return copy;
}

function setup(t: { after(fn: () => void): void }): { project: string; home: string } {
  const project = aProjectDir('install-project');
  const home = aTempDir('install-home');
  t.after(() => {
    removeDir(project);
    removeDir(home);
  });
  return { project, home };
}

test('settings paths for each scope', () => {
  assert.equal(settingsPath('local', '/p', '/h'), '/p/.claude/settings.local.json');
  assert.equal(settingsPath('project', '/p', '/h'), '/p/.claude/settings.json');
  assert.equal(settingsPath('user', '/p', '/h'), '/h/.claude/settings.json');
});

test('install then uninstall leaves a 2-space settings file byte-identical', (t) => {
  const { project, home } = setup(t);
  for (const scope of ['local', 'project', 'user'] as const) {
    const path = withUserFile(project, home, scope, TWO_SPACE);
    applyPlan(planInstall(options(project, home, { scope })));
    assert.notEqual(readFileSync(path, 'utf8'), TWO_SPACE, `${scope}: install changed the file`);
    const plan = planUninstall(scope, project, home);
    assert.equal(plan.changed, true);
    applyPlan(plan);
    assert.equal(readFileSync(path, 'utf8'), TWO_SPACE, `${scope}: byte-identical after the round trip`);
  }
});

test('the same round trip in bridge mode is byte-identical too', (t) => {
  const { project, home } = setup(t);
  const path = withUserFile(project, home, 'local', TWO_SPACE);
  applyPlan(
    planInstall(options(project, home, { bridge: true, bridgeCommand: '"/usr/bin/node" "/opt/aw/dist/cli.js"' })),
  );
  applyPlan(planUninstall('local', project, home));
  assert.equal(readFileSync(path, 'utf8'), TWO_SPACE);
});

test("a file in another style keeps the user's content exactly after the round trip", (t) => {
  const { project, home } = setup(t);
  const path = withUserFile(project, home, 'local', JSON.stringify(USER_SETTINGS));
  applyPlan(planInstall(options(project, home)));
  applyPlan(planUninstall('local', project, home));
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), USER_SETTINGS);
});

test("after install the user's entries are untouched and Warden has one hook per event", (t) => {
  const { project, home } = setup(t);
  const path = withUserFile(project, home, 'local', TWO_SPACE);
  applyPlan(planInstall(options(project, home)));
  const installed = JSON.parse(readFileSync(path, 'utf8')) as Json;
  assert.deepEqual(userPart(installed), USER_SETTINGS, "every one of the user's keys and hooks is as it was");
  assert.deepEqual(
    installed.hooks.PreToolUse[0],
    USER_SETTINGS.hooks.PreToolUse[0],
    "the user's own PreToolUse group comes first, as it was",
  );
  const warden = wardenHooksOf(installed);
  assert.deepEqual(warden.map((w) => w.event).sort(), [...HOOK_EVENTS].sort());
  for (const { hook } of warden) {
    assert.equal(hook.type, 'http');
    assert.equal(hook.url, 'http://127.0.0.1:4567/hooks/claude');
  }
});

test('reinstalling is idempotent, and a new URL replaces the old entries', (t) => {
  const { project, home } = setup(t);
  const path = withUserFile(project, home, 'local', TWO_SPACE);
  applyPlan(planInstall(options(project, home)));
  const once = readFileSync(path, 'utf8');
  const again = planInstall(options(project, home));
  assert.equal(again.changed, false);
  assert.equal(again.after, once);
  applyPlan(again);
  assert.equal(readFileSync(path, 'utf8'), once);

  applyPlan(planInstall(options(project, home, { url: 'http://127.0.0.1:9999/' })));
  const moved = JSON.parse(readFileSync(path, 'utf8')) as Json;
  const warden = wardenHooksOf(moved);
  assert.equal(warden.length, HOOK_EVENTS.length, 'no duplicates');
  for (const { hook } of warden) assert.equal(hook.url, 'http://127.0.0.1:9999/hooks/claude');

  applyPlan(planInstall(options(project, home, { bridge: true, bridgeCommand: 'agent-warden' })));
  const bridged = wardenHooksOf(JSON.parse(readFileSync(path, 'utf8')) as Json);
  assert.equal(bridged.length, HOOK_EVENTS.length, 'switching to the bridge replaces the http hooks');
  for (const { hook } of bridged) assert.equal(hook.type, 'command');
});

test('install into a missing file creates it; uninstall then leaves an empty object', (t) => {
  const { project, home } = setup(t);
  const path = settingsPath('local', project, home);
  const plan = planInstall(options(project, home));
  assert.equal(plan.before, null);
  applyPlan(plan);
  assert.ok(existsSync(path));
  applyPlan(planUninstall('local', project, home));
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {});
  const nothing = planUninstall('user', project, home);
  assert.equal(nothing.changed, false, 'uninstall of an absent file changes nothing');
});

test('uninstall of a file without Warden hooks keeps its bytes, whatever the style', (t) => {
  const { project, home } = setup(t);
  const text = '{"hooks":{"PreToolUse":[]},   "model":"opus"}';
  const path = withUserFile(project, home, 'local', text);
  const plan = planUninstall('local', project, home);
  assert.equal(plan.changed, false);
  applyPlan(plan);
  assert.equal(readFileSync(path, 'utf8'), text);
});

test('a settings file that is not JSON is refused, naming the file', (t) => {
  const { project, home } = setup(t);
  const path = withUserFile(project, home, 'local', '{ "hooks": ');
  assert.throws(
    () => planInstall(options(project, home)),
    (err: Error) => err.message.includes(path) && /not valid JSON/.test(err.message),
  );
});

test('the project scope never holds the literal token: a $VAR header with allowedEnvVars', (t) => {
  const { project, home } = setup(t);
  const token = 'literal-token-that-must-not-be-committed';
  const plan = planInstall(options(project, home, { scope: 'project', token }));
  assert.ok(!plan.after.includes(token));
  for (const { hook } of wardenHooksOf(JSON.parse(plan.after) as Json)) {
    assert.deepEqual(hook.headers, { Authorization: `Bearer $${TOKEN_ENV}` });
    assert.deepEqual(hook.allowedEnvVars, [TOKEN_ENV]);
  }
  assert.ok(
    plan.warnings.some((w) => w.includes(TOKEN_ENV)),
    'the user is told where the token comes from',
  );
});

test('the local scope may carry the literal token and then needs no env var', (t) => {
  const { project, home } = setup(t);
  const plan = planInstall(options(project, home, { scope: 'local', token: 'tok-123' }));
  for (const { hook } of wardenHooksOf(JSON.parse(plan.after) as Json)) {
    assert.deepEqual(hook.headers, { Authorization: 'Bearer tok-123' });
    assert.equal(hook.allowedEnvVars, undefined);
  }
});

test('from 2.1.295 on: onFailure "block" on the tool-call gates and a timeout longer than the approval deadline', (t) => {
  const { project, home } = setup(t);
  assert.deepEqual([...FAIL_CLOSED_EVENTS].sort(), ['PermissionRequest', 'PreToolUse']);
  for (const version of ['2.1.295', '2.1.300', '2.2.0', '3.0.0', '2.1.1000']) {
    const plan = planInstall(options(project, home, { claudeVersion: version, approvalTimeoutSeconds: 300 }));
    for (const { event, hook } of wardenHooksOf(JSON.parse(plan.after) as Json)) {
      // A prompt or a stop blocked while Warden is down would lock the person out of the agent.
      assert.equal(hook.onFailure, FAIL_CLOSED_EVENTS.has(event) ? 'block' : undefined, `${version} ${event}`);
      assert.ok(typeof hook.timeout === 'number' && hook.timeout > 300, `${version}: timeout ${hook.timeout}`);
    }
    assert.ok(!plan.warnings.some((w) => /fail OPEN/.test(w)), version);
  }
});

test('before 2.1.295 (or unknown): no onFailure key, and a warning about failing OPEN that offers --bridge', (t) => {
  const { project, home } = setup(t);
  for (const version of ['2.1.197', '2.1.294', '1.9.999', null]) {
    const plan = planInstall(options(project, home, { claudeVersion: version }));
    const text = plan.after;
    assert.ok(!text.includes('onFailure'), `${version}: no onFailure key`);
    const warning = plan.warnings.find((w) => /fail OPEN/.test(w));
    assert.ok(warning, `${version}: a fail-open warning`);
    assert.match(warning, /--bridge/);
  }
});

test('--bridge writes command hooks that run the bridge, with a timeout past the approval deadline', (t) => {
  const { project, home } = setup(t);
  const plan = planInstall(
    options(project, home, {
      bridge: true,
      bridgeCommand: '"/usr/bin/node" "/opt/aw/dist/cli.js"',
      claudeVersion: '2.1.197',
      url: undefined,
    }),
  );
  assert.equal(plan.mode, 'bridge');
  const warden = wardenHooksOf(JSON.parse(plan.after) as Json);
  assert.equal(warden.length, HOOK_EVENTS.length);
  for (const { hook } of warden) {
    assert.equal(hook.type, 'command');
    assert.equal(hook.command, '"/usr/bin/node" "/opt/aw/dist/cli.js" hook --agent claude');
    assert.ok(hook.timeout > 120);
    assert.equal(hook.url, undefined);
    assert.equal(hook.headers, undefined);
  }
  assert.ok(!plan.warnings.some((w) => /fail OPEN/.test(w)), 'command hooks block on exit 2: no fail-open warning');
  for (const { hook } of warden) assert.equal(hook.onFailure, undefined, '2.1.197 has no onFailure');
});

test('--bridge from 2.1.295 on: a bridge that cannot start or is timed out blocks the tool-call gates too', (t) => {
  const { project, home } = setup(t);
  const plan = planInstall(
    options(project, home, { bridge: true, bridgeCommand: 'agent-warden', claudeVersion: '2.1.332', url: undefined }),
  );
  for (const { event, hook } of wardenHooksOf(JSON.parse(plan.after) as Json)) {
    assert.equal(hook.type, 'command');
    assert.equal(hook.onFailure, FAIL_CLOSED_EVENTS.has(event) ? 'block' : undefined, event);
  }
});

test('http mode without a URL is refused with what to do', (t) => {
  const { project, home } = setup(t);
  assert.throws(() => planInstall(options(project, home, { url: undefined })), /agent-warden serve|--url/);
});

test('only Warden hooks are recognised as Warden hooks', () => {
  assert.ok(isWardenHook({ type: 'http', url: 'http://127.0.0.1:4567/hooks/claude' }));
  assert.ok(isWardenHook({ type: 'http', url: 'http://localhost:1/hooks/claude' }));
  assert.ok(isWardenHook({ type: 'command', command: 'agent-warden hook --agent claude' }));
  assert.ok(!isWardenHook({ type: 'http', url: 'http://127.0.0.1:7777/notify' }));
  assert.ok(!isWardenHook({ type: 'http', url: 'https://audit.example/hooks/claude' }));
  assert.ok(!isWardenHook({ type: 'command', command: '/usr/local/bin/my-audit.sh' }));
  assert.ok(!isWardenHook({ type: 'command', command: 'agent-warden hook --agent codex' }));
  assert.ok(!isWardenHook(null));
});

test('versions compare numerically', () => {
  assert.ok(compareVersions('2.1.295', '2.1.295') === 0);
  assert.ok(compareVersions('2.1.1000', '2.1.295') > 0);
  assert.ok(compareVersions('2.1.197', '2.1.295') < 0);
  assert.ok(compareVersions('2.2', '2.1.999') > 0);
});

// --- through the real CLI ------------------------------------------------

function cliEnv(home: string, claudeBin: string): Record<string, string | undefined> {
  return isolatedEnv(home, { AGENT_WARDEN_CLAUDE_BIN: claudeBin });
}

function dryRunJson(stdout: string): { path: string; settings: Json } {
  const newline = stdout.indexOf('\n');
  const header = stdout.slice(0, newline);
  const match = /^# (.+) \(dry run: nothing written\)$/.exec(header);
  assert.ok(match, `a dry-run header line, got: ${header}`);
  return { path: match[1]!, settings: JSON.parse(stdout.slice(newline + 1)) as Json };
}

test('CLI: install --dry-run with Claude Code 2.1.300 prints fail-closed http hooks and writes nothing', async (t) => {
  const { project, home } = setup(t);
  const claude = fakeClaude(home, '2.1.300 (Claude Code)');
  const result = await runCli(
    ['install', '--agent', 'claude', '--scope', 'local', '--url', 'http://127.0.0.1:1234', '--dry-run'],
    { cwd: project, env: cliEnv(home, claude) },
  );
  assert.equal(result.code, 0, result.stderr);
  const { path, settings } = dryRunJson(result.stdout);
  assert.equal(path, join(project, '.claude', 'settings.local.json'));
  assert.ok(!existsSync(path), 'a dry run writes nothing');
  const warden = wardenHooksOf(settings);
  assert.deepEqual(warden.map((w) => w.event).sort(), [...HOOK_EVENTS].sort());
  const token = readFileSync(join(home, '.agent-warden', 'hook-token'), 'utf8').trim();
  for (const { event, hook } of warden) {
    assert.equal(hook.url, 'http://127.0.0.1:1234/hooks/claude');
    assert.equal(hook.onFailure, FAIL_CLOSED_EVENTS.has(event) ? 'block' : undefined, event);
    assert.ok(hook.timeout > 120);
    assert.deepEqual(
      hook.headers,
      { Authorization: `Bearer ${token}` },
      'the local scope carries the token from the state folder',
    );
  }
  assert.doesNotMatch(result.stderr, /fail OPEN/);
});

test('CLI: install --dry-run with Claude Code 2.1.197 warns about failing open and offers --bridge', async (t) => {
  const { project, home } = setup(t);
  const claude = fakeClaude(home, '2.1.197 (Claude Code)');
  const result = await runCli(
    ['install', '--agent', 'claude', '--scope', 'local', '--url', 'http://127.0.0.1:1234', '--dry-run'],
    { cwd: project, env: cliEnv(home, claude) },
  );
  assert.equal(result.code, 0, result.stderr);
  const { settings } = dryRunJson(result.stdout);
  for (const { hook } of wardenHooksOf(settings)) assert.equal(hook.onFailure, undefined);
  assert.match(result.stderr, /2\.1\.197/);
  assert.match(result.stderr, /fail OPEN/);
  assert.match(result.stderr, /--bridge/);
});

test('CLI: project scope never prints or writes the token', async (t) => {
  const { project, home } = setup(t);
  const claude = fakeClaude(home, '2.1.300 (Claude Code)');
  const env = cliEnv(home, claude);
  const result = await runCli(
    ['install', '--agent', 'claude', '--scope', 'project', '--url', 'http://127.0.0.1:1234'],
    { cwd: project, env },
  );
  assert.equal(result.code, 0, result.stderr);
  const written = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
  const printed = await runCli(['env'], { cwd: project, env });
  const token = readFileSync(join(home, '.agent-warden', 'hook-token'), 'utf8').trim();
  assert.equal(printed.stdout, `export ${TOKEN_ENV}=${token}\n`, '`env` prints the export line');
  assert.ok(token.length >= 22);
  assert.ok(!written.includes(token), 'the project file holds no token');
  assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token));
  for (const { hook } of wardenHooksOf(JSON.parse(written) as Json)) assert.deepEqual(hook.allowedEnvVars, [TOKEN_ENV]);
});

test('CLI: install then uninstall in a project with its own settings is byte-identical', async (t) => {
  const { project, home } = setup(t);
  const claude = fakeClaude(home, '2.1.300 (Claude Code)');
  const env = cliEnv(home, claude);
  const path = withUserFile(project, home, 'local', TWO_SPACE);
  const installed = await runCli(
    ['install', '--agent', 'claude', '--scope', 'local', '--url', 'http://127.0.0.1:1234'],
    { cwd: project, env },
  );
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /installed Warden hooks in/);
  assert.equal(wardenHooksOf(JSON.parse(readFileSync(path, 'utf8')) as Json).length, HOOK_EVENTS.length);
  const again = await runCli(['install', '--agent', 'claude', '--scope', 'local', '--url', 'http://127.0.0.1:1234'], {
    cwd: project,
    env,
  });
  assert.match(again.stdout, /already up to date/);
  const removed = await runCli(['uninstall', '--agent', 'claude', '--scope', 'local'], { cwd: project, env });
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /removed Warden hooks from/);
  assert.equal(readFileSync(path, 'utf8'), TWO_SPACE);
});

test('CLI: install --bridge writes command hooks that run this CLI', async (t) => {
  const { project, home } = setup(t);
  const claude = fakeClaude(home, '2.1.197 (Claude Code)');
  const result = await runCli(['install', '--agent', 'claude', '--scope', 'local', '--bridge', '--dry-run'], {
    cwd: project,
    env: cliEnv(home, claude),
  });
  assert.equal(result.code, 0, result.stderr);
  const { settings } = dryRunJson(result.stdout);
  const warden = wardenHooksOf(settings);
  assert.equal(warden.length, HOOK_EVENTS.length);
  for (const { hook } of warden) {
    assert.equal(hook.type, 'command');
    assert.match(hook.command, /dist\/cli\.js" hook --agent claude$/);
  }
});

test('CLI: install with no endpoint and no --url says what to do, exit 2', async (t) => {
  const { project, home } = setup(t);
  const result = await runCli(['install', '--agent', 'claude', '--scope', 'local'], {
    cwd: project,
    env: isolatedEnv(home),
  });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /agent-warden serve/);
  assert.match(result.stderr, /--url/);
  assert.equal(result.stdout, '');
});

test('CLI: install refuses an unknown scope or agent, naming it', async (t) => {
  const { project, home } = setup(t);
  const scope = await runCli(['install', '--agent', 'claude', '--scope', 'global', '--url', 'http://127.0.0.1:1'], {
    cwd: project,
    env: isolatedEnv(home),
  });
  assert.equal(scope.code, 2);
  assert.match(scope.stderr, /"global"/);
  const agent = await runCli(['install', '--agent', 'cursorx', '--scope', 'local', '--url', 'http://127.0.0.1:1'], {
    cwd: project,
    env: isolatedEnv(home),
  });
  assert.equal(agent.code, 2);
  assert.match(agent.stderr, /"cursorx"/);
});
