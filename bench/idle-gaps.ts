import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import type { ResolvedConfig } from '../src/core/config/load';
import { runDeterministic } from '../src/core/deterministic/run';
import { Evaluator } from '../src/core/evaluator';
import { nodeFactSource } from '../src/core/facts/io-node';
import { ALL_POLICIES } from '../src/core/policies/registry';
import { resolvePolicyStates } from '../src/core/policies/run';
import { captureMixInputs, type CapturedCall } from './suite/captured';

// Why serve's evaluation worker spends ~570 µs on a call the same code evaluates in ~350 µs back to
// back: a thread that waited between calls starts each with cold caches. The deterministic inputs a
// host builds for the mix (real session memory and written paths) are captured once, then evaluated
// in a worker thread with the pool's heap limits, back to back and with a pause before each call like
// the wait a worker sees between calls in serve (the thread blocks, as it does waiting for a message).
//   node bench/run.mjs idle-gaps   (env GAP_CALLS, default 3000; GAP_PAUSES_MS, default 0,0.6,2;
//                                   GAP_YOUNG_MB, the worker's young generation, default the pool's 4)

const CALLS = Number(process.env['GAP_CALLS'] ?? 3000);
const PAUSES_MS = (process.env['GAP_PAUSES_MS'] ?? '0,0.6,2').split(',').map(Number);
const ROUNDS = 3;

/** Median µs per call of evaluating `inputs` with `pauseMs` of blocked waiting before each. */
function evaluateWithPauses(calls: CapturedCall[], config: ResolvedConfig, pauseMs: number): number[] {
  const states = resolvePolicyStates(ALL_POLICIES, config);
  const blocker = new Int32Array(new SharedArrayBuffer(4));
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let inside = 0;
    for (const { input, writes } of calls) {
      if (pauseMs > 0) Atomics.wait(blocker, 0, 0, pauseMs);
      const started = performance.now();
      runDeterministic(input, config, states, nodeFactSource, writes);
      inside += performance.now() - started;
    }
    rounds.push((inside / calls.length) * 1000);
  }
  return rounds;
}

async function inWorker(): Promise<void> {
  const { folder } = workerData as { folder: string };
  await Evaluator.ready({ warmUp: true });
  const { calls, config } = await captureMixInputs(folder, CALLS, 'gap');
  // Warm: every call's code compiled and optimised before anything is measured.
  evaluateWithPauses(calls, config, 0);
  for (const pauseMs of PAUSES_MS) {
    const rounds = evaluateWithPauses(calls, config, pauseMs);
    const sorted = [...rounds].sort((a, b) => a - b);
    console.log(
      `pause ${String(pauseMs).padStart(4)} ms before each call: evaluation ${sorted[1]!.toFixed(0)} µs per call` +
        ` (rounds ${rounds.map((r) => r.toFixed(0)).join(', ')})`,
    );
  }
}

if (isMainThread) {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'aw-gaps-')));
  // The pool's own limits (deterministic/pool.ts), so the worker's heap behaves as serve's does.
  const worker = new Worker(__filename, {
    workerData: { folder },
    resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: Number(process.env['GAP_YOUNG_MB'] ?? 4) },
  });
  worker.on('exit', (code) => {
    rmSync(folder, { recursive: true, force: true });
    process.exitCode = code;
  });
} else {
  void inWorker();
}
