// The composition root is layered: the command bridge uses the state-folder
// layer alone, which must not pull in the evaluation core (the parser, the
// policies, the semantic tier, zod), so the bridge starts as fast as Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from '../../builders/process';

interface Metafile {
  inputs: Record<string, unknown>;
}

function bundledInputs(entry: string): string[] {
  // Loaded at run time: esbuild ships a native binary and is not bundled into the tests.
  const esbuild = createRequire(__filename)('esbuild') as {
    buildSync(opts: Record<string, unknown>): { metafile: Metafile };
  };
  const result = esbuild.buildSync({
    entryPoints: [join(repoRoot(), entry)],
    bundle: true,
    write: false,
    platform: 'node',
    metafile: true,
    absWorkingDir: repoRoot(),
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

const CORE =
  /src\/core\/(evaluator|policies|semantic|redaction|approvals|config|activity|agents)\/?|src\/core\/shell\/(parser|analyze|walker)|node_modules\/(zod|@vscode\/tree-sitter-wasm|undici)\//;

test('the state layer of the composition root reaches nothing of the evaluation core', () => {
  const inputs = bundledInputs('src/core/root/state.ts');
  assert.ok(
    inputs.some((i) => i.endsWith('src/core/endpointAuth.ts')),
    'the probe sees the MAC scheme',
  );
  assert.deepEqual(
    inputs.filter((i) => CORE.test(i)),
    [],
  );
});

test('the probe itself tells the layers apart: the full root does reach the core', () => {
  const inputs = bundledInputs('src/core/root/warden.ts');
  assert.ok(inputs.some((i) => /src\/core\/evaluator\.ts$/.test(i)));
  assert.ok(inputs.some((i) => /node_modules\/zod\//.test(i)));
});
