// The real GitHub Copilot CLI in its offline mode against a fake Chat
// Completions API (COPILOT_OFFLINE + COPILOT_PROVIDER_BASE_URL), with Warden's
// preToolUse hook written by the real `install --agent copilot` (its own file
// in ~/.copilot/hooks) and answered through the command bridge by a real
// `serve`: a destructive command is blocked (HOME untouched, the endpoint's
// record of the call), an ordinary command runs, and an ask is held in the
// panel, where a person's refusal blocks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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

const VERSION = '1.0.102';
const TIMEOUT_MS = 180_000;
const WIPE = 'rm -r ~/';

function runCopilot(world: World, modelUrl: string) {
  return runAgent(
    agentBinary(`copilot-${VERSION}`, 'copilot'),
    ['-p', 'run the scripted command', '--allow-all-tools'],
    {
      cwd: world.project,
      env: {
        ...(world.env as NodeJS.ProcessEnv),
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: modelUrl,
        COPILOT_PROVIDER_API_KEY: 'dummy',
        COPILOT_MODEL: 'gpt-5',
        COPILOT_AUTO_UPDATE: 'false',
      },
      timeoutMs: 150_000,
    },
  );
}

test(
  `copilot ${VERSION}: a destructive command is blocked through the installed hook; an ordinary one runs`,
  { timeout: TIMEOUT_MS },
  async () => {
    await withWorld(async (world) => {
      const model = await startFakeOpenAi([
        { name: 'bash', args: { command: WIPE, description: 'wipe' } },
        { name: 'bash', args: { command: 'echo made-by-copilot > made.txt', description: 'make a file' } },
      ]);
      const serve = await serveAndInstall(world, 'copilot');
      try {
        const run = await runCopilot(world, model.url);
        assert.equal(run.code, 0, run.stderr);
        assert.ok(existsSync(join(world.home, SENTINEL)), 'HOME survived');
        const wipe = records(world, 'copilot').find((r) => String(r.toolInput?.command) === WIPE);
        assert.ok(wipe, `the endpoint recorded the call Copilot made; stdout: ${run.stdout}`);
        assert.equal(wipe.decision, 'deny');
        assert.equal(wipe.toolName, 'bash');
        assert.match(run.stdout, /Denied by preToolUse hook/);
        assert.equal(
          readFileSync(join(world.project, 'made.txt'), 'utf8').trim(),
          'made-by-copilot',
          'the ordinary call ran',
        );
      } finally {
        await model.close();
        await serve.stop();
      }
    });
  },
);

test(
  `copilot ${VERSION}: an ask is held in the panel, and a person's refusal blocks it`,
  { timeout: TIMEOUT_MS },
  async () => {
    await withWorld(async (world) => {
      const model = await startFakeOpenAi([
        { name: 'bash', args: { command: ASK_COMMAND, description: 'install jq' } },
      ]);
      const serve = await serveAndInstall(world, 'copilot');
      const connected = await connectPanel(serve, world);
      const { panel } = connected;
      try {
        const running = runCopilot(world, model.url);
        await refuseHeldAsk(connected, 'copilot', 120_000);
        const run = await running;
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /Denied by preToolUse hook[\s\S]*not on this machine/);
      } finally {
        panel.close();
        await model.close();
        await serve.stop();
      }
    });
  },
);
