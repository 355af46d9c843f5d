import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { step } from './progress';
import { SERVE_NODE } from './serveNode';

// A real `agent-warden serve` in a world of its own (home, state folder, project), for the HTTP,
// memory and load figures. Its resident memory is read from /proc; the event-loop figures come from
// /health when the build exposes them (AGENT_WARDEN_STATS=1), otherwise they are reported as missing.

export interface ServeWorld {
  home: string;
  project: string;
}

export interface RunningServe {
  url: string;
  token: string;
  pid: number;
  /** Resident memory now, in MB. */
  rssMb(): number;
  /** CPU time serve used so far (every thread, user and system), in ms, from /health. */
  cpuMs(): Promise<number>;
  /** serve's event-loop figures since the last reset, or undefined when this build has none. */
  loopStats(reset?: boolean): Promise<{ eventLoopMaxMs: number } | undefined>;
  /** Where serve's memory sits (each thread's heap, the parsers' WebAssembly), when this build reports it. */
  memory(): Promise<unknown>;
  /** The tail of serve's stderr (what it warned about, or why it died). */
  stderrTail(): string;
  /** Rows in the activity log and its rotations. */
  rowsLogged(): number;
  stop(): Promise<void>;
}

export interface ServeOptions {
  cli: string;
  world: ServeWorld;
  /** Written to a file passed with --config (the person's own command line: never held). */
  config?: Record<string, unknown>;
  /** Options for node itself (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Appends serve's stdout here (what node options such as --trace-gc print). */
  stdoutFile?: string;
  /** Added to serve's environment (e.g. MALLOC_ARENA_MAX). */
  env?: Record<string, string>;
}

function stateDir(world: ServeWorld): string {
  return join(world.home, '.agent-warden');
}

function readRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS line in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

function countRecords(dir: string): number {
  let rows = 0;
  for (const name of readdirSync(dir)) {
    if (!/^activity(\.\d+)?\.jsonl$/.test(name)) continue;
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        if ((JSON.parse(line) as { type?: string }).type === 'record') rows++;
      } catch {
        // A torn line is not a row.
      }
    }
  }
  return rows;
}

export async function startServe(opts: ServeOptions): Promise<RunningServe> {
  const { world } = opts;
  mkdirSync(join(world.project, '.git'), { recursive: true });
  writeFileSync(join(world.project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const args = [...(opts.nodeArgs ?? []), opts.cli, 'serve', '--port', '0'];
  if (opts.config) {
    const file = join(world.home, 'bench-config.json');
    mkdirSync(world.home, { recursive: true });
    writeFileSync(file, JSON.stringify(opts.config));
    args.push('--config', file);
  }
  const spawnedAt = performance.now();
  const child: ChildProcess = spawn(SERVE_NODE, args, {
    cwd: world.project,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: world.home,
      AGENT_WARDEN_HOME: stateDir(world),
      AGENT_WARDEN_CLAUDE_BIN: join(world.home, 'no-claude'),
      AGENT_WARDEN_STATS: '1',
      ...opts.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const ready = await new Promise<{ url: string; tokenFile: string }>((done, fail) => {
    let out = '';
    let isReady = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (isReady) return;
      out += chunk;
      // The ready line; node options such as --trace-gc print lines of their own to stdout too.
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith('{"url"'));
      if (line === undefined) return;
      isReady = true;
      done(JSON.parse(line) as { url: string; tokenFile: string });
    });
    child.once('exit', (code) => fail(new Error(`serve exited ${code} before it was ready: ${stderr}`)));
  });
  if (opts.stdoutFile) {
    const file = opts.stdoutFile;
    child.stdout!.on('data', (chunk: string) => appendFileSync(file, chunk));
  }
  const token = readFileSync(ready.tokenFile, 'utf8').trim();
  step(`  serve ready in ${((performance.now() - spawnedAt) / 1000).toFixed(1)} s`);
  const pid = child.pid!;
  return {
    url: ready.url,
    token,
    pid,
    rssMb: () => readRssMb(pid),
    async cpuMs() {
      const res = await fetch(`${ready.url}/health`);
      const body = (await res.json()) as { stats?: { cpuUserMs: number; cpuSystemMs: number } };
      if (!body.stats) throw new Error('this build of serve reports no CPU figures on /health');
      return body.stats.cpuUserMs + body.stats.cpuSystemMs;
    },
    async loopStats(reset = false) {
      const res = await fetch(`${ready.url}/health${reset ? '?reset=1' : ''}`);
      const body = (await res.json()) as { stats?: { eventLoopMaxMs?: number } };
      const max = body.stats?.eventLoopMaxMs;
      return typeof max === 'number' ? { eventLoopMaxMs: max } : undefined;
    },
    async memory() {
      const res = await fetch(`${ready.url}/health`);
      const body = (await res.json()) as { stats?: { memory?: unknown } };
      return body.stats?.memory;
    },
    stderrTail: () => stderr,
    rowsLogged: () => (existsSync(stateDir(world)) ? countRecords(stateDir(world)) : 0),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
