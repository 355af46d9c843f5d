import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The nearest ancestor of cwd holding `.agent-warden/` or `.git`, else cwd itself. */
export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, '.agent-warden')) || existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

/** The current branch from .git/HEAD, read without a subprocess; null when detached or not a repository. */
export function currentGitBranch(projectRoot: string): string | null {
  let gitDir = join(projectRoot, '.git');
  try {
    const text = readFileSync(gitDir, 'utf8');
    // A worktree or submodule: `.git` is a file pointing at the real git dir.
    const match = /^gitdir:\s*(.+)$/m.exec(text);
    if (match?.[1]) gitDir = resolve(projectRoot, match[1].trim());
  } catch {
    /* a directory, the usual case */
  }
  try {
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return ref?.[1] ?? null;
  } catch {
    return null;
  }
}
