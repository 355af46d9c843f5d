// A real git repository in a temp folder, for tests of what Warden asks of git: on branch main, with a
// committer set and the person's own git configuration kept out, one commit of the files given.
//   const dir = aGitRepository(t, 'stop', { 'a.txt': 'a\n' });
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { aTempDir } from './tempProject';

/** Runs git in `dir` with no global or system configuration. */
export function gitIn(dir: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

export function aGitRepository(
  t: { after(fn: () => void): void },
  name: string,
  files: Record<string, string>,
): string {
  const dir = aTempDir(name, t);
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'config', 'user.email', 't@example.com');
  gitIn(dir, 'config', 'user.name', 't');
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, relative)), { recursive: true });
    writeFileSync(join(dir, relative), content);
  }
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'first');
  return dir;
}
