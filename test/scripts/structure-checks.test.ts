// The structure checks npm test runs (ESLint's zones, scripts/check-cycles.mjs) fail on the
// defects they exist for: run against a copy of the repository, clean and then broken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../builders/process';
import { aTempDir, removeDir } from '../builders/tempProject';

const COPIED = ['src', 'media', 'scripts', 'package.json', 'tsconfig.json', 'eslint.config.mjs', 'knip.json'];

function copyOfRepo(): string {
  const dir = aTempDir('structure');
  for (const entry of COPIED) cpSync(join(repoRoot(), entry), join(dir, entry), { recursive: true });
  symlinkSync(join(repoRoot(), 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function run(dir: string, args: string[]): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 300_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

const cycles = (dir: string) => run(dir, ['scripts/check-cycles.mjs', dir]);
const eslint = (dir: string, files: string[]) =>
  run(dir, [join('node_modules', 'eslint', 'bin', 'eslint.js'), '--no-warn-ignored', ...files]);

test('an import cycle between files, or between two areas of src, fails the cycle check', (t) => {
  const dir = copyOfRepo();
  t.after(() => removeDir(dir));
  const clean = cycles(dir);
  assert.equal(clean.code, 0, clean.output);

  // analyze -> walker -> words, and now words -> analyze.
  appendFileSync(join(dir, 'src/core/shell/words.ts'), "\nexport { analyzeShell } from './analyze';\n");
  const fileCycle = cycles(dir);
  assert.equal(fileCycle.code, 1, fileCycle.output);
  assert.match(
    fileCycle.output,
    /import cycle between files:[\s\S]*src\/core\/shell\/words\.ts -> src\/core\/shell\/analyze\.ts/,
  );
});

test('a type-only import that closes a cycle between areas fails the cycle check', (t) => {
  const dir = copyOfRepo();
  t.after(() => removeDir(dir));
  // policies already use the redactor; the redactor now names a policy type.
  appendFileSync(
    join(dir, 'src/core/redaction/labels.ts'),
    "\nexport type { PolicyDefinition } from '../policies/types';\n",
  );
  const areaCycle = cycles(dir);
  assert.equal(areaCycle.code, 1, areaCycle.output);
  assert.match(areaCycle.output, /import cycle between areas src\/core\/policies, src\/core\/redaction/);
});

test('src/core importing vscode or a host fails ESLint; the unmodified files pass', (t) => {
  const dir = copyOfRepo();
  t.after(() => removeDir(dir));
  const files = ['src/core/version.ts', 'src/core/project.ts'];
  const clean = eslint(dir, files);
  assert.equal(clean.code, 0, clean.output);

  appendFileSync(
    join(dir, 'src/core/version.ts'),
    "\nimport * as vscode from 'vscode';\nexport const editor = vscode.version;\n",
  );
  appendFileSync(join(dir, 'src/core/project.ts'), "\nexport { WardenServer } from '../server/server';\n");
  const broken = eslint(dir, files);
  assert.equal(broken.code, 1, broken.output);
  assert.match(broken.output, /version\.ts[\s\S]*'vscode' import is restricted/);
  assert.match(broken.output, /project\.ts[\s\S]*import-x\/no-restricted-paths/);
});

test('the webview importing anything but the protocol module fails ESLint', (t) => {
  const dir = copyOfRepo();
  t.after(() => removeDir(dir));
  writeFileSync(
    join(dir, 'media/src/probe.ts'),
    "import { PROTOCOL_VERSION } from '../../src/shared/protocol';\nexport const probe = PROTOCOL_VERSION;\n",
  );
  const clean = eslint(dir, ['media/src/probe.ts']);
  assert.equal(clean.code, 0, clean.output);
  appendFileSync(join(dir, 'media/src/probe.ts'), "export { Redactor } from '../../src/core/redaction/redactor';\n");
  const broken = eslint(dir, ['media/src/probe.ts']);
  assert.equal(broken.code, 1, broken.output);
  assert.match(broken.output, /the webview imports only the protocol module/);
});
