// The command bridge's cost against Node's own start: a real `agent-warden
// serve` (deterministic tier only) on loopback, and per round, in a shuffled
// order, one run each of
//   floor     node -e reading stdin (what any Node hook costs at least)
//   bridge    node dist/hook.js --agent claude (forwarding to serve)
//   shell     sh dist/hook.sh NODE --agent claude (the shell bridge: curl and openssl, Node only to fall back)
//   roundtrip the endpoint's own round trip for the same body (POST from this process)
//   cli       node dist/cli.js hook --agent claude (the bridge inside the whole CLI bundle)
// and then the in-process fallback (no endpoint recorded), with and without
// the V8 code cache for dist/cli.js. Figures are medians over the runs; beside
// them, the children's mean CPU time (user + system, from /proc on Linux).
// Run: npm run build && node bench/run.mjs bridge   (BRIDGE_RUNS, BRIDGE_FALLBACK_RUNS, and BRIDGE_COMPARE=FILE
// to run another bridge, e.g. an older build's hook.js, in the same rounds)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const HOOK = join(ROOT, 'dist', 'hook.js');
const SHELL_HOOK = join(ROOT, 'dist', 'hook.sh');
const RUNS = Number(process.env['BRIDGE_RUNS'] ?? 40);
const FALLBACK_RUNS = Number(process.env['BRIDGE_FALLBACK_RUNS'] ?? 30);
const WARMUP = 3;
/** Another bridge (say, an older build's dist/hook.js) run in the same rounds, to compare before and after. */
const COMPARE = process.env['BRIDGE_COMPARE'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function envFor(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', HOME: home, AGENT_WARDEN_HOME: join(home, '.agent-warden'), ...extra };
}

/**
 * CPU time (user + system, ms) of this process's reaped children so far, from /proc (Linux); undefined elsewhere.
 * The kernel keeps the sum in nanoseconds and rounds it to clock ticks when read, so a difference over one
 * child is within a tick and the mean over many runs is close to exact.
 */
function childrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime), counted from the state field (3) here.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux this bench runs on (getconf CLK_TCK). */
const CLOCK_TICKS_PER_SECOND = 100;

/** Wall time of one child from spawn to exit (and its CPU time where /proc says), with stdin written at once. */
function timeChild(
  args: string[],
  stdin: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  command = process.execPath,
): Promise<{ ms: number; cpuMs: number | undefined; out: string; err: string }> {
  return new Promise((done, fail) => {
    const cpuBefore = childrenCpuMs();
    const start = performance.now();
    const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      const cpuAfter = childrenCpuMs();
      const cpuMs = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
      if (code !== 0) fail(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else done({ ms, cpuMs, out, err });
    });
    child.stdin.end(stdin);
  });
}

