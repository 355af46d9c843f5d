// The core is shared by the extension, the standalone server and the CLI, so
// nothing under src/core may import or require 'vscode'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../builders/process';

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

// import … from 'vscode', import 'vscode', import type …, export … from,
// require('vscode'), import('vscode'), and subpaths such as 'vscode/…'.
const VSCODE_IMPORT = /(?:\bfrom\s*|\bimport\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)(['"`])vscode(?:\/[^'"`]*)?\1/;

function sourceFiles(dir: string, acc: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, acc);
    else if (SOURCE.test(name)) acc.push(full);
  }
  return acc;
}

function vscodeImports(text: string): string[] {
  return text.split('\n').filter((line) => VSCODE_IMPORT.test(line));
}

test('the detector sees every way of importing vscode, and not look-alikes', () => {
  const caught = [
    "import * as vscode from 'vscode';",
    'import { window } from "vscode";',
    "import type { Uri } from 'vscode';",
    "import 'vscode';",
    "export { Disposable } from 'vscode';",
    "const vscode = require('vscode');",
    'const vscode = require( "vscode" );',
    "const lazy = await import('vscode');",
    "import { x } from 'vscode/lib/thing';",
  ];
  for (const line of caught) assert.equal(vscodeImports(line).length, 1, line);
  const ignored = [
    "import { z } from 'zod';",
    "const name = 'vscode-lm';",
    "import { x } from './vscode-bridge';",
    "import '@vscode/tree-sitter-wasm';",
    '// talks to vscode through an interface',
  ];
  for (const line of ignored) assert.equal(vscodeImports(line).length, 0, line);
});

test('no file under src/core imports or requires vscode', () => {
  const root = repoRoot();
  const files = sourceFiles(join(root, 'src', 'core'));
  assert.ok(files.length > 20, `src/core holds the core (${files.length} files found)`);
  const offenders = files.flatMap((file) =>
    vscodeImports(readFileSync(file, 'utf8')).map((line) => `${relative(root, file)}: ${line.trim()}`),
  );
  assert.deepEqual(offenders, [], `src/core must not import vscode:\n${offenders.join('\n')}`);
});
