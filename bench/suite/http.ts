import { join } from 'node:path';
import { startFakeJudge } from './fake-judge';
import { callsAfterPause, connectionRuns, runLoad } from './http-load';
import { mixBodies, mixBody, type MixCall, type SessionLayout } from './mix';
import type { BenchResults, Figure } from './schema';
import { startServe } from './serve';
import { step } from './progress';
import { once, ofRuns, ofSamples, type Budget } from './stats';

// Figures through a real `agent-warden serve` on loopback: latency and throughput by connection count,
// memory after N calls, the time Warden adds over a judge, and the long load run.

/** Room for every row of the longest run, so count in against count out is not cut by rotation. */
const ROOMY_LOG = { log: { maxBytes: 64 * 1024 * 1024, keep: 40 } };

export interface HttpOptions {
  cli: string;
  folder: string;
  calls: readonly MixCall[];
  connections: number[];
  /** Connection counts run again with every connection in one shared session. */
  sharedSessionConnections: number[];
  runs: number;
  callsPerRun: (connections: number) => number;
  /** One budget per connection count and session layout. */
  budgets: (connections: number, sessions: SessionLayout) => Budget;
  /** Calls answered before the rows are measured, stopping early at `seconds`. */
  warmUp: { calls: number; seconds: number };
  afterPause: { calls: number; pauseMs: number };
}

export async function httpFigures(opts: HttpOptions): Promise<{
  warmUp: BenchResults['httpWarmUp'];
  http: BenchResults['http'];
  serveEventLoopMaxMs: BenchResults['serveEventLoopMaxMs'];
  afterPause: BenchResults['afterPause']['serve'];
}> {
  const world = { home: join(opts.folder, 'home'), project: join(opts.folder, 'home', 'project') };
  const serve = await startServe({ cli: opts.cli, world, config: ROOMY_LOG });
  try {
    const body = (sessions: SessionLayout) => (tag: string) => mixBodies(world.project, opts.calls, tag, sessions);
    const warm = await runLoad({
      url: serve.url,
      token: serve.token,
      connections: 8,
      calls: opts.warmUp.calls,
      seconds: opts.warmUp.seconds,
      body: body('per-connection')('warm'),
    });
    if (warm.failed > 0) throw new Error(`${warm.failed} warm-up calls failed (${warm.firstFailure})`);
    const warmUp = { calls: warm.answered, seconds: warm.seconds, callsPerSecond: warm.callsPerSecond };
    const loopMax: number[] = [];
    let loopMissing = false;
    const runsOf = (connections: number[], sessions: SessionLayout) =>
      connectionRuns({
        url: serve.url,
        token: serve.token,
        connections,
        runs: opts.runs,
        callsPerRun: opts.callsPerRun,
        budgets: (connections) => opts.budgets(connections, sessions),
        sessions,
        body: body(sessions),
        reserveSeconds: 3,
        beforeRun: async () => void (await serve.loopStats(true)),
        afterRun: async () => {
          const loop = await serve.loopStats();
          if (loop) loopMax.push(loop.eventLoopMaxMs);
          else loopMissing = true;
        },
      });
    const rows = [
      ...(await runsOf(opts.connections, 'per-connection')),
      ...(await runsOf(opts.sharedSessionConnections, 'shared')),
    ];
    const serveEventLoopMaxMs = loopMissing
      ? { skipped: 'this build of serve does not report event-loop figures on /health (AGENT_WARDEN_STATS)' }
      : ofRuns(loopMax, 'ms');
    const afterPause = await callsAfterPause({
      url: serve.url,
      token: serve.token,
      ...opts.afterPause,
      body: (index) => mixBody(world.project, opts.calls, index, 'pause'),
    });
    return { warmUp, http: rows, serveEventLoopMaxMs, afterPause };
  } finally {
    await serve.stop();
  }
}

export interface MemoryOptions {
  cli: string;
  folder: string;
  calls: readonly MixCall[];
  total: number;
  connections: number;
  /** Without one the run goes on to `total` calls however long it takes (the full run). */
  budget?: Budget;
  /** Added to serve's environment. */
  env?: Record<string, string>;
}

/**
 * glibc gives each thread that allocates its own malloc arena, and an arena keeps what it once held:
 * serve's threads (the evaluation worker, V8's compiler and collector threads) left about 25 MB resident
 * that way (bench/serve-memory.ts reads where). The variable is read when the process starts, so it
 * cannot be set from inside serve; the memory figure is given with and without it.
 */
export const ARENA_CAP = { MALLOC_ARENA_MAX: '2' };

/** Whether this is Linux with glibc, where MALLOC_ARENA_MAX means something. */
export function glibcLinux(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return process.platform === 'linux' && typeof report?.header?.glibcVersionRuntime === 'string';
}

