// The real machine's answers: a path that does not lead anywhere is null however it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { nodeFactSource } from '../../../src/core/facts/io-node';

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
