// Runs the node:test suites bundled into out/test (see build.mjs --tests).
// Usage: node scripts/test.mjs [substring filter ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const excludeAt = args.indexOf('--exclude');
const excludes = excludeAt >= 0 ? args.splice(excludeAt, 2).slice(1) : [];
const filters = args;
function find(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) find(full, acc);
    else if (name.endsWith('.test.js')) acc.push(full);
  }
  return acc;
}
const files = find('out/test')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .filter((f) => !excludes.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files found under out/test');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
