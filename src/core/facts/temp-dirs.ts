import { tmpdir } from 'node:os';
import { isInside, resolvePath } from '../shell/paths';
import { trimEndChars } from '../text/scan';

/** Scratch folders an agent may write to and clean up: /tmp, /var/tmp and the OS temp folder. */
export function tempDirs(): string[] {
  const dirs = ['/tmp', '/var/tmp', '/private/tmp', '/dev/shm'];
  const os = tmpdir();
  if (os && !dirs.includes(os)) dirs.push(os);
  return dirs;
}

/** Whether a path lies in one of the allowed folders (temp folders when `withTemp`). */
export function inAllowedDirs(abs: string, allowed: readonly string[], home: string, withTemp: boolean): boolean {
  const roots = [...allowed.map((p) => resolvePath(p, '/', home)), ...(withTemp ? tempDirs() : [])];
  // The temp folder itself is not scratch space to wipe; only what lies below it.
  return roots.some((root) => isInside(abs, root) && trimEndChars(abs, '\\/') !== trimEndChars(root, '\\/'));
}
