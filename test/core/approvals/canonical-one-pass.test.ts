// The one-pass canonical writer behind bindArgs must say exactly what the two-pass path says: the same
// bytes for bindable input, and nothing (so the full check names the problem) for anything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkBindable, MAX_NESTING_DEPTH } from '../../../src/core/approvals/bindable';
import { canonicalIfBindable, canonicalJson } from '../../../src/core/approvals/canonical';

/** The two-pass answer: the canonical form when checkBindable accepts the value, else null. */
function twoPass(value: unknown): string | null {
  return checkBindable(value).ok ? canonicalJson(value) : null;
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

test('on random JSON data (surrogates, unicode keys, -0, deep values) both paths agree', () => {
  fc.assert(
    fc.property(
      fc.jsonValue({ maxDepth: 6 }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      (value, key, raw) => {
        for (const v of [value, { [key]: value, [raw]: raw }, [raw, value]])
          assert.equal(canonicalIfBindable(v, MAX_NESTING_DEPTH), twoPass(v));
      },
    ),
    { numRuns: 500 },
  );
});

test('on values that are not plain data both paths refuse', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic['self'] = cyclic;
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  const withSymbol = { a: 1, [Symbol('s')]: 2 };
  const throwing = Object.defineProperty({}, 'x', {
    enumerable: true,
    get() {
      throw new Error('no');
    },
  });
  const cases: unknown[] = [
    cyclic,
    sparse,
    withSymbol,
    throwing,
    { a: undefined },
    [undefined],
    { n: NaN },
    { n: Infinity },
    { b: 10n },
    { f: () => 1 },
    new Date(0),
    new Map(),
    Object.create({ inherited: 1 }),
    { s: 'lone \ud800 high' },
    { ['\udc00key']: 1 },
    nested(MAX_NESTING_DEPTH + 1),
  ];
  for (const value of cases) {
    assert.equal(twoPass(value), null, `the full check refuses ${String(value)}`);
    assert.equal(canonicalIfBindable(value, MAX_NESTING_DEPTH), null);
  }
  const atLimit = nested(MAX_NESTING_DEPTH);
  assert.equal(canonicalIfBindable(atLimit, MAX_NESTING_DEPTH), canonicalJson(atLimit));
  assert.equal(canonicalIfBindable(Object.create(null), MAX_NESTING_DEPTH), '{}');
});

test("records that repeat, reorder and extend each other's member names: both paths agree", () => {
  // The one-pass writer remembers each name sequence's sorted order; shapes that share a prefix, list
  // the same names in another order, or have more members than it remembers must still sort right.
  const names = fc.constantFrom('id', 'name', 'b', 'a', 'Z', 'é', '', '10', '9', '__proto_', 'price');
  const record = fc
    .uniqueArray(fc.tuple(names, fc.jsonValue({ maxDepth: 1 })), { selector: ([name]) => name, maxLength: 11 })
    .map((members) => Object.fromEntries(members));
  const wide = fc
    .uniqueArray(fc.tuple(fc.string({ maxLength: 3 }), fc.integer()), { selector: ([name]) => name, minLength: 33 })
    .map((members) => Object.fromEntries(members));
  fc.assert(
    fc.property(fc.array(fc.oneof(record, wide), { maxLength: 40 }), (rows) => {
      const value = { rows, again: rows.slice().reverse() };
      assert.equal(canonicalIfBindable(value, MAX_NESTING_DEPTH), twoPass(value));
    }),
    { numRuns: 300 },
  );
});
