// Loading the grammars: before they are loaded analyzeCode says so; loading is shared and idempotent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeCode, INTERPRETER_CODE_READER, loadCodeGrammars } from '../../../src/core/interp';

test('analyzeCode before loadCodeGrammars throws a clear error; loading is shared and idempotent', async () => {
  assert.throws(() => analyzeCode('python', 'print(1)'), /await loadCodeGrammars\(\)/);
  assert.deepEqual(INTERPRETER_CODE_READER.read('python', 'print(1)'), {
    effects: [],
    unread: ['the python grammar is not loaded'],
  });
  const first = loadCodeGrammars();
  const second = loadCodeGrammars();
  assert.equal(first, second, 'the same promise');
  await Promise.all([first, second]);
  await loadCodeGrammars();
  assert.deepEqual(analyzeCode('python', 'print(1)'), { language: 'python', effects: [], unread: [] });
});

test('the reader for the call-facts module: its language names, unread before loading, never a throw', async () => {
  assert.equal(INTERPRETER_CODE_READER.reads('node'), true);
  assert.equal(INTERPRETER_CODE_READER.reads('typescript'), true);
  assert.equal(INTERPRETER_CODE_READER.reads('gawk'), true);
  assert.equal(INTERPRETER_CODE_READER.reads('lua'), false);
  assert.deepEqual(INTERPRETER_CODE_READER.read('lua', 'os.execute("ls")'), {
    effects: [],
    unread: ['no reader for lua code'],
  });
  assert.deepEqual(INTERPRETER_CODE_READER.read('awk', 'BEGIN { system("id") }').effects, [
    { kind: 'exec', api: 'system', value: 'id', dynamic: false },
  ]);
  await loadCodeGrammars();
  assert.deepEqual(
    INTERPRETER_CODE_READER.read('typescript', 'const x: string = "ls"; require("child_process").execSync(x)'),
    {
      effects: [{ kind: 'exec', api: 'child_process.execSync', value: 'ls', dynamic: false }],
      unread: [],
    },
  );
});
