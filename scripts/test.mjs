// Runs the node:test suites of one test build (see build.mjs --tests): exactly the bundles its
// manifest names, never whatever else lies in out/.
// Usage: node scripts/test.mjs [--build ID] [--exclude SUBSTRING] [substring filter ...]
// Without --build: the newest build (out/tests/latest.json).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
function takeOption(name) {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
}
const excludes = [];
for (let exclude = takeOption('--exclude'); exclude !== undefined; exclude = takeOption('--exclude'))
  excludes.push(exclude);
const testsDir = join(root, 'out', 'tests');
const latest = join(testsDir, 'latest.json');
const buildId =
  takeOption('--build') ?? (existsSync(latest) ? JSON.parse(readFileSync(latest, 'utf8')).buildId : undefined);
if (!buildId) {
  console.error('no test build: run `node scripts/build.mjs --tests` first');
  process.exit(1);
}
const manifestPath = join(testsDir, buildId, 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error(`test build ${buildId} has no manifest at ${manifestPath}: build again with --tests`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const missing = manifest.tests.filter((file) => !existsSync(join(root, file)));
if (missing.length > 0) {
  console.error(`test build ${buildId} lost ${missing.length} bundle(s), e.g. ${missing[0]}: build again with --tests`);
  process.exit(1);
}
const filters = args;
const files = manifest.tests
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .filter((f) => !excludes.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no test of build ${buildId} matches ${filters.join(' ') || '(no filter)'}`);
  process.exit(1);
}
// Tests run in this folder and must write only into their temporary folders: what a run leaves at the
// top of the repository is named, so the test that wrote it can be found.
const before = new Set(readdirSync(root));
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  cwd: root,
});
const left = readdirSync(root).filter((name) => !before.has(name) && !['out', 'dist', 'test-results'].includes(name));
if (left.length > 0)
  console.error(`[test] warning: the tests left ${left.map((name) => JSON.stringify(name)).join(', ')} in ${root}`);
process.exit(result.status ?? 1);
