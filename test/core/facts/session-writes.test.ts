// The session's written-files store: a file only ever appended to, kept parsed between calls, of
// which each process reads only what was appended since (by anyone), and read whole again when it
// was replaced or cut short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fsModule from 'node:fs';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { MAX_SESSION_WRITES, SESSION_STORE_DAYS, SessionWriteStore } from '../../../src/core/facts/session-writes';
import { aTempDir } from '../../builders/tempProject';

const KEY = 'claude:session-a';

function storeFiles(state: string): string[] {
  return readdirSync(join(state, 'sessions')).filter((name) => name.endsWith('.lines'));
}

function storeFile(state: string): string {
  const [name] = storeFiles(state);
  assert.ok(name, 'the session has a store');
  return join(state, 'sessions', name);
}

const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

/** Counts the calls `module[name]` gets whose first argument is a path inside `folder`, until the test ends. */
function countCalls(
  t: { after(fn: () => void): void },
  module: Record<string, unknown>,
  name: string,
  folder: string,
): { count: number } {
  const original = module[name] as (...args: unknown[]) => unknown;
  const counter = { count: 0 };
  module[name] = (...args: unknown[]) => {
    if (String(args[0]).startsWith(folder)) counter.count++;
    return original(...args);
  };
  t.after(() => (module[name] = original));
  return counter;
}

test('what another process appends is read; a store replaced or cut short is read whole again', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  const other = new SessionWriteStore(state);
  serve.record(KEY, ['/p/a.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh']);
  other.record(KEY, ['/p/b.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh', '/p/b.sh']);
  const file = storeFile(state);
  // Replaced (a new inode), as a compaction by another process does.
  writeFileSync(`${file}.new`, '"/p/c.sh"\n');
  fsModule.renameSync(`${file}.new`, file);
  assert.deepEqual(serve.load(KEY).list(), ['/p/c.sh']);
  // Cut short in place: read from the start again.
  truncateSync(file, 0);
  appendFileSync(file, '"/p/e"\n');
  assert.deepEqual(serve.load(KEY).list(), ['/p/e']);
  // Rewritten in place, to the same length and to a longer one.
  writeFileSync(file, '"/p/f"\n');
  assert.deepEqual(serve.load(KEY).list(), ['/p/f']);
  writeFileSync(file, '"/p/gg"\n"/p/h"\n');
  assert.deepEqual(serve.load(KEY).list(), ['/p/gg', '/p/h']);
});

test('a line still being written is read once it is whole; a line that is not a path is skipped', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  serve.record(KEY, ['/p/a.sh']);
  const file = storeFile(state);
  appendFileSync(file, '"/p/b.');
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh'], 'half a line is not read');
  appendFileSync(file, 'sh"\nnot json\n42\n"/p/ü.sh"\n');
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh', '/p/b.sh', '/p/ü.sh']);
});

test('a session with no store reads as empty, and a store that appears later is read', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  assert.deepEqual(serve.load(KEY).list(), []);
  new SessionWriteStore(state).record(KEY, ['/p/a.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh']);
  assert.equal(serve.load(KEY).has('/p/a.sh'), true);
});

test('each written file adds one line to the same file, only its owner can read it, and a fresh process reads the list', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  serve.record(KEY, ['/p/0.sh']);
  const file = storeFile(state);
  const { ino } = statSync(file);
  for (let i = 1; i < 20; i++) serve.record(KEY, [`/p/${i}.sh`]);
  const expected = Array.from({ length: 20 }, (_, i) => `/p/${i}.sh`);
  assert.deepEqual(serve.load(KEY).list(), expected);
  assert.equal(statSync(file).ino, ino, 'appended to, never replaced');
  assert.deepEqual(
    linesOf(file),
    expected.map((p) => JSON.stringify(p)),
  );
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(join(state, 'sessions')).mode & 0o777, 0o700);
  assert.deepEqual(new SessionWriteStore(state).load(KEY).list(), expected);
});

