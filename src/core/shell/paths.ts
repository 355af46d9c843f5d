// Path arithmetic shared by the shell analyzer and the policies: home expansion, resolution, and
// how a path relates to the project and the home folder.
import path from 'node:path';

export type PathRelation = 'project-root' | 'inside-project' | 'home' | 'outside-project-in-home' | 'system';

const HOME_PREFIX = /^(?:~|\$HOME|\$\{HOME\})(?=$|[/\\])/;
const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;
const WINDOWS_UNC = /^\\\\[^\\]/;
/** Git Bash's (MSYS) spelling of a drive: `/c/Users/dev` is `C:\Users\dev`. */
const MSYS_DRIVE = /^\/([A-Za-z])(?=$|\/)/;

export function isWindowsForm(p: string): boolean {
  return WINDOWS_DRIVE.test(p) || WINDOWS_UNC.test(p);
}

/**
 * A Windows path with forward slashes (`C:/Users/dev/x/Makefile`), for the rules that know a file by
 * its name and folders (`(^|/)\.devcontainer/…`); any other path as it is.
 */
export function withForwardSlashes(p: string): string {
  return p.includes('\\') && isWindowsForm(p) ? p.replace(/\\/g, '/') : p;
}

function trimTrailingSeparators(p: string): string {
  let end = p.length;
  while (end > 1 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  return p.slice(0, end);
}

/** Replaces a leading `~`, `$HOME` or `${HOME}` (alone or before a separator) with `home`. */
export function expandHome(p: string, home: string): string {
  const match = HOME_PREFIX.exec(p);
  if (!match) return p;
  const rest = p.slice(match[0].length);
  if (rest === '') return home;
  return trimTrailingSeparators(home) + rest;
}

/**
 * An absolute, normalized path. POSIX semantics, except that a Windows form (drive letter or UNC)
 * in `p` or, for a relative `p`, in `cwd`, is resolved with path.win32.
 */
export function resolvePath(p: string, cwd: string, home: string): string {
  const expanded = windowsDriveOf(expandHome(p, home), cwd, home);
  if (isWindowsForm(expanded)) return path.win32.resolve(expanded);
  if (isWindowsForm(cwd) && !expanded.startsWith('/')) return path.win32.resolve(cwd, expanded);
  // Anchoring at '/' keeps the result independent of this process's own working directory.
  return path.posix.resolve('/', cwd, expanded);
}

/**
 * On a Windows host (its working folder or home is a Windows path) Claude Code's shell is Git Bash,
 * where `/c/Users/dev/.claude` is the file the host calls `C:\Users\dev\.claude`: one spelling, so the
 * rules that know the home's files know it either way.
 */
function windowsDriveOf(p: string, cwd: string, home: string): string {
  const drive = MSYS_DRIVE.exec(p);
  if (!drive || !(isWindowsForm(cwd) || isWindowsForm(home))) return p;
  return `${drive[1]!.toUpperCase()}:\\${p.slice(drive[0].length + 1)}`;
}

function comparable(p: string): { text: string; sep: string; caseless: boolean } {
  if (isWindowsForm(p))
    return { text: trimTrailingSeparators(path.win32.normalize(p)).toLowerCase(), sep: '\\', caseless: true };
  return { text: trimTrailingSeparators(path.posix.normalize(p)), sep: '/', caseless: false };
}

/** Whether `child` is `parent` or lies below it. Both should be absolute. */
export function isInside(child: string, parent: string): boolean {
  const c = comparable(child);
  const p = comparable(parent);
  if (c.caseless !== p.caseless) return false;
  if (c.text === p.text) return true;
  const prefix = p.text.endsWith(p.sep) ? p.text : p.text + p.sep;
  return c.text.startsWith(prefix);
}

function samePath(a: string, b: string): boolean {
  const x = comparable(a);
  const y = comparable(b);
  return x.caseless === y.caseless && x.text === y.text;
}

/** Where an absolute path lies: the project comes first, then the home folder, then the rest of the system. */
export function relatePath(abs: string, projectRoot: string, home: string): PathRelation {
  if (samePath(abs, projectRoot)) return 'project-root';
  if (isInside(abs, projectRoot)) return 'inside-project';
  if (samePath(abs, home)) return 'home';
  if (isInside(abs, home)) return 'outside-project-in-home';
  return 'system';
}
