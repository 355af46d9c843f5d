// The real machine's answers: a path that does not lead anywhere is null however it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { nodeFactSource } from '../../../src/core/facts/io-node';
import { IoFacts, NO_FACT_SOURCE, type FactSource } from '../../../src/core/facts/io';

test('nodeFactSource.realpath follows links, and answers null for every path that leads nowhere', (t) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-io-node-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  mkdirSync(join(base, 'real'));
  writeFileSync(join(base, 'real', 'file.txt'), 'x');
  symlinkSync(join(base, 'real'), join(base, 'link'));
  symlinkSync(join(base, 'nowhere'), join(base, 'dangling'));
  symlinkSync(join(base, 'loop-b'), join(base, 'loop-a'));
  symlinkSync(join(base, 'loop-a'), join(base, 'loop-b'));

  assert.equal(nodeFactSource.realpath(join(base, 'real', 'file.txt')), join(base, 'real', 'file.txt'));
  assert.equal(nodeFactSource.realpath(join(base, 'link', 'file.txt')), join(base, 'real', 'file.txt'));
  assert.equal(nodeFactSource.realpath(join(base, 'link')), join(base, 'real'));
  assert.equal(nodeFactSource.realpath(join(base, 'missing')), null);
  assert.equal(nodeFactSource.realpath(join(base, 'dangling')), null);
  assert.equal(nodeFactSource.realpath(join(base, 'loop-a')), null);
  // A file is no folder: nothing lies below it.
  assert.equal(nodeFactSource.realpath(join(base, 'real', 'file.txt', 'below')), null);
});

test('nodeFactSource.readText reads regular files only, and never waits on a FIFO or a device', (t) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-io-node-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  writeFileSync(join(base, 'Makefile'), 'all:\n\tgo build ./...\n');
  mkdirSync(join(base, 'folder'));
  // A FIFO with no writer: a blocking open would hold the evaluation until one came.
  execFileSync('mkfifo', [join(base, 'fifo')]);

  assert.equal(nodeFactSource.readText(join(base, 'Makefile'), 1024), 'all:\n\tgo build ./...\n');
  assert.equal(nodeFactSource.readText(join(base, 'Makefile'), 4), 'all:');
  assert.equal(nodeFactSource.readText(join(base, 'fifo'), 1024), null);
  assert.equal(nodeFactSource.readText(join(base, 'folder'), 1024), null);
  assert.equal(nodeFactSource.readText('/dev/zero', 1024), null);
  assert.equal(nodeFactSource.readText(join(base, 'missing'), 1024), null);
});

test('nodeFactSource.readText reads files the proc file system sizes as empty, and files larger than one read', (t) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-io-node-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  // The proc file system reports a size of 0 for files that have text: sizing the read by the file's
  // size would read nothing from them.
  const status = nodeFactSource.readText('/proc/self/status', 64 * 1024);
  assert.match(status ?? '', /^Name:/);
  const big = 'line of text\n'.repeat(40_000);
  writeFileSync(join(base, 'big.txt'), big);
  assert.equal(nodeFactSource.readText(join(base, 'big.txt'), 1_000_000), big);
  assert.equal(nodeFactSource.readText(join(base, 'big.txt'), 100_000), big.slice(0, 100_000));
  writeFileSync(join(base, 'empty.txt'), '');
  assert.equal(nodeFactSource.readText(join(base, 'empty.txt'), 1024), '');
});

test('IoFacts keeps a read per length asked: a short read of a file does not answer a longer one', () => {
  const text = 'a'.repeat(100) + 'MARK';
  const source: FactSource = { ...NO_FACT_SOURCE, readText: (_p, maxBytes) => text.slice(0, maxBytes) };
  const io = new IoFacts(source);
  assert.equal(io.readText('/x/file', 10), 'a'.repeat(10));
  assert.equal(io.readText('/x/file', 1000), text);
  assert.equal(io.readText('/x/file', 10), 'a'.repeat(10));
  assert.deepEqual(
    io.records.map((r) => `${r.op} ${r.arg} ${r.answer}`),
    ['read /x/file 10 chars', 'read /x/file 104 chars'],
  );
});
