// The project a working folder belongs to, and the memo a long-running host keeps of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
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
