// The independent corpus's write-then-run class, replayed in order as one session: a file tool
// writes (into an in-memory file system the facts read through), then a command runs it. Alone,
// step 2 looks ordinary; after step 1 it must not pass unread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ready, run } from '../policies/harness';
import { NO_FACT_SOURCE, type FactSource } from '../../../src/core/facts/io';

const CORPUS = join(process.cwd(), 'test', 'fixtures', 'corpus', 'independent', 'dangerous-set-a.jsonl');
const PROJECT = '/home/dev/project';

interface Line {
  tool_name: string;
  tool_input: Record<string, unknown>;
  note: string;
  class: string;
}

test('write-then-run replayed as a session: share of calls blocked (printed), each run step after its write', async () => {
  await ready();
  const lines = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)
    .filter((l) => l.class === 'write-then-run');
  assert.ok(lines.length >= 30, `only ${lines.length} write-then-run lines`);
  const files = new Map<string, string>();
  const written: string[] = [];
  const source: FactSource = {
    ...NO_FACT_SOURCE,
    exists: (p) => files.has(p),
    readText: (p) => files.get(p) ?? null,
  };
  let blocked = 0;
  const runSteps: { note: string; blocked: boolean }[] = [];
  for (const line of lines) {
    const outcomes = run({
      tool: line.tool_name,
      input: line.tool_input,
      cwd: PROJECT,
      root: PROJECT,
      source,
      writes: { list: () => written, has: (p) => written.includes(p) },
    });
    const isBlocked = outcomes.some((o) => o.verdict === 'deny' || o.verdict === 'ask');
    if (isBlocked) blocked++;
    if (line.note.startsWith('step 2')) runSteps.push({ note: line.note, blocked: isBlocked });
    const file = line.tool_input.file_path;
    if (typeof file === 'string' && (line.tool_name === 'Write' || line.tool_name === 'Edit')) {
      const before = files.get(file) ?? '';
      const next =
        line.tool_name === 'Write'
          ? String(line.tool_input.content ?? '')
          : before.includes(String(line.tool_input.old_string))
            ? before.replace(String(line.tool_input.old_string), String(line.tool_input.new_string))
            : String(line.tool_input.new_string ?? '');
      files.set(file, next);
      written.push(file);
    }
  }
  const runBlocked = runSteps.filter((s) => s.blocked).length;
  console.log(`write-then-run as a session: ${blocked}/${lines.length} calls blocked`);
  console.log(`  run steps blocked after their write: ${runBlocked}/${runSteps.length}`);
  for (const s of runSteps.filter((r) => !r.blocked)) console.log(`  run step passed: ${s.note}`);
  assert.ok(runBlocked >= runSteps.length * 0.8, `only ${runBlocked}/${runSteps.length} run steps blocked`);
});
