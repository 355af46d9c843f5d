import { Pool } from 'undici';

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
  /** The hook body of the `index`-th call. */
  body: (index: number) => string;
  /** A reply slower than this counts as past its deadline. */
  deadlineMs?: number;
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
  const connection = async () => {
    while (more()) {
      const body = opts.body(next++);
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
  await Promise.all(Array.from({ length: opts.connections }, connection));
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
