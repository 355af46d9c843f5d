// Which files an agent session wrote or changed, kept in the state folder so that a restarted
// server, `check` and the bridge's in-process fallback know them too. A file the session wrote
// and then runs is read and screened like inline code (see project-runs.ts).
import { createHash } from 'node:crypto';
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFile, writePrivateFileInBackground } from '../state';

/** Per session; the oldest entries go first past this, which only makes the rule stricter to reach. */
export const MAX_SESSION_WRITES = 1000;
const MAX_PATH_CHARS = 4096;

const storeFile = z.object({ paths: z.array(z.string().max(MAX_PATH_CHARS)).max(MAX_SESSION_WRITES) });

export interface SessionWrites {
  /** Absolute paths written so far in this session, oldest first. */
  list(): readonly string[];
  has(absolute: string): boolean;
}

export const NO_SESSION_WRITES: SessionWrites = { list: () => [], has: () => false };

/** Sessions whose store a long-running host keeps parsed; past this the least recent is read again. */
const KEPT_SESSIONS = 256;

interface Kept {
  /** The file as it was when read (a write replaces the file, so its inode changes). */
  stamp: string;
  writes: SessionWrites;
}

/** The file's identity and state, or 'none' when there is no file. */
function stampOf(file: string): string {
  const stat = statSync(file, { throwIfNoEntry: false, bigint: true });
  return stat ? stampOfStats(stat) : 'none';
}

function stampOfStats(stat: BigIntStats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

export interface SessionWriteStoreOptions {
  /**
   * Long-running hosts write the store off the event loop: replacing a file waits for the disk (ext4
   * flushes the data of a file renamed over another), milliseconds that would hold up every other
   * call. This process reads its own writes from memory until they are on disk; a write that fails
   * is reported here. One-shot commands write before they return (they exit right after).
   */
  background?: { onError: (message: string) => void };
}

export class SessionWriteStore {
  // Every call of a session reads its store: kept parsed, and read again only when the file changed
  // (another process of this user, a bridge fallback, wrote it), which one stat tells.
  private readonly kept = new Map<string, Kept>();
  /** Background writes not yet on disk, newest per session: what this process reads meanwhile. */
  private readonly unwritten = new Map<string, SessionWrites>();
  /** Per session, the background write on its way to disk: one at a time, so the newest lands last. */
  private readonly writing = new Map<string, Promise<void>>();
  /** Per session, paths recorded while a write was on its way: only the newest is written after it. */
  private readonly queued = new Map<string, string[]>();

  constructor(
    private readonly stateDir: string,
    private readonly opts: SessionWriteStoreOptions = {},
  ) {}

  /** Resolves once every background write so far is on disk (or has failed and been reported). */
  async flush(): Promise<void> {
    while (this.writing.size) await Promise.all([...this.writing.values()]);
  }

  /** The newest session's file name: calls come in runs from one session, and each asks for it. */
  private lastFile: { sessionKey: string; file: string } | undefined;

  private fileFor(sessionKey: string): string {
    if (this.lastFile?.sessionKey === sessionKey) return this.lastFile.file;
    const name = createHash('sha256').update(sessionKey).digest('hex').slice(0, 32);
    const file = join(this.stateDir, 'sessions', `${name}.json`);
    this.lastFile = { sessionKey, file };
    return file;
  }

  /** The session's written files; an unreadable or malformed store reads as empty. */
  load(sessionKey: string): SessionWrites {
    const unwritten = this.unwritten.get(sessionKey);
    if (unwritten) return unwritten;
    const file = this.fileFor(sessionKey);
    let stamp: string;
    try {
      stamp = stampOf(file);
    } catch {
      return readStore(file);
    }
    const kept = this.kept.get(sessionKey);
    if (kept?.stamp === stamp) {
      this.keep(sessionKey, kept);
      return kept.writes;
    }
    const writes = stamp === 'none' ? NO_SESSION_WRITES : readStore(file);
    this.keep(sessionKey, { stamp, writes });
    return writes;
  }

  private keep(sessionKey: string, kept: Kept): void {
    this.kept.delete(sessionKey);
    this.kept.set(sessionKey, kept);
    if (this.kept.size > KEPT_SESSIONS) this.kept.delete(this.kept.keys().next().value as string);
  }

  /** Adds paths (deduplicated, bounded); returns whether anything changed. */
  record(sessionKey: string, written: readonly string[]): boolean {
    const fresh = written.filter((p) => p !== '' && p.length <= MAX_PATH_CHARS);
    if (!fresh.length) return false;
    const known = this.load(sessionKey);
    const current = known.list();
    // A file written again (an agent edits the same files all day) changes nothing the list is read
    // for, so the store is not rewritten; only in a full list is it moved last, to not be the next to go.
    if (current.length < MAX_SESSION_WRITES && fresh.every((p) => known.has(p))) return false;
    const kept = current.filter((p) => !fresh.includes(p));
    const next = [...kept, ...new Set(fresh)].slice(-MAX_SESSION_WRITES);
    if (next.length === current.length && next.every((p, i) => p === current[i])) return false;
    ensurePrivateDir(join(this.stateDir, 'sessions'));
    // Read back on the next load once written: what is on disk is what counts, whoever wrote it last.
    this.kept.delete(sessionKey);
    if (this.opts.background) this.writeInBackground(sessionKey, next, this.opts.background.onError);
    else writePrivateFile(this.fileFor(sessionKey), JSON.stringify({ paths: next }));
    return true;
  }

  private writeInBackground(sessionKey: string, paths: string[], onError: (message: string) => void): void {
    this.unwritten.set(sessionKey, writesOf(paths));
    // A burst of writes from one session puts the newest list on disk once, not every list in turn.
    if (this.writing.has(sessionKey)) this.queued.set(sessionKey, paths);
    else this.startWrite(sessionKey, paths, onError);
  }

  private startWrite(sessionKey: string, paths: string[], onError: (message: string) => void): void {
    const writes = this.unwritten.get(sessionKey)!;
    const file = this.fileFor(sessionKey);
    const done: Promise<void> = writePrivateFileInBackground(file, JSON.stringify({ paths }))
      .then((written) => {
        // Kept as written: the next load finds it by a stat rather than reading and parsing it again.
        this.keep(sessionKey, { stamp: stampOfStats(written), writes });
      })
      .catch((err: Error) => {
        this.kept.delete(sessionKey);
        onError(`could not record this session's written files: ${err.message}`);
      })
      .finally(() => {
        this.writing.delete(sessionKey);
        const next = this.queued.get(sessionKey);
        this.queued.delete(sessionKey);
        if (next) this.startWrite(sessionKey, next, onError);
        else if (this.unwritten.get(sessionKey) === writes) this.unwritten.delete(sessionKey);
      });
    this.writing.set(sessionKey, done);
  }
}

function writesOf(paths: readonly string[]): SessionWrites {
  const set = new Set(paths);
  return { list: () => paths, has: (p) => set.has(p) };
}

/** The store's paths; an unreadable or malformed file reads as empty. */
function readStore(file: string): SessionWrites {
  try {
    const parsed = storeFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return writesOf(parsed.success ? parsed.data.paths : []);
  } catch {
    return NO_SESSION_WRITES;
  }
}
