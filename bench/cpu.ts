import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runDeterministic, sessionWritesOf } from '../src/core/deterministic/run';
import { SessionWriteStore } from '../src/core/facts/session-writes';
import { Evaluator } from '../src/core/evaluator';
import { nodeFactSource } from '../src/core/facts/io-node';
import { ALL_POLICIES } from '../src/core/policies/registry';
import { resolvePolicyStates } from '../src/core/policies/run';
import { WardenHost } from '../src/server/host';
import type { DeterministicRunner } from '../src/core/deterministic/runner';
import type { ResolvedConfig } from '../src/core/config/load';
import { runLoad } from './suite/http-load';
import { deterministicTier, events, inProcessWorld } from './suite/inprocess';
import { longSessionId, mixBodies, mixBody, mixCalls, type CpuSessionLayout } from './suite/mix';
import { startServe } from './suite/serve';

// CPU time per call, not wall time: on a shared machine wall time measures the neighbours, while the
// CPU a call costs is what bounds throughput on two cores. Three figures on the fixed mix:
//   deterministic  the deterministic tier alone, in this process
//   evaluator      the whole in-process evaluation (record, redaction, digest, the activity log)
//   host           what serve's main thread does for a call but HTTP: the hook service (body parse,
//                  evaluation, the record buffer, asks), the deterministic tier run directly on this
//                  thread (no worker hop, no vm deadline); minus `deterministic`, the main thread's share
//   serve          a real `agent-warden serve` at 8 connections: its process's CPU (every thread) per call
// Usage: node bench/run.mjs cpu   (env CPU_CALLS, CPU_SERVE_CALLS, CPU_CONNECTIONS, CPU_ROUNDS; CPU_PROFILE_DIR writes
// a --cpu-prof profile of serve there, summed with bench/cpuprofile-top.mjs; CPU_ONLY=deterministic,evaluator,serve;
// CPU_WARM_CALLS=N calls first (17,000); CPU_CLI=FILE runs serve from another build's dist/cli.js; CPU_SESSIONS=shared puts every connection in one session, CPU_SESSIONS=long gives each connection one session
// for the whole run that wrote a thousand files before it)

const CALLS = Number(process.env['CPU_CALLS'] ?? 3000);
const SERVE_CALLS = Number(process.env['CPU_SERVE_CALLS'] ?? 6000);
const ROUNDS = Number(process.env['CPU_ROUNDS'] ?? 3);
const PROFILE_DIR = process.env['CPU_PROFILE_DIR'];
const CONNECTIONS = Number(process.env['CPU_CONNECTIONS'] ?? 8);
// Serve's calls before the measured rounds: V8's optimising compiler settled after about 17,000 of the mix.
const WARM_CALLS = Number(process.env['CPU_WARM_CALLS'] ?? 17_000);
const ONLY = (process.env['CPU_ONLY'] ?? 'deterministic,evaluator,host,serve').split(',');

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

async function inProcess(folder: string): Promise<void> {
  const { project, state, log } = await inProcessWorld(folder);
  const evaluator = new Evaluator({ stateDir: state, home: folder, log });
  const statesOf = new WeakMap<ResolvedConfig, ReturnType<typeof resolvePolicyStates>>();
  const direct: DeterministicRunner = {
    run: async (input, config: ResolvedConfig) => {
      if (!statesOf.has(config)) statesOf.set(config, resolvePolicyStates(ALL_POLICIES, config));
      return {
        ok: true,
        ...runDeterministic(input, config, statesOf.get(config)!, nodeFactSource, sessionWritesOf(input)),
      };
    },
    close: async () => undefined,
  };
  const { log: hostLog } = await inProcessWorld(folder, 'host.jsonl');
  const host = new WardenHost({
    evaluator: new Evaluator({ stateDir: state, home: folder, log: hostLog, deterministic: direct }),
    log: hostLog,
    hookToken: 'bench',
    approvalTimeoutSeconds: 60,
    failureDecision: () => 'deny',
  });
  const calls = mixCalls(project);
  const bodies = (count: number, tag: string) =>
    Array.from({ length: count }, (_, index) => mixBody(project, calls, index, tag));
  const signal = new AbortController().signal;
  const deterministic = deterministicTier({ project, state, home: folder });
  for (const event of events(project, calls, 600, 'warm')) {
    await evaluator.evaluate(event);
    deterministic(event);
  }
  for (const body of bodies(600, 'warm')) await host.hooks.handle('claude', body, signal);
  for (let round = 0; round < ROUNDS; round++) {
    const batch = events(project, calls, CALLS, `r${round}`);
    if (ONLY.includes('deterministic')) {
      const at = cpuMs();
      for (const event of batch) deterministic(event);
      console.log(`deterministic  ${(((cpuMs() - at) / CALLS) * 1000).toFixed(0).padStart(5)} µs CPU/call`);
    }
    if (ONLY.includes('evaluator')) {
      const at = cpuMs();
      for (const event of batch) await evaluator.evaluate(event);
      console.log(`evaluator      ${(((cpuMs() - at) / CALLS) * 1000).toFixed(0).padStart(5)} µs CPU/call`);
    }
    if (ONLY.includes('host')) {
      const texts = bodies(CALLS, `h${round}`);
      const at = cpuMs();
      for (const body of texts) await host.hooks.handle('claude', body, signal);
      console.log(`host           ${(((cpuMs() - at) / CALLS) * 1000).toFixed(0).padStart(5)} µs CPU/call`);
    }
  }
  await evaluator.close();
  await host.close();
  log.close();
  hostLog.close();
}

