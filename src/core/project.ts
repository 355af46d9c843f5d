import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The nearest ancestor of cwd holding `.agent-warden/` or `.git`, else cwd itself. A folder anyone on
 * the machine may write into (/tmp, /var/tmp) is no one's project: a `.agent-warden` or `.git` left
 * there by another user or an agent would make every folder under it one project, with that config.
 */
export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  let dir = start;
  for (;;) {
    if ((existsSync(join(dir, '.agent-warden')) || existsSync(join(dir, '.git'))) && !writableByAnyone(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

function writableByAnyone(dir: string): boolean {
  // Windows reports no such bit (every folder reads as 0o666 there).
  if (process.platform === 'win32') return false;
  try {
    return (statSync(dir).mode & 0o002) !== 0;
  } catch {
    return false;
  }
}

const REMEMBERED_FOLDERS = 256;

/**
 * findProjectRoot for a long-running host, which meets the same few working folders on every call:
 * each folder's answer is looked up again once `recheckMs` has passed (the interval at which config
 * files are checked for changes), so a folder that becomes a project is seen as soon as its config is.
 */
export class ProjectRoots {
  private readonly known = new Map<string, { root: string; checkedAt: number }>();

  constructor(private readonly recheckMs: number) {}

  rootOf(cwd: string, now = Date.now()): string {
    const known = this.known.get(cwd);
    if (known && now - known.checkedAt < this.recheckMs) return known.root;
    const root = findProjectRoot(cwd);
    this.known.delete(cwd);
    this.known.set(cwd, { root, checkedAt: now });
    if (this.known.size > REMEMBERED_FOLDERS) this.known.delete(this.known.keys().next().value as string);
    return root;
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
