// JSON with comments and trailing commas, as VS Code writes its settings: comments go, strings stay whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonWithComments } from '../../../src/core/text/jsonc';

test('comments and trailing commas are dropped; // and /* inside strings are kept', () => {
  assert.deepEqual(
    parseJsonWithComments('{\n  // a line\n  "url": "http://localhost:3000/*", /* a block */\n  "list": [1, 2,],\n}\n'),
    { url: 'http://localhost:3000/*', list: [1, 2] },
  );
  assert.deepEqual(parseJsonWithComments('{"a": "say \\"//\\" here",}'), { a: 'say "//" here' });
});

test('text that is not JSON even without its comments is an error', () => {
  assert.throws(() => parseJsonWithComments('{"a": 1 // unclosed'));
  assert.throws(() => parseJsonWithComments('{"a": [1, 2}'));
});
