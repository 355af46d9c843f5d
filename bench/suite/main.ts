// `npm run bench` (and bench:full, and the reduced run the CI test makes): every figure in one run of
// one process tree, so the ratios compare; one table printed and the results written as JSON.
// Usage (through bench/run.mjs, which bundles this file): [--reduced | --full] [--out FILE]
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FAKE_JUDGE_FLAG, serveFakeJudge } from './fake-judge';
import { ARENA_CAP, glibcLinux, httpFigures, judgeFigures, loadRunFigures, memoryFigures } from './http';
import { httpFloorFigures } from './http-floor';
import { inProcessFigures } from './inprocess';
import { digestFigures, envelopeFigures, redactionFigures, type MicroSizes } from './micro';
import { mixCalls } from './mix';
import { WRITTEN_CODE_BYTES, writtenCodeFigures } from './written-code';
import { bridgeFigures, extensionHostFigures, floorSamples } from './processes';
import { resultsSchema, type BenchResults } from './schema';
import { step } from './progress';
import { Budget, ofSamples } from './stats';
import { ratiosToFloor, renderTable } from './table';

type Mode = BenchResults['mode'];

const KB = 1024;
const MB = 1024 * KB;

interface Plan {
  runs: number;
  microRuns: number;
  inProcessCalls: number;
  floorPerBatch: number;
  httpCalls: (connections: number) => number;
  /** Calls serve answers before the http rows, at most `seconds.httpWarmUp`: see the schema's httpWarmUp. */
  httpWarmUpCalls: number;
  memoryCalls: number;
  judgeCalls: number;
  /** Calls sent one at a time, each after a pause (as an agent sends them). */
  afterPause: { calls: number; pauseMs: number };
  transcriptBytes: number[];
  /** Seconds per section; a section past its share stops repeating (see Budget). */
  seconds: {
    inProcess: number;
    httpWarmUp: number;
    httpPerConnections: number;
    httpFloor: number;
    memory: number;
    judge: number;
    bridge: number;
  };
  bridge?: { runs: number; rounds: number; fallbackRounds: number };
}

/** Under three minutes on two shared cores. */
const DEFAULT_PLAN: Plan = {
  runs: 5,
  microRuns: 9,
  inProcessCalls: 300,
  floorPerBatch: 3,
  httpCalls: (c) => (c === 1 ? 300 : c <= 8 ? 1000 : 1500),
  // Serve's CPU per call at 8 connections fell from 2,358 µs (calls 1,000-9,000 after start) to 1,570, then
  // 1,381 and 1,377 (each 8,000 calls on): the JIT settles after about 17,000 calls (bench/cpu.ts, 4 rounds).
  httpWarmUpCalls: 17_000,
  memoryCalls: 10_000,
  judgeCalls: 30,
  // 40 s in all, serve and the floor. A pause of 400 ms took serve from 2.7 to 5.5 ms a call (p50), the floor from 0.3 to 1.1.
  afterPause: { calls: 40, pauseMs: 500 },
  transcriptBytes: [10 * KB, 10 * MB, 100 * MB],
  // With the fixed sections (floor, redaction, envelope, digest, three serve starts), under 180 s.
  seconds: { inProcess: 15, httpWarmUp: 25, httpPerConnections: 12, httpFloor: 4, memory: 40, judge: 12, bridge: 25 },
  bridge: { runs: 3, rounds: 2, fallbackRounds: 1 },
};

const PLANS: Record<Mode, Plan> = {
  // Seconds: the CI test checks that it completes and writes valid results, never what they say.
  reduced: {
    runs: 2,
    microRuns: 2,
    inProcessCalls: 20,
    floorPerBatch: 1,
    httpCalls: (c) => Math.max(10, c),
    httpWarmUpCalls: 100,
    memoryCalls: 100,
    judgeCalls: 2,
    afterPause: { calls: 2, pauseMs: 50 },
    transcriptBytes: [10 * KB, 100 * KB, 1 * MB],
    seconds: { inProcess: 3, httpWarmUp: 3, httpPerConnections: 3, httpFloor: 1, memory: 5, judge: 3, bridge: 0 },
  },
  default: DEFAULT_PLAN,
  // The default run, and then the full run's own sections.
  full: DEFAULT_PLAN,
};

