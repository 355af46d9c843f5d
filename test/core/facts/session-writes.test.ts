// The session's written-files store: kept parsed between calls but read again when another process
// changed the file, and (for long-running hosts) written off the event loop while this process reads
// its own writes from memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fsModule from 'node:fs';
import fsPromisesModule from 'node:fs/promises';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_SESSION_WRITES, SessionWriteStore } from '../../../src/core/facts/session-writes';
import { aTempDir } from '../../builders/tempProject';

const KEY = 'claude:session-a';

function storeFiles(state: string): string[] {
  return readdirSync(join(state, 'sessions')).filter((name) => name.endsWith('.json'));
}

test('a change made by another process is read, not the kept copy', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  const other = new SessionWriteStore(state);
  serve.record(KEY, ['/p/a.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh']);
  other.record(KEY, ['/p/b.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh', '/p/b.sh']);
  // Rewritten in place (same inode) with other content: the size and time still tell.
  const file = join(state, 'sessions', storeFiles(state)[0]!);
  writeFileSync(file, JSON.stringify({ paths: ['/p/c.sh'] }));
  assert.deepEqual(serve.load(KEY).list(), ['/p/c.sh']);
  writeFileSync(file, 'not json');
  assert.deepEqual(serve.load(KEY).list(), []);
});

test('a session with no store reads as empty, and a store that appears later is read', (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state);
  assert.deepEqual(serve.load(KEY).list(), []);
  new SessionWriteStore(state).record(KEY, ['/p/a.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh']);
  assert.equal(serve.load(KEY).has('/p/a.sh'), true);
});

test('background writes: read at once from memory, on disk after flush, the newest landing last', async (t) => {
  const state = aTempDir('session-writes', t);
  const errors: string[] = [];
  const serve = new SessionWriteStore(state, { background: { onError: (message) => errors.push(message) } });
  for (let i = 0; i < 20; i++) serve.record(KEY, [`/p/${i}.sh`]);
  const expected = Array.from({ length: 20 }, (_, i) => `/p/${i}.sh`);
  assert.deepEqual(serve.load(KEY).list(), expected);
  await serve.flush();
  assert.deepEqual(errors, []);
  const [name] = storeFiles(state);
  const file = join(state, 'sessions', name!);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { paths: expected });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(new SessionWriteStore(state).load(KEY).list(), expected);
  // No temporary file is left behind.
  assert.deepEqual(
    readdirSync(join(state, 'sessions')).filter((n) => n.endsWith('.tmp')),
    [],
  );
});

test('a background write that fails is reported, and the session reads what is on disk again', async (t) => {
  const state = aTempDir('session-writes', t);
  const errors: string[] = [];
  const serve = new SessionWriteStore(state, { background: { onError: (message) => errors.push(message) } });
  serve.record(KEY, ['/p/a.sh']);
  await serve.flush();
  // The store's file becomes a folder that is not empty: no replacement can land on it.
  const file = join(state, 'sessions', storeFiles(state)[0]!);
  rmSync(file);
  mkdirSync(join(file, 'blocker'), { recursive: true });
  serve.record(KEY, ['/p/b.sh']);
  assert.deepEqual(serve.load(KEY).list(), ['/p/b.sh']);
  await serve.flush();
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, /could not record this session's written files/);
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
  // A fresh process reads the same two files.
  assert.deepEqual(new SessionWriteStore(state).load('claude:a').list(), ['/p/a0.sh', '/p/a1.sh', '/p/a2.sh']);
});

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

test('a burst of background writes from one session puts the newest list on disk, not every list in turn', async (t) => {
  const state = aTempDir('session-writes', t);
  const opens = countCalls(t, fsPromisesModule as unknown as Record<string, unknown>, 'open', state);
  const serve = new SessionWriteStore(state, { background: { onError: assert.fail } });
  for (let i = 0; i < 20; i++) serve.record(KEY, [`/p/${i}.sh`]);
  await serve.flush();
  const expected = Array.from({ length: 20 }, (_, i) => `/p/${i}.sh`);
  // The first write, then the newest list once the first is on disk.
  assert.equal(opens.count, 2);
  assert.deepEqual(JSON.parse(readFileSync(join(state, 'sessions', storeFiles(state)[0]!), 'utf8')), {
    paths: expected,
  });
  assert.deepEqual(new SessionWriteStore(state).load(KEY).list(), expected);
});

test("once its own background write is on disk, the store is not read back; another process's change still is", async (t) => {
  const state = aTempDir('session-writes', t);
  const serve = new SessionWriteStore(state, { background: { onError: assert.fail } });
  serve.record(KEY, ['/p/a.sh']);
  await serve.flush();
  const reads = countCalls(t, fsModule as unknown as Record<string, unknown>, 'readFileSync', state);
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh']);
  assert.equal(reads.count, 0);
  new SessionWriteStore(state).record(KEY, ['/p/b.sh']);
  reads.count = 0;
  assert.deepEqual(serve.load(KEY).list(), ['/p/a.sh', '/p/b.sh']);
  assert.equal(reads.count, 1);
});

test('a file written again leaves the store as it is; in a full list it moves last, so it is not the next to go', (t) => {
  const state = aTempDir('session-writes', t);
  const store = new SessionWriteStore(state);
  assert.equal(store.record(KEY, ['/p/a.sh', '/p/b.sh']), true);
  const file = join(state, 'sessions', storeFiles(state)[0]!);
  const before = statSync(file, { bigint: true });
  assert.equal(store.record(KEY, ['/p/a.sh']), false);
  const after = statSync(file, { bigint: true });
  assert.equal(after.ino, before.ino, 'the store was not replaced');
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
});
