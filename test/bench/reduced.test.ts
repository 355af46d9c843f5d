// `npm run bench` in its reduced mode (seconds rather than minutes): it completes and writes results
// the schema accepts. What the figures say is never checked here: speed is for the bench to report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../builders/process';
import { resultsSchema } from '../../bench/suite/schema';
import { aTempDir, removeDir } from '../builders/tempProject';

test(
  'the reduced bench completes, prints its table and writes results the schema accepts',
  { timeout: 900_000 },
  () => {
    const dir = aTempDir('bench');
    try {
      const out = join(dir, 'results.json');
      const env = { ...process.env };
      delete env.NODE_TEST_CONTEXT;
      const run = spawnSync(process.execPath, [join(repoRoot(), 'bench', 'run.mjs'), '--reduced', '--out', out], {
        cwd: repoRoot(),
        env,
        encoding: 'utf8',
        timeout: 880_000,
      });
      assert.equal(run.status, 0, `the reduced bench failed:\n${run.stdout}\n${run.stderr}`);
      assert.ok(existsSync(out), 'results were written where --out said');
      const parsed = resultsSchema.safeParse(JSON.parse(readFileSync(out, 'utf8')));
      assert.ok(parsed.success, `the results match the schema: ${parsed.success ? '' : parsed.error.message}`);
      assert.equal(parsed.data.mode, 'reduced');
      assert.deepEqual(
        parsed.data.http.map((row) => `${row.connections} ${row.sessions}`),
        ['1 per-connection', '8 per-connection', '64 per-connection', '8 shared'],
      );
      assert.equal(
        new Set(parsed.data.writtenCode.map((row) => row.text)).size * 2,
        parsed.data.writtenCode.length,
        'every hard-to-read text is timed at both sizes',
      );
      assert.equal(parsed.data.memory.rowsLogged, parsed.data.memory.calls, 'every call answered is a row out');
      assert.equal(
        parsed.data.afterPause.serve.n,
        parsed.data.afterPause.calls,
        'every call after a pause was answered',
      );
      assert.deepEqual(
        parsed.data.httpFloor.map((row) => row.connections),
        [1, 8],
      );
      if (process.platform === 'linux' && 'calls' in parsed.data.memoryArenas2)
        assert.equal(parsed.data.memoryArenas2.rowsLogged, parsed.data.memoryArenas2.calls);
      assert.match(run.stdout, /Agent Warden bench \(reduced\)/);
      assert.match(run.stdout, /node -e 0/);
    } finally {
      removeDir(dir);
    }
  },
);

test('the results schema refuses a figure outside its own spread and a missing section', () => {
  const figure = { median: 2, low: 1, high: 3, n: 5, spread: 'p25-p75', unit: 'ms' };
  const reduced = {
    schemaVersion: 6,
    mode: 'reduced',
    startedAt: new Date(0).toISOString(),
    seconds: 1,
    machine: {
      node: 'v20',
      platform: 'linux-x64',
      cpus: 2,
      loadAverageAtStart: [0, 0, 0],
      loadAverageAtEnd: [0, 0, 0],
    },
    floor: figure,
    mix: { distinctCalls: 56, dangerous: 16 },
    httpWarmUp: { calls: 100, seconds: 0.5, callsPerSecond: 200 },
    http: [
      {
        connections: 1,
        sessions: 'per-connection',
        callsPerRun: 10,
        p50: figure,
        p95: figure,
        p99: figure,
        throughput: { ...figure, unit: 'calls/s' },
      },
    ],
    httpFloor: [
      {
        connections: 8,
        sessions: 'per-connection',
        callsPerRun: 10,
        p50: figure,
        p95: figure,
        p99: figure,
        throughput: { ...figure, unit: 'calls/s' },
      },
    ],
    afterPause: { pauseMs: 50, calls: 2, serve: figure, floor: figure },
    inProcess: { mix: figure, deterministicOnly: figure, eventLoopMaxMs: figure },
    bridge: { skipped: 'reduced' },
    redaction: [{ chars: 1024, kind: 'typical', input: 'typical', time: figure }],
    envelope: [{ transcriptBytes: 10240, time: figure }],
    digest: [{ bytes: 1024, shape: 'one string', time: figure }],
    writtenCode: [{ text: 'ordinary code', bytes: 16384, time: figure }],
    memory: {
      calls: 10,
      connections: 8,
      rssAtStart: { ...figure, unit: 'MB' },
      rssAfter: { ...figure, unit: 'MB' },
      rowsLogged: 10,
    },
    memoryArenas2: { skipped: 'not glibc' },
    serveEventLoopMaxMs: figure,
    judge: { delayMs: 50, calls: 2, judgeRequests: 2, added: figure },
    ratiosToFloor: { 'in-process mix': 0.01 },
    cutByBudget: [],
  };
  assert.ok(resultsSchema.safeParse(reduced).success, 'a well-formed result is accepted');
  assert.equal(resultsSchema.safeParse({ ...reduced, floor: { ...figure, low: 4 } }).success, false);
  const { memory: _memory, ...withoutMemory } = reduced;
  assert.equal(resultsSchema.safeParse(withoutMemory).success, false);
  const { httpFloor: _floor, ...withoutFloor } = reduced;
  assert.equal(resultsSchema.safeParse(withoutFloor).success, false);
  const { afterPause: _paused, ...withoutPaused } = reduced;
  assert.equal(resultsSchema.safeParse(withoutPaused).success, false);
  assert.equal(resultsSchema.safeParse({ ...reduced, floor: { ...figure, median: Number.NaN } }).success, false);
  // A row that does not say how its connections map to sessions cannot be read against the others.
  const { sessions: _sessions, ...unsaid } = reduced.http[0]!;
  assert.equal(resultsSchema.safeParse({ ...reduced, http: [unsaid] }).success, false);
});
