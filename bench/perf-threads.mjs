// On-CPU time of serve by thread, from `perf record -g` of a serve started with --perf-basic-prof
// (for instance CPU_NODE_ARGS=--perf-basic-prof node bench/run.mjs cpu, then perf record -F 999 -g -p PID).
// --cpu-prof samples a thread's wall time, so on a loaded machine it blames whatever the thread was
// doing when the OS took the core away (postMessage, a socket write); perf counts only time on a core,
// in every thread: the main thread, the evaluation workers, and V8's compiler and GC helpers.
// Usage: perf script -i perf.data -F tid,ip,sym > perf.txt; node bench/perf-threads.mjs perf.txt [--top N] [--threads N]
import { readFileSync } from 'node:fs';
import { frameName } from './profile-frames.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args.splice(at, 2)[1]) : fallback;
};
const top = option('--top', 30);
const threads = option('--threads', 3);
const [file] = args;

// perf names JIT code `JS:<tier><name> <file>:<line>:<column>` (tier * optimised, ^ baseline, ~ interpreted).
const JS_FRAME = /^JS:[*^~]?(\S*) (\/\S+|node:\S+):(\d+):(\d+)$/;

function named(symbol) {
  const match = JS_FRAME.exec(symbol);
  if (!match) return symbol.replace(/^JS:[*^~]?/, '');
  const [, functionName, where, line, column] = match;
  const url = where.startsWith('/') ? `file://${where}` : where;
  return frameName({ functionName, url, lineNumber: Number(line) - 1, columnNumber: Number(column) - 1 });
}

/** What a native frame belongs to, for the threads that run no JavaScript. */
function kindOf(frames) {
  const stack = frames.join(' ');
  if (stack.includes('compiler::') || stack.includes('OptimizedCompilationJob')) return 'V8 optimising compiler';
  if (/Scaveng|MarkCompact|Marking|Sweeper|Heap::/.test(stack)) return 'garbage collection';
  if (frames.some((f) => / (src|node_modules)\//.test(f))) return 'JavaScript (Warden and its packages)';
  return 'other (Node, libuv, kernel)';
}

const byThread = new Map();
for (const block of readFileSync(file, 'utf8').split('\n\n')) {
  const lines = block.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) continue;
  const tid = lines[0].trim().split(/\s+/)[0];
  const frames = lines.slice(1).map((line) => named(line.trim().split(/\s+/).slice(1).join(' ')));
  let thread = byThread.get(tid);
  if (!thread) byThread.set(tid, (thread = { samples: 0, kinds: new Map(), inclusive: new Map() }));
  thread.samples++;
  const kind = kindOf(frames);
  thread.kinds.set(kind, (thread.kinds.get(kind) ?? 0) + 1);
  for (const frame of new Set(frames.filter((f) => / (src|node_modules|bench)\/|^\S* node:/.test(f))))
    thread.inclusive.set(frame, (thread.inclusive.get(frame) ?? 0) + 1);
}

const total = [...byThread.values()].reduce((sum, thread) => sum + thread.samples, 0);
const percent = (n, of) => `${((100 * n) / of).toFixed(1).padStart(5)}%`;
console.log(`${total} samples in ${byThread.size} threads`);
const ranked = [...byThread].sort((a, b) => b[1].samples - a[1].samples);
for (const [tid, thread] of ranked) {
  const kinds = [...thread.kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${percent(n, thread.samples).trim()}`);
  console.log(`thread ${tid}: ${percent(thread.samples, total).trim()} of all samples (${kinds.join(', ')})`);
}
for (const [tid, thread] of ranked.slice(0, threads)) {
  if (thread.inclusive.size === 0) continue;
  console.log(`\n== thread ${tid}, inclusive`);
  for (const [frame, n] of [...thread.inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${percent(n, thread.samples)}  ${frame}`);
}
