// The foundation end to end with the real Claude Code CLI: Warden's hooks
// installed by the real `install`, answered by a real `serve` child (or by the
// command bridge evaluating in-process when serve is down), against the fake
// model. The dangerous call is `rm -rf ~/` with HOME a throwaway folder, which
// is checked afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { toolResultsOf, type ToolResult } from './anthropic-wire';
import { claudeBinary, claudeVersions, type ClaudeVersion } from './claude-binary';
import { agentTurns, startFakeModel, toolUseIdFor, type FakeModel, type FakeToolCall } from './fake-model';
import { unusedLocalUrl } from './hook-doubles';
import { runClaude, type ClaudeRun } from './run-claude';
import { jsonLines, runCli, startServe, type ServeChild } from '../../builders/process';

const testTimeoutMs = 240_000;
const runTimeoutMs = 100_000;
const WIPE_HOME = 'rm -rf ~/';
const LISTING_MARKER = 'warden-e2e-listing-marker.txt';
const SENTINEL = 'sentinel-that-must-survive.txt';

interface World {
  project: string;
  /** HOME for Claude Code, its shells and Warden. */
  home: string;
  stateDir: string;
}

async function withWorld<T>(body: (world: World) => Promise<T>): Promise<T> {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'aw-e2e-warden-project-')));
  mkdirSync(join(project, '.git'));
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/feature\n');
  writeFileSync(join(project, LISTING_MARKER), 'listed by ls -la\n');
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'aw-e2e-warden-home-')));
  writeFileSync(join(home, SENTINEL), 'Warden kept this folder\n');
  const stateDir = realpathSync(mkdtempSync(join(tmpdir(), 'aw-e2e-warden-state-')));
  // The throwaway HOME sits in a temp folder, where recursive deletes are scratch-space
  // cleanup by default; without that allowance Warden judges it as the home folder it stands for.
  writeFileSync(
    join(stateDir, 'config.json'),
    JSON.stringify({ policies: { 'recursive-delete-outside-project': { params: { allowTempDirs: false } } } }),
  );
  try {
    return await body({ project, home, stateDir });
  } finally {
    for (const dir of [project, home, stateDir]) rmSync(dir, { recursive: true, force: true });
  }
}

async function withModel<T>(toolCalls: FakeToolCall[], body: (model: FakeModel) => Promise<T>): Promise<T> {
  const model = await startFakeModel({ toolCalls, finalText: 'Finished the scripted calls.' });
  try {
    return await body(model);
  } finally {
    await model.close();
  }
}

async function withServe<T>(world: World, body: (serve: ServeChild) => Promise<T>): Promise<T> {
  const serve = await startServe({ cwd: world.project, env: wardenEnv(world) });
  try {
    return await body(serve);
  } finally {
    await serve.stop();
  }
}

function wardenEnv(world: World, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { PATH: process.env['PATH'], HOME: world.home, AGENT_WARDEN_HOME: world.stateDir, ...extra };
}

async function install(
  world: World,
  version: ClaudeVersion,
  args: string[],
): Promise<{ settings: Record<string, unknown>; stderr: string }> {
  const result = await runCli(['install', '--agent', 'claude', '--scope', 'local', ...args], {
    cwd: world.project,
    env: wardenEnv(world, { AGENT_WARDEN_CLAUDE_BIN: claudeBinary(version) }),
  });
  assert.equal(result.code, 0, `install failed: ${result.stderr}`);
  const path = join(world.project, '.claude', 'settings.local.json');
  assert.match(result.stdout, /installed Warden hooks in/);
  return { settings: JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>, stderr: result.stderr };
}

/** The one hook Warden installed for PreToolUse. */
function preToolUseHook(settings: Record<string, unknown>): Record<string, unknown> {
  const groups = (settings['hooks'] as Record<string, unknown>)['PreToolUse'] as Array<{
    hooks: Array<Record<string, unknown>>;
  }>;
  assert.equal(groups.length, 1);
  assert.equal(groups[0]!.hooks.length, 1);
  return groups[0]!.hooks[0]!;
}