function roundTrip(url: string, token: string, body: string): Promise<number> {
  return new Promise((done, fail) => {
    const target = new URL(`${url}/hooks/claude`);
    const start = performance.now();
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(performance.now() - start));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

function startServe(home: string, cwd: string): Promise<{ child: ChildProcess; url: string; tokenFile: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
      env: envFor(home),
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        const ready = JSON.parse(line) as { url: string; tokenFile: string };
        done({ child, url: ready.url, tokenFile: ready.tokenFile });
      }
    });
    child.on('exit', (code) => fail(new Error(`serve exited ${code}`)));
  });
}

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-bench-bridge-')));
  const project = join(base, 'project');
  const home = join(base, 'home');
  const lonely = join(base, 'home-without-endpoint');
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(home);
  mkdirSync(lonely);
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  // A fresh session per call (same length): repeated identical calls in one session draw a warning.
  let calls = 0;
  const bodyFor = () =>
    JSON.stringify({
      session_id: `bench-${String(calls++).padStart(6, '0')}`,
      transcript_path: '',
      cwd: project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls -la src' },
      tool_use_id: 'toolu_bench',
    });
  const body = bodyFor();
  const serve = await startServe(home, project);
  const token = readFileSync(serve.tokenFile, 'utf8').trim();
  const env = envFor(home);
  const figures: Record<string, number[]> = { floor: [], bridge: [], shell: [], roundtrip: [], cli: [] };
  // CPU time of the child processes (the round trip runs in this process and has none of its own).
  const cpu: Record<string, number[]> = { floor: [], bridge: [], shell: [], cli: [] };
  if (COMPARE) {
    figures['compared'] = [];
    cpu['compared'] = [];
  }
  type Sample = { ms: number; cpuMs?: number | undefined };
  try {
    const kinds: Record<string, () => Promise<Sample>> = {
      floor: () => timeChild(['-e', "require('fs').readFileSync(0)"], bodyFor(), env, project),
      bridge: async () => {
        const sample = await timeChild([HOOK, '--agent', 'claude'], bodyFor(), env, project);
        if (sample.out.trim() !== '{}') throw new Error(`the bridge answered ${sample.out}`);
        return sample;
      },
      shell: async () => {
        const sample = await timeChild(
          [SHELL_HOOK, process.execPath, '--agent', 'claude'],
          bodyFor(),
          { ...env, AGENT_WARDEN_BRIDGE_TRACE: '1' },
          project,
          'sh',
        );
        if (sample.out.trim() !== '{}') throw new Error(`the shell bridge answered ${sample.out}`);
        // Timed only when it forwarded by itself (a hand-off to the Node bridge would time that).
        if (!sample.err.includes('forwarded to')) throw new Error(`the shell bridge handed off: ${sample.err}`);
        return sample;
      },
      roundtrip: async () => ({ ms: await roundTrip(serve.url, token, bodyFor()) }),
      cli: () => timeChild([CLI, 'hook', '--agent', 'claude'], bodyFor(), env, project),
      ...(COMPARE
        ? {
            compared: async () => {
              const sample = await timeChild([resolve(COMPARE), '--agent', 'claude'], bodyFor(), env, project);
              if (sample.out.trim() !== '{}') throw new Error(`${COMPARE} answered ${sample.out}`);
              return sample;
            },
          }
        : {}),
    };
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const kind of shuffle(Object.keys(kinds))) {
        const sample = await kinds[kind]!();
        if (round < WARMUP) continue;
        figures[kind]!.push(sample.ms);
        if (sample.cpuMs !== undefined) cpu[kind]?.push(sample.cpuMs);
      }
    }
  } finally {
    serve.child.kill('SIGTERM');
  }

  const fwd = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)]));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const cpuMeans = Object.fromEntries(
    Object.entries(cpu)
      .filter(([, v]) => v.length === RUNS)
      .map(([k, v]) => [k, mean(v)]),
  );
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `p25 ${sorted[Math.floor(sorted.length / 4)]!.toFixed(1)}, p75 ${sorted[Math.floor((3 * sorted.length) / 4)]!.toFixed(1)}`;
  };
  // Printed before the fallback runs, which take much longer.
  console.log(`forwarding, medians over ${RUNS} interleaved runs each (CPU: mean of user + system time):`);
  for (const kind of Object.keys(figures)) {
    const cpuText = cpuMeans[kind] !== undefined ? `  CPU ${cpuMeans[kind]!.toFixed(1).padStart(6)} ms` : '';
    console.log(`  ${kind.padEnd(10)} ${fwd[kind]!.toFixed(1).padStart(7)} ms  (${spread(figures[kind]!)})${cpuText}`);
  }
  console.log(
    `  bridge minus round trip = ${((fwd['bridge']! - fwd['roundtrip']!) / fwd['floor']!).toFixed(3)} x floor (target <= 1.15)`,
  );
  console.log(
    `  shell bridge minus round trip = ${((fwd['shell']! - fwd['roundtrip']!) / fwd['floor']!).toFixed(3)} x floor`,
  );
  for (const kind of ['bridge', 'shell', 'compared'].filter(
    (k) => cpuMeans[k] !== undefined && cpuMeans['floor'] !== undefined,
  ))
    console.log(`  ${kind} CPU = ${(cpuMeans[kind]! / cpuMeans['floor']!).toFixed(3)} x the floor's CPU`);
  if (COMPARE)
    console.log(
      `  compared (${COMPARE}) minus round trip = ${((fwd['compared']! - fwd['roundtrip']!) / fwd['floor']!).toFixed(3)} x floor`,
    );

  // The in-process fallback: no endpoint recorded in this state folder.
  const fallback: Record<string, number[]> = { 'fallback, code cache': [], 'fallback, no code cache': [] };
  const lonelyEnv = envFor(lonely);
  let overBudget = 0;
  if (FALLBACK_RUNS > 0) await timeChild([HOOK, '--agent', 'claude'], body, lonelyEnv, project); // writes the code cache
  for (let round = 0; round < FALLBACK_RUNS; round++) {
    for (const kind of shuffle(Object.keys(fallback))) {
      const extra = kind.includes('no code cache') ? { AGENT_WARDEN_CODE_CACHE: '0' } : {};
      const { ms, out } = await timeChild([HOOK, '--agent', 'claude'], bodyFor(), { ...lonelyEnv, ...extra }, project);
      // On a loaded machine the in-process evaluation can pass its budget: still an answer, counted apart.
      if (/\[budget\]/.test(out)) overBudget++;
      else if (out.trim() !== '{}') throw new Error(`the fallback answered ${out}`);
      fallback[kind]!.push(ms);
    }
  }
  rmSync(base, { recursive: true, force: true });

  const m = Object.fromEntries(Object.entries({ ...figures, ...fallback }).map(([k, v]) => [k, median(v)]));
  const added = m['bridge']! - m['roundtrip']!;
  const shellAdded = m['shell']! - m['roundtrip']!;
  const fmt = (v: number) => `${v.toFixed(1).padStart(7)} ms`;
  console.log(`medians over ${RUNS} interleaved runs each (fallback: ${FALLBACK_RUNS} each)`);
  console.log(`  node -e floor (reads stdin)          ${fmt(m['floor']!)}`);
  console.log(`  dist/hook.js, forwarding             ${fmt(m['bridge']!)}`);
  console.log(`  sh dist/hook.sh, forwarding          ${fmt(m['shell']!)}`);
  console.log(`  endpoint round trip (same body)      ${fmt(m['roundtrip']!)}`);
  console.log(
    `  bridge minus round trip              ${fmt(added)}  = ${(added / m['floor']!).toFixed(3)} x floor (target <= 1.15)`,
  );
  console.log(
    `  shell bridge minus round trip        ${fmt(shellAdded)}  = ${(shellAdded / m['floor']!).toFixed(3)} x floor (target <= 1.15)`,
  );
  console.log(
    `  agent-warden hook (whole CLI bundle) ${fmt(m['cli']!)}  = ${(m['cli']! / m['floor']!).toFixed(3)} x floor`,
  );
  console.log(`  in-process fallback, code cache      ${fmt(m['fallback, code cache']!)}`);
  console.log(`  in-process fallback, no code cache   ${fmt(m['fallback, no code cache']!)}`);
  if (overBudget)
    console.log(
      `  (${overBudget} fallback run(s) passed budget.deterministicMs and answered with the budget's refusal)`,
    );
  const results = {
    runs: RUNS,
    fallbackRuns: FALLBACK_RUNS,
    medians: m,
    addedOverFloor: added / m['floor']!,
    shellAddedOverFloor: shellAdded / m['floor']!,
    cpuMeans,
  };
  mkdirSync(join(ROOT, 'out', 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'out', 'bench', 'bridge-results.json'), JSON.stringify(results, null, 2) + '\n');
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
