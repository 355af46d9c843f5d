// The project a working folder belongs to, and the memo a long-running host keeps of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { findProjectRoot, ProjectRoots } from '../../src/core/project';
import { aTempDir } from '../builders/tempProject';

test('the nearest folder holding .git or .agent-warden is the project; without one, the folder itself', (t) => {
  const top = aTempDir('project-root', t);
  const deep = join(top, 'repo', 'src', 'lib');
  mkdirSync(deep, { recursive: true });
  assert.equal(findProjectRoot(deep), deep);
  mkdirSync(join(top, 'repo', '.git'));
  assert.equal(findProjectRoot(deep), join(top, 'repo'));
  mkdirSync(join(top, 'repo', 'src', '.agent-warden'));
  assert.equal(findProjectRoot(deep), join(top, 'repo', 'src'));
});

test('a folder anyone may write into is no project, whatever it holds: the search goes on above it', (t) => {
  const top = aTempDir('project-root', t);
  const shared = join(top, 'shared');
  const deep = join(shared, 'someone', 'work');
  mkdirSync(join(shared, '.agent-warden'), { recursive: true });
  mkdirSync(join(shared, '.git'));
  mkdirSync(deep, { recursive: true });
  assert.equal(findProjectRoot(deep), shared, 'a private folder with a marker is the project');
  chmodSync(shared, 0o1777);
  assert.equal(findProjectRoot(deep), deep, 'open to anyone (as /tmp is), it is passed over');
  mkdirSync(join(top, '.git'));
  assert.equal(findProjectRoot(deep), top, 'a marked folder above it is found');
  mkdirSync(join(deep, '.git'));
  assert.equal(findProjectRoot(deep), deep);
});

test('a remembered folder is looked up again once the recheck interval has passed', (t) => {
  const top = aTempDir('project-root', t);
  const folder = join(top, 'work');
  mkdirSync(folder, { recursive: true });
  const roots = new ProjectRoots(250);
  assert.equal(roots.rootOf(folder, 1_000), folder);
  mkdirSync(join(top, '.git'));
  // Within the interval the answer stands (as the config read with it does)...
  assert.equal(roots.rootOf(folder, 1_249), folder);
  // ...and after it the folder is seen to be inside the new repository.
  assert.equal(roots.rootOf(folder, 1_250), top);
  const always = new ProjectRoots(0);
  assert.equal(always.rootOf(folder, 5), top);
  mkdirSync(join(folder, '.agent-warden'));
  assert.equal(always.rootOf(folder, 5), folder);
});
