// The exact-args digest's cost for a 1 MB argument object, p50 over 50 runs.
// npx esbuild bench/digest.ts --bundle --platform=node --outfile=out/bench/digest.js && node out/bench/digest.js
//
// Two shapes of 1 MB: one large string (a Write of a big file) and many small records (a
// structured payload). For each: argsDigest on the parsed value (bindable check + canonical
// JSON + SHA-256), and bindableFromBody on the raw hook body (JSON.parse + duplicate-key and
// literal scan + the same digest), which is what the server pays per held call.

import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { argsDigest } from '../src/core/approvals/digest';
import { bindableFromBody } from '../src/core/approvals/bodyBinding';

const TARGET_BYTES = 1024 * 1024;
const RUNS = 50;
const WARMUP = 5;

function bigFileWrite(): Record<string, unknown> {
  const line = 'const message = "héllo, wörld — \\"quoted\\"\\t€";\n';
  const content = line.repeat(Math.ceil(TARGET_BYTES / Buffer.byteLength(JSON.stringify(line))));
  return { file_path: 'src/generated/table.ts', content };
}

function manyRecords(): Record<string, unknown> {
  const rows: unknown[] = [];
  const input = { operation: 'bulk-update', rows };
  for (let index = 0; Buffer.byteLength(JSON.stringify(input)) < TARGET_BYTES; index++) {
    for (let batch = 0; batch < 500; batch++, index++) {
      rows.push({
        id: index,
        name: `item-${index}`,
        price: index * 1.25,
        tags: ['a', 'b'],
        active: index % 2 === 0,
        meta: { z: null, y: 'ö' },
      });
    }
  }
  return input;
}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

// Wall time is what a held call waits; CPU time is printed too because on a shared, busy machine
// the wall figure mostly measures the other processes.
function measure(label: string, work: () => unknown): void {
  for (let run = 0; run < WARMUP; run++) work();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    work();
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  console.log(
    `${label.padEnd(48)} p50 ${p50(wall).toFixed(1)} ms wall, ${p50(cpu).toFixed(1)} ms CPU (wall min ${Math.min(...wall).toFixed(1)}, max ${Math.max(...wall).toFixed(1)})`,
  );
}

console.log(
  `node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)} on ${os.availableParallelism()} cores`,
);
for (const [shape, toolName, toolInput] of [
  ['one 1 MB string', 'Write', bigFileWrite()],
  ['many small records', 'mcp__db__bulk', manyRecords()],
] as const) {
  const body = JSON.stringify({
    session_id: 's',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
  });
  const bytes = Buffer.byteLength(JSON.stringify(toolInput));
  console.log(`${shape}: arguments ${(bytes / 1024 / 1024).toFixed(2)} MiB as JSON, ${RUNS} runs`);
  const expected = argsDigest(toolName, toolInput);
  const binding = bindableFromBody(body);
  if (!binding.ok || binding.digest !== expected) throw new Error('the two paths disagree on the digest');
  measure('  argsDigest (parsed value)', () => argsDigest(toolName, toolInput));
  measure('  bindableFromBody (raw body, incl. JSON.parse)', () => bindableFromBody(body));
}
