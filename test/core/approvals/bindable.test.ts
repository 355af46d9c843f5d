import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBindable, MAX_NESTING_DEPTH } from '../../../src/core/approvals/bindable';
import { formatPath } from '../../../src/core/approvals/jsonPath';

const AT_TOOL_INPUT = ['tool_input'];

function problemOf(value: unknown, at: string[] = AT_TOOL_INPUT): string {
  const result = checkBindable(value, at);
  assert.equal(result.ok, false, 'expected a problem');
  return result.ok ? '' : result.problem;
}

function nestedArrays(levels: number, innermost: unknown = 1): unknown {
  let value: unknown = innermost;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

function nestedObjects(levels: number): unknown {
  let value: unknown = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

test('plain JSON data is bindable, including null-prototype objects and an own __proto__ member', () => {
  const nullPrototype = Object.assign(Object.create(null) as object, { a: 1 });
  for (const value of [
    null,
    true,
    0,
    -1.5,
    '',
    'text',
    [],
    {},
    { a: [1, 'x', null, { b: false }] },
    nullPrototype,
    JSON.parse('{"__proto__":1}'),
  ]) {
    assert.deepEqual(checkBindable(value), { ok: true }, JSON.stringify(value));
  }
});

test(`depth: ${MAX_NESTING_DEPTH} nested arrays are bindable, ${MAX_NESTING_DEPTH + 1} are not`, () => {
  assert.equal(MAX_NESTING_DEPTH, 256);
  assert.deepEqual(checkBindable(nestedArrays(256)), { ok: true });
  assert.deepEqual(checkBindable(nestedArrays(256, 'scalar innermost adds no level')), { ok: true });
  // An empty array innermost is itself a level: 257.
  assert.equal(checkBindable(nestedArrays(256, [])).ok, false);
  const problem = problemOf(nestedArrays(257));
  assert.match(problem, /^nesting deeper than 256 levels at \$\.tool_input\[0\]\[0\]/);
  assert.ok(problem.length < 120, problem);
});

test('depth: 256 nested objects are bindable, 257 are not, and the path is abbreviated', () => {
  assert.deepEqual(checkBindable(nestedObjects(256)), { ok: true });
  const problem = problemOf(nestedObjects(257));
  assert.equal(problem, 'nesting deeper than 256 levels at $.tool_input.a.a.a.a.a.….a.a');
});

test('depth counts the checked value itself: a top-level {} is level 1, a scalar level 0', () => {
  // 255 levels inside a top-level object: 256 in all.
  assert.deepEqual(checkBindable({ x: nestedArrays(255) }), { ok: true });
  assert.equal(checkBindable({ x: nestedArrays(256) }).ok, false);
});

test('a lone high or low surrogate in a string or key is named with its code unit and path', () => {
  assert.equal(problemOf({ text: 'ab\ud800' }), 'a lone surrogate \\ud800 in a string at $.tool_input.text');
  assert.equal(problemOf({ text: '\udc00cd' }), 'a lone surrogate \\udc00 in a string at $.tool_input.text');
  assert.equal(
    problemOf({ list: ['ok', '\udfff\ud800'] }),
    'a lone surrogate \\udfff in a string at $.tool_input.list[1]',
  );
  assert.equal(problemOf({ ['k\udbff']: 1 }), 'a lone surrogate \\udbff in a key at $.tool_input');
  assert.deepEqual(checkBindable({ text: '\ud83d\ude00' }), { ok: true });
});

test('numbers that are not finite are named with their value', () => {
  assert.equal(problemOf({ n: NaN }), 'a number that is not finite (NaN) at $.tool_input.n');
  assert.equal(problemOf({ n: Infinity }), 'a number that is not finite (Infinity) at $.tool_input.n');
  assert.equal(problemOf([0, -Infinity]), 'a number that is not finite (-Infinity) at $.tool_input[1]');
  // What JSON.parse makes of an overflowing literal.
  assert.equal(problemOf(JSON.parse('{"n":1e400}')), 'a number that is not finite (Infinity) at $.tool_input.n');
});

test('a sparse array is not bindable; an explicit undefined element is named differently', () => {
  // eslint-disable-next-line no-sparse-arrays -- the hole is the input under test
  assert.equal(problemOf({ items: [1, , 3] }), 'a hole in a sparse array at $.tool_input.items[1]');
  assert.equal(problemOf({ items: [1, undefined] }), 'an undefined value at $.tool_input.items[1]');
  const grown: number[] = [];
  grown[2] = 5;
  assert.equal(problemOf(grown), 'a hole in a sparse array at $.tool_input[0]');
});

test('objects that are not plain data: Date, Map, Set, class instances, binary data', () => {
  class Command {
    constructor(readonly text: string) {}
  }
  assert.equal(problemOf({ when: new Date(0) }), 'a Date object (not plain JSON data) at $.tool_input.when');
  assert.equal(problemOf({ m: new Map() }), 'a Map (not plain JSON data) at $.tool_input.m');
  assert.equal(problemOf({ s: new Set([1]) }), 'a Set (not plain JSON data) at $.tool_input.s');
  assert.equal(problemOf({ c: new Command('ls') }), 'an instance of Command (not plain JSON data) at $.tool_input.c');
  assert.equal(problemOf({ b: new Uint8Array(2) }), 'binary data (not plain JSON data) at $.tool_input.b');
  class Items extends Array<number> {}
  assert.equal(problemOf({ list: Items.from([1]) }), 'an instance of Items (not plain JSON data) at $.tool_input.list');
});

test('values with no JSON form at all', () => {
  assert.equal(problemOf({ u: undefined }), 'an undefined value at $.tool_input.u');
  assert.equal(problemOf({ f: () => 1 }), 'a function at $.tool_input.f');
  assert.equal(problemOf({ b: 10n }), 'a bigint (10n) at $.tool_input.b');
  assert.equal(problemOf({ s: Symbol('x') }), 'a symbol at $.tool_input.s');
  assert.equal(problemOf({ [Symbol('k')]: 1 }), 'a symbol-keyed property at $.tool_input');
  assert.equal(problemOf(undefined), 'an undefined value at $.tool_input');
});

test('a reference cycle is reported, not followed; a shared (acyclic) reference is fine', () => {
  const looped: Record<string, unknown> = { a: 1 };
  looped.self = looped;
  assert.equal(problemOf({ x: looped }), 'a reference cycle (an object that contains itself) at $.tool_input.x.self');
  const shared = { same: true };
  assert.deepEqual(checkBindable({ one: shared, two: shared }), { ok: true });
});

test('a value that throws when read is reported at its path instead of throwing', () => {
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const problem = problemOf({ p: revocable.proxy });
  assert.match(problem, /^a value that cannot be read \(.+\) at \$\.tool_input\.p$/);
});

test('paths: identifiers with dots, other keys quoted, long keys cut', () => {
  assert.equal(formatPath([]), '$');
  assert.equal(formatPath(['tool_input', 'items', 2, 'a b', '$ok']), '$.tool_input.items[2]["a b"].$ok');
  assert.equal(formatPath(['x'.repeat(100)]), `$["${'x'.repeat(40)}…"]`);
  assert.equal(problemOf({ 'file path': [NaN] }), 'a number that is not finite (NaN) at $.tool_input["file path"][0]');
});
