// A clone checked out alone passes its own tests: no test, script, bench or CI file names a path that
// climbs out of the repository (the workplace's ../shared beside a clone is not there on another machine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../builders/process';

const SCANNED = ['test', 'scripts', 'bench', '.ci'];
// Corpus lines hold paths as data (an agent's calls), never as files the tests open.
const SKIPPED = [join('test', 'fixtures')];
const RELATIVE_LITERAL = /['"`]((?:\.\.\/)+[\w.@/-]*)['"`]/g;

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (SKIPPED.includes(relative(repoRoot(), path))) return [];
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|mts|mjs|js|cjs)$/.test(name) || name === 'run' ? [path] : [];
  });
}

/** Paths a file names that leave the repository, read from the file's folder and from the repository's root. */
export function escapingPaths(file: string, text: string, root: string): string[] {
  const outside = (path: string) => relative(root, path).startsWith('..');
  return [...text.matchAll(RELATIVE_LITERAL)]
    .map((match) => match[1]!)
    .filter((literal) => outside(resolve(dirname(file), literal)) && outside(resolve(root, literal)));
}

test('no test, script, bench or CI file reaches outside the repository', () => {
  const root = repoRoot();
  const found = SCANNED.flatMap((folder) => filesUnder(join(root, folder))).flatMap((file) =>
    escapingPaths(file, readFileSync(file, 'utf8'), root).map((path) => `${relative(root, file)}: ${path}`),
  );
  assert.deepEqual(found, []);
});

test('the check finds a path to ../shared, and passes one inside the repository', () => {
  const root = repoRoot();
  const file = join(root, 'test', 'x', 'y.test.ts');
  // Built here, so that this file does not name such a path itself.
  const away = ['..', '..', '..', 'shared', 'reference', 'a.md'].join('/');
  assert.deepEqual(escapingPaths(file, `readFileSync('${away}')`, root), [away]);
  assert.deepEqual(escapingPaths(file, "import { x } from '../../src/shared/panelHtml';", root), []);
});
