// The row buffer keeps summaries only and reads a call's whole record back from the activity log by
// id: through rotations, after a restart (a new log and buffer on the same files), when another
// writer shifted the line, and with a clear answer (never a throw) when the line is gone.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActivityLog, rotatedName } from '../../src/core/activity/log';
import { parseClaudeInput } from '../../src/core/agents/claude';
import { Evaluator } from '../../src/core/evaluator';
import type { VerdictRecord } from '../../src/core/verdict/record';
import { RecordBuffer } from '../../src/server/records';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

const KEY = Buffer.alloc(32, 9);
const COMMANDS = ['ls -la', 'git status', 'rm -rf /', 'cat ~/.aws/credentials', 'npm test', 'echo "$(date)" > out.txt'];

before(async () => {
  await Evaluator.ready({ warmUp: false });
});

interface World {
  root: string;
  project: string;
  path: string;
  open(opts?: { keep?: number; maxBytes?: number }): ActivityLog;
  /** Evaluates `count` calls through a real evaluator writing to `log`, each added to `buffer`. */
  calls(log: ActivityLog, buffer: RecordBuffer, count: number): Promise<VerdictRecord[]>;
}

function world(name: string, t: { after(fn: () => void): void }): World {
  const root = aTempDir(`records-${name}`);
  const project = aProjectDir(`records-${name}`);
  t.after(() => {
    removeDir(root);
    removeDir(project);
  });
  const path = join(root, 'state', 'activity.jsonl');
  return {
    root,
    project,
    path,
    open: (opts = {}) => new ActivityLog({ path, key: KEY, maxBytes: opts.maxBytes ?? 1 << 20, keep: opts.keep ?? 3 }),
    calls: async (log, buffer, count) => {
      const evaluator = new Evaluator({ stateDir: join(root, 'state'), log, home: root });
      const records: VerdictRecord[] = [];
      for (let i = 0; i < count; i++) {
        const parsed = parseClaudeInput(
          aHookEvent()
            .bash(COMMANDS[i % COMMANDS.length]!)
            .inCwd(project)
            .session(`s-${i % 3}`)
            .body(),
        );
        assert.ok(parsed.ok);
        const { record } = await evaluator.evaluate(parsed.event);
        buffer.add(record);
        records.push(record);
      }
      await evaluator.close();
      return records;
    },
  };
}

function recordLines(files: string[]): number {
  let count = 0;
  for (const file of files)
    if (existsSync(file))
      for (const line of readFileSync(file, 'utf8').split('\n')) if (line.includes('"type":"record"')) count++;
  return count;
}

test('a row opened later is its whole record, read back from the log (plain digest and all)', async (t) => {
  const w = world('read-back', t);
  const log = w.open();
  const buffer = new RecordBuffer({ log: log.index });
  const records = await w.calls(log, buffer, 12);
  for (const record of records) assert.deepEqual(buffer.detail(record.id), { found: true, record });
  assert.deepEqual(
    buffer.summaries().map((s) => s.id),
    records.map((r) => r.id),
  );
  // Nothing but summaries is held: with the log's files gone, no record can be opened.
  log.close();
  rmSync(w.path);
  const gone = buffer.detail(records[0]!.id);
  assert.equal(gone.found, false);
  assert.match(gone.found ? '' : gone.why, /no longer in the activity log/);
});

test('through rotations every row still opens while its file is kept, and no row is lost', async (t) => {
  const w = world('rotation', t);
  const log = w.open({ maxBytes: 8192, keep: 100 });
  const buffer = new RecordBuffer({ log: log.index });
  const records = await w.calls(log, buffer, 60);
  log.close();
  assert.ok(existsSync(rotatedName(w.path, 3)), 'the log rotated several times');
  assert.equal(recordLines(log.files()), records.length, 'count in equals record lines out');
  for (const record of records) assert.deepEqual(buffer.detail(record.id), { found: true, record });
});

test('a row whose file was rotated out answers that it is no longer in the log, never throws', async (t) => {
  const w = world('rotated-out', t);
  const log = w.open({ maxBytes: 4096, keep: 1 });
  const buffer = new RecordBuffer({ log: log.index });
  const records = await w.calls(log, buffer, 40);
  log.close();
  const answers = records.map((r) => buffer.detail(r.id));
  const kept = answers.filter((a) => a.found).length;
  assert.ok(kept > 0 && kept < records.length, `some rows are still in the kept files (${kept} of ${records.length})`);
  for (const answer of answers.slice(0, 3)) {
    assert.equal(answer.found, false);
    assert.match(answer.found ? '' : answer.why, /no longer in the activity log: its file was rotated out/);
  }
  // The newest rows are still whole.
  assert.deepEqual(answers.at(-1), { found: true, record: records.at(-1) });
});

