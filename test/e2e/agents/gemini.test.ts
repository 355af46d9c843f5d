// The real Gemini CLI against a fake Gemini API, with Warden's BeforeTool hook
// written by the real `install --agent gemini` and answered through the
// command bridge by a real `serve`: rm -rf ~/ is blocked (HOME untouched, the
// endpoint's record of the call), an ordinary command runs, and an ask is held
// in the panel, where a person's refusal blocks it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeGemini, toolResults } from './fake-gemini';
import {
  agentBinary,
  ASK_COMMAND,
  connectPanel,
  pendingList,
  records,
  runAgent,
  SENTINEL,
  serveAndInstall,
  WIPE_HOME,
  refuseHeldAsk,
  withWorld,
  type World,
} from './world';

const VERSION = '0.61.0';
const TIMEOUT_MS = 150_000;

function geminiSettings(world: World): void {
  mkdirSync(join(world.home, '.gemini'), { recursive: true });
  writeFileSync(
    join(world.home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    }),
  );
}

async function runGemini(world: World, modelUrl: string) {
  return runAgent(
    agentBinary(`gemini-${VERSION}`, 'gemini'),
    ['-p', 'run the scripted command', '--yolo', '-m', 'gemini-2.5-flash'],
    {
      cwd: world.project,
      env: { ...(world.env as NodeJS.ProcessEnv), GEMINI_API_KEY: 'dummy', GOOGLE_GEMINI_BASE_URL: modelUrl },
      timeoutMs: 120_000,
    },
  );
}

test(
  `gemini ${VERSION}: rm -rf ~/ is blocked through the installed hook; an ordinary command runs`,
  { timeout: TIMEOUT_MS },
  async () => {
    await withWorld(async (world) => {
      geminiSettings(world);
      const serve = await serveAndInstall(world, 'gemini');
      const model = await startFakeGemini([
        { name: 'run_shell_command', args: { command: WIPE_HOME } },
        { name: 'run_shell_command', args: { command: 'echo made-by-gemini > made.txt' } },
      ]);
      try {
        const run = await runGemini(world, model.url);
        assert.equal(run.code, 0, run.stderr);
        assert.ok(existsSync(join(world.home, SENTINEL)), 'HOME survived');
        const wipe = records(world, 'gemini').find((r) => String(r.toolInput?.command) === WIPE_HOME);
        assert.ok(wipe, 'the endpoint recorded the call Gemini made');
        assert.equal(wipe.decision, 'deny');
        assert.equal(wipe.event, 'BeforeTool');
        assert.equal(
          readFileSync(join(world.project, 'made.txt'), 'utf8').trim(),
          'made-by-gemini',
          'the ordinary call ran',
        );
        const results = JSON.stringify(toolResults(model));
        assert.match(results, /blocked/i, 'Gemini told the model the call was blocked');
      } finally {
        await model.close();
        await serve.stop();
      }
    });
  },
);

test(
  `gemini ${VERSION}: an ask is held in the panel, and a person's refusal blocks it`,
  { timeout: TIMEOUT_MS },
  async () => {
    await withWorld(async (world) => {
      geminiSettings(world);
      const serve = await serveAndInstall(world, 'gemini');
      const model = await startFakeGemini([{ name: 'run_shell_command', args: { command: ASK_COMMAND } }]);
      const connected = await connectPanel(serve, world);
      const { panel, endpoint } = connected;
      try {
        const running = runGemini(world, model.url);
        await refuseHeldAsk(connected, 'gemini', 90_000, async (pending) => {
          assert.equal(pending.toolName, 'run_shell_command');
          assert.equal((await pendingList(endpoint)).length, 1);
        });
        const run = await running;
        assert.equal(run.code, 0, run.stderr);
        assert.match(JSON.stringify(toolResults(model)), /not on this machine|refused/i);
      } finally {
        panel.close();
        await model.close();
        await serve.stop();
      }
    });
  },
);
