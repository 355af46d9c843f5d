import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findDuplicateKey, findNonFiniteNumber, scanJsonText } from '../../../src/core/approvals/rawJsonScan';

test('a repeated key is found with the location of the object that repeats it', () => {
  assert.deepEqual(findDuplicateKey('{"tool_input":{"command":"ls","command":"rm -rf /"}}'), {
    key: 'command',
    path: '$.tool_input',
  });
  assert.deepEqual(findDuplicateKey('{"a":1,"a":2}'), { key: 'a', path: '$' });
});

test('keys are compared decoded: an escaped spelling of the same key is a duplicate', () => {
  assert.deepEqual(findDuplicateKey('{"a":1,"\\u0061":2}'), { key: 'a', path: '$' });
  assert.deepEqual(findDuplicateKey('{"x":{"\\n":1,"\\u000a":2}}'), { key: '\n', path: '$.x' });
  assert.deepEqual(findDuplicateKey('{"\\ud83d\\ude00":1,"😀":2}'), { key: '😀', path: '$' });
  // Different keys that merely look alike are not duplicates.
  assert.equal(findDuplicateKey('{"a":1,"A":2,"a ":3,"\\u00e9":4,"e\\u0301":5}'), null);
});

test('objects with many keys: a duplicate is found whether it comes early or late', () => {
  const keys = Array.from({ length: 40 }, (_, index) => `k${index}`);
  const members = keys.map((key) => `"${key}":0`);
  assert.equal(findDuplicateKey(`{${members.join(',')}}`), null);
  for (const at of [1, 12, 13, 39]) {
    const repeated = [...members.slice(0, at), '"k0":1', ...members.slice(at)];
    assert.deepEqual(findDuplicateKey(`{"o":{${repeated.join(',')}}}`), { key: 'k0', path: '$.o' }, `repeat at ${at}`);
  }
  const lateRepeat = [...members, '"k39":1'];
  assert.deepEqual(findDuplicateKey(`{${lateRepeat.join(',')}}`), { key: 'k39', path: '$' });
});

test('paths through arrays carry the element index', () => {
  const text = '{"tool_input":{"items":[{"k":1},{"k":2},{"k":3,"k":4}]}}';
  assert.deepEqual(findDuplicateKey(text), { key: 'k', path: '$.tool_input.items[2]' });
  assert.deepEqual(findDuplicateKey('[[],[1,{"a":[{}],"b":0,"b":1}]]'), { key: 'b', path: '$[1][1]' });
});

test('the same key in sibling or nested objects is not a duplicate', () => {
  assert.equal(findDuplicateKey('{"a":{"a":{"a":1}},"b":{"a":2},"c":[{"a":1},{"a":2}]}'), null);
  assert.equal(findDuplicateKey('{"a":"a","b":"a","c":["a","a"]}'), null);
});

test('strings with escaped quotes and backslashes do not confuse the scanner', () => {
  const text = JSON.stringify({ 'q"k': 'va\\"lue{', 'b\\': ['[', '}', ':,'], 'q"k ': 1 });
  assert.equal(findDuplicateKey(text), null);
  const withDuplicate = '{"s":"\\"a\\":1,\\"a\\":2","s\\\\":0,"s":1}';
  assert.deepEqual(findDuplicateKey(withDuplicate), { key: 's', path: '$' });
});

test('the first duplicate in text order is reported, and a visitor can continue past it', () => {
  const text = '{"z":{"q":1,"q":2},"a":1,"a":2}';
  assert.deepEqual(findDuplicateKey(text), { key: 'q', path: '$.z' });
  const all: string[] = [];
  scanJsonText(text, {
    onDuplicateKey(key, objectPath) {
      all.push(`${key}@${objectPath.join('/')}`);
      return false;
    },
  });
  assert.deepEqual(all, ['q@z', 'a@']);
});

test('number literals that overflow a double are found with their literal text', () => {
  assert.deepEqual(findNonFiniteNumber('{"tool_input":{"n":1e400}}'), { literal: '1e400', path: '$.tool_input.n' });
  assert.deepEqual(findNonFiniteNumber('[0,-1E+309]'), { literal: '-1E+309', path: '$[1]' });
  assert.deepEqual(findNonFiniteNumber(`{"big":${'9'.repeat(400)}}`)?.path, '$.big');
  for (const fine of ['1e308', '1.7976931348623157e308', '1e-400', '-0', `${'9'.repeat(300)}`, '123.456e-7']) {
    assert.equal(findNonFiniteNumber(`[${fine}]`), null, fine);
  }
});

test('whitespace everywhere JSON allows it is handled', () => {
  const text = ' \n{ "a" :\t[ 1 , { "b" : 2 ,\r\n "b" : 3 } ] } ';
  assert.deepEqual(findDuplicateKey(text), { key: 'b', path: '$.a[1]' });
});

test('deep nesting does not overflow the scanner', () => {
  const depth = 100_000;
  const text = `${'{"a":'.repeat(depth)}{"d":1,"d":2}${'}'.repeat(depth)}`;
  const found = findDuplicateKey(text);
  assert.equal(found?.key, 'd');
  assert.ok(found !== null && found.path.startsWith('$.a.a.a.a.a.a.…'));
});

test('text that is not JSON throws a SyntaxError instead of looping', () => {
  for (const bad of ['{"a":1', '{"a":tru}', '{"a":@}', '}', '"unterminated']) {
    assert.throws(() => findDuplicateKey(bad), SyntaxError, bad);
  }
});

test('property: JSON.stringify output never has a duplicate key', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      assert.equal(findDuplicateKey(JSON.stringify(value)), null);
      assert.equal(findDuplicateKey(JSON.stringify(value, null, 2)), null);
    }),
    { numRuns: 300 },
  );
});

test('property: a key repeated inside a generated document is always found, at its object', () => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }),
      fc.jsonValue({ maxDepth: 1 }),
      (record, extra) => {
        const text = JSON.stringify({ outer: record });
        const firstKey = Object.keys(record)[0] as string;
        const spliced = `${text.slice(0, -2)},${JSON.stringify(firstKey)}:${JSON.stringify(extra)}}}`;
        const found = findDuplicateKey(spliced);
        assert.ok(found !== null);
        // An earlier duplicate can only come from inside the record's own values, which JSON.stringify never makes.
        assert.deepEqual(found, { key: firstKey, path: '$.outer' });
      },
    ),
    { numRuns: 200 },
  );
});
