// The real Codex CLI against a fake Responses API (a custom model provider in
// CODEX_HOME/config.toml), with Warden's PreToolUse hook written by the real
// `install --agent codex` and answered through the command bridge by a real
// `serve`: a destructive command is blocked (HOME untouched, the endpoint's
// record of the call), an ordinary command runs, and an ask (which Codex
// cannot show) is held in the panel, where a person's refusal blocks it.
// Codex runs only hooks a person trusted; the run passes
// --dangerously-bypass-hook-trust, Codex's switch for automation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAi } from './fake-openai';
import {
  agentBinary,
  ASK_COMMAND,
  connectPanel,
  records,
  runAgent,
  SENTINEL,
  serveAndInstall,
  refuseHeldAsk,
  withWorld,
  type World,
} from './world';

const VERSION = '0.171.0';
const TIMEOUT_MS = 150_000;
// Codex refuses `rm -f`-style commands itself before any hook; `rm -r ~/` reaches the hook.
const WIPE = 'rm -r ~/';

function codexConfig(world: World, modelUrl: string): void {
  mkdirSync(join(world.home, '.codex'), { recursive: true });
  writeFileSync(
    join(world.home, '.codex', 'config.toml'),
    [
      'model = "gpt-5"',
      'model_provider = "fake"',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${modelUrl}"`,
      'wire_api = "responses"',
      'env_key = "FAKE_MODEL_KEY"',
      '',
    ].join('\n'),
  );
}

function runCodex(world: World) {
  return runAgent(
    agentBinary(`codex-${VERSION}`, 'codex'),
    [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--dangerously-bypass-hook-trust',
      'run the scripted command',
    ],
    {
      cwd: world.project,
      env: { ...(world.env as NodeJS.ProcessEnv), CODEX_HOME: join(world.home, '.codex'), FAKE_MODEL_KEY: 'dummy' },
      timeoutMs: 120_000,
    },
  );
}

test(
  `codex ${VERSION}: a destructive command is blocked through the installed hook; an ordinary one runs`,
  { timeout: TIMEOUT_MS },
  async () => {
    await withWorld(async (world) => {
      const model = await startFakeOpenAi([
        { name: 'exec_command', args: { cmd: WIPE } },
        { name: 'exec_command', args: { cmd: 'echo made-by-codex > made.txt' } },
      ]);
      codexConfig(world, model.url);
      const serve = await serveAndInstall(world, 'codex');
      try {
        const run = await runCodex(world);
        assert.equal(run.code, 0, run.stderr);
        assert.ok(existsSync(join(world.home, SENTINEL)), 'HOME survived');
        const wipe = records(world, 'codex').find((r) => String(r.toolInput?.command) === WIPE);
        assert.ok(wipe, `the endpoint recorded the call Codex made; stderr: ${run.stderr}`);
        assert.equal(wipe.decision, 'deny');
        assert.equal(wipe.event, 'PreToolUse');
        assert.match(run.stderr, /blocked by PreToolUse hook/);
        assert.equal(
          readFileSync(join(world.project, 'made.txt'), 'utf8').trim(),
          'made-by-codex',
          'the ordinary call ran',
        );
        // HOME holds Warden's state folder here, so self-defence may be the reason named first.
        assert.match(
          model.toolResults()[0] ?? '',
          /recursive-delete-outside-project|warden-self-defence/,
          'the model was told why',
        );
      } finally {
        await model.close();
        await serve.stop();
      }
    });
  },
);

test(
  `codex ${VERSION}: an ask is held in the panel (Codex cannot ask), and a person's refusal blocks it`,
  { timeout: TIMEOUT_MS },
  async () => {
    await withWorld(async (world) => {
      const model = await startFakeOpenAi([{ name: 'exec_command', args: { cmd: ASK_COMMAND } }]);
      codexConfig(world, model.url);
      const serve = await serveAndInstall(world, 'codex');
      const connected = await connectPanel(serve, world);
      const { panel } = connected;
      try {
        const running = runCodex(world);
        await refuseHeldAsk(connected, 'codex', 90_000);
        const run = await running;
        assert.equal(run.code, 0, run.stderr);
        assert.match(model.toolResults()[0] ?? '', /blocked by PreToolUse hook.*not on this machine/s);
      } finally {
        panel.close();
        await model.close();
        await serve.stop();
      }
    });
  },
);
