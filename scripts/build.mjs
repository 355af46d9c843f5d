// Bundles the product (dist/) and, with --tests, every test/**/*.test.ts into a folder of its own,
// out/tests/<build id>/, with a manifest naming exactly this build's test bundles. scripts/test.mjs
// runs a manifest's tests, so a renamed or deleted test never runs from an old bundle, and builds
// that run at once (several engineers, several worktrees' tools) each keep their own files.
// Usage: node scripts/build.mjs [--tests [--build-id ID]]
import { build } from 'esbuild';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  existsSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const withTests = process.argv.includes('--tests');
const idAt = process.argv.indexOf('--build-id');
const buildId = idAt >= 0 ? process.argv[idAt + 1] : `${Date.now().toString(36)}-${process.pid}`;
if (!buildId || !/^[A-Za-z0-9._-]+$/.test(buildId))
  throw new Error(`--build-id takes letters, digits, . _ - (got ${buildId})`);
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

// dist/hook.js loads dist/cli.js from V8's code cache; a script compiled that way has no
// dynamic-import host, so the parser's two import() calls of node built-ins become
// process.getBuiltinModule (Node 20.16+), keeping import() for older Nodes.
const builtinImports = {
  name: 'builtin-imports',
  setup(b) {
    b.onLoad({ filter: /tree-sitter-wasm[\\/]wasm[\\/]tree-sitter\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      const rewritten = text.replace(
        /await import\((["'])(module|fs\/promises)\1\)/g,
        (_m, q, name) =>
          `(process.getBuiltinModule ? process.getBuiltinModule(${q}${name}${q}) : await import(${q}${name}${q}))`,
      );
      if (rewritten === text) throw new Error(`${args.path}: the parser's import() calls were not found`);
      return { contents: rewritten, loader: 'js' };
    });
  },
};

function findTests(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) findTests(full, acc);
    else if (name.endsWith('.test.ts')) acc.push(full);
  }
  return acc;
}

const entries = [
  { in: 'src/cli.ts', out: 'dist/cli.js', banner: '#!/usr/bin/env node' },
  // The command bridge: its own small entry, so forwarding starts as fast as Node. It keeps no
  // function names (nothing there reads them): each kept name is a call on the bridge's start.
  { in: 'src/hook.ts', out: 'dist/hook.js', banner: '#!/usr/bin/env node', keepNames: false },
  { in: 'src/extension/extension.ts', out: 'dist/extension.js' },
  // The evaluation worker serve and the extension run the deterministic tier in (a deadline can stop it).
  { in: 'src/evalWorker.ts', out: 'dist/evalWorker.js' },
].filter((entry) => existsSync(join(root, entry.in)));

const step = (text) => console.error(`[build] ${text}`);

// dist/ is overwritten in place, not wiped, so a concurrent run keeps its files.
step(`bundling ${entries.map((entry) => entry.out).join(' and ')}`);
await Promise.all(
  entries.map((entry) =>
    build({
      ...common,
      minify: true,
      keepNames: entry.keepNames ?? true,
      entryPoints: [entry.in],
      outfile: entry.out,
      banner: entry.banner ? { js: entry.banner } : undefined,
      plugins: [builtinImports],
    }),
  ),
);
copyParserWasm(join(root, 'dist'));
// The shell bridge ships as written: it runs beside dist/hook.js, which it hands calls to.
if (existsSync(join(root, 'src/bridge/hook.sh'))) {
  cpSync(join(root, 'src/bridge/hook.sh'), join(root, 'dist/hook.sh'));
  chmodSync(join(root, 'dist/hook.sh'), 0o755);
}
if (existsSync(join(root, 'scripts/build-media.mjs'))) {
  step('bundling the panel (dist/webview) and writing schemas/config.schema.json');
  await import('./build-media.mjs');
}

/** Test bundles older than this belong to no run still going; they are removed by later builds. */
const OLD_BUILD_MS = 6 * 60 * 60 * 1000;

function removeOldBuilds(testsDir, keep) {
  for (const name of readdirSync(testsDir)) {
    const dir = join(testsDir, name);
    if (name === keep || !statSync(dir).isDirectory()) continue;
    if (Date.now() - statSync(dir).mtimeMs > OLD_BUILD_MS) rmSync(dir, { recursive: true, force: true });
  }
}

if (withTests) {
  const testsDir = join('out', 'tests');
  const buildDir = join(testsDir, buildId);
  const tests = findTests(join(root, 'test'))
    .map((file) => relative(root, file))
    .sort();
  step(`bundling ${tests.length} test files into ${buildDir}`);
  await build({
    ...common,
    entryPoints: tests,
    outdir: buildDir,
    outbase: '.',
    external: ['vscode', 'playwright-core', 'fast-check'],
  });
  // The VS Code extension-host suite and the test-only extension with a fake language model,
  // loaded by test/e2e/vscode/run.test.ts from beside its own bundle.
  // The test-only evaluation worker whose policy spins forever, started by test/server/budget.test.ts.
  const hostBundles = [
    'test/e2e/vscode/suite/index.ts',
    'test/e2e/vscode/fake-lm/extension.ts',
    'test/fixtures/workers/spinning.worker.ts',
  ].filter((file) => existsSync(join(root, file)));
  await Promise.all(
    hostBundles.map((file) =>
      build({ ...common, entryPoints: [file], outfile: join(buildDir, file.replace(/\.ts$/, '.js')) }),
    ),
  );
  const manifest = {
    buildId,
    builtAt: new Date().toISOString(),
    tests: tests.map((file) => join(buildDir, file.replace(/\.ts$/, '.js')).split('\\').join('/')),
  };
  writeFileSync(join(root, buildDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  // The newest build, for `node scripts/test.mjs` without --build: written whole, then renamed.
  const latest = join(root, testsDir, 'latest.json');
  writeFileSync(`${latest}.${process.pid}`, JSON.stringify({ buildId }) + '\n');
  renameSync(`${latest}.${process.pid}`, latest);
  removeOldBuilds(join(root, testsDir), buildId);
}
console.error(`built ${entries.length} bundle(s)${withTests ? ` and the tests (build ${buildId})` : ''}`);
