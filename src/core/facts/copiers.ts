// cp, mv, ln, install, rsync, scp and sftp: which words of theirs are sources and which the destination.
// Each program's own options decide it: `cp -i` asks before overwriting and `rsync -P` shows progress,
// where scp's -i names a key and its -P a port. Read with another program's table, the option swallowed
// the source as its value and the destination was read as a lone source, so the file written went unseen.
import path from 'node:path';
import type { SimpleCommand } from '../shell';
import { argsOf, optionValues, parseFlags } from './commands';

interface CopierOptions {
  /** Options that take the next word as their value (GNU's required arguments; optional ones need `=`). */
  short: readonly string[];
  long: readonly string[];
  /** Takes `-t FOLDER` / `--target-directory FOLDER` for its destination. */
  folderOption?: true;
}

const RSYNC_VALUES = {
  short: ['e', 'f', 'B', 'T', 'M'],
  long: [
    ...['rsh', 'filter', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'chmod', 'chown'],
    ...['backup-dir', 'suffix', 'temp-dir', 'partial-dir', 'compare-dest', 'copy-dest', 'link-dest'],
    ...['rsync-path', 'log-file', 'password-file', 'block-size', 'max-size', 'min-size', 'bwlimit', 'timeout'],
    ...['port', 'out-format', 'usermap', 'groupmap', 'iconv', 'max-delete', 'address', 'sockopts'],
  ],
};
const SCP_VALUES = { short: ['c', 'D', 'F', 'i', 'J', 'l', 'o', 'P', 'S', 'X'], long: [] };

const COPIER_OPTIONS: Readonly<Record<string, CopierOptions>> = {
  cp: {
    short: ['t', 'S'],
    long: ['target-directory', 'suffix', 'sparse', 'no-preserve'],
    folderOption: true,
  },
  mv: { short: ['t', 'S'], long: ['target-directory', 'suffix'], folderOption: true },
  ln: { short: ['t', 'S'], long: ['target-directory', 'suffix'], folderOption: true },
  install: {
    short: ['t', 'S', 'm', 'g', 'o'],
    long: ['target-directory', 'suffix', 'mode', 'group', 'owner', 'strip-program'],
    folderOption: true,
  },
  rsync: RSYNC_VALUES,
  scp: SCP_VALUES,
  sftp: SCP_VALUES,
};

/** `host:path`, `user@host:path` or an rsync/scp URL; a Windows drive (`C:\…`, `C:/…`) is a local path. */
export function isRemoteSpec(word: string): boolean {
  return (
    (/^[\w.-]+(?:@[\w.-]*)?:(?!\/\/)/.test(word) && !/^[A-Za-z]:[\\/]/.test(word)) ||
    /^(rsync|scp|sftp|ssh):\/\//.test(word)
  );
}

export interface CopierOperands {
  /** The words copied, moved or linked, as written (remote ones included). */
  sources: string[];
  /** The word it all goes to, as written; undefined when the command names none. */
  destination: string | undefined;
  /** The destination is a folder by the command's own words (`-t FOLDER`): each source lands in it by name. */
  namedFolder: boolean;
}

/** A copier's sources and destination, read with its own options; undefined for another program. */
export function copierOperands(cmd: SimpleCommand): CopierOperands | undefined {
  const options = Object.hasOwn(COPIER_OPTIONS, cmd.name) ? COPIER_OPTIONS[cmd.name] : undefined;
  if (!options) return undefined;
  const args = argsOf(cmd);
  const words = parseFlags(args, options.short, options.long).positionals;
  const folder = options.folderOption ? optionValues(args, ['t'], ['target-directory'])[0] : undefined;
  if (folder !== undefined) return { sources: words, destination: folder, namedFolder: true };
  // `ln -s /tmp/x` links it into the current folder under its own name.
  if (cmd.name === 'ln' && words.length === 1)
    return { sources: words, destination: path.posix.basename(words[0]!), namedFolder: false };
  return { sources: words.slice(0, -1), destination: words.at(-1), namedFolder: false };
}