test('a line changed on disk, or shifted by another writer, is found again or reported, never misread', async (t) => {
  const w = world('changed', t);
  const log = w.open();
  const buffer = new RecordBuffer({ log: log.index });
  const records = await w.calls(log, buffer, 4);
  log.close();
  // Another writer's line landed before ours: every offset is stale, the file is searched.
  const text = readFileSync(w.path, 'utf8');
  writeFileSync(w.path, `{"type":"note","by":"another process"}\n${text}`);
  for (const record of records) assert.deepEqual(buffer.detail(record.id), { found: true, record });
  // A record line rewritten so it no longer carries its id is gone, and says so.
  const first = records[0]!.id;
  writeFileSync(w.path, readFileSync(w.path, 'utf8').replace(first, 'someone-else'));
  const gone = buffer.detail(first);
  assert.equal(gone.found, false);
  assert.match(gone.found ? '' : gone.why, /no longer in the activity log/);
  // A line that still carries the id but is no record any more is refused by the record schema.
  const second = records[1]!.id;
  const lines = readFileSync(w.path, 'utf8').split('\n');
  writeFileSync(
    w.path,
    lines.map((line) => (line.includes(second) ? line.replace('"decision":', '"decision_":') : line)).join('\n'),
  );
  const broken = buffer.detail(second);
  assert.equal(broken.found, false);
  assert.match(broken.found ? '' : broken.why, /no longer reads as a record/);
  // An id the buffer never held.
  assert.deepEqual(buffer.detail('not-an-id').found, false);
});

test('after a restart the newest rows are listed again, with their answers, and each opens', async (t) => {
  const w = world('restart', t);
  const first = w.open({ maxBytes: 8192, keep: 10 });
  const before = new RecordBuffer({ log: first.index });
  const records = await w.calls(first, before, 30);
  const asked = records[25]!;
  first.append({
    type: 'approval',
    recordId: asked.id,
    approvalId: 'ap-1',
    decision: 'allow',
    answer: 'approve',
    scope: 'once',
    digest: first.keyedDigest(asked.argsDigest),
    shownDigest: first.keyedDigest(asked.argsDigest),
    answeredBy: 'web-panel',
    answeredAt: '2026-01-01T00:00:00.000Z',
    edited: false,
    reason: 'approved once',
  });
  first.close();

  const second = w.open({ maxBytes: 8192, keep: 10 });
  const after = new RecordBuffer({ log: second.index, limit: 20 });
  after.restore(second.index.rebuild());
  const newest = records.slice(-20);
  assert.deepEqual(
    after.summaries().map((s) => s.id),
    newest.map((r) => r.id),
    'the newest 20 rows, oldest first',
  );
  assert.deepEqual(after.recentDigests(50), [], 'restored rows offer no digest: the log kept only keyed ones');
  const reopened = after.detail(asked.id);
  assert.ok(reopened.found);
  assert.equal(reopened.record.approval.state, 'approved');
  assert.equal(after.summaryOf(asked.id)?.outcome, 'approved');
  for (const record of newest) {
    const detail = after.detail(record.id);
    assert.ok(detail.found, `${record.id} opens after the restart`);
    assert.deepEqual(detail.record.outcomes, record.outcomes);
    assert.deepEqual(detail.record.toolInput, record.toolInput);
  }
  // Rows appended after the restart are located as they are written.
  const more = await w.calls(second, after, 3);
  second.close();
  for (const record of more) assert.deepEqual(after.detail(record.id), { found: true, record });
  assert.deepEqual(
    after.recentDigests(50).map((d) => d.argsDigest),
    more.map((r) => r.argsDigest).reverse(),
    'rows of this process offer their plain digest',
  );
});

test('without a log (or before the log could write the line) a row keeps its whole record', async (t) => {
  const w = world('no-log', t);
  const log = w.open();
  const buffer = new RecordBuffer();
  const records = await w.calls(log, buffer, 3);
  log.close();
  rmSync(w.path);
  for (const record of records) assert.deepEqual(buffer.detail(record.id), { found: true, record });
});

test('an approval change is kept beside the summary and shows in the record read back', async (t) => {
  const w = world('approval', t);
  const log = w.open();
  const buffer = new RecordBuffer({ log: log.index });
  const [record] = await w.calls(log, buffer, 1);
  const row = buffer.updateApproval(record!.id, (a) => ({ ...a, state: 'pending' }));
  assert.equal(row?.outcome, record!.decision);
  const detail = buffer.detail(record!.id);
  assert.ok(detail.found);
  assert.equal(detail.record.approval.state, 'pending');
  log.close();
});
