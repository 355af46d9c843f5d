import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tomlStrings } from '../../../src/core/text/toml';

test('a TOML basic string, with its escapes', () => {
  assert.deepEqual(tomlStrings(String.raw`"sh -c \"id\" \u00e9\t"`), ['sh -c "id" é\t']);
});

test('a TOML literal string keeps its backslashes', () => {
  assert.deepEqual(tomlStrings(String.raw`'C:\tools\run.exe'`), [String.raw`C:\tools\run.exe`]);
});

test('an array of strings, over lines, with a comment and a trailing comma', () => {
  assert.deepEqual(tomlStrings('[\n  "sh", # the shell\n  \'-c\',\n  "id",\n]'), ['sh', '-c', 'id']);
  assert.deepEqual(tomlStrings('[]'), []);
});

test('what is not a string or an array of strings is undefined', () => {
  assert.equal(tomlStrings('4'), undefined);
  assert.equal(tomlStrings('true'), undefined);
  assert.equal(tomlStrings('"unclosed'), undefined);
  assert.equal(tomlStrings('["a", 1]'), undefined);
  assert.equal(tomlStrings('["a"'), undefined);
});
