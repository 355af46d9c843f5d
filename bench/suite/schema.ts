import { z } from 'zod';

// bench/results.json, as `npm run bench` writes it and the CI test reads it back. Every figure is a
// median with its spread; what a run could not measure is null with the reason beside it, never a
// made-up number.

export const figureSchema = z
  .object({
    median: z.number().finite(),
    low: z.number().finite(),
    high: z.number().finite(),
    /** Samples (per-call figures) or runs (per-run figures) behind the median. */
    n: z.number().int().positive(),
    spread: z.enum(['p25-p75', 'min-max', 'single']),
    unit: z.enum(['ms', 'calls/s', 'MB', 'ratio', 'count']),
  })
  .strict()
  .refine((f) => f.low <= f.median && f.median <= f.high, 'low <= median <= high');
export type Figure = z.infer<typeof figureSchema>;

const skipped = z.object({ skipped: z.string().min(1) }).strict();

const httpRunSchema = z
  .object({
    connections: z.number().int().positive(),
    /** How the connections map to agent sessions (bench/suite/mix.ts, SessionLayout). */
    sessions: z.enum(['per-connection', 'shared']),
    callsPerRun: z.number().int().positive(),
    p50: figureSchema,
    p95: figureSchema,
    p99: figureSchema,
    throughput: figureSchema,
  })
  .strict();

const memorySchema = z
  .object({
    calls: z.number().int().positive(),
    connections: z.number().int().positive(),
    rssAtStart: figureSchema,
    rssAfter: figureSchema,
    /** Rows in the activity log after the run: every call in is a row out. */
    rowsLogged: z.number().int().nonnegative(),
  })
  .strict();

const loadRunSchema = z
  .object({
    connections: z.number().int().positive(),
    seconds: z.number().positive(),
    judgeDelayMs: z.number().nonnegative(),
    deadlineMs: z.number().positive(),
    callsIn: z.number().int().nonnegative(),
    callsAnswered: z.number().int().nonnegative(),
    rowsOut: z.number().int().nonnegative(),
    pastDeadline: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    judgeRequests: z.number().int().nonnegative(),
    latency: figureSchema,
    rssAfter: figureSchema,
    eventLoopMaxMs: z.number().nonnegative().nullable(),
  })
  .strict();

const extensionHostSchema = z
  .object({
    calls: z.number().int().positive(),
    heapUsedBefore: figureSchema,
    heapUsedAfter: figureSchema,
    heapGrowth: figureSchema,
    rssAfter: figureSchema,
  })
  .strict();

export const resultsSchema = z
  .object({
    // 2: the bridge adds shellForwarding; the floor runs in a plain environment.
    // 3: the HTTP floor (httpFloor), and serve's memory with glibc's malloc arenas capped (memoryArenas2).
    // 4: calls after a pause (afterPause), through serve and through the HTTP floor.
    // 5: http rows say how connections map to sessions (one each, or one shared); serve runs both at 8.
    // 6: serve's warm-up before the http rows (httpWarmUp), long enough for V8's optimising compiler to settle.
    schemaVersion: z.literal(6),
    mode: z.enum(['reduced', 'default', 'full']),
    startedAt: z.string().datetime(),
    seconds: z.number().positive(),
    machine: z
      .object({
        node: z.string(),
        platform: z.string(),
        cpus: z.number().int().positive(),
        loadAverageAtStart: z.array(z.number()).length(3),
        loadAverageAtEnd: z.array(z.number()).length(3),
      })
      .strict(),
    /** `node -e 0` on this machine in this run: the time figures are also given as ratios to it. */
    floor: figureSchema,
    mix: z.object({ distinctCalls: z.number().int().positive(), dangerous: z.number().int().nonnegative() }).strict(),
    /**
     * The calls serve answered at 8 connections before the http rows were measured, once: V8 optimises
     * a function only after it ran a while, and the mix's rarer paths took over 10,000 calls to settle.
     */
    httpWarmUp: z
      .object({
        calls: z.number().int().positive(),
        seconds: z.number().positive(),
        callsPerSecond: z.number().positive(),
      })
      .strict(),
    http: z.array(httpRunSchema).min(1),
    /** A do-nothing endpoint built like serve (node http, a worker hop, JSON both ways): bench/suite/http-floor.ts. */
    httpFloor: z.array(httpRunSchema).min(1),
    /** One connection, a pause before each call (as an agent calls): each call's round trip. */
    afterPause: z
      .object({
        pauseMs: z.number().int().positive(),
        calls: z.number().int().positive(),
        serve: figureSchema,
        floor: figureSchema,
      })
      .strict(),
    inProcess: z
      .object({
        mix: figureSchema,
        deterministicOnly: figureSchema,
        /** The longest event-loop block while the in-process mix ran (this process, after warm-up). */
        eventLoopMaxMs: figureSchema,
      })
      .strict(),
    bridge: z.union([
      z
        .object({
          forwarding: figureSchema,
          /** sh dist/hook.sh forwarding by itself (bench/bridge.ts fails a run where it handed off). */
          shellForwarding: figureSchema,
          roundTrip: figureSchema,
          fallbackCodeCache: figureSchema,
          fallbackNoCodeCache: figureSchema,
        })
        .strict(),
      skipped,
    ]),
    redaction: z
      .array(
        z
          .object({
            chars: z.number().int().positive(),
            kind: z.enum(['typical', 'adversarial']),
            /** The adversarial input with the slowest median at this size. */
            input: z.string(),
            time: figureSchema,
          })
          .strict(),
      )
      .min(1),
    envelope: z.array(z.object({ transcriptBytes: z.number().int().positive(), time: figureSchema }).strict()).min(1),
    digest: z
      .array(z.object({ bytes: z.number().int().positive(), shape: z.string(), time: figureSchema }).strict())
      .min(1),
    /** The deterministic tier on a Write of code built to be slow to read (bench/suite/written-code.ts). */
    writtenCode: z
      .array(z.object({ text: z.string(), bytes: z.number().int().positive(), time: figureSchema }).strict())
      .min(1),
    memory: memorySchema,
    /** The same run with MALLOC_ARENA_MAX=2 in serve's environment (glibc's Linux only). */
    memoryArenas2: z.union([memorySchema, skipped]),
    /** serve's own event-loop delay over the HTTP runs, when the build exposes it on /health. */
    serveEventLoopMaxMs: z.union([figureSchema, skipped]),
    judge: z
      .object({
        delayMs: z.number().positive(),
        calls: z.number().int().positive(),
        judgeRequests: z.number().int().nonnegative(),
        added: figureSchema,
      })
      .strict(),
    ratiosToFloor: z.record(z.string(), z.number().finite()),
    /** Sections that stopped repeating (or, for memory, sending) when their share of the time ran out. */
    cutByBudget: z.array(z.string()),
    full: z
      .object({
        memory: memorySchema,
        memoryArenas2: z.union([memorySchema, skipped]),
        extensionHost: z.union([extensionHostSchema, skipped]),
        load: loadRunSchema,
      })
      .strict()
      .optional(),
  })
  .strict();
export type BenchResults = z.infer<typeof resultsSchema>;
