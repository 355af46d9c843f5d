// The command bridge's cost against Node's own start: a real `agent-warden
// serve` (deterministic tier only) on loopback, and per round, in a shuffled
// order, one run each of
//   floor     node -e reading stdin (what any Node hook costs at least)
//   bridge    node dist/hook.js --agent claude (forwarding to serve)
//   roundtrip the endpoint's own round trip for the same body (POST from this process)
//   cli       node dist/cli.js hook --agent claude (the bridge inside the whole CLI bundle)
// and then the in-process fallback (no endpoint recorded), with and without
// the V8 code cache for dist/cli.js. Figures are medians over the runs.
// Run: npm run build && node bench/run.mjs bridge   (BRIDGE_RUNS, BRIDGE_FALLBACK_RUNS)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const HOOK = join(ROOT, 'dist', 'hook.js');
const RUNS = Number(process.env['BRIDGE_RUNS'] ?? 40);
const FALLBACK_RUNS = Number(process.env['BRIDGE_FALLBACK_RUNS'] ?? 30);
const WARMUP = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function envFor(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', HOME: home, AGENT_WARDEN_HOME: join(home, '.agent-warden'), ...extra };
}

/** Wall time of one child from spawn to exit, with stdin written at once. */
function timeChild(
  args: string[],
  stdin: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ ms: number; out: string }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0) fail(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else done({ ms, out });
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
  const figures: Record<string, number[]> = { floor: [], bridge: [], roundtrip: [], cli: [] };
  try {
    const kinds: Record<string, () => Promise<number>> = {
      floor: async () => (await timeChild(['-e', "require('fs').readFileSync(0)"], bodyFor(), env, project)).ms,
      bridge: async () => {
        const { ms, out } = await timeChild([HOOK, '--agent', 'claude'], bodyFor(), env, project);
        if (out.trim() !== '{}') throw new Error(`the bridge answered ${out}`);
        return ms;
      },
      roundtrip: () => roundTrip(serve.url, token, bodyFor()),
      cli: async () => (await timeChild([CLI, 'hook', '--agent', 'claude'], bodyFor(), env, project)).ms,
    };
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const kind of shuffle(Object.keys(kinds))) {
        const ms = await kinds[kind]!();
        if (round >= WARMUP) figures[kind]!.push(ms);
      }
    }
  } finally {
    serve.child.kill('SIGTERM');
  }

  const fwd = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)]));
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `p25 ${sorted[Math.floor(sorted.length / 4)]!.toFixed(1)}, p75 ${sorted[Math.floor((3 * sorted.length) / 4)]!.toFixed(1)}`;
  };
  // Printed before the fallback runs, which take much longer.
  console.log(`forwarding, medians over ${RUNS} interleaved runs each:`);
  for (const kind of Object.keys(figures))
    console.log(`  ${kind.padEnd(10)} ${fwd[kind]!.toFixed(1).padStart(7)} ms  (${spread(figures[kind]!)})`);
  console.log(
    `  bridge minus round trip = ${((fwd['bridge']! - fwd['roundtrip']!) / fwd['floor']!).toFixed(3)} x floor (target <= 1.15)`,
  );

  // The in-process fallback: no endpoint recorded in this state folder.
  const fallback: Record<string, number[]> = { 'fallback, code cache': [], 'fallback, no code cache': [] };
  const lonelyEnv = envFor(lonely);
  let overBudget = 0;
  await timeChild([HOOK, '--agent', 'claude'], body, lonelyEnv, project); // writes the code cache
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
  const fmt = (v: number) => `${v.toFixed(1).padStart(7)} ms`;
  console.log(`medians over ${RUNS} interleaved runs each (fallback: ${FALLBACK_RUNS} each)`);
  console.log(`  node -e floor (reads stdin)          ${fmt(m['floor']!)}`);
  console.log(`  dist/hook.js, forwarding             ${fmt(m['bridge']!)}`);
  console.log(`  endpoint round trip (same body)      ${fmt(m['roundtrip']!)}`);
  console.log(
    `  bridge minus round trip              ${fmt(added)}  = ${(added / m['floor']!).toFixed(3)} x floor (target <= 1.15)`,
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
  const results = { runs: RUNS, fallbackRuns: FALLBACK_RUNS, medians: m, addedOverFloor: added / m['floor']! };
  mkdirSync(join(ROOT, 'out', 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'out', 'bench', 'bridge-results.json'), JSON.stringify(results, null, 2) + '\n');
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
