// Loading the grammars: before they are loaded analyzeCode says so; loading is shared and idempotent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeCode, loadCodeGrammars } from '../../../src/core/interp';

test('analyzeCode before loadCodeGrammars throws a clear error; loading is shared and idempotent', async () => {
  assert.throws(() => analyzeCode('python', 'print(1)'), /await loadCodeGrammars\(\)/);
  const first = loadCodeGrammars();
  const second = loadCodeGrammars();
  assert.equal(first, second, 'the same promise');
  await Promise.all([first, second]);
  await loadCodeGrammars();
  assert.deepEqual(analyzeCode('python', 'print(1)'), { language: 'python', effects: [], unread: [] });
});
