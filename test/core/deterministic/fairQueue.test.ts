// The pool's waiting line: sessions take turns, each session keeps its own order, and an item
// that gives up waiting leaves the line without disturbing the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FairQueue } from '../../../src/core/deterministic/fairQueue';

test('a session with a long line does not hold up a call from another session', () => {
  const queue = new FairQueue<string>();
  for (let i = 0; i < 500; i++) queue.push('claude:burst', `burst-${i}`);
  queue.push('claude:other', 'the-ask');
  assert.equal(queue.shift(), 'burst-0');
  assert.equal(queue.shift(), 'the-ask', 'the other session is served next, not after the 499 still waiting');
  assert.equal(queue.shift(), 'burst-1');
  assert.equal(queue.length, 498);
});

test('a session that comes back after its line emptied waits for its turn behind the sessions already waiting', () => {
  const queue = new FairQueue<string>();
  queue.push('a', 'a1');
  queue.push('b', 'b1');
  queue.push('b', 'b2');
  assert.equal(queue.shift(), 'a1');
  queue.push('a', 'a2');
  assert.deepEqual(queue.drain(), ['b1', 'a2', 'b2']);
  assert.equal(queue.length, 0);
  assert.equal(queue.shift(), undefined);
});

test('remove takes one waiting item out; a missing one leaves the line as it was', () => {
  const queue = new FairQueue<string>();
  queue.push('a', 'a1');
  queue.push('b', 'b1');
  queue.push('a', 'a2');
  assert.equal(queue.remove('b', 'b1'), true);
  assert.equal(queue.remove('b', 'b1'), false);
  assert.equal(queue.remove('a', 'nope'), false);
  assert.equal(queue.length, 2);
  assert.deepEqual(queue.drain(), ['a1', 'a2']);
});

test('every item comes out exactly once, each session in its own order, whatever is pushed, taken and removed', () => {
  type Step = { op: 'push'; key: number } | { op: 'shift' } | { op: 'unshift' } | { op: 'remove'; pick: number };
  const step = fc.oneof(
    fc.record({ op: fc.constant('push' as const), key: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ op: fc.constant('shift' as const) }),
    // The pool gives back the call it handed out last (a worker's line behind a stuck call).
    fc.record({ op: fc.constant('unshift' as const) }),
    fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 80 }), (steps: Step[]) => {
      const queue = new FairQueue<{ key: string; n: number }>();
      const waiting: { key: string; n: number }[] = [];
      const out: { key: string; n: number }[] = [];
      let n = 0;
      for (const s of steps) {
        if (s.op === 'push') {
          const item = { key: `s${s.key}`, n: n++ };
          queue.push(item.key, item);
          waiting.push(item);
        } else if (s.op === 'shift') {
          const next = queue.peek();
          const item = queue.shift();
          assert.equal(next, item, 'peek shows what shift hands out');
          if (item) {
            out.push(item);
            waiting.splice(waiting.indexOf(item), 1);
          } else assert.equal(waiting.length, 0);
        } else if (s.op === 'unshift') {
          const item = out.pop();
          if (item) {
            queue.unshift(item.key, item);
            waiting.push(item);
            assert.equal(queue.peek(), item, 'an item given back is the next handed out');
          }
        } else if (waiting.length) {
          const item = waiting[s.pick % waiting.length]!;
          assert.equal(queue.remove(item.key, item), true);
          waiting.splice(waiting.indexOf(item), 1);
        }
        assert.equal(queue.length, waiting.length);
      }
      out.push(...queue.drain());
      const seen = new Set(out.map((i) => i.n));
      assert.equal(seen.size, out.length, 'no item twice');
      const lastOf = new Map<string, number>();
      for (const item of out) {
        assert.ok((lastOf.get(item.key) ?? -1) < item.n, 'a session keeps its order');
        lastOf.set(item.key, item.n);
      }
    }),
  );
});

test('an item given back goes first, ahead of its own session and of every other', () => {
  const queue = new FairQueue<string>();
  queue.push('a', 'a1');
  queue.push('a', 'a2');
  queue.push('b', 'b1');
  queue.push('c', 'c1');
  assert.equal(queue.shift(), 'a1');
  assert.equal(queue.shift(), 'b1');
  queue.unshift('b', 'b1');
  assert.equal(queue.length, 3);
  assert.equal(queue.has('b', 'b1'), true);
  assert.deepEqual(queue.drain(), ['b1', 'c1', 'a2']);
  queue.push('a', 'a3');
  queue.unshift('a', 'a2');
  assert.deepEqual(queue.drain(), ['a2', 'a3'], 'within a session too');
});

test('has says whether an item still waits: not once it is handed out or taken out', () => {
  const queue = new FairQueue<string>();
  queue.push('a', 'a1');
  queue.push('a', 'a2');
  assert.equal(queue.has('a', 'a1'), true);
  assert.equal(queue.has('b', 'a1'), false);
  queue.shift();
  assert.equal(queue.has('a', 'a1'), false);
  queue.remove('a', 'a2');
  assert.equal(queue.has('a', 'a2'), false);
});
