import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runLoad } from './suite/http-load';
import { mixBody, mixCalls } from './suite/mix';
import { startServe } from './suite/serve';
import { step } from './suite/progress';

// Stall attribution: a long run of the mix through a real `agent-warden serve` whose main thread is
// profiled (--cpu-prof) while its event loop is watched (monitorEventLoopDelay, and a timer that notes
// when each block over 50 ms ended). Start-up is left out (the window opens after a warm-up). Each block
// is then read in the profile: what the thread ran in that stretch, or that it was not sampled at all.
//   node bench/run.mjs stalls   (env STALL_CALLS, default 100000; STALL_CONNECTIONS, default 8;
//                                STALL_KEEP=DIR keeps the profiles there)

const CALLS = Number(process.env['STALL_CALLS'] ?? 100_000);
const CONNECTIONS = Number(process.env['STALL_CONNECTIONS'] ?? 8);
/** The profiler's sampling interval, µs: fine enough to read a 50 ms block, coarse enough for a long run. */
const SAMPLE_US = 1000;

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface Block {
  endedAtUs: number;
  ms: number;
  cpuMs?: number;
}

interface Reading {
  blocks: Block[];
  eventLoopMaxMs: number;
  eventLoopP99Ms: number;
}

/** What the main thread did in [from, to] µs: time by frame, and the longest stretch with no sample. */
function readWindow(profile: Profile, frames: Map<number, string>, from: number, to: number) {
  const byFrame = new Map<string, number>();
  let at = profile.startTime;
  let sampled = 0;
  let longestGapMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at - delta > to) continue;
    // A sample's delta is the time since the one before: the thread ran that stretch in this frame,
    // unless the delta is far past the interval, when the whole process was not running to be sampled.
    const overlap = Math.min(at, to) - Math.max(at - delta, from);
    if (delta > 10 * SAMPLE_US) longestGapMs = Math.max(longestGapMs, delta / 1000);
    else {
      const name = frames.get(profile.samples[i]!) ?? '?';
      byFrame.set(name, (byFrame.get(name) ?? 0) + overlap / 1000);
      sampled += overlap / 1000;
    }
  }
  return { byFrame, sampled, longestGapMs };
}

function attribute(profile: Profile, frames: Map<number, string>, block: Block): string {
  const from = block.endedAtUs - block.ms * 1000 - 10_000;
  const { byFrame, sampled, longestGapMs } = readWindow(profile, frames, from, block.endedAtUs);
  const top = [...byFrame]
    .filter(([name]) => !name.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`);
  const gc = byFrame.get('(garbage collector) (native):0') ?? 0;
  // The thread's own CPU time says whether it ran at all; the profile's samples say what it ran.
  const cpu = block.cpuMs === undefined ? '' : `; thread CPU ${block.cpuMs} ms`;
  const verdict =
    (block.cpuMs !== undefined && block.cpuMs < block.ms / 3) || longestGapMs >= block.ms / 2
      ? 'not running (the OS ran other work: machine load)'
      : gc >= block.ms / 2
        ? 'garbage collection'
        : `running: ${top[0] ?? 'nothing sampled'}`;
  const gap = longestGapMs ? `; no sample for ${longestGapMs.toFixed(0)} ms` : '';
  return `${verdict}${cpu}${gap}; sampled ${sampled.toFixed(0)} ms: ${top.join(', ') || '-'}`;
}

async function main(): Promise<void> {
  const cli = resolve(__dirname, '..', '..', 'dist', 'cli.js');
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-stalls-')));
  const profiles = process.env['STALL_KEEP'] ? resolve(process.env['STALL_KEEP']) : join(base, 'profiles');
  mkdirSync(profiles, { recursive: true });
  const world = { home: join(base, 'home'), project: join(base, 'home', 'project') };
  const serve = await startServe({
    cli,
    world,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`, `--cpu-prof-interval=${SAMPLE_US}`],
    config: { log: { maxBytes: 64 * 1024 * 1024, keep: 4 } },
  });
  const calls = mixCalls(world.project);
  let reading: Reading;
  let slowCalls: number;
  let slowest: number;
  try {
    await runLoad({
      url: serve.url,
      token: serve.token,
      connections: CONNECTIONS,
      calls: 2000,
      body: (i) => mixBody(world.project, calls, i, 'warm'),
    });
    await fetch(`${serve.url}/health?reset=1`);
    step(`${CALLS} calls at ${CONNECTIONS} connections`);
    const figures = await runLoad({
      url: serve.url,
      token: serve.token,
      connections: CONNECTIONS,
      calls: CALLS,
      body: (i) => mixBody(world.project, calls, i, 'stall'),
    });
    if (figures.failed) throw new Error(`${figures.failed} calls failed`);
    slowCalls = figures.latencies.filter((ms) => ms > 50).length;
    slowest = figures.latencies.reduce((a, b) => Math.max(a, b), 0);
    step(`${figures.answered} calls in ${figures.seconds.toFixed(0)} s (${figures.callsPerSecond.toFixed(0)}/s)`);
    const body = (await (await fetch(`${serve.url}/health`)).json()) as { stats: Reading };
    reading = body.stats;
  } finally {
    await serve.stop();
  }
  const mainProfile = readdirSync(profiles).find((name) => name.includes(`.${serve.pid}.0.`));
  if (!mainProfile) throw new Error(`no main-thread profile of serve (pid ${serve.pid}) in ${profiles}`);
  const profile = JSON.parse(readFileSync(join(profiles, mainProfile), 'utf8')) as Profile;
  const { frameName } = await import('./profile-frames.mjs');
  const frames = new Map(profile.nodes.map((node) => [node.id, frameName(node.callFrame)]));
  console.log(
    `event loop after start-up: max ${reading.eventLoopMaxMs.toFixed(1)} ms, p99 ${reading.eventLoopP99Ms.toFixed(1)} ms; ` +
      `${reading.blocks.length} blocks over 50 ms; ${slowCalls} calls answered in over 50 ms (slowest ${slowest.toFixed(0)} ms)`,
  );
  const verdicts = reading.blocks.map((block) => ({ block, text: attribute(profile, frames, block) }));
  const kinds = new Map<string, number>();
  for (const { text } of verdicts) {
    const kind = text.split(/[;:]/)[0]!.replace(/ \(.*$/, '');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  console.log(`  by cause: ${[...kinds].map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
  for (const { block, text } of verdicts) console.log(`  ${block.ms.toFixed(0).padStart(5)} ms block: ${text}`);
  rmSync(base, { recursive: true, force: true });
  if (process.env['STALL_KEEP']) console.log(`profiles kept in ${profiles}`);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