function claude(version: ClaudeVersion, world: World, model: FakeModel, prompt: string): Promise<ClaudeRun> {
  return runClaude({
    version,
    cwd: world.project,
    prompt,
    modelUrl: model.url,
    permissionMode: 'bypassPermissions',
    // The bridge and Claude's shells must see the same HOME and state folder as Warden.
    env: { HOME: world.home, AGENT_WARDEN_HOME: world.stateDir },
    timeoutMs: runTimeoutMs,
  });
}

function toolResult(model: FakeModel, index: number): ToolResult {
  const last = agentTurns(model).at(-1);
  assert.ok(last, 'the CLI made no main-loop request to the fake model');
  const result = toolResultsOf(last).find((entry) => entry.toolUseId === toolUseIdFor(index));
  assert.ok(result, `no tool_result for ${toolUseIdFor(index)} reached the model`);
  return result;
}

function bashRecords(world: World, command: string): Array<Record<string, unknown>> {
  return jsonLines(join(world.stateDir, 'activity.jsonl')).filter(
    (line) =>
      line['type'] === 'record' &&
      line['event'] === 'PreToolUse' &&
      line['toolName'] === 'Bash' &&
      (line['toolInput'] as Record<string, unknown> | null)?.['command'] === command,
  );
}

/** The wipe was refused by Warden: listed as a denial, Warden's reason in front of the model, HOME intact. */
function assertWipeDenied(run: ClaudeRun, model: FakeModel, world: World): void {
  assert.equal(run.exitCode, 0, run.stderr);
  assert.ok(run.result, `no result JSON on stdout: ${run.stdout}\n${run.stderr}`);
  assert.ok(existsSync(join(world.home, SENTINEL)), 'the home folder was wiped');
  assert.deepEqual(
    run.result.permission_denials.map((denial) => [
      denial.tool_name,
      denial.tool_use_id,
      denial.tool_input?.['command'],
    ]),
    [['Bash', toolUseIdFor(0), WIPE_HOME]],
  );
  const records = bashRecords(world, WIPE_HOME);
  assert.equal(records.length, 1, 'the activity log should hold one record of the wipe');
  const record = records[0]!;
  assert.equal(record['decision'], 'deny');
  const reason = String(record['reason']);
  // The home folder holds Warden's state folder here, so self-defence may be the reason named first.
  assert.match(reason, /home folder|Warden self-defence/);
  const result = toolResult(model, 0);
  assert.equal(result.isError, true);
  assert.match(
    result.text,
    loggedTextPattern(reason),
    `Warden's reason did not reach the model.\nlogged reason: ${reason}\ntool_result: ${result.text}`,
  );
}