test('a store that cannot be written throws a clear error and leaves the list as it was', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  serve.record(KEY, ['/p/a.sh']);
  const file = storeFile(state);
  fsModule.rmSync(file);
  mkdirSync(join(file, 'blocker'), { recursive: true });
  assert.throws(() => serve.record(KEY, ['/p/b.sh']), /EISDIR/);
  assert.deepEqual(serve.load(KEY).list(), []);
});

test('sessions taking turns in one store each keep their own file', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  for (let i = 0; i < 3; i++) {
    serve.record('claude:a', [`/p/a${i}.sh`]);
    serve.record('claude:b', [`/p/b${i}.sh`]);
  }
  assert.deepEqual(serve.load('claude:a').list(), ['/p/a0.sh', '/p/a1.sh', '/p/a2.sh']);
  assert.deepEqual(serve.load('claude:b').list(), ['/p/b0.sh', '/p/b1.sh', '/p/b2.sh']);
  assert.equal(storeFiles(state).length, 2);
  assert.deepEqual(new SessionWriteStore(state).load('claude:a').list(), ['/p/a0.sh', '/p/a1.sh', '/p/a2.sh']);
});

test('a store nobody appended to since is not opened again; one appended to is read from where it was left', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  serve.record(KEY, ['/p/a.sh']);
  serve.load(KEY);
  const opens = countCalls(t, fsModule as unknown as Record<string, unknown>, 'openSync', state);
  const reads = countCalls(t, fsModule as unknown as Record<string, unknown>, 'readFileSync', state);
  for (let i = 0; i < 5; i++) assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh']);
  assert.equal(opens.count + reads.count, 0);
  new SessionWriteStore(state).record(KEY, ['/p/b.sh']);
  opens.count = 0;
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh', '/p/b.sh']);
  assert.equal(opens.count, 1);
});

test('a file written again adds nothing; in a full list it moves last, so it is not the next to go', (t) => {
  const state = aTempDir('session-writes', t);
  const store = new SessionWriteStore(state);
  assert.equal(store.record(KEY, ['/p/a.sh', '/p/b.sh']), true);
  const file = storeFile(state);
  const before = statSync(file).size;
  assert.equal(store.record(KEY, ['/p/a.sh']), false);
  assert.equal(statSync(file).size, before, 'nothing was appended');
  assert.deepEqual(store.load(KEY).list(), ['/p/a.sh', '/p/b.sh']);
  assert.equal(store.record(KEY, ['/p/a.sh', '/p/c.sh']), true, 'a new file among old ones is recorded');
  assert.deepEqual(store.load(KEY).list(), ['/p/b.sh', '/p/a.sh', '/p/c.sh']);

  const full = Array.from({ length: MAX_SESSION_WRITES }, (_, i) => `/p/f${i}.sh`);
  store.record(KEY, full);
  assert.equal(store.record(KEY, ['/p/f0.sh']), true);
  store.record(KEY, ['/p/new.sh']);
  const list = store.load(KEY).list();
  assert.equal(list.length, MAX_SESSION_WRITES);
  assert.equal(list.includes('/p/f0.sh'), true, 'the file written again stayed');
  assert.equal(list.includes('/p/f1.sh'), false, 'the oldest untouched file went');
  assert.equal(list.at(-1), '/p/new.sh');
});

test('past twice the list in lines, the store is rewritten with its list alone', (t) => {
  const state = aTempDir('session-writes', t);
  const store = new SessionWriteStore(state);
  for (let round = 0; round < 3; round++)
    store.record(
      KEY,
      Array.from({ length: MAX_SESSION_WRITES }, (_, i) => `/p/${round}-${i}.sh`),
    );
  const file = storeFile(state);
  const expected = Array.from({ length: MAX_SESSION_WRITES }, (_, i) => `/p/2-${i}.sh`);
  assert.deepEqual(
    linesOf(file),
    expected.map((p) => JSON.stringify(p)),
  );
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(store.load(KEY).list(), expected);
  assert.deepEqual(new SessionWriteStore(state).load(KEY).list(), expected);
  assert.deepEqual(
    readdirSync(join(state, 'sessions')).filter((n) => n.endsWith('.tmp')),
    [],
    'no temporary file is left behind',
  );
});

