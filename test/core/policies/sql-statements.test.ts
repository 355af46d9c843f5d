// sqlStatements blanks comments and quoted text in one pass; it must say what the regex chain it replaced said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sqlStatements } from '../../../src/core/policies/library/database';

function regexChain(text: string): string[] {
  return text
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\$\$[\s\S]*?\$\$/g, "''")
    .split(';')
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '');
}

test('sqlStatements agrees with the old regex chain on short inputs', () => {
  const unit = fc.constantFrom(...'/*"\\\'-; D\n$x'.split(''));
  fc.assert(
    fc.property(fc.string({ unit, maxLength: 30 }), (text) => {
      assert.deepEqual(sqlStatements(text), regexChain(text));
    }),
    { numRuns: 2000 },
  );
});

test('sqlStatements reads a 100 KB run of unclosed comments and quotes', () => {
  const statements = sqlStatements(`${'/*"\\"'.repeat(25_000)}; DROP TABLE users`);
  assert.equal(statements.at(-1), 'DROP TABLE users');
});
