// serve keeps its V8 heap near what it holds (cli/heapTuning): under a stream of calls the main thread's
// young generation stays at the size start-up left it at, where V8 left alone grows it to 16 MB
// semi-spaces. Read through /health's opt-in memory figures (AGENT_WARDEN_STATS=1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ThreadMemory } from '../../src/core/deterministic/threadMemory';
import { isolatedEnv, startServe } from '../builders/process';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

const CALLS = 3000;
const CONNECTIONS = 8;

test("under a stream of calls the main thread's young generation does not grow past its start-up size", async (t) => {
  const project = aProjectDir('serve-heap-project');
  const home = aTempDir('serve-heap-home');
  t.after(() => {
    removeDir(project);
    removeDir(home);
  });
  const serve = await startServe({ cwd: project, env: isolatedEnv(home, { AGENT_WARDEN_STATS: '1' }) });
  t.after(() => serve.stop('SIGKILL'));
  const token = readFileSync(serve.tokenFile, 'utf8').trim();
  const mainThread = async (): Promise<ThreadMemory> => {
    const body = (await (await fetch(`${serve.url}/health`)).json()) as { stats: { memory: ThreadMemory[] } };
    return body.stats.memory.find((m) => m.thread === 'main')!;
  };
  const atStart = await mainThread();
  let next = 0;
  const connection = async () => {
    while (next < CALLS) {
      const index = next++;
      // Calls of some size, as agents send: each leaves a record, a row and a log line behind.
      const command = `echo ${'x'.repeat(200 + (index % 50) * 40)} > out-${index}.txt`;
      const res = await fetch(`${serve.url}/hooks/claude`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(
          aHookEvent()
            .bash(command)
            .inCwd(project)
            .session(`heap-${index % 20}`)
            .body(),
        ),
      });
      assert.equal(res.status, 200);
      await res.text();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  const after = await mainThread();
  assert.ok(
    after.newSpaceMb <= atStart.newSpaceMb + 0.5,
    `the young generation grew from ${atStart.newSpaceMb} to ${after.newSpaceMb} MB`,
  );
});
