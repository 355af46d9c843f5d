// serve's opt-in figures (AGENT_WARDEN_STATS=1) say where its memory sits: /health lists the main
// thread's heap and each evaluation worker's, with the shell parser's WebAssembly memory; a worker stuck
// on a call cannot answer, so it is left out after a short wait rather than holding /health up. The
// pool tells its host each time a worker's thread starts (serve applies its V8 settings again then).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Evaluator } from '../../src/core/evaluator';
import { DeterministicPool } from '../../src/core/deterministic/pool';
import type { ThreadMemory } from '../../src/core/deterministic/threadMemory';
import { HookService } from '../../src/server/hooks';
import { LoopStats } from '../../src/server/loopStats';
import { WardenServer } from '../../src/server/server';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

const TOKEN = 'test-hook-token-' + 'm'.repeat(32);
const BUDGET_MS = 4000;

let stateDir: string;
let project: string;
let pool: DeterministicPool;
let stats: LoopStats;
let server: WardenServer;
/** Worker threads started so far (serve applies its V8 settings again on each: cli/heapTuning). */
let workersStarted = 0;

before(async () => {
  stateDir = aTempDir('memory-stats-state');
  project = aProjectDir('memory-stats-project');
  writeFileSync(join(stateDir, 'config.json'), JSON.stringify({ budget: { deterministicMs: BUDGET_MS } }));
  pool = new DeterministicPool({
    workerFile: join(__dirname, '..', 'fixtures', 'workers', 'spinning.worker.js'),
    budgetMs: (config) => config.deterministicBudgetMs,
    onWorkerStarted: () => workersStarted++,
  });
  await pool.whenReady();
  stats = new LoopStats();
  stats.workerMemory = () => pool.memory();
  const evaluator = new Evaluator({ stateDir, home: stateDir, deterministic: pool });
  server = new WardenServer({
    hooks: new HookService({ evaluator, failureDecision: () => 'deny' }),
    hookToken: TOKEN,
    port: 0,
    stats,
  });
  await server.listen();
});

after(async () => {
  await server.close();
  await pool.close();
  stats.close();
  removeDir(stateDir);
  removeDir(project);
});

async function memoryOnHealth(): Promise<ThreadMemory[]> {
  const res = await fetch(`${server.url}/health`);
  assert.equal(res.status, 200);
  return ((await res.json()) as { stats: { memory: ThreadMemory[] } }).stats.memory;
}

test("/health lists the main thread's memory and each worker's, the parser's WebAssembly memory in the workers", async () => {
  const memory = await memoryOnHealth();
  // One worker stands; a spare starts only when a call waits for one.
  assert.deepEqual(
    memory.map((m) => m.thread),
    ['main', 'worker 1'],
  );
  for (const thread of memory) {
    assert.ok(thread.heapUsedMb > 0 && thread.heapUsedMb <= thread.heapTotalMb, JSON.stringify(thread));
    assert.ok(thread.codeMb > 0, JSON.stringify(thread));
    // The old generation holds the loaded program: some of it live, never more live than it holds.
    assert.ok(thread.oldSpaceUsedMb > 0 && thread.oldSpaceUsedMb <= thread.oldSpaceMb, JSON.stringify(thread));
    assert.ok(thread.largeObjectsMb >= 0, JSON.stringify(thread));
  }
  for (const worker of memory.slice(1)) assert.ok(worker.wasmMb > 0, `no parser memory: ${JSON.stringify(worker)}`);
});

test('a worker stuck on a call is left out of the figures; /health still answers', async () => {
  const spinning = fetch(`${server.url}/hooks/claude`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(aHookEvent().bash('echo spin-forever').inCwd(project).session('spin').body()),
  });
  // The spin has reached the worker once it no longer answers.
  let memory = await memoryOnHealth();
  for (let attempt = 0; attempt < 50 && memory.length === 2; attempt++) memory = await memoryOnHealth();
  assert.deepEqual(
    memory.map((m) => m.thread),
    ['main'],
  );
  assert.equal((await spinning).status, 200);
});

test('the host hears of every worker thread that starts, the replacement of a stuck one included', async () => {
  // The stuck worker of the test above was stopped at its budget and replaced.
  await pool.whenReady();
  assert.equal(workersStarted, 2);
});
