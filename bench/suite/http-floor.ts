import { spawn } from 'node:child_process';
import { callsAfterPause, connectionRuns, runLoad } from './http-load';
import { mixBodies, mixBody, type MixCall } from './mix';
import type { BenchResults } from './schema';
import type { Budget } from './stats';

// The HTTP floor: what any hook endpoint built like serve costs on this machine before it judges
// anything. A node process reads each hook body, hands it to a worker thread as JSON text, the worker
// parses it and answers JSON text of the size serve's evaluation answers (about 1.6 KB), and the reply
// goes back in Claude's shape. Same load client, same bodies, same connections as serve's figures, so
// serve's throughput and latency read as multiples of what the machine and the architecture allow.

const FLOOR_SERVER = String.raw`
const http = require('node:http');
const { Worker } = require('node:worker_threads');
const worker = new Worker(
  "const { parentPort } = require('node:worker_threads');" +
  "const pad = 'x'.repeat(1500);" +
  "parentPort.on('message', (m) => { const input = JSON.parse(m.input);" +
  " parentPort.postMessage({ id: m.id, result: JSON.stringify({ tool: input.tool_name ?? null, pad }) }); });",
  { eval: true },
);
const waiting = new Map();
let nextId = 1;
worker.on('message', (m) => { const done = waiting.get(m.id); waiting.delete(m.id); done(m.result); });
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const id = nextId++;
    waiting.set(id, (result) => {
      const parsed = JSON.parse(result);
      const reply = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: parsed.tool ?? '' } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply);
    });
    worker.postMessage({ id, input: body });
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
`;

export interface HttpFloorOptions {
  project: string;
  calls: readonly MixCall[];
  connections: number[];
  runs: number;
  callsPerRun: (connections: number) => number;
  budgets: (connections: number) => Budget;
  afterPause: { calls: number; pauseMs: number };
}

export async function httpFloorFigures(
  opts: HttpFloorOptions,
): Promise<{ rows: BenchResults['httpFloor']; afterPause: BenchResults['afterPause']['floor'] }> {
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) resolve((JSON.parse(line) as { port: number }).port);
      });
      child.once('exit', (code) => reject(new Error(`the floor server stopped (exit ${code}): ${err.slice(-500)}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const body = (tag: string) => mixBodies(opts.project, opts.calls, tag, 'per-connection');
    await runLoad({ url, token: 'floor', connections: 8, calls: opts.calls.length * 10, body: body('warm') });
    const rows = await connectionRuns({
      url,
      token: 'floor',
      connections: opts.connections,
      runs: opts.runs,
      callsPerRun: opts.callsPerRun,
      budgets: opts.budgets,
      sessions: 'per-connection',
      body,
      reserveSeconds: 1,
    });
    const afterPause = await callsAfterPause({
      url,
      token: 'floor',
      ...opts.afterPause,
      body: (index) => mixBody(opts.project, opts.calls, index, 'pause'),
    });
    return { rows, afterPause };
  } finally {
    child.kill();
  }
}
