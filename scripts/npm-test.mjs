// `npm test`: every step the README promises, in order, one line each as it starts and ends.
// Installs the pinned test tools (no root; see .ci/install-tools.sh), builds the product and this
// run's own test bundles, type-checks, runs the structure checks, then exactly this build's tests.
// Extra arguments go to the test runner: `npm test -- core/policies`.
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools =
  process.env.AGENT_WARDEN_TOOLS ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-warden-tools');
const env = { ...process.env, AGENT_WARDEN_TOOLS: tools };
const buildId = `${Date.now().toString(36)}-${process.pid}`;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const node = process.execPath;

const steps = [
  ['install the test tools', 'bash', ['.ci/install-tools.sh']],
  ['build dist/ and the tests', node, ['scripts/build.mjs', '--tests', '--build-id', buildId]],
  ['type-check', bin('tsc'), ['-p', '.', '--noEmit']],
  ['check regular expressions for super-linear backtracking', node, ['scripts/check-redos.mjs']],
  ['lint (ESLint)', bin('eslint'), ['.']],
  ['check import cycles', node, ['scripts/check-cycles.mjs']],
  ['check unused files and exports (knip)', bin('knip'), []],
  ['check formatting (Prettier)', bin('prettier'), ['--check', '**/*.{ts,mjs,js,cjs,css,json}']],
  ['run the tests', node, ['scripts/test.mjs', '--build', buildId, ...process.argv.slice(2)]],
];

const started = Date.now();
for (const [index, [title, command, args]] of steps.entries()) {
  const label = `[npm test ${index + 1}/${steps.length}] ${title}`;
  console.error(`${label} …`);
  const at = Date.now();
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  const seconds = ((Date.now() - at) / 1000).toFixed(0);
  if (result.status !== 0) {
    console.error(`${label}: failed after ${seconds} s${result.error ? ` (${result.error.message})` : ''}`);
    process.exit(result.status ?? 1);
  }
  console.error(`${label}: done in ${seconds} s`);
}
console.error(`[npm test] all ${steps.length} steps passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