/** CPU ms of each thread of `pid` (main thread first), from /proc, in user and kernel mode: where serve's time goes. */
function threadCpuMs(pid: number): Map<string, { user: number; system: number }> {
  const ticks = new Map<string, { user: number; system: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // Its name where the runtime set one (Node 20 names every thread "node"), and its id to tell them apart.
      const name =
        tid === String(pid) ? 'main' : `${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}#${tid}`;
      ticks.set(name, { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 });
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return ticks;
}

function describeThreads(
  before: Map<string, { user: number; system: number }>,
  after: Map<string, { user: number; system: number }>,
  calls: number,
): string {
  const perCall = [...after]
    .map(([tid, ms]) => {
      const was = before.get(tid) ?? { user: 0, system: 0 };
      const total = ((ms.user + ms.system - was.user - was.system) / calls) * 1000;
      const system = ((ms.system - was.system) / calls) * 1000;
      return [tid, total, system] as const;
    })
    .filter(([, us]) => us >= 5)
    .sort((a, b) => (a[0] === 'main' ? -1 : b[0] === 'main' ? 1 : b[1] - a[1]));
  return perCall.map(([thread, us, system]) => `${thread} ${us.toFixed(0)} (kernel ${system.toFixed(0)})`).join(', ');
}

/** Files each connection's session wrote before the run under CPU_SESSIONS=long: a working day's worth. */
const LONG_SESSION_WRITES = 1000;

function recordLongSessions(stateDir: string, project: string, tag: string): void {
  const store = new SessionWriteStore(stateDir);
  for (let connection = 0; connection < CONNECTIONS; connection++)
    store.record(
      `claude:${longSessionId(tag, connection)}`,
      Array.from({ length: LONG_SESSION_WRITES }, (_, index) => join(project, 'src', `module-${index}.ts`)),
    );
}

async function serveRun(folder: string): Promise<void> {
  // CPU_CLI=OTHER/dist/cli.js measures another build (interleave runs of two builds to compare them).
  const cli = process.env['CPU_CLI'] ?? resolve(__dirname, '..', '..', 'dist', 'cli.js');
  const world = { home: join(folder, 'home'), project: join(folder, 'home', 'project') };
  const nodeArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  // e.g. --perf-basic-prof, for `perf record -p PID` (on-CPU samples only, every thread).
  nodeArgs.push(...(process.env['CPU_NODE_ARGS'] ?? '').split(' ').filter(Boolean));
  const stdoutFile = process.env['CPU_STDOUT'];
  const serve = await startServe({
    cli,
    world,
    nodeArgs,
    config: { log: { maxBytes: 64e6, keep: 4 } },
    ...(stdoutFile ? { stdoutFile } : {}),
  });
  const calls = mixCalls(world.project);
  try {
    const layout = process.env['CPU_SESSIONS'];
    const sessions: CpuSessionLayout = layout === 'shared' || layout === 'long' ? layout : 'per-connection';
    const body = (tag: string) => {
      if (sessions === 'long') recordLongSessions(join(world.home, '.agent-warden'), world.project, tag);
      return mixBodies(world.project, calls, tag, sessions);
    };
    await runLoad({ url: serve.url, token: serve.token, connections: 8, calls: WARM_CALLS, body: body('warm') });
    console.log(`serve pid ${serve.pid}, warmed up`);
    for (let round = 0; round < ROUNDS; round++) {
      const before = await serve.cpuMs();
      const threadsBefore = threadCpuMs(serve.pid);
      const figures = await runLoad({
        url: serve.url,
        token: serve.token,
        connections: CONNECTIONS,
        calls: SERVE_CALLS,
        body: body(`r${round}`),
      });
      const used = (await serve.cpuMs()) - before;
      const threads = describeThreads(threadsBefore, threadCpuMs(serve.pid), figures.answered);
      if (figures.failed) throw new Error(`${figures.failed} calls failed`);
      const sorted = [...figures.latencies].sort((a, b) => a - b);
      const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!.toFixed(1);
      console.log(
        `serve ${CONNECTIONS} conn   ${((used / figures.answered) * 1000).toFixed(0).padStart(5)} µs CPU/call` +
          `  (wall on this loaded machine: ${figures.callsPerSecond.toFixed(0)} calls/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms)` +
          `\n               µs by thread: ${threads}`,
      );
    }
  } finally {
    await serve.stop();
  }
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-cpu-')));
  try {
    if (['deterministic', 'evaluator', 'host'].some((part) => ONLY.includes(part)))
      await inProcess(join(base, 'in-process'));
    if (ONLY.includes('serve')) await serveRun(join(base, 'serve'));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
