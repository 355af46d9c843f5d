// scripts/build.mjs --tests and scripts/test.mjs, in a small project of their own: the runner runs
// exactly one build's tests, so a renamed or deleted test stops running, and an earlier build
// (a concurrent run's) keeps its own bundles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../builders/process';
import { aTempDir, removeDir } from '../builders/tempProject';

function project(): string {
  const dir = aTempDir('manifest');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'manifest-probe', version: '0.0.0' }));
  mkdirSync(join(dir, 'scripts'));
  for (const script of ['build.mjs', 'test.mjs'])
    cpSync(join(repoRoot(), 'scripts', script), join(dir, 'scripts', script));
  // The build copies the parser grammars its one list names, whatever the project bundles.
  mkdirSync(join(dir, 'src', 'core', 'treesitter'), { recursive: true });
  cpSync(
    join(repoRoot(), 'src', 'core', 'treesitter', 'grammars.json'),
    join(dir, 'src', 'core', 'treesitter', 'grammars.json'),
  );
  symlinkSync(join(repoRoot(), 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'test', 'deeper'), { recursive: true });
  return dir;
}

function writeTest(dir: string, path: string, name: string): void {
  writeFileSync(join(dir, 'test', path), `import { test } from 'node:test';\ntest('ran ${name}', () => {});\n`);
}

function node(dir: string, args: string[]): { code: number | null; output: string } {
  // Without the parent runner's NODE_TEST_CONTEXT, so the inner runner reports as it would alone.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const result = spawnSync(process.execPath, args, { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

function ran(output: string): string[] {
  return [...output.matchAll(/✔ ran (\w+)/g)].map((m) => m[1] as string).sort();
}

test('a renamed or deleted test stops running; an earlier build still runs its own tests', (t) => {
  const dir = project();
  t.after(() => removeDir(dir));
  writeTest(dir, 'a.test.ts', 'a');
  writeTest(dir, 'deeper/b.test.ts', 'b');
  assert.equal(node(dir, ['scripts/build.mjs', '--tests', '--build-id', 'first']).code, 0);
  const first = node(dir, ['scripts/test.mjs']);
  assert.equal(first.code, 0, first.output);
  assert.deepEqual(ran(first.output), ['a', 'b']);

  renameSync(join(dir, 'test', 'deeper', 'b.test.ts'), join(dir, 'test', 'deeper', 'c.test.ts'));
  rmSync(join(dir, 'test', 'a.test.ts'));
  writeTest(dir, 'deeper/c.test.ts', 'c');
  const built = node(dir, ['scripts/build.mjs', '--tests', '--build-id', 'second']);
  assert.equal(built.code, 0, built.output);
  const manifest = JSON.parse(readFileSync(join(dir, 'out', 'tests', 'second', 'manifest.json'), 'utf8')) as {
    tests: string[];
  };
  assert.deepEqual(manifest.tests, ['out/tests/second/test/deeper/c.test.js']);

  const second = node(dir, ['scripts/test.mjs']);
  assert.equal(second.code, 0, second.output);
  assert.deepEqual(ran(second.output), ['c'], 'the newest build runs only the tests that exist now');

  const again = node(dir, ['scripts/test.mjs', '--build', 'first']);
  assert.equal(again.code, 0, again.output);
  assert.deepEqual(ran(again.output), ['a', 'b'], 'the earlier build keeps its own bundles');

  const filtered = node(dir, ['scripts/test.mjs', '--build', 'first', '--exclude', 'deeper']);
  assert.deepEqual(ran(filtered.output), ['a']);
});

test('a build whose bundle went missing, or no build at all, is an error that says what to do', (t) => {
  const dir = project();
  t.after(() => removeDir(dir));
  const none = node(dir, ['scripts/test.mjs']);
  assert.equal(none.code, 1);
  assert.match(none.output, /no test build: run `node scripts\/build\.mjs --tests` first/);

  writeTest(dir, 'a.test.ts', 'a');
  assert.equal(node(dir, ['scripts/build.mjs', '--tests', '--build-id', 'only']).code, 0);
  rmSync(join(dir, 'out', 'tests', 'only', 'test', 'a.test.js'));
  const lost = node(dir, ['scripts/test.mjs']);
  assert.equal(lost.code, 1);
  assert.match(lost.output, /test build only lost 1 bundle\(s\), e\.g\. out\/tests\/only\/test\/a\.test\.js/);

  const unknown = node(dir, ['scripts/test.mjs', '--build', 'nope']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.output, /test build nope has no manifest/);
});