/** A fresh serve, `total` calls of the mix, its resident memory before and after, and the rows it logged. */
export async function memoryFigures(opts: MemoryOptions): Promise<BenchResults['memory']> {
  const world = { home: join(opts.folder, 'home'), project: join(opts.folder, 'home', 'project') };
  const serve = await startServe({ cli: opts.cli, world, config: ROOMY_LOG, ...(opts.env ? { env: opts.env } : {}) });
  try {
    const rssAtStart = serve.rssMb();
    const figures = await runLoad({
      url: serve.url,
      token: serve.token,
      connections: opts.connections,
      calls: opts.total,
      ...(opts.budget ? { seconds: opts.budget.secondsLeft(5) } : {}),
      body: (index) => mixBody(world.project, opts.calls, index, 'memory'),
    });
    if (figures.failed > 0) throw new Error(`${figures.failed} of ${opts.total} calls failed in the memory run`);
    if (opts.budget && figures.answered < opts.total) opts.budget.cut = true;
    step(`  ${figures.answered} calls in ${figures.seconds.toFixed(1)} s`);
    return {
      calls: figures.answered,
      connections: opts.connections,
      rssAtStart: once(rssAtStart, 'MB'),
      rssAfter: once(serve.rssMb(), 'MB'),
      rowsLogged: serve.rowsLogged(),
    };
  } finally {
    await serve.stop();
  }
}

export interface JudgeOptions {
  cli: string;
  folder: string;
  delayMs: number;
  calls: number;
  budget: Budget;
}

/** The judge tier's rate limit lets about five calls a second through; calls are paced below it. */
const JUDGE_PACE_MS = 250;

function judgedBody(project: string, index: number): string {
  return JSON.stringify({
    session_id: `judge-${index}`,
    transcript_path: join(project, 'transcript.jsonl'),
    cwd: project,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    // Distinct text each time: a judge reply cache must never answer for the judge.
    tool_input: { command: `rm -rf build${index} && npm run build`, description: 'bench' },
    tool_use_id: `toolu_judge_${index}`,
  });
}

export async function judgeFigures(opts: JudgeOptions): Promise<BenchResults['judge']> {
  const judge = await startFakeJudge(opts.delayMs);
  const world = { home: join(opts.folder, 'home'), project: join(opts.folder, 'home', 'project') };
  const serve = await startServe({
    cli: opts.cli,
    world,
    config: { semantic: { mode: 'enforce', provider: 'systemone', url: judge.url, timeoutMs: 10_000 } },
  });
  try {
    const added: number[] = [];
    for (let index = 0; opts.budget.another(index, opts.calls + 2, 7); index++) {
      const started = performance.now();
      const figures = await runLoad({
        url: serve.url,
        token: serve.token,
        connections: 1,
        calls: 1,
        body: () => judgedBody(world.project, index),
      });
      if (figures.failed > 0) throw new Error('a judged call failed');
      // The first two open the judge's connection and warm its path.
      if (index >= 2) added.push(figures.latencies[0]! - opts.delayMs);
      const wait = JUDGE_PACE_MS - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return {
      delayMs: opts.delayMs,
      calls: added.length,
      judgeRequests: (await judge.requests()) - 2,
      added: ofSamples(added, 'ms'),
    };
  } finally {
    await serve.stop();
    judge.stop();
  }
}

export interface LoadRunOptions {
  cli: string;
  folder: string;
  calls: readonly MixCall[];
  connections: number;
  seconds: number;
  judgeDelayMs: number;
  judgeTimeoutMs: number;
}

/** The long run: many connections of mixed calls against a slow judge, measured once. */
export async function loadRunFigures(opts: LoadRunOptions): Promise<NonNullable<BenchResults['full']>['load']> {
  const judge = await startFakeJudge(opts.judgeDelayMs);
  const world = { home: join(opts.folder, 'home'), project: join(opts.folder, 'home', 'project') };
  const serve = await startServe({
    cli: opts.cli,
    world,
    config: {
      ...ROOMY_LOG,
      semantic: { mode: 'enforce', provider: 'systemone', url: judge.url, timeoutMs: opts.judgeTimeoutMs },
    },
  });
  try {
    await serve.loopStats(true);
    const figures = await runLoad({
      url: serve.url,
      token: serve.token,
      connections: opts.connections,
      seconds: opts.seconds,
      deadlineMs: opts.judgeTimeoutMs,
      body: (index) => mixBody(world.project, opts.calls, index, 'load'),
    });
    const loop = await serve.loopStats();
    const latency: Figure = ofSamples(figures.latencies.length ? figures.latencies : [0], 'ms');
    return {
      connections: opts.connections,
      seconds: figures.seconds,
      judgeDelayMs: opts.judgeDelayMs,
      deadlineMs: opts.judgeTimeoutMs,
      callsIn: figures.sent,
      callsAnswered: figures.answered,
      rowsOut: serve.rowsLogged(),
      pastDeadline: figures.pastDeadline,
      failed: figures.failed,
      judgeRequests: await judge.requests(),
      latency,
      rssAfter: once(serve.rssMb(), 'MB'),
      eventLoopMaxMs: loop ? loop.eventLoopMaxMs : null,
    };
  } finally {
    await serve.stop();
    judge.stop();
  }
}
