// Which files an agent session wrote or changed, kept in the state folder so that a restarted
// server, `check` and the bridge's in-process fallback know them too. A file the session wrote
// and then runs is read and screened like inline code (see project-runs.ts).
//
// A session's store is a file of lines, one JSON string (a path) each, only ever appended to: a
// written file costs one small append rather than rewriting the whole list, and an append neither
// waits for the disk (replacing a file does, on ext4) nor loses another process's lines (O_APPEND).
// The list is the paths in the order of their last line, the newest MAX_SESSION_WRITES of them.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  type BigIntStats,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFile } from '../state';

/** Per session; the oldest entries go first past this, which only makes the rule stricter to reach. */
export const MAX_SESSION_WRITES = 1000;
const MAX_PATH_CHARS = 4096;
/** Past this many lines the store is rewritten with its list alone (a file written again adds a line). */
const COMPACT_AFTER_LINES = 2 * MAX_SESSION_WRITES;

export interface SessionWrites {
  /** Absolute paths written so far in this session, oldest first. */
  list(): readonly string[];
  has(absolute: string): boolean;
}

export const NO_SESSION_WRITES: SessionWrites = { list: () => [], has: () => false };

/** A fixed list as SessionWrites (a store as it stood, an earlier release's store). */
export function fixedSessionWrites(paths: readonly string[]): SessionWrites {
  if (paths.length === 0) return NO_SESSION_WRITES;
  const set = new Set(paths);
  return { list: () => paths, has: (absolute) => set.has(absolute) };
}

/** A store nobody appended to for this long belongs to a session that is over: it is removed. */
export const SESSION_STORE_DAYS = 30;

/** Removes the stores (this release's and earlier ones') last written before `days` ago; what cannot be removed stays. */
function pruneOldStores(dir: string, days: number): void {
  const before = Date.now() - days * 24 * 60 * 60 * 1000;
  for (const name of readdirSync(dir)) {
    if (!/^[0-9a-f]{32}\.(lines|json)$/.test(name)) continue;
    const file = join(dir, name);
    try {
      if (statSync(file).mtimeMs < before) rmSync(file, { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: the next process tries again.
    }
  }
}

/** Sessions whose store a long-running host keeps parsed; past this the least recent is read again. */
const KEPT_SESSIONS = 256;

/** A store as read so far: the file it was read from, how far, and the list its lines make. */
class ReadStore implements SessionWrites {
  /** Paths in the order of their last line; a path read again is moved last. */
  private readonly paths = new Map<string, true>();
  private listed: readonly string[] | undefined;
  /** Lines read, to tell when the file is due to be compacted. */
  lines = 0;

  /** Bytes read and applied: always the end of a whole line. */
  offset = 0;
  /** The file's modification time when last read: a change that added nothing rewrote it in place. */
  mtimeNs = -1n;

  constructor(
    /** The inode read; another one means the file was replaced (compacted) and is read whole again. */
    readonly ino: bigint,
  ) {}

  apply(paths: readonly string[]): void {
    for (const path of paths) {
      this.paths.delete(path);
      this.paths.set(path, true);
      this.lines++;
    }
    const excess = this.paths.size - MAX_SESSION_WRITES;
    if (excess > 0) {
      const oldest = this.paths.keys();
      for (let i = 0; i < excess; i++) this.paths.delete(oldest.next().value as string);
    }
    this.listed = undefined;
  }

  list(): readonly string[] {
    this.listed ??= [...this.paths.keys()];
    return this.listed;
  }

  has(absolute: string): boolean {
    return this.paths.has(absolute);
  }
}

/** The paths of the whole lines in `text`; a line that is not a JSON string (torn, tampered) is skipped. */
function pathsOfLines(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const path: unknown = JSON.parse(line);
      if (typeof path === 'string' && path !== '' && path.length <= MAX_PATH_CHARS) paths.push(path);
    } catch {
      // Skipped: what a line cannot say, the list does without.
    }
  }
  return paths;
}

/**
 * The whole lines of `file` past `offset` (up to `size`), as text, and their length in bytes; undefined
 * when the byte before `offset` is no longer a line's end (the file was rewritten in place).
 */
function readWholeLinesFrom(file: string, offset: number, size: number): { text: string; bytes: number } | undefined {
  const from = offset === 0 ? 0 : offset - 1;
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(file, 'r');
  let read = 0;
  try {
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
  } finally {
    closeSync(fd);
  }
  const start = offset - from;
  if (start === 1 && buffer[0] !== 0x0a) return undefined;
  const end = buffer.lastIndexOf(0x0a, read - 1) + 1;
  if (end <= start) return { text: '', bytes: 0 };
  return { text: buffer.toString('utf8', start, end), bytes: end - start };
}

/** The store of an earlier release (one JSON object holding the list), read when a session has no other. */
const legacyStore = z.object({ paths: z.array(z.string().max(MAX_PATH_CHARS)).max(MAX_SESSION_WRITES) });

function readLegacyStore(file: string): string[] {
  try {
    const parsed = legacyStore.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.paths : [];
  } catch {
    return [];
  }
}

function statOf(file: string): BigIntStats | undefined {
  return statSync(file, { throwIfNoEntry: false, bigint: true });
}

export class SessionWriteStore {
  // Every call of a session reads its store: kept parsed, and only what was appended since is read
  // (one stat tells), whoever appended it: this process, another host of this user, a bridge fallback.
  private readonly kept = new Map<string, ReadStore>();
  private dirReady = false;

  constructor(private readonly stateDir: string) {}

  /** The newest session's file name: calls come in runs from one session, and each asks for it. */
  private lastFile: { sessionKey: string; name: string } | undefined;

