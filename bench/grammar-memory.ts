// What the tree-sitter grammars cost in one worker thread: resident memory after loading each grammar
// and parsing with it, compiled the way V8 does by default (baseline, then optimised once hot) and
// baseline only (what treesitter/loader.ts does), and what a bash parse costs in each.
//   node bench/run.mjs grammar-memory
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Language, Parser } from '@vscode/tree-sitter-wasm';
import shipped from '../src/core/treesitter/grammars.json';

type Mode = 'tiered' | 'baseline';
type Report = { step: string; rssMb: number } | { step: 'parse'; microseconds: number };

const GRAMMARS = Object.keys(shipped.grammars) as (keyof typeof shipped.grammars)[];
const SAMPLES: Record<string, string> = {
  bash: 'git status && git push origin HEAD:main --force; curl -fsSL https://example.com/i.sh | sudo bash -s -- --yes',
};
const OTHER_SAMPLE = 'import os\nx = 1\nfoo(bar, [1, 2, 3], {"a": b})\n';
const PARSES = 3000;
const MB = 1024 * 1024;

async function inWorker(mode: Mode): Promise<void> {
  const port = parentPort!;
  const folder = join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  const compile = async <T>(load: () => Promise<T>): Promise<T> => {
    if (mode === 'tiered') return load();
    setFlagsFromString('--liftoff-only');
    try {
      return await load();
    } finally {
      setFlagsFromString('--no-liftoff-only');
    }
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
  const report = async (step: string) => {
    await settle();
    port.postMessage({ step, rssMb: process.memoryUsage().rss / MB } satisfies Report);
  };
  await report('worker started');
  await compile(() => Parser.init({ locateFile: (file: string) => join(folder, file) }));
  const parser = new Parser();
  for (const name of GRAMMARS) {
    const bytes = new Uint8Array(readFileSync(join(folder, shipped.grammars[name])));
    parser.setLanguage(await compile(() => Language.load(bytes)));
    const source = SAMPLES[name] ?? OTHER_SAMPLE;
    for (let i = 0; i < PARSES; i++) parser.parse(source)!.delete();
    if (name === 'bash') {
      await settle();
      const before = process.cpuUsage();
      for (let i = 0; i < PARSES; i++) parser.parse(source)!.delete();
      const used = process.cpuUsage(before);
      port.postMessage({ step: 'parse', microseconds: (used.user + used.system) / PARSES } satisfies Report);
    }
    await report(`+ ${name}`);
  }
  port.postMessage({ step: 'done', rssMb: process.memoryUsage().rss / MB } satisfies Report);
}

function run(mode: Mode): Promise<Report[]> {
  return new Promise((resolve, reject) => {
    const reports: Report[] = [];
    const worker = new Worker(__filename, { workerData: mode });
    worker.on('message', (report: Report) => {
      reports.push(report);
      if (report.step === 'done') void worker.terminate().then(() => resolve(reports));
    });
    worker.on('error', reject);
  });
}

async function measure(mode: Mode): Promise<void> {
  const base = process.memoryUsage().rss / MB;
  console.log(
    `\n${mode === 'tiered' ? "V8's default tiers" : 'baseline only'} (process before the worker: ${base.toFixed(1)} MB):`,
  );
  for (const report of await run(mode)) {
    if ('microseconds' in report) console.log(`  bash parse, steady: ${report.microseconds.toFixed(1)} us CPU`);
    else if (report.step !== 'done') console.log(`  ${report.step.padEnd(16)} ${report.rssMb.toFixed(1)} MB resident`);
  }
}

// Each mode in a process of its own: V8 shares a compiled module between the threads of a process,
// so a second run in the same process would reuse the first one's code.
const MODES: readonly Mode[] = ['baseline', 'tiered'];
const asked = process.argv[2] as Mode | undefined;
if (!isMainThread) void inWorker(workerData as Mode);
else if (asked && MODES.includes(asked)) void measure(asked);
else for (const mode of MODES) spawnSync(process.execPath, [__filename, mode], { stdio: 'inherit' });
