import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResults } from './schema';
import { MB, once, ofRuns, type Budget } from './stats';

// Figures that are whole processes: the `node -e 0` floor, the command bridge (bench/bridge.ts,
// run as its own program: its results file is its interface), and the extension host's memory
// read by the code-server suite.

/**
 * Wall time of `node -e 0`, spawn to exit, `count` times, in the plain environment bench/bridge.ts
 * gives the bridges (PATH and HOME only): a variable such as NODE_EXTRA_CA_CERTS in the caller's
 * environment costs every Node start tens of milliseconds, and the floor must cost what they do.
 */
export async function floorSamples(count: number): Promise<number[]> {
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' };
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    samples.push(
      await new Promise<number>((done, fail) => {
        const started = performance.now();
        const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore', env });
        child.once('error', fail);
        child.once('exit', () => done(performance.now() - started));
      }),
    );
  }
  return samples;
}

interface BridgeFile {
  medians: Record<string, number>;
}

/**
 * bench/bridge.ts once per run with few rounds each; every run's medians become one sample, so each
 * figure is the median over the runs with their min-max.
 */
export function bridgeFigures(
  root: string,
  plan: { runs: number; rounds: number; fallbackRounds: number },
  budget: Budget,
): BenchResults['bridge'] {
  const { rounds, fallbackRounds } = plan;
  const bundle = join(root, 'out', 'bench', 'bridge.js');
  const resultsFile = join(root, 'out', 'bench', 'bridge-results.json');
  if (!existsSync(bundle)) return { skipped: `${bundle} is not built (node bench/run.mjs builds it)` };
  const per: Record<
    'forwarding' | 'shellForwarding' | 'roundTrip' | 'fallbackCodeCache' | 'fallbackNoCodeCache',
    number[]
  > = {
    forwarding: [],
    shellForwarding: [],
    roundTrip: [],
    fallbackCodeCache: [],
    fallbackNoCodeCache: [],
  };
  for (let run = 0; budget.another(run, plan.runs, 1); run++) {
    rmSync(resultsFile, { force: true });
    const result = spawnSync(process.execPath, [bundle], {
      cwd: root,
      env: { ...process.env, BRIDGE_RUNS: String(rounds), BRIDGE_FALLBACK_RUNS: String(fallbackRounds) },
      encoding: 'utf8',
    });
    if (result.status !== 0 || !existsSync(resultsFile))
      return { skipped: `bench/bridge.ts failed (exit ${result.status}): ${(result.stderr ?? '').slice(-400)}` };
    const { medians } = JSON.parse(readFileSync(resultsFile, 'utf8')) as BridgeFile;
    per.forwarding.push(medians['bridge']!);
    per.shellForwarding.push(medians['shell']!);
    per.roundTrip.push(medians['roundtrip']!);
    per.fallbackCodeCache.push(medians['fallback, code cache']!);
    per.fallbackNoCodeCache.push(medians['fallback, no code cache']!);
  }
  return {
    forwarding: ofRuns(per.forwarding, 'ms'),
    shellForwarding: ofRuns(per.shellForwarding, 'ms'),
    roundTrip: ofRuns(per.roundTrip, 'ms'),
    fallbackCodeCache: ofRuns(per.fallbackCodeCache, 'ms'),
    fallbackNoCodeCache: ofRuns(per.fallbackNoCodeCache, 'ms'),
  };
}

/** What the code-server suite writes when AGENT_WARDEN_BENCH_MEMORY_OUT names a file. */
interface HostMemoryFile {
  calls: number;
  before: { heapUsed: number; rss: number };
  after: { heapUsed: number; rss: number };
}

/**
 * The extension host's heap over `calls` calls sent to the extension's endpoint, through the
 * code-server end-to-end test (it needs the tools of .ci/install-tools.sh and a test build).
 */
export function extensionHostFigures(
  root: string,
  calls: number,
  outFile: string,
): NonNullable<BenchResults['full']>['extensionHost'] {
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'test.mjs'), 'e2e/vscode/run'], {
    cwd: root,
    env: {
      ...process.env,
      AGENT_WARDEN_E2E_MEMORY_CALLS: String(calls),
      AGENT_WARDEN_BENCH_MEMORY_OUT: outFile,
    },
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  if (!existsSync(outFile))
    return {
      skipped: `the code-server test wrote no memory figures (exit ${result.status}): ${(result.stdout + result.stderr).slice(-600)}`,
    };
  const figures = JSON.parse(readFileSync(outFile, 'utf8')) as HostMemoryFile;
  return {
    calls: figures.calls,
    heapUsedBefore: once(figures.before.heapUsed / MB, 'MB'),
    heapUsedAfter: once(figures.after.heapUsed / MB, 'MB'),
    heapGrowth: once((figures.after.heapUsed - figures.before.heapUsed) / MB, 'MB'),
    rssAfter: once(figures.after.rss / MB, 'MB'),
  };
}
