// Loading the parser: before it is loaded analyzeShell says so; loading is shared and idempotent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeShell, initShellParser } from '../../../src/core/shell';

test('analyzeShell before initShellParser throws a clear error', () => {
  assert.throws(() => analyzeShell('ls'), /await initShellParser\(\)/);
});

test('concurrent and repeated initShellParser calls share one load', async () => {
  const first = initShellParser();
  const second = initShellParser();
  assert.equal(first, second, 'the same promise');
  await Promise.all([first, second]);
  await initShellParser();
  assert.deepEqual(analyzeShell('ls -la', { home: '/home/dev' }).commands[0]?.argv, ['ls', '-la']);
});
