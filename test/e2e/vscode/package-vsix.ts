import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm run package` in a copy of the sources, so the clone's dist/ is not
// rebuilt under tests running beside the caller.

const SOURCES = [
  'package.json',
  '.vscodeignore',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'tsconfig.json',
  'scripts',
  'src',
  'media',
];

/** Builds the .vsix the package script makes; the caller removes `copy` when done. */
export function packageVsix(root: string): { copy: string; vsix: string } {
  if (!existsSync(join(root, 'node_modules/.bin/vsce'))) throw new Error('@vscode/vsce is not installed');
  const copy = mkdtempSync(join(tmpdir(), 'aw-vsix-'));
  for (const part of SOURCES) cpSync(join(root, part), join(copy, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const run = spawnSync('npm', ['run', 'package'], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 200_000,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (run.status !== 0) throw new Error(`npm run package failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  const vsix = join(copy, 'agent-warden.vsix');
  if (!existsSync(vsix)) throw new Error(`npm run package wrote no ${vsix}:\n${run.stdout}`);
  return { copy, vsix };
}
