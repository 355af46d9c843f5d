// The activity log: private files, size-based rotation that loses no line,
// two processes appending at once, a torn last line after a crash, and what
// the log is allowed to hold (a keyed digest, redacted arguments).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActivityLog, readLogFile, rotatedName } from '../../../src/core/activity/log';
import { parseClaudeInput } from '../../../src/core/agents/claude';
import { Evaluator } from '../../../src/core/evaluator';
import { repoRoot } from '../../builders/process';
import { aHookEvent } from '../../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../../builders/tempProject';

const KEY = Buffer.alloc(32, 7);

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

/** Every file of a log, oldest rotation first, then the current one. */
function logFiles(path: string, keep: number): string[] {
  const files: string[] = [];
  for (let i = keep + 1; i >= 1; i--) if (existsSync(rotatedName(path, i))) files.push(rotatedName(path, i));
  if (existsSync(path)) files.push(path);
  return files;
}

function allEntries(path: string, keep: number): Record<string, unknown>[] {
  return logFiles(path, keep).flatMap((file) => {
    const read = readLogFile(file);
    assert.deepEqual(read.warnings, [], `no corrupt line in ${file}`);
    return read.entries;
  });
}

test('the first append creates the folder 0700 and the file 0600', (t) => {
  const root = aTempDir('log-modes');
  t.after(() => removeDir(root));
  const path = join(root, 'state', 'nested', 'activity.jsonl');
  const log = new ActivityLog({ path, key: KEY, maxBytes: 1 << 20, keep: 3 });
  log.append({ type: 'record', n: 1 });
  log.close();
  assert.equal(mode(join(root, 'state', 'nested')), 0o700);
  assert.equal(mode(path), 0o600);
  assert.deepEqual(readLogFile(path).entries, [{ type: 'record', n: 1 }]);
});

test('an existing folder with loose permissions is tightened to 0700', (t) => {
  const root = aTempDir('log-tighten');
  t.after(() => removeDir(root));
  const dir = join(root, 'state');
  mkdirSync(dir, { mode: 0o755 });
  new ActivityLog({ path: join(dir, 'activity.jsonl'), key: KEY, maxBytes: 1 << 20, keep: 3 }).close();
  assert.equal(mode(dir), 0o700);
});

test('rotation by size keeps every line while they fit in keep files', (t) => {
  const root = aTempDir('log-rotate');
  t.after(() => removeDir(root));
  const path = join(root, 'activity.jsonl');
  const keep = 3;
  const maxBytes = 600;
  const log = new ActivityLog({ path, key: KEY, maxBytes, keep });
  // About 60 bytes a line: 9 or so lines a file, so 30 lines fill four files.
  for (let seq = 0; seq < 30; seq++) log.append({ seq, pad: 'p'.repeat(30) });
  log.close();
  const files = logFiles(path, keep);
  assert.ok(files.length > 1, 'it rotated');
  assert.ok(files.length <= keep + 1, `at most ${keep} rotated files beside the current one`);
  for (const file of files) {
    assert.ok(statSync(file).size <= maxBytes, `${file} stays within maxBytes`);
    assert.equal(mode(file), 0o600, `${file} is private`);
  }
  assert.deepEqual(
    allEntries(path, keep).map((e) => e.seq),
    Array.from({ length: 30 }, (_, i) => i),
    'every line, once, in order',
  );
});

test('rotation keeps exactly `keep` rotated files, the newest lines without a gap', (t) => {
  const root = aTempDir('log-rotate-many');
  t.after(() => removeDir(root));
  const path = join(root, 'activity.jsonl');
  const keep = 2;
  const log = new ActivityLog({ path, key: KEY, maxBytes: 500, keep });
  const total = 300;
  for (let seq = 0; seq < total; seq++) log.append({ seq, pad: 'q'.repeat(30) });
  log.close();
  const names = readdirSync(root).sort();
  assert.deepEqual(names, ['activity.1.jsonl', 'activity.2.jsonl', 'activity.jsonl']);
  const seqs = allEntries(path, keep).map((e) => e.seq as number);
  assert.equal(seqs.at(-1), total - 1, 'the newest line is there');
  assert.deepEqual(
    seqs,
    Array.from({ length: seqs.length }, (_, i) => total - seqs.length + i),
    'the kept lines are contiguous',
  );
});

