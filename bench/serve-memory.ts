import { mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from './suite/http-load';
import { mixBody, mixCalls } from './suite/mix';
import { startServe } from './suite/serve';
import { step } from './suite/progress';
import { serveNodeVersion } from './suite/serveNode';

// serve's resident memory along a long run of the mix (8 connections, log on, workers and grammars as
// shipped), read at start and after every MEMORY_STEP calls, with where it sits when the build reports
// it (AGENT_WARDEN_STATS=1: each thread's V8 heap and the shell parser's WebAssembly memory).
//   node bench/run.mjs serve-memory   (env MEMORY_CALLS, default 100000; MEMORY_STEP, default 10000;
//                                      MEMORY_NODE_ARGS, node options for serve, space-separated;
//                                      MEMORY_SNAPSHOTS=DIR, a heap snapshot of serve's main thread
//                                      after every step, moved to DIR; MEMORY_STDOUT=FILE, serve's
//                                      stdout, e.g. what --trace-gc prints; MEMORY_ENV, variables
//                                      added to serve's environment, e.g. "MALLOC_ARENA_MAX=2";
//                                      BENCH_SERVE_NODE, the Node binary serve runs on;
//                                      MEMORY_MAPPINGS=N, serve's N largest resident mappings at each step)

const CALLS = Number(process.env['MEMORY_CALLS'] ?? 100_000);
const STEP = Number(process.env['MEMORY_STEP'] ?? 10_000);
const CONNECTIONS = 8;
const SNAPSHOTS = process.env['MEMORY_SNAPSHOTS'];
const MAPPINGS = Number(process.env['MEMORY_MAPPINGS'] ?? 0);
const ROOMY_LOG = { log: { maxBytes: 64 * 1024 * 1024, keep: 40 } };

/**
 * Resident memory by kind of mapping, from /proc/PID/smaps: WebAssembly linear memories (V8 reserves
 * each with guard regions, many GB of address space), other anonymous memory (V8 heaps, malloc, thread
 * stacks), and files (node's own code, shared libraries).
 */
function residentByMapping(pid: number): { wasmMb: number; anonymousMb: number; filesMb: number } {
  const totals = { wasmMb: 0, anonymousMb: 0, filesMb: 0 };
  let kind: keyof typeof totals = 'anonymousMb';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      const size = Number.parseInt(head[2]!, 16) - Number.parseInt(head[1]!, 16);
      const file = head[4]!.startsWith('/') ? head[4]! : '';
      kind = file ? 'filesMb' : size >= 2 ** 32 ? 'wasmMb' : 'anonymousMb';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss) totals[kind] += Number(rss[1]) / 1024;
  }
  return {
    wasmMb: Math.round(totals.wasmMb * 10) / 10,
    anonymousMb: Math.round(totals.anonymousMb * 10) / 10,
    filesMb: Math.round(totals.filesMb * 10) / 10,
  };
}

/** The `count` mappings of `pid` holding the most resident memory: address range, size, resident, what backs it. */
function largestMappings(pid: number, count: number): string[] {
  const mappings: { range: string; sizeKb: number; rssKb: number; backing: string }[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const sizeKb = (Number.parseInt(head[2]!, 16) - Number.parseInt(head[1]!, 16)) / 1024;
      mappings.push({ range: `${head[1]}-${head[2]} ${head[3]}`, sizeKb, rssKb: 0, backing: head[4] || '[anonymous]' });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB$/.exec(line);
    if (rss && mappings.length) mappings[mappings.length - 1]!.rssKb = Number(rss[1]);
  }
  return mappings
    .sort((a, b) => b.rssKb - a.rssKb)
    .slice(0, count)
    .map(
      (m) =>
        `${(m.rssKb / 1024).toFixed(1).padStart(6)} MB of ${(m.sizeKb / 1024).toFixed(1).padStart(8)} MB  ${m.range}  ${m.backing}`,
    );
}

/** Has serve write a heap snapshot (--heapsnapshot-signal) and moves it to SNAPSHOTS once written. */
async function snapshot(pid: number, folder: string, name: string): Promise<void> {
  const before = new Set(readdirSync(folder));
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const made = readdirSync(folder).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!made) continue;
    const size = statSync(join(folder, made)).size;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (statSync(join(folder, made)).size !== size || size === 0) continue;
    renameSync(join(folder, made), join(SNAPSHOTS!, `${name}.heapsnapshot`));
    return;
  }
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-memory-')));
  const world = { home: join(base, 'home'), project: join(base, 'home', 'project') };
  const calls = mixCalls(join(base, 'mix-project'));
  const nodeArgs = (process.env['MEMORY_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  if (SNAPSHOTS) nodeArgs.push('--heapsnapshot-signal=SIGUSR2');
  const stdoutFile = process.env['MEMORY_STDOUT'];
  const env = Object.fromEntries(
    (process.env['MEMORY_ENV'] ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const serve = await startServe({
    cli: join(process.cwd(), 'dist', 'cli.js'),
    world,
    config: ROOMY_LOG,
    nodeArgs,
    env,
    ...(stdoutFile ? { stdoutFile } : {}),
  });
  try {
    const report = async (done: number) => {
      const memory = await serve.memory();
      const mapped = residentByMapping(serve.pid);
      console.log(
        `${String(done).padStart(7)} calls  rss ${serve.rssMb().toFixed(1)} MB  ` +
          `(wasm ${mapped.wasmMb}, other anonymous ${mapped.anonymousMb}, files ${mapped.filesMb})`,
      );
      for (const thread of (memory ?? []) as Record<string, unknown>[]) console.log('   ', JSON.stringify(thread));
      if (MAPPINGS > 0) for (const line of largestMappings(serve.pid, MAPPINGS)) console.log('     ', line);
      if (SNAPSHOTS) await snapshot(serve.pid, world.project, `main-${done}`);
    };
    console.log(`serve on Node ${serveNodeVersion()}`);
    await report(0);
    const cpuAtStart = await serve.cpuMs();
    let done = 0;
    while (done < CALLS) {
      const batch = Math.min(STEP, CALLS - done);
      const start = done;
      const figures = await runLoad({
        url: serve.url,
        token: serve.token,
        connections: CONNECTIONS,
        calls: batch,
        body: (index) => mixBody(world.project, calls, start + index, 'memory'),
      });
      if (figures.failed > 0)
        throw new Error(`${figures.failed} calls failed (${figures.firstFailure}); serve said: ${serve.stderrTail()}`);
      done += batch;
      step(`  ${done} calls (${figures.callsPerSecond.toFixed(0)}/s)`);
      await report(done);
    }
    const cpuPerCall = ((await serve.cpuMs()) - cpuAtStart) / CALLS;
    console.log(`serve's CPU per call (every thread): ${(cpuPerCall * 1000).toFixed(0)} µs`);
    console.log(`rows logged: ${serve.rowsLogged()} of ${CALLS}`);
  } finally {
    await serve.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
