// npm run bench: the whole suite in one run (bench/suite/main.ts), one table, bench/results.json.
//   node bench/run.mjs [--reduced | --full] [--out FILE]
// npm run bench:full adds the 100,000-call memory runs (serve, and the extension host through
// code-server) and the 64-connection load run. --reduced takes seconds (the CI test runs it).
// A name runs one of the older single-topic scripts instead, printing its own figures:
//   node bench/run.mjs NAME-SUBSTRING ...   (bridge, cloud, digest, foundation, held-ask, interp, ...)
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flags = [];
const names = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') flags.push(args[i], args[++i]);
  else if (args[i].startsWith('--')) flags.push(args[i]);
  else names.push(args[i]);
}

async function bundle(entry, name) {
  const outfile = join(root, 'out', 'bench', `${name}.js`);
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    logLevel: 'warning',
    external: ['vscode', 'playwright-core'],
    // Profiles of a bench (node --cpu-prof) name source files through the map (bench/profile-frames.mjs).
    sourcemap: true,
  });
  return outfile;
}

if (names.length === 0) {
  // The suite runs bench/bridge.ts as a program of its own.
  await bundle('bench/bridge.ts', 'bridge');
  const suite = await bundle('bench/suite/main.ts', 'suite');
  const result = spawnSync(process.execPath, [suite, ...flags], { stdio: 'inherit', cwd: root });
  process.exit(result.status ?? 1);
}

const benches = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => names.some((s) => f.includes(s)))
  .sort();
let failed = 0;
for (const file of benches) {
  const outfile = await bundle(join('bench', file), basename(file, '.ts'));
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [outfile], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) failed++;
}
console.log(`\n${benches.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