// BENCH_FULL_CALLS and BENCH_LOAD_SECONDS shrink the full run's sections, to try its path quickly.
const FULL_CALLS = Number(process.env['BENCH_FULL_CALLS'] ?? 100_000);
const LOAD = {
  connections: 64,
  seconds: Number(process.env['BENCH_LOAD_SECONDS'] ?? 60),
  judgeDelayMs: 1500,
  judgeTimeoutMs: 2000,
};
const JUDGE_DELAY_MS = 50;
const NOT_GLIBC = { skipped: "MALLOC_ARENA_MAX is glibc's; this is not Linux with glibc" };

function options(argv: string[]): { mode: Mode; out: string } {
  const root = resolve(__dirname, '..', '..');
  const outAt = argv.indexOf('--out');
  const mode: Mode = argv.includes('--full') ? 'full' : argv.includes('--reduced') ? 'reduced' : 'default';
  return { mode, out: outAt >= 0 ? resolve(argv[outAt + 1]!) : join(root, 'bench', 'results.json') };
}

async function main(): Promise<void> {
  const { mode, out } = options(process.argv.slice(2));
  const plan = PLANS[mode];
  const root = resolve(__dirname, '..', '..');
  const cli = join(root, 'dist', 'cli.js');
  const startedAt = new Date();
  const loadAverageAtStart = loadavg();
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-bench-')));
  const folder = (name: string) => join(base, name);
  const calls = mixCalls(folder('mix-project'));
  // The floor is sampled between the sections, so it shares their share of the machine's load.
  const floor: number[] = [];
  const budgets: Budget[] = [];
  const budget = (section: string, seconds: number) => {
    const made = new Budget(section, seconds);
    budgets.push(made);
    return made;
  };
  const sampleFloor = async () => floor.push(...(await floorSamples(plan.floorPerBatch)));
  try {
    await sampleFloor();
    step('in-process evaluation');
    const inProcess = await inProcessFigures({
      folder: folder('in-process'),
      calls,
      runs: plan.runs,
      callsPerRun: plan.inProcessCalls,
      budget: budget('in-process', plan.seconds.inProcess),
    });
    const sizes: MicroSizes = {
      redactionChars: [1 * KB, 16 * KB, 128_000],
      transcriptBytes: plan.transcriptBytes,
      digestBytes: [1 * KB, 1 * MB],
      runs: plan.microRuns,
    };
    step('redaction');
    const redaction = redactionFigures(sizes);
    step('envelope build (transcripts are written to a temp folder and deleted)');
    const envelope = envelopeFigures(sizes, folder('envelope'));
    rmSync(folder('envelope'), { recursive: true, force: true });
    step('digest');
    const digest = digestFigures(sizes);
    step('written code read by the deterministic tier');
    const writtenCode = await writtenCodeFigures({
      folder: folder('written-code'),
      bytes: WRITTEN_CODE_BYTES,
      // A 128 KB text takes a few hundred ms: five runs keep the section near ten seconds.
      runs: Math.min(plan.microRuns, 5),
    });
    await sampleFloor();
    step(
      `http through serve at 1, 8 and 64 connections (a session each), at 8 sharing one session, then ${plan.afterPause.calls} calls each after ${plan.afterPause.pauseMs} ms`,
    );
    const {
      warmUp: httpWarmUp,
      http,
      serveEventLoopMaxMs,
      afterPause: servePaused,
    } = await httpFigures({
      cli,
      folder: folder('http'),
      calls,
      connections: [1, 8, 64],
      sharedSessionConnections: [8],
      runs: plan.runs,
      warmUp: { calls: plan.httpWarmUpCalls, seconds: plan.seconds.httpWarmUp },
      callsPerRun: plan.httpCalls,
      budgets: (connections, sessions) =>
        budget(
          `http ${connections} conn${sessions === 'shared' ? ' one session' : ''}`,
          plan.seconds.httpPerConnections,
        ),
      afterPause: plan.afterPause,
    });
    step('the HTTP floor: a do-nothing endpoint built like serve, at 1 and 8 connections');
    const { rows: httpFloor, afterPause: floorPaused } = await httpFloorFigures({
      project: folder('http-floor'),
      calls,
      connections: [1, 8],
      runs: plan.runs,
      callsPerRun: plan.httpCalls,
      budgets: (connections) => budget(`http floor ${connections} conn`, plan.seconds.httpFloor),
      afterPause: plan.afterPause,
    });
    step(`memory after ${plan.memoryCalls} calls`);
    const memoryRun = (name: string, env?: Record<string, string>) =>
      memoryFigures({
        cli,
        folder: folder(name),
        calls,
        total: plan.memoryCalls,
        connections: 8,
        budget: budget(name, plan.seconds.memory),
        ...(env ? { env } : {}),
      });
    const memory = await memoryRun('memory');
    step(`memory after ${plan.memoryCalls} calls, MALLOC_ARENA_MAX=2`);
    const memoryArenas2 = glibcLinux() ? await memoryRun('memory-arenas-2', ARENA_CAP) : NOT_GLIBC;
    await sampleFloor();
    step(`time added over a judge answering in ${JUDGE_DELAY_MS} ms`);
    const judge = await judgeFigures({
      cli,
      folder: folder('judge'),
      delayMs: JUDGE_DELAY_MS,
      calls: plan.judgeCalls,
      budget: budget('judge', plan.seconds.judge),
    });
    step('command bridge');
    const bridge = plan.bridge
      ? bridgeFigures(root, plan.bridge, budget('bridge', plan.seconds.bridge))
      : { skipped: 'not run in the reduced mode (its fallback alone takes seconds a run)' };
    await sampleFloor();
    let full: BenchResults['full'];
    if (mode === 'full') {
      step(`full: memory after ${FULL_CALLS} calls`);
      const fullMemoryRun = (name: string, env?: Record<string, string>) =>
        memoryFigures({ cli, folder: folder(name), calls, total: FULL_CALLS, connections: 8, ...(env ? { env } : {}) });
      const fullMemory = await fullMemoryRun('memory-full');
      step(`full: memory after ${FULL_CALLS} calls, MALLOC_ARENA_MAX=2`);
      const fullArenas2 = glibcLinux() ? await fullMemoryRun('memory-full-arenas-2', ARENA_CAP) : NOT_GLIBC;
      step(`full: load run, ${LOAD.connections} connections for ${LOAD.seconds} s against a slow judge`);
      const load = await loadRunFigures({ cli, folder: folder('load'), calls, ...LOAD });
      step(`full: the extension host over ${FULL_CALLS} calls, through code-server`);
      const extensionHost = extensionHostFigures(root, FULL_CALLS, folder('host-memory.json'));
      full = { memory: fullMemory, memoryArenas2: fullArenas2, load, extensionHost };
    }
    const partial = {
      schemaVersion: 6 as const,
      mode,
      startedAt: startedAt.toISOString(),
      seconds: (Date.now() - startedAt.getTime()) / 1000,
      machine: {
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        cpus: cpus().length,
        loadAverageAtStart,
        loadAverageAtEnd: loadavg(),
      },
      floor: ofSamples(floor, 'ms'),
      mix: { distinctCalls: calls.length, dangerous: calls.filter((c) => c.dangerous).length },
      httpWarmUp,
      http,
      httpFloor,
      afterPause: { ...plan.afterPause, serve: servePaused, floor: floorPaused },
      inProcess,
      bridge,
      redaction,
      envelope,
      digest,
      writtenCode,
      memory,
      memoryArenas2,
      serveEventLoopMaxMs,
      judge,
      cutByBudget: budgets.filter((b) => b.cut).map((b) => b.section),
      ...(full ? { full } : {}),
    };
    const results = resultsSchema.parse({ ...partial, ratiosToFloor: ratiosToFloor(partial) });
    writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
    console.log(renderTable(results));
    step(`done; written to ${out}`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const judgeAt = process.argv.indexOf(FAKE_JUDGE_FLAG);
if (judgeAt >= 0) serveFakeJudge(Number(process.argv[judgeAt + 1]));
else
  main().catch((err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  });