test("an earlier release's store is read, and the session's first new write starts the new store with it", (t) => {
  const state = aTempDir('session-writes', t);
  const probe = new SessionWriteStore(state);
  probe.record(KEY, ['/p/probe.sh']);
  const name = storeFiles(state)[0]!.replace(/\.lines$/, '');
  fsModule.rmSync(storeFile(state));
  writeFileSync(join(state, 'sessions', `${name}.json`), JSON.stringify({ paths: ['/p/old.sh'] }));
  const serve = new SessionWriteStore(state);
  assert.deepEqual(serve.load(KEY).list(), ['/p/old.sh']);
  assert.equal(serve.record(KEY, ['/p/old.sh']), false, 'already known');
  serve.record(KEY, ['/p/new.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/old.sh', '/p/new.sh']);
  assert.deepEqual(new SessionWriteStore(state).load(KEY).list(), ['/p/old.sh', '/p/new.sh']);
});

/** The list's meaning, written plainly: a new path goes last; a known one moves last only in a full list. */
function modelRecord(list: string[], written: string[]): string[] {
  const fresh = [...new Set(written)];
  if (list.length < MAX_SESSION_WRITES && fresh.every((p) => list.includes(p))) return list;
  const next = [...list.filter((p) => !fresh.includes(p)), ...fresh];
  return next.slice(-MAX_SESSION_WRITES);
}

test('two processes recording in any order read the same list as the plain model', (t) => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          by: fc.integer({ min: 0, max: 1 }),
          paths: fc.array(fc.constantFrom('/p/a', '/p/b', '/p/c', '/p/d', '/p/e', '/p/"q"', '/p/new\nline', '/p/ü'), {
            minLength: 1,
            maxLength: 3,
          }),
        }),
        { maxLength: 25 },
      ),
      (steps) => {
        const state = aTempDir('session-writes-model', t);
        const stores = [new SessionWriteStore(state), new SessionWriteStore(state)];
        let model: string[] = [];
        for (const step of steps) {
          stores[step.by]!.record(KEY, step.paths);
          model = modelRecord(model, step.paths);
          for (const store of stores) assert.deepEqual(store.load(KEY).list(), model);
        }
      },
    ),
    { numRuns: 60 },
  );
});

test("a process's first write removes the stores of sessions nobody wrote to for a month, and nothing else", (t) => {
  const state = aTempDir('session-writes', t);
  const dir = join(state, 'sessions');
  mkdirSync(dir, { recursive: true });
  const old = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
  const file = (name: string, days: number) => {
    writeFileSync(join(dir, name), '"/p/x"\n');
    utimesSync(join(dir, name), old(days), old(days));
    return join(dir, name);
  };
  const stale = file(`${'a'.repeat(32)}.lines`, SESSION_STORE_DAYS + 1);
  const staleLegacy = file(`${'b'.repeat(32)}.json`, SESSION_STORE_DAYS + 5);
  const recent = file(`${'c'.repeat(32)}.lines`, SESSION_STORE_DAYS - 1);
  const notOurs = file('notes.txt', SESSION_STORE_DAYS + 100);
  new SessionWriteStore(state).record(KEY, ['/p/a.sh']);
  assert.equal(existsSync(stale), false);
  assert.equal(existsSync(staleLegacy), false);
  assert.equal(existsSync(recent), true);
  assert.equal(existsSync(notOurs), true, 'only stores are removed');
  assert.equal(storeFiles(state).length, 2, "the recent store and this session's");
});
