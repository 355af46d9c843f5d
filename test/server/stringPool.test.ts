// The pool rows and open asks share strings through: it gives back a string equal to the one asked
// for, holds one entry per distinct string, and never more than its limit (the oldest goes first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StringPool } from '../../src/server/stringPool';

test('a string is given back equal, and held once however often it is asked for', () => {
  const pool = new StringPool(8);
  const built = (n: number) => ['git', 'status', String(n)].join(' ');
  for (let i = 0; i < 100; i++) assert.equal(pool.intern(built(1)), 'git status 1');
  assert.equal(pool.size, 1);
  assert.equal(pool.internOrNull(null), null);
  assert.equal(pool.internOrNull('x'), 'x');
  assert.equal(pool.size, 2);
});

test('the pool never holds more than its limit; the oldest string goes first and comes back when asked again', () => {
  const pool = new StringPool(3);
  for (const text of ['a', 'b', 'c', 'd']) pool.intern(text);
  assert.equal(pool.size, 3);
  // 'a' was dropped: interning it again keeps it anew (and drops 'b'), equal all the same.
  assert.equal(pool.intern('a'), 'a');
  assert.equal(pool.size, 3);
  for (let i = 0; i < 1000; i++) pool.intern(`unique ${i}`);
  assert.equal(pool.size, 3);
});
