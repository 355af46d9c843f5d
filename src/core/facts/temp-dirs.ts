import { tmpdir } from 'node:os';
import { isInside, isWindowsForm, resolvePath } from '../shell/paths';
import { trimEndChars } from '../text/scan';

/** Scratch folders an agent may write to and clean up: /tmp, /var/tmp and the OS temp folder. */
export function tempDirs(): string[] {
  const dirs = ['/tmp', '/var/tmp', '/private/tmp', '/dev/shm'];
  const os = tmpdir();
  if (os && !dirs.includes(os)) dirs.push(os);
  return dirs;
}

/** Inside `root` and not `root` itself. */
function strictlyBelow(abs: string, root: string): boolean {
  return isInside(abs, root) && trimEndChars(abs, '\\/') !== trimEndChars(root, '\\/');
}

/**
 * Whether the home folder is at stake in `abs`: the home itself, a folder inside it, or a folder
 * holding it (/tmp when HOME is /tmp/h). A home in a temp folder is still the person's home.
 */
export function touchesHome(abs: string, home: string): boolean {
  return home !== '' && (isInside(abs, home) || isInside(home, abs));
}

/**
 * Whether a path lies in one of the allowed folders (temp folders when `withTemp`). The temp
 * exemption never covers the home folder, what it holds or what holds it.
 */
export function inAllowedDirs(abs: string, allowed: readonly string[], home: string, withTemp: boolean): boolean {
  const temp = withTemp && !touchesHome(abs, home) ? tempDirs() : [];
  const roots = [...allowed.map((p) => resolvePath(p, '/', home)), ...temp];
  // The temp folder itself is not scratch space to wipe; only what lies below it.
  return roots.some((root) => strictlyBelow(abs, root));
}

/** A Windows profile's Downloads folder, from Windows or through WSL's drive mounts. */
const WINDOWS_DOWNLOADS = /^(?:[A-Za-z]:|\/mnt\/[a-z])[\\/]Users[\\/][^\\/]+[\\/]Downloads[\\/]./i;

/**
 * Whether a path lies below a downloads folder (the home's, or a Windows profile's seen from WSL):
 * what a browser saved there came from outside, and nobody here has read it. A project unpacked there
 * is the person's own work.
 */
export function inDownloads(abs: string, projectRoot: string, home: string): boolean {
  if (isInside(abs, projectRoot)) return false;
  if (WINDOWS_DOWNLOADS.test(abs)) return true;
  return home !== '' && strictlyBelow(abs, resolvePath('Downloads', home, home));
}

/** The person's cache folders: ~/.cache, and macOS's caches and Xcode's build products. */
const USER_CACHES = ['.cache', 'Library/Caches', 'Library/Developer/Xcode/DerivedData'];

/**
 * Whether a path lies below one of the person's cache folders: what tools keep there they fetch or
 * build again, so deleting it is housekeeping. Writing there is not: some tools run what they cached.
 */
export function inUserCache(abs: string, home: string): boolean {
  return home !== '' && USER_CACHES.some((folder) => strictlyBelow(abs, resolvePath(folder, home, home)));
}

/**
 * Whether a path lies below a temp folder and outside the project and the home (a project or home
 * that itself lies in a temp folder is not scratch space).
 */
export function inScratch(abs: string, projectRoot: string, home: string): boolean {
  if (isInside(abs, projectRoot)) return false;
  // A Windows profile keeps its temporary folder inside the home (%TEMP%).
  if (isWindowsForm(home) && strictlyBelow(abs, resolvePath('AppData/Local/Temp', home, home))) return true;
  return !touchesHome(abs, home) && tempDirs().some((root) => strictlyBelow(abs, root));
}

/**
 * Whether a path lies in a hidden folder or file below one of the person's cache folders
 * (~/.cache/.ci/run.sh), or is a file loose at a cache folder's top (~/.cache/hook.js): tools keep what
 * they cache in a folder named for them, so a script in neither place is one nobody looks for.
 */
export function inUnownedCacheEntry(abs: string, home: string): boolean {
  if (!inUserCache(abs, home)) return false;
  const cache = USER_CACHES.map((folder) => resolvePath(folder, home, home)).find((root) => isInside(abs, root));
  if (cache === undefined) return false;
  const parts = abs.slice(cache.length).split('/').filter(Boolean);
  return (
    (parts.length === 1 && parts[0]!.includes('.')) ||
    parts.some((part) => part.startsWith('.') && part !== '.' && part !== '..')
  );
}
