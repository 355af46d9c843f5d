// Proves the end-to-end harness with the real Claude Code CLI: the fake model
// drives a Bash call, and command and http PreToolUse hooks can refuse it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { toolResultsOf, type ToolResult } from './anthropic-wire';
import { claudeBinary, claudeVersions } from './claude-binary';
import { agentTurns, startFakeModel, toolUseIdFor, type FakeModel } from './fake-model';
import { preToolUseDenial, startHookServer, writeCommandHook } from './hook-doubles';
import { runClaude } from './run-claude';

const testTimeoutMs = 120_000;
const runTimeoutMs = 60_000;
const writeCommand = 'echo hello-from-e2e > out.txt';

async function withProject<T>(body: (cwd: string) => Promise<T>): Promise<T> {
  const cwd = mkdtempSync(join(tmpdir(), 'aw-e2e-project-'));
  try {
    return await body(cwd);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

async function withFakeModel<T>(body: (model: FakeModel) => Promise<T>): Promise<T> {
  const model = await startFakeModel({
    toolCalls: [{ name: 'Bash', input: { command: writeCommand, description: 'Write a marker file' } }],
    finalText: 'All done.',
  });
  try {
    return await body(model);
  } finally {
    await model.close();
  }
}

/** The result the CLI sent the model for the first (only) scripted tool call. */
function firstToolResult(model: FakeModel): ToolResult {
  const turns = agentTurns(model);
  const last = turns.at(-1);
  assert.ok(last, 'the CLI made no main-loop request to the fake model');
  const result = toolResultsOf(last).find((entry) => entry.toolUseId === toolUseIdFor(0));
  assert.ok(result, `no tool_result for ${toolUseIdFor(0)} reached the model`);
  return result;
}

const preToolUseInputSchema = z.looseObject({
  session_id: z.string().min(1),
  transcript_path: z.string().min(1),
  cwd: z.string(),
  permission_mode: z.string(),
  hook_event_name: z.string(),
  tool_name: z.string(),
  tool_input: z.looseObject({ command: z.string() }),
  tool_use_id: z.string(),
});

function assertPreToolUseInput(raw: unknown, cwd: string): void {
  const input = preToolUseInputSchema.parse(raw);
  assert.equal(input.hook_event_name, 'PreToolUse');
  assert.equal(input.tool_name, 'Bash');
  assert.equal(input.tool_input.command, writeCommand);
  assert.equal(input.tool_use_id, toolUseIdFor(0));
  assert.equal(input.permission_mode, 'bypassPermissions');
  assert.equal(input.cwd, cwd);
}

function assertDeniedWith(
  run: Awaited<ReturnType<typeof runClaude>>,
  model: FakeModel,
  cwd: string,
  reason: string,
): void {
  assert.equal(run.exitCode, 0, run.stderr);
  assert.ok(run.result, `no result JSON on stdout: ${run.stdout}`);
  assert.equal(existsSync(join(cwd, 'out.txt')), false, 'the denied command ran anyway');
  assert.deepEqual(
    run.result.permission_denials.map((denial) => [
      denial.tool_name,
      denial.tool_use_id,
      denial.tool_input?.['command'],
    ]),
    [['Bash', toolUseIdFor(0), writeCommand]],
  );
  const toolResult = firstToolResult(model);
  assert.equal(toolResult.isError, true);
  assert.ok(toolResult.text.includes(reason), `the reason did not reach the model: ${toolResult.text}`);
}

for (const version of claudeVersions) {
  test(`claude ${version} is installed and reports its version`, () => {
    const run = spawnSync(claudeBinary(version), ['--version'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^${version.replaceAll('.', '\\.')} `));
  });
}

for (const version of claudeVersions) {
  test(`claude ${version}: without hooks the scripted Bash call runs`, { timeout: testTimeoutMs }, () =>
    withProject((cwd) =>
      withFakeModel(async (model) => {
        const run = await runClaude({
          version,
          cwd,
          prompt: 'Write the marker file.',
          modelUrl: model.url,
          permissionMode: 'bypassPermissions',
          timeoutMs: runTimeoutMs,
        });
        assert.equal(run.exitCode, 0, run.stderr);
        assert.ok(run.result, `no result JSON on stdout: ${run.stdout}`);
        assert.equal(run.result.subtype, 'success');
        assert.equal(run.result.result, 'All done.');
        assert.deepEqual(run.result.permission_denials, []);
        assert.equal(readFileSync(join(cwd, 'out.txt'), 'utf8'), 'hello-from-e2e\n');
        assert.equal(firstToolResult(model).isError, false);
        assert.equal(agentTurns(model).length, 2);
      }),
    ),
  );
}

for (const version of claudeVersions) {
  test(
    `claude ${version}: a command PreToolUse hook's deny stops the call and its reason reaches the model`,
    { timeout: testTimeoutMs },
    () =>
      withProject((cwd) =>
        withFakeModel(async (model) => {
          const hookDir = mkdtempSync(join(tmpdir(), 'aw-e2e-hook-'));
          try {
            const hook = writeCommandHook(hookDir, 'deny', preToolUseDenial('blocked by test'));
            const run = await runClaude({
              version,
              cwd,
              prompt: 'Write the marker file.',
              modelUrl: model.url,
              permissionMode: 'bypassPermissions',
              settings: {
                hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook.command }] }] },
              },
              timeoutMs: runTimeoutMs,
            });
            assertDeniedWith(run, model, cwd, 'blocked by test');
            const inputs = hook.inputs();
            assert.equal(inputs.length, 1);
            assertPreToolUseInput(inputs[0], cwd);
          } finally {
            rmSync(hookDir, { recursive: true, force: true });
          }
        }),
      ),
  );
}

for (const version of claudeVersions) {
  test(
    `claude ${version}: an http PreToolUse hook gets the call and its deny stops it`,
    { timeout: testTimeoutMs },
    () =>
      withProject((cwd) =>
        withFakeModel(async (model) => {
          const hookServer = await startHookServer(() => preToolUseDenial('blocked by http test'));
          try {
            const run = await runClaude({
              version,
              cwd,
              prompt: 'Write the marker file.',
              modelUrl: model.url,
              permissionMode: 'bypassPermissions',
              settings: {
                hooks: {
                  PreToolUse: [
                    {
                      matcher: 'Bash',
                      hooks: [
                        {
                          type: 'http',
                          url: `${hookServer.url}/hooks/claude`,
                          timeout: 30,
                          headers: { Authorization: 'Bearer $E2E_HOOK_TOKEN', 'X-Unlisted': 'v=$E2E_UNLISTED' },
                          allowedEnvVars: ['E2E_HOOK_TOKEN'],
                        },
                      ],
                    },
                  ],
                },
              },
              env: { E2E_HOOK_TOKEN: 'token-for-e2e', E2E_UNLISTED: 'must-not-leak' },
              timeoutMs: runTimeoutMs,
            });
            assertDeniedWith(run, model, cwd, 'blocked by http test');
            assert.equal(hookServer.calls.length, 1);
            const call = hookServer.calls[0];
            assert.ok(call);
            assert.equal(call.path, '/hooks/claude');
            assert.equal(call.headers['authorization'], 'Bearer token-for-e2e');
            assert.equal(call.headers['x-unlisted'], 'v=', 'a variable missing from allowedEnvVars was expanded');
            assertPreToolUseInput(call.body, cwd);
          } finally {
            await hookServer.close();
          }
        }),
      ),
  );
}