/** The log keeps the reason redacted: each <redacted:label> marker stands for text the model saw in full. */
function loggedTextPattern(logged: string): RegExp {
  const parts = logged.split(/<redacted:[a-z0-9-]+>/);
  return new RegExp(parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?'));
}

for (const version of claudeVersions) {
  test(
    `claude ${version} with Warden's http hooks from install and a real serve: rm -rf ~/ is denied, ls -la runs`,
    { timeout: testTimeoutMs },
    () =>
      withWorld((world) =>
        withServe(world, async (serve) => {
          const ready = JSON.parse(serve.readyLine) as Record<string, unknown>;
          assert.match(String(ready['url']), /^http:\/\/127\.0\.0\.1:\d+$/);
          assert.ok(isAbsolute(String(ready['tokenFile'])), 'tokenFile is not absolute');
          assert.equal(ready['panelTokenFile'], undefined, 'no panel credential is named on the ready line');
          assert.ok(String(ready['panelUrl']).startsWith(`${serve.url}/panel`));

          const { settings, stderr } = await install(world, version, ['--url', serve.url]);
          const hook = preToolUseHook(settings);
          assert.equal(hook['type'], 'http');
          assert.equal(hook['url'], `${serve.url}/hooks/claude`);
          if (version === '2.1.197') {
            assert.equal(hook['onFailure'], undefined);
            assert.match(stderr, /fail OPEN/);
          } else {
            assert.equal(hook['onFailure'], 'block');
          }

          await withModel(
            [
              { name: 'Bash', input: { command: WIPE_HOME, description: 'Clean the home folder' } },
              { name: 'Bash', input: { command: 'ls -la', description: 'List the project' } },
            ],
            async (model) => {
              const run = await claude(version, world, model, 'Clean up, then list the project.');
              assertWipeDenied(run, model, world);
              const listing = toolResult(model, 1);
              assert.equal(listing.isError, false, listing.text);
              assert.ok(listing.text.includes(LISTING_MARKER), `the model did not see the listing: ${listing.text}`);
              const listed = bashRecords(world, 'ls -la');
              assert.equal(listed.length, 1, 'the activity log should hold one record of ls -la');
              // allow without a person's consent is no objection: Claude Code got `{}`.
              assert.equal(listed[0]!['decision'], 'allow');
              assert.equal((listed[0]!['approval'] as Record<string, unknown>)['state'], 'none');
              assert.equal(run.result?.result, 'Finished the scripted calls.');
            },
          );
        }),
      ),
  );
}

for (const version of claudeVersions) {
  test(
    `claude ${version} with the command bridge from install --bridge and serve down: rm -rf ~/ is still denied in-process`,
    { timeout: testTimeoutMs },
    () =>
      withWorld(async (world) => {
        const { settings } = await install(world, version, ['--bridge']);
        const hook = preToolUseHook(settings);
        assert.equal(hook['type'], 'command');
        assert.match(String(hook['command']), /cli\.js" hook --agent claude$/);
        await withModel(
          [{ name: 'Bash', input: { command: WIPE_HOME, description: 'Clean the home folder' } }],
          async (model) => {
            const run = await claude(version, world, model, 'Clean up the home folder.');
            assertWipeDenied(run, model, world);
          },
        );
      }),
  );
}

test(
  'claude 2.1.332 with the hooks install writes and serve down: the prompt still reaches the model, the tool call is blocked (fail closed)',
  { timeout: testTimeoutMs },
  () =>
    withWorld(async (world) => {
      const deadUrl = await unusedLocalUrl();
      const { settings } = await install(world, '2.1.332', ['--url', deadUrl]);
      const hooks = settings['hooks'] as Record<string, { hooks: Record<string, unknown>[] }[]>;
      assert.equal(preToolUseHook(settings)['onFailure'], 'block');
      // Only the gates on a tool call fail closed: a dead Warden must not lock the person out of the agent.
      for (const event of ['UserPromptSubmit', 'Stop', 'PostToolUse'])
        assert.equal(hooks[event]?.[0]?.hooks[0]?.['onFailure'], undefined, event);
      assert.equal(hooks['PermissionRequest']?.[0]?.hooks[0]?.['onFailure'], 'block');
      const marker = join(world.project, 'ran.txt');
      const command = `echo ran > ${marker}`;
      await withModel([{ name: 'Bash', input: { command, description: 'Write a marker' } }], async (model) => {
        const run = await claude('2.1.332', world, model, 'Write the marker.');
        assert.equal(existsSync(marker), false, 'the call ran although Warden could not be reached');
        assert.ok(run.result, `no result JSON on stdout: ${run.stdout}\n${run.stderr}`);
        assert.deepEqual(
          run.result.permission_denials.map((denial) => [
            denial.tool_name,
            denial.tool_use_id,
            denial.tool_input?.['command'],
          ]),
          [['Bash', toolUseIdFor(0), command]],
        );
        const result = toolResult(model, 0);
        assert.equal(result.isError, true);
        assert.match(result.text, /onFailure is "block"/);
      });
    }),
);

test(
  'claude 2.1.197 with the http hooks install writes and serve down: the call runs (http hooks fail open there, which install warns about)',
  { timeout: testTimeoutMs },
  () =>
    withWorld(async (world) => {
      const deadUrl = await unusedLocalUrl();
      const { settings, stderr } = await install(world, '2.1.197', ['--url', deadUrl]);
      assert.equal(preToolUseHook(settings)['onFailure'], undefined);
      assert.match(stderr, /--bridge/);
      const marker = join(world.project, 'ran.txt');
      await withModel(
        [{ name: 'Bash', input: { command: `echo ran > ${marker}`, description: 'Write a marker' } }],
        async (model) => {
          const run = await claude('2.1.197', world, model, 'Write the marker.');
          assert.equal(run.exitCode, 0, run.stderr);
          assert.deepEqual(run.result?.permission_denials, []);
          assert.equal(readFileSync(marker, 'utf8'), 'ran\n');
          assert.equal(toolResult(model, 0).isError, false);
        },
      );
    }),
);
