// npm run bench: bundles each bench/*.ts and runs it; each prints its own figures.
// Usage: node bench/run.mjs [name-substring ...]
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);
const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
let failed = 0;
for (const file of benches) {
  const outfile = join(root, 'out', 'bench', basename(file, '.ts') + '.js');
  await build({
    entryPoints: [join(root, 'bench', file)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    logLevel: 'warning',
    external: ['vscode', 'playwright-core'],
  });
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [outfile], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) failed++;
}
console.log(`\n${benches.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
