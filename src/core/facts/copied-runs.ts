// Files put in place by a copy, a move or a link: `cp /tmp/settings.gradle.kts .` writes a build script
// whose text no Write showed. What lands where a tool runs it later is judged by the text it brings, read
// from its source when that lies outside the project; a source that cannot be read is no text at all.
import path from 'node:path';
import type { SimpleCommand } from '../shell';
import { isInside, resolvePath } from '../shell/paths';
import { autoLoadedBy } from './auto-loaded';
import { copierOperands, isRemoteSpec } from './copiers';
import type { IoFacts } from './io';
import { runLaterShell } from './written-runs';

/** Pseudo-file systems: what they hold is the machine's state (or Warden's own environment), not a file's text. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

export interface CopiedRun {
  /** The source as the command names it: an absolute path, or `host:path` for a remote copy. */
  source: string;
  /** Whether its text can be read here: not a remote copy's, not a device's or the kernel's. */
  readable: boolean;
  /** Where it lands. */
  landed: string;
  /** Who runs the landed file by itself, when a tool does (a build, a test runner, git). */
  autoRunBy?: string;
}

/** A file whose text a tool runs later, as the name alone says: a build script, a hook, a test setup, code. */
function runsLater(file: string): boolean {
  return autoLoadedBy(file) !== undefined || runLaterShell(file, '') !== undefined;
}

/**
 * Each file a copier puts where it runs later, from a source outside the project. A destination that
 * names a folder gets the source's name; one that names neither shape is taken as a folder only when
 * the file system says it is one.
 */
export function copiedRuns(
  cmd: SimpleCommand,
  cwd: string,
  call: { projectRoot: string; home: string },
  io: IoFacts,
): CopiedRun[] {
  const operands = copierOperands(cmd);
  if (!operands) return [];
  const { sources, destination: folderWord, namedFolder } = operands;
  if (folderWord === undefined || sources.length === 0 || isRemoteSpec(folderWord)) return [];
  const dynamic = new Set(cmd.dynamicWords.map((i) => cmd.argv[i]));
  if (dynamic.has(folderWord)) return [];
  const destination = resolvePath(folderWord, cwd, call.home);
  const namesFolder = namedFolder || sources.length > 1 || /[/\\]$|(^|\/)\.\.?$/.test(folderWord);
  const found: CopiedRun[] = [];
  for (const word of sources) {
    if (dynamic.has(word) || /[*?[]/.test(word) || word.endsWith('/')) continue;
    const remote = isRemoteSpec(word);
    const source = remote ? word : resolvePath(word, cwd, call.home);
    if (source === '/dev/null' || (!remote && isInside(source, call.projectRoot))) continue;
    const readable = !remote && !SYSTEM_TREES.some((tree) => isInside(source, tree));
    const name = path.posix.basename(remote ? word.slice(word.indexOf(':') + 1) : source);
    const inFolder = path.posix.join(destination, name);
    const landed = namesFolder
      ? inFolder
      : runsLater(destination)
        ? destination
        : runsLater(inFolder) && io.listDir(destination) !== null
          ? inFolder
          : undefined;
    if (landed === undefined || landed === source || !runsLater(landed)) continue;
    const by = autoLoadedBy(landed);
    found.push({ source, readable, landed, ...(by !== undefined ? { autoRunBy: by } : {}) });
  }
  return found;
}