  private fileFor(sessionKey: string, extension = '.lines'): string {
    if (this.lastFile?.sessionKey !== sessionKey)
      this.lastFile = { sessionKey, name: createHash('sha256').update(sessionKey).digest('hex').slice(0, 32) };
    return join(this.stateDir, 'sessions', `${this.lastFile.name}${extension}`);
  }

  /** The session's written files; an unreadable store reads as empty. */
  load(sessionKey: string): SessionWrites {
    try {
      return this.read(sessionKey) ?? this.legacy(sessionKey);
    } catch {
      this.kept.delete(sessionKey);
      return NO_SESSION_WRITES;
    }
  }

  /** The store brought up to date with the file, or undefined when there is no file. */
  private read(sessionKey: string): ReadStore | undefined {
    const file = this.fileFor(sessionKey);
    const stat = statOf(file);
    if (!stat) {
      this.kept.delete(sessionKey);
      return undefined;
    }
    const size = Number(stat.size);
    let store = this.kept.get(sessionKey);
    // Replaced (compacted), cut short, or rewritten in place by someone: read whole again.
    const rewritten = store && store.offset === size && store.mtimeNs !== stat.mtimeNs;
    if (!store || store.ino !== stat.ino || size < store.offset || rewritten) store = new ReadStore(stat.ino);
    if (size > store.offset) {
      let tail = readWholeLinesFrom(file, store.offset, size);
      if (!tail) {
        store = new ReadStore(stat.ino);
        tail = readWholeLinesFrom(file, 0, size)!;
      }
      store.apply(pathsOfLines(tail.text));
      store.offset += tail.bytes;
    }
    store.mtimeNs = stat.mtimeNs;
    this.keep(sessionKey, store);
    return store;
  }

  /** Earlier releases' stores, read once per session: no release writes them any more. */
  private readonly legacyKept = new Map<string, SessionWrites>();

  private legacy(sessionKey: string): SessionWrites {
    let writes = this.legacyKept.get(sessionKey);
    if (!writes) {
      writes = fixedSessionWrites(readLegacyStore(this.fileFor(sessionKey, '.json')));
      this.legacyKept.set(sessionKey, writes);
      if (this.legacyKept.size > KEPT_SESSIONS) this.legacyKept.delete(this.legacyKept.keys().next().value as string);
    }
    return writes;
  }

  private keep(sessionKey: string, store: ReadStore): void {
    this.kept.delete(sessionKey);
    this.kept.set(sessionKey, store);
    if (this.kept.size > KEPT_SESSIONS) this.kept.delete(this.kept.keys().next().value as string);
  }

  /** Adds paths (deduplicated, bounded); returns whether anything changed. Throws when the store cannot be written. */
  record(sessionKey: string, written: readonly string[]): boolean {
    const fresh = [...new Set(written.filter((p) => p !== '' && p.length <= MAX_PATH_CHARS))];
    if (!fresh.length) return false;
    const known = this.load(sessionKey);
    const current = known.list();
    // A file written again (an agent edits the same files all day) changes nothing the list is read
    // for, so nothing is appended; only in a full list is it moved last, to not be the next to go.
    if (current.length < MAX_SESSION_WRITES && fresh.every((p) => known.has(p))) return false;
    if (current.length > 0 && fresh.length === 1 && current[current.length - 1] === fresh[0]) return false;
    // A session an earlier release stored starts its new file with that list.
    const lines = [...(known instanceof ReadStore ? [] : current), ...fresh];
    this.append(sessionKey, lines.map((p) => JSON.stringify(p) + '\n').join(''));
    this.legacyKept.delete(sessionKey);
    const store = this.read(sessionKey);
    if (store && store.lines > COMPACT_AFTER_LINES) this.compact(sessionKey, store);
    return true;
  }

  private append(sessionKey: string, text: string): void {
    if (!this.dirReady) {
      // Once per process, on its first write: the folder keeps one file per session, and sessions end.
      ensurePrivateDir(join(this.stateDir, 'sessions'));
      pruneOldStores(join(this.stateDir, 'sessions'), SESSION_STORE_DAYS);
      this.dirReady = true;
    }
    try {
      appendFileSync(this.fileFor(sessionKey), text, { mode: 0o600 });
    } catch (err) {
      // The folder went since (removed by hand): made again, once.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      ensurePrivateDir(join(this.stateDir, 'sessions'));
      appendFileSync(this.fileFor(sessionKey), text, { mode: 0o600 });
    }
  }

  /**
   * Rewrites the store with its list alone, atomically. A line another process appends to the old
   * file meanwhile is lost, which only makes the rule it feeds a little easier to reach, once.
   */
  private compact(sessionKey: string, store: ReadStore): void {
    writePrivateFile(
      this.fileFor(sessionKey),
      store
        .list()
        .map((p) => JSON.stringify(p) + '\n')
        .join(''),
    );
    this.kept.delete(sessionKey);
  }
}

/** Stores a thread keeps, one per state folder: the host and an in-process runner share one. */
const KEPT_STORES = 8;
const storesOfThisThread = new Map<string, SessionWriteStore>();

/** This thread's store for `stateDir`, kept parsed across calls. */
export function sessionWriteStoreFor(stateDir: string): SessionWriteStore {
  let store = storesOfThisThread.get(stateDir);
  if (!store) {
    store = new SessionWriteStore(stateDir);
    storesOfThisThread.set(stateDir, store);
    if (storesOfThisThread.size > KEPT_STORES)
      storesOfThisThread.delete(storesOfThisThread.keys().next().value as string);
  }
  return store;
}
