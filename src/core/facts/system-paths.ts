// Paths as the system resolves them: bash's tilde forms, /proc's views of the file tree, and the
// home folders of other accounts. Lexical only; symlinks are followed through IoFacts.realpath.
import path from 'node:path';
import { resolvePath } from '../shell/paths';
import { trimEndChars } from '../text/scan';

export interface PathPlace {
  cwd: string;
  home: string;
}

const USER_NAME = /^[A-Za-z_][\w.-]*$/;

/** The home folder bash gives `~name`: root's is /root, others sit beside the current user's. */
export function homeOfUser(user: string, home: string): string {
  if (user === 'root') return '/root';
  const parent = path.posix.dirname(trimEndChars(home, '/')) || '/home';
  return path.posix.join(parent === '/' ? '/home' : parent, user);
}

/**
 * The word with a leading tilde form expanded: `~` and `~/x` (home), `~+` (the working folder),
 * `~name` (that user's home). `~-` (the previous folder) and anything else are left as written,
 * and reported unresolved.
 */
export function expandTilde(word: string, place: PathPlace): { text: string; resolved: boolean } {
  if (!word.startsWith('~')) return { text: word, resolved: true };
  const slash = word.indexOf('/');
  const head = slash === -1 ? word.slice(1) : word.slice(1, slash);
  const rest = slash === -1 ? '' : word.slice(slash);
  if (head === '') return { text: trimEndChars(place.home, '/') + rest || '/', resolved: true };
  if (head === '+') return { text: trimEndChars(place.cwd, '/') + rest || '/', resolved: true };
  if (head === '-') return { text: word, resolved: false };
  if (USER_NAME.test(head)) return { text: homeOfUser(head, place.home) + rest, resolved: true };
  return { text: word, resolved: false };
}

const PROC_VIEW = /^\/proc\/(self|thread-self|\d+)\/(root|cwd)(?=\/|$)/;

/**
 * /proc/<pid>/root is that process's view of `/` (the same tree for the user's own processes);
 * /proc/self/cwd is the folder the reading process runs in. Another process's cwd is unknown: null.
 */
export function throughProc(absolute: string, cwd: string): string | null {
  const match = PROC_VIEW.exec(absolute);
  if (!match) return absolute;
  const rest = absolute.slice(match[0].length);
  if (match[2] === 'root') return path.posix.normalize(`/${rest}`);
  if (match[1] === 'self' || match[1] === 'thread-self') return path.posix.join(cwd, rest);
  return null;
}

export interface SystemPath {
  absolute: string;
  /** False when part of the path is only known at run time (`~-`, another process's cwd). */
  resolved: boolean;
}

/** Resolves a word the way the shell and the kernel would, without touching the file system. */
export function resolveSystemPath(word: string, place: PathPlace): SystemPath {
  const tilde = expandTilde(word, place);
  const absolute = resolvePath(tilde.text, place.cwd, place.home);
  if (!absolute.startsWith('/')) return { absolute, resolved: tilde.resolved };
  const proc = throughProc(absolute, place.cwd);
  return proc === null ? { absolute, resolved: false } : { absolute: proc, resolved: tilde.resolved };
}

// A Windows profile seen from WSL (/mnt/c/Users/<name>) or Git Bash (/c/Users/<name>) is a home folder too.
const HOME_FOLDER = /^(\/home\/[^/]+|(?:\/mnt)?(?:\/[a-z])?\/Users\/[^/]+|\/root)(?=\/|$)/;

/** The home folder a path lies in, whoever's it is (/home/<name>, /Users/<name>, /root, /mnt/c/Users/<name>), or null. */
export function homeFolderOf(absolute: string): string | null {
  return HOME_FOLDER.exec(absolute)?.[1] ?? null;
}
