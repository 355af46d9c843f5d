// The reader's bounds: loading is shared and required, size and eval depth are capped, and no input
// makes it throw.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import fc from 'fast-check';
import {
  analyzeCode,
  loadCodeGrammars,
  MAX_CODE_SIZE,
  MAX_EVAL_DEPTH,
  type CodeLanguage,
} from '../../../src/core/interp';

const LANGUAGES: CodeLanguage[] = ['python', 'javascript', 'php', 'ruby', 'powershell', 'perl', 'awk'];

before(() => loadCodeGrammars());

test('code over the size cap is unread, in every language', () => {
  const code = 'x'.repeat(MAX_CODE_SIZE + 1);
  for (const language of LANGUAGES) {
    assert.deepEqual(analyzeCode(language, code).unread, ['code too large'], language);
  }
});

test('eval of literal code is followed to a bound, then unread', () => {
  let code = 'import os; os.system("id")';
  for (let level = 0; level < MAX_EVAL_DEPTH; level++) code = `exec(${JSON.stringify(code)})`;
  assert.deepEqual(
    analyzeCode('python', code).effects.map((e) => e.value),
    ['id'],
    `${MAX_EVAL_DEPTH} levels are read`,
  );
  const deeper = analyzeCode('python', `exec(${JSON.stringify(code)})`);
  assert.deepEqual(deeper.effects, []);
  assert.deepEqual(deeper.unread, [`exec nested more than ${MAX_EVAL_DEPTH} deep`]);
});

test('doubling concatenations stop being followed instead of growing without bound', () => {
  const lines = ['a0 = "xxxxxxxxxxxxxxxx"'];
  for (let i = 1; i < 40; i++) lines.push(`a${i} = a${i - 1} + a${i - 1}`);
  lines.push('import os; os.system(a39)');
  assert.deepEqual(analyzeCode('python', lines.join('\n')).effects, [
    { kind: 'exec', api: 'os.system', dynamic: true },
  ]);
});

test('deeply nested code does not overflow the stack', () => {
  const depth = 5000;
  for (const [language, code] of [
    ['python', `${'('.repeat(depth)}1${')'.repeat(depth)}`],
    ['javascript', `${'['.repeat(depth)}1${']'.repeat(depth)}`],
    ['perl', `${'('.repeat(depth)}1${')'.repeat(depth)}`],
    ['awk', `{ print ${'('.repeat(depth)}1${')'.repeat(depth)} }`],
  ] as const) {
    const facts = analyzeCode(language, code);
    assert.equal(facts.language, language);
  }
});

test('random input never throws and always returns CodeFacts', () => {
  const alphabet = fc.constantFrom(
    ...'()[]{}<>"\'`$@%&|;:,./\\#=+-*!?~^ \n\tabcdefxyzossystemexecevalopen0123456789'.split(''),
  );
  fc.assert(
    fc.property(
      fc.constantFrom(...LANGUAGES),
      fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: alphabet, maxLength: 200 })),
      (language, code) => {
        const facts = analyzeCode(language, code);
        assert.equal(facts.language, language);
        assert.ok(Array.isArray(facts.effects) && Array.isArray(facts.unread));
        for (const effect of facts.effects) assert.equal(typeof effect.dynamic, 'boolean');
      },
    ),
    { numRuns: 700 },
  );
});