function bundleWriter(outDir: string): string {
  // esbuild is loaded at run time from the repository, not bundled into this test.
  const esbuild = createRequire(join(repoRoot(), 'package.json'))('esbuild') as typeof import('esbuild');
  const outfile = join(outDir, 'log-writer.js');
  esbuild.buildSync({
    entryPoints: [join(repoRoot(), 'test', 'core', 'activity', 'log-writer.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

function runWriter(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('two processes appending at once, with rotation, lose no line and tear none', async (t) => {
  const root = aTempDir('log-concurrent');
  t.after(() => removeDir(root));
  const script = bundleWriter(root);
  const path = join(root, 'state', 'activity.jsonl');
  const goFile = join(root, 'go');
  const perWriter = 2000;
  const keep = 100;
  const maxBytes = 16 * 1024;
  const writers = ['A', 'B'].map((tag) =>
    runWriter(script, [path, KEY.toString('hex'), String(perWriter), tag, String(maxBytes), String(keep), goFile]),
  );
  // Both are up and polling before the go: they really write at the same time.
  await new Promise((resolve) => setTimeout(resolve, 300));
  writeFileSync(goFile, 'go');
  const results = await Promise.all(writers);
  for (const result of results) assert.equal(result.code, 0, `a writer failed: ${result.stderr}`);

  const files = logFiles(path, keep);
  assert.ok(files.length > 2, `rotation happened during the run (${files.length} files)`);
  assert.ok(!existsSync(rotatedName(path, keep)), 'the test keeps enough files that nothing was rotated away');
  const seen = new Map<string, number>();
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    assert.equal(lines.at(-1), '', `${file} ends with a newline`);
    for (const line of lines.slice(0, -1)) {
      // A writer that opens the file while another's write is seen half done
      // (and stays so longer than its check, under heavy load) ends that line
      // once more: a blank line, which every reader skips; nothing is lost.
      if (line === '') continue;
      const entry = JSON.parse(line) as { tag: string; seq: number; pad: string };
      assert.equal(entry.pad.length, 40 + (entry.seq % 17), 'the line is whole');
      const id = `${entry.tag}:${entry.seq}`;
      seen.set(id, (seen.get(id) ?? 0) + 1);
    }
  }
  for (const tag of ['A', 'B']) {
    for (let seq = 0; seq < perWriter; seq++)
      assert.equal(seen.get(`${tag}:${seq}`), 1, `${tag}:${seq} appears exactly once`);
  }
  assert.equal(seen.size, 2 * perWriter);
});

test('a torn last line is skipped with a warning, and the next append starts a fresh line', (t) => {
  const root = aTempDir('log-torn');
  t.after(() => removeDir(root));
  const path = join(root, 'activity.jsonl');
  const first = new ActivityLog({ path, key: KEY, maxBytes: 1 << 20, keep: 3 });
  first.append({ n: 1 });
  first.append({ n: 2 });
  first.close();
  // A crash mid-write: half of a JSON line, no newline.
  appendFileSync(path, '{"n":3,"reason":"cut sho');

  const before = readLogFile(path);
  assert.deepEqual(before.entries, [{ n: 1 }, { n: 2 }]);
  assert.equal(before.warnings.length, 1);
  assert.match(before.warnings[0]!, /:3: a truncated last line/);

  const next = new ActivityLog({ path, key: KEY, maxBytes: 1 << 20, keep: 3 });
  next.append({ n: 4 });
  next.close();
  const after = readLogFile(path);
  assert.deepEqual(after.entries, [{ n: 1 }, { n: 2 }, { n: 4 }], 'the new line is not glued onto the torn one');
  assert.equal(after.warnings.length, 1, 'still only the torn line is skipped');
  assert.match(readFileSync(path, 'utf8'), /cut sho\n\{"n":4\}\n$/);
});

test('a corrupt line in the middle is skipped and named, the rest is read', (t) => {
  const root = aTempDir('log-corrupt');
  t.after(() => removeDir(root));
  const path = join(root, 'activity.jsonl');
  writeFileSync(path, '{"n":1}\nnot json\n[1,2]\n{"n":2}\n');
  const read = readLogFile(path);
  assert.deepEqual(read.entries, [{ n: 1 }, { n: 2 }]);
  assert.equal(read.warnings.length, 2);
  assert.match(read.warnings[0]!, /:2: a corrupt line/);
  assert.match(read.warnings[1]!, /:3: not a JSON object/);
  assert.deepEqual(readLogFile(join(root, 'absent.jsonl')), { entries: [], warnings: [] });
});

test('keyedDigest is an HMAC under the log key, never the plain digest', () => {
  const log = new ActivityLog({ path: join(aTempDir('log-key'), 'a.jsonl'), key: KEY, maxBytes: 1 << 20, keep: 1 });
  const plain = 'sha256:' + createHash('sha256').update('{"command":"ls"}').digest('hex');
  const keyed = log.keyedDigest(plain);
  assert.equal(keyed, 'hmac-sha256:' + createHmac('sha256', KEY).update(plain).digest('hex'));
  assert.notEqual(keyed, plain);
  assert.ok(!keyed!.includes(plain.slice('sha256:'.length)));
  const other = new ActivityLog({
    path: join(aTempDir('log-key2'), 'a.jsonl'),
    key: randomBytes(32),
    maxBytes: 1 << 20,
    keep: 1,
  });
  assert.notEqual(other.keyedDigest(plain), keyed, 'another key gives another digest');
  assert.equal(log.keyedDigest(null), null);
  log.close();
  other.close();
});

test('through the evaluator the log holds a keyed digest and redacted arguments, never the plain digest or the secret', async (t) => {
  const root = aTempDir('log-evaluator');
  const project = aProjectDir('log-project');
  t.after(() => {
    removeDir(root);
    removeDir(project);
  });
  await Evaluator.ready();
  const log = new ActivityLog({ path: join(root, 'state', 'activity.jsonl'), key: KEY, maxBytes: 1 << 20, keep: 3 });
  const evaluator = new Evaluator({ stateDir: join(root, 'state'), log, home: root });
  const token = 'ghp_' + 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF3hJ5';
  const parsed = parseClaudeInput(
    aHookEvent()
      .bash(`curl -H "Authorization: token ${token}" https://api.github.com/user/repos`)
      .inCwd(project)
      .body(),
  );
  assert.ok(parsed.ok);
  const evaluation = await evaluator.evaluate(parsed.event);
  log.close();

  const plain = evaluation.record.argsDigest;
  assert.equal(typeof plain, 'string', 'a plain digest exists in memory');
  const text = readFileSync(log.path, 'utf8');
  const entries = readLogFile(log.path).entries;
  assert.equal(entries.length, 1);
  const logged = entries[0]!;
  assert.equal(logged.id, evaluation.record.id);
  assert.equal(logged.argsDigest, log.keyedDigest(plain));
  assert.ok(!text.includes(plain!), 'the plain digest is not in the log');
  const plainHex = plain!.replace(/^[^:]*:/, '');
  assert.ok(!text.includes(plainHex), 'nor its hex part');

  assert.ok(!text.includes(token), 'the planted token is not in the log');
  assert.ok(!text.includes(token.slice(4)), 'nor its body');
  const command = (logged.toolInput as { command: string }).command;
  assert.match(command, /<redacted:[^>]+>/, 'the command in the log carries a redaction marker');
  assert.match(command, /^curl -H "Authorization: token /, 'the rest of the command is kept');
  assert.ok((logged.redactions as { count: number }).count >= 1);
  assert.equal(
    (evaluation.event.toolInput as { command: string }).command.includes(token),
    true,
    'the full input stays in memory',
  );
});
