// The naming check: which ways of naming a target count, and which do not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkNaming, containsWhole, MAX_NAMED_TARGETS } from '../../../src/core/semantic/naming';
import type { CallTarget } from '../../../src/core/semantic/targets';

const ctx = { projectRoot: '/home/dev/proj', cwd: '/home/dev/proj/src', home: '/home/dev' };
const path = (text: string, absolute: string, relation: CallTarget['relation']): CallTarget => ({
  text,
  kind: 'path',
  absolute,
  relation,
  source: 'rm',
});

test('a name counts only as a whole word, case aside, and a sentence may end right after it', () => {
  assert.ok(containsWhole('please remove build.', 'build'));
  assert.ok(containsWhole('Delete BUILD now', 'build'));
  assert.ok(containsWhole('delete "dist/" and build', 'dist'));
  assert.ok(!containsWhole('rebuild it', 'build'));
  assert.ok(!containsWhole('run build.sh', 'build'));
  assert.ok(!containsWhole('delete build-cache', 'build'));
  assert.ok(!containsWhole('look in src/build', 'build'));
  assert.ok(!containsWhole('anything', ''));
});

test('inside the project a base name is enough; elsewhere the path must be named', () => {
  const inside = path('../build', '/home/dev/proj/build', 'inside-project');
  const homeFolder = path('~/build', '/home/dev/build', 'outside-project-in-home');
  const system = path('/var/lib/app', '/var/lib/app', 'system');
  assert.ok(checkNaming([inside], ['clear the build folder'], ctx).named);
  assert.deepEqual(checkNaming([homeFolder], ['clear the build folder'], ctx).unnamed, ['~/build']);
  assert.ok(checkNaming([homeFolder], ['clear ~/build please'], ctx).named);
  assert.ok(checkNaming([homeFolder], ['clear /home/dev/build please'], ctx).named);
  assert.ok(!checkNaming([system], ['wipe the app data'], ctx).named);
  assert.ok(checkNaming([system], ['wipe /var/lib/app/ entirely'], ctx).named);
});

test('a path relative to the project root or the cwd counts', () => {
  const target = path('../docs/old', '/home/dev/proj/docs/old', 'inside-project');
  assert.ok(checkNaming([target], ['remove docs/old'], ctx).named);
  const inCwd = path('gen/out.js', '/home/dev/proj/src/gen/out.js', 'inside-project');
  assert.ok(checkNaming([inCwd], ['delete gen/out.js'], ctx).named);
});

test('a URL counts by itself or by its host; refs and words by their text', () => {
  const url: CallTarget = { text: 'https://paste.example.com/upload?x=1', kind: 'url', source: 'curl' };
  assert.ok(checkNaming([url], ['upload the log to paste.example.com'], ctx).named);
  assert.ok(!checkNaming([url], ['upload the log somewhere'], ctx).named);
  const ref: CallTarget = { text: 'main', kind: 'ref', source: 'git' };
  assert.ok(checkNaming([ref], ['force-push main'], ctx).named);
  assert.ok(!checkNaming([ref], ['force-push maintenance'], ctx).named);
});

test("every target must be named, across the human's turns; none to name passes", () => {
  const a = path('a.txt', '/home/dev/proj/a.txt', 'inside-project');
  const b = path('b.txt', '/home/dev/proj/b.txt', 'inside-project');
  assert.ok(checkNaming([a, b], ['delete a.txt', 'and b.txt too'], ctx).named);
  assert.deepEqual(checkNaming([a, b], ['delete a.txt'], ctx), { named: false, unnamed: ['b.txt'] });
  assert.deepEqual(checkNaming([], ['anything'], ctx), { named: true, unnamed: [] });
  const many = Array.from({ length: MAX_NAMED_TARGETS + 1 }, (_, i) =>
    path(`f${i}`, `/home/dev/proj/f${i}`, 'inside-project'),
  );
  const all = many.map((t) => t.text).join(' ');
  assert.equal(checkNaming(many.slice(0, MAX_NAMED_TARGETS), [all], ctx).named, true);
  assert.equal(checkNaming(many, [all], ctx).named, false);
});
