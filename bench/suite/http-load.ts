import { Pool } from 'undici';
import type { SessionLayout } from './mix';
import type { BenchResults } from './schema';
import { ofRuns, ofSamples, quantile, type Budget } from './stats';

type HttpRun = BenchResults['http'][number];

// The load generator: `connections` keep-alive connections, each sending its next call as soon as
// the last one is answered, until `calls` calls were sent or `seconds` have passed. One function in,
// figures out, so another generator can stand in for it.

export interface LoadOptions {
  url: string;
  token: string;
  connections: number;
  /** Stop after this many calls... */
  calls?: number;
  /** ...or after this long. */
  seconds?: number;
  /** The hook body of the `index`-th call, sent on connection `connection` (0 to connections - 1). */
  body: (index: number, connection: number) => string;
  /** A reply slower than this counts as past its deadline. */
  deadlineMs?: number;
  /** Each connection waits this long before each call (not counted in the call's time). */
  pauseMs?: number;
}

export interface LoadFigures {
  /** Round-trip time of every answered call, in ms. */
  latencies: number[];
  seconds: number;
  sent: number;
  answered: number;
  failed: number;
  pastDeadline: number;
  callsPerSecond: number;
  /** What the first failed call met (a status or an error), to say why calls failed. */
  firstFailure?: string;
}

export async function runLoad(opts: LoadOptions): Promise<LoadFigures> {
  if (opts.calls === undefined && opts.seconds === undefined) throw new Error('runLoad needs calls or seconds');
  const pool = new Pool(opts.url, {
    connections: opts.connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` };
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  let pastDeadline = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const endsAt = opts.seconds === undefined ? Infinity : started + opts.seconds * 1000;
  const more = () => (opts.calls === undefined || next < opts.calls) && performance.now() < endsAt;
  const connection = async (connectionIndex: number) => {
    while (more()) {
      if (opts.pauseMs) await new Promise((resolve) => setTimeout(resolve, opts.pauseMs));
      const body = opts.body(next++, connectionIndex);
      const sentAt = performance.now();
      try {
        const res = await pool.request({ path: '/hooks/claude', method: 'POST', headers, body });
        await res.body.text();
        if (res.statusCode !== 200) {
          failed++;
          firstFailure ??= `status ${res.statusCode}`;
          continue;
        }
        const ms = performance.now() - sentAt;
        latencies.push(ms);
        if (opts.deadlineMs !== undefined && ms > opts.deadlineMs) pastDeadline++;
      } catch (err) {
        failed++;
        firstFailure ??= (err as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, (_, index) => connection(index)));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return {
    latencies,
    seconds,
    sent: next,
    answered: latencies.length,
    failed,
    pastDeadline,
    callsPerSecond: latencies.length / seconds,
    ...(firstFailure !== undefined ? { firstFailure } : {}),
  };
}

export interface ConnectionRunsOptions {
  url: string;
  token: string;
  connections: number[];
  runs: number;
  callsPerRun: (connections: number) => number;
  /** One budget per connection count. */
  budgets: (connections: number) => Budget;
  /** How the connections map to sessions; `body` builds the bodies to match. */
  sessions: SessionLayout;
  /** The hook body of the `index`-th call of a run on a connection, tagged by its connections and run. */
  body: (tag: string) => (index: number, connection: number) => string;
  /** Seconds a run keeps back from its connection count's budget. */
  reserveSeconds: number;
  /** Around each run (serve's event-loop figures are reset before and read after). */
  beforeRun?: () => Promise<void>;
  afterRun?: () => Promise<void>;
}

/** Runs of `callsPerRun` calls at each connection count: each run's p50, p95, p99 and calls/s, summarised over runs. */
export async function connectionRuns(opts: ConnectionRunsOptions): Promise<HttpRun[]> {
  const rows: HttpRun[] = [];
  for (const connections of opts.connections) {
    const perRun = { p50: [] as number[], p95: [] as number[], p99: [] as number[], throughput: [] as number[] };
    const budget = opts.budgets(connections);
    for (let run = 0; budget.another(run, opts.runs); run++) {
      await opts.beforeRun?.();
      const figures = await runLoad({
        url: opts.url,
        token: opts.token,
        connections,
        calls: opts.callsPerRun(connections),
        // A run that cannot finish in its share ends early: fewer calls, the same kind of figure.
        seconds: budget.secondsLeft(opts.reserveSeconds) / Math.max(1, opts.runs - run),
        body: opts.body(`c${connections}r${run}`),
      });
      if (figures.failed > 0)
        throw new Error(`${figures.failed} calls failed at ${connections} connections (${figures.firstFailure})`);
      await opts.afterRun?.();
      const sorted = [...figures.latencies].sort((a, b) => a - b);
      perRun.p50.push(quantile(sorted, 0.5));
      perRun.p95.push(quantile(sorted, 0.95));
      perRun.p99.push(quantile(sorted, 0.99));
      perRun.throughput.push(figures.callsPerSecond);
    }
    rows.push({
      connections,
      sessions: opts.sessions,
      callsPerRun: opts.callsPerRun(connections),
      p50: ofRuns(perRun.p50, 'ms'),
      p95: ofRuns(perRun.p95, 'ms'),
      p99: ofRuns(perRun.p99, 'ms'),
      throughput: ofRuns(perRun.throughput, 'calls/s'),
    });
  }
  return rows;
}

/**
 * One connection, a pause before every call: the way an agent calls, its model thinking between tool
 * calls. A process that waited has its threads asleep and its caches cold, so such a call takes longer
 * than one sent back to back; this is the time a person waits on each call.
 */
export async function callsAfterPause(opts: {
  url: string;
  token: string;
  calls: number;
  pauseMs: number;
  body: (index: number) => string;
}): Promise<BenchResults['afterPause']['serve']> {
  const figures = await runLoad({ ...opts, connections: 1 });
  if (figures.failed > 0) throw new Error(`${figures.failed} calls after a pause failed (${figures.firstFailure})`);
  return ofSamples(figures.latencies, 'ms');
}
