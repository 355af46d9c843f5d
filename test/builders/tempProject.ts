// Temporary folders for tests: a plain one, or a project (it holds .git, so it is its own project
// root) with a home folder beside it or around it, files written in, and one call that removes it all.
//   const project = aTempProject({ files: { 'package.json': { scripts: {} } }, removeAfter: t });
//   const dir = aTempDir('logs', after);  // or aTempDir('logs', t)
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where a folder's removal is registered: a test context (`t`), or node:test's `after`. */
type RegisterCleanup = { after(fn: () => void): void } | ((fn: () => void) => void);

function registerRemoval(removeAfter: RegisterCleanup | undefined, dir: string): void {
  if (typeof removeAfter === 'function') removeAfter(() => removeDir(dir));
  else removeAfter?.after(() => removeDir(dir));
}

/** A fresh folder under the system temp dir (its real path, so comparisons with resolved paths hold). */
export function aTempDir(name: string, removeAfter?: RegisterCleanup): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `aw-${name}-`)));
  registerRemoval(removeAfter, dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A fresh temp folder that is itself a project (it holds .git, on branch `feature`). */
export function aProjectDir(name: string, removeAfter?: RegisterCleanup): string {
  const dir = aTempDir(name, removeAfter);
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/feature\n');
  return dir;
}

export interface TempProjectOptions {
  /** Part of the temp folder's name, to tell a folder left behind by a crash. */
  name?: string;
  /** Files to write, by path relative to the project; an object is written as JSON. */
  files?: Record<string, string | object>;
  /** The branch `.git/HEAD` names. */
  branch?: string;
  /** `<home>/proj` (a project inside the user's home, as most are) instead of a folder beside the home. */
  projectInHome?: boolean;
  removeAfter?: RegisterCleanup;
}

export interface TempProject {
  /** The temp folder that holds the project and the home; `dispose()` removes it. */
  readonly root: string;
  /** The project folder (it holds .git). */
  readonly dir: string;
  /** A home folder for the user (`<root>/home/dev`), created empty. */
  readonly home: string;
  /** A path inside the project. */
  path(...parts: string[]): string;
  /** Writes a file inside the project (making its folders); an object is written as JSON. Gives its path. */
  write(relative: string, content: string | object): string;
  dispose(): void;
}

export function aTempProject(options: TempProjectOptions = {}): TempProject {
  const root = aTempDir(options.name ?? 'project');
  const home = join(root, 'home', 'dev');
  const dir = options.projectInHome ? join(home, 'proj') : join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, '.git', 'HEAD'), `ref: refs/heads/${options.branch ?? 'feature'}\n`);
  const project: TempProject = {
    root,
    dir,
    home,
    path: (...parts) => join(dir, ...parts),
    write(relative, content) {
      const path = join(dir, relative);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return path;
    },
    dispose: () => removeDir(root),
  };
  for (const [relative, content] of Object.entries(options.files ?? {})) project.write(relative, content);
  registerRemoval(options.removeAfter, root);
  return project;
}

/** A project and a home beside it (with the state folder's path in it), both removed after the test. */
export function aProjectWithHome(
  t: { after(fn: () => void | Promise<void>): void },
  name: string,
): { project: string; home: string; state: string } {
  const project = aProjectDir(`${name}-project`);
  const home = aTempDir(`${name}-home`);
  t.after(() => {
    removeDir(project);
    removeDir(home);
  });
  return { project, home, state: join(home, '.agent-warden') };
}
