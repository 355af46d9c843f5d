// Bundles the product (dist/) and, with --tests, every test/**/*.test.ts into out/test/.
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const withTests = process.argv.includes('--tests');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  external: ['vscode'],
  logLevel: 'warning',
  absWorkingDir: root,
  define: { __AGENT_WARDEN_VERSION__: JSON.stringify(version) },
};

/** Copies the tree-sitter runtime and the grammars listed in the loader's one list (grammars.json). */
function copyParserWasm(toDir) {
  const wasmDir = join(dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
  const shipped = JSON.parse(readFileSync(join(root, 'src/core/treesitter/grammars.json'), 'utf8'));
  mkdirSync(toDir, { recursive: true });
  for (const file of [shipped.runtime, ...Object.values(shipped.grammars)]) {
    cpSync(join(wasmDir, file), join(toDir, file));
  }
}

function findTests(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) findTests(full, acc);
    else if (name.endsWith('.test.ts') || name.endsWith('.worker.ts')) acc.push(full);
  }
  return acc;
}

const entries = [
  { in: 'src/cli.ts', out: 'dist/cli.js', banner: '#!/usr/bin/env node' },
  { in: 'src/extension/extension.ts', out: 'dist/extension.js' },
  // The evaluation worker serve and the extension run the deterministic tier in (a deadline can stop it).
  { in: 'src/evalWorker.ts', out: 'dist/evalWorker.js' },
].filter((entry) => existsSync(join(root, entry.in)));

// dist/ is overwritten in place, not wiped, so a concurrent run keeps its files.
await Promise.all(
  entries.map((entry) =>
    build({
      ...common,
      minify: true,
      keepNames: true,
      entryPoints: [entry.in],
      outfile: entry.out,
      banner: entry.banner ? { js: entry.banner } : undefined,
    }),
  ),
);
copyParserWasm(join(root, 'dist'));
if (existsSync(join(root, 'scripts/build-media.mjs'))) {
  await import('./build-media.mjs');
}

if (withTests) {
  // out/ is not wiped: engineers building at once must not break each other's runs.
  const tests = findTests(join(root, 'test'));
  await build({
    ...common,
    entryPoints: tests.map((file) => relative(root, file)),
    outdir: 'out',
    outbase: '.',
    external: ['vscode', 'playwright-core', 'fast-check'],
  });
  copyParserWasm(join(root, 'out'));
}
console.error(`built ${entries.length} bundle(s)${withTests ? ' and the tests' : ''}`);
