// Which files an agent session wrote or changed, kept in the state folder so that a restarted
// server, `check` and the bridge's in-process fallback know them too. A file the session wrote
// and then runs is read and screened like inline code (see project-runs.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFile } from '../state';

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

export class SessionWriteStore {
  constructor(private readonly stateDir: string) {}

  private fileFor(sessionKey: string): string {
    const name = createHash('sha256').update(sessionKey).digest('hex').slice(0, 32);
    return join(this.stateDir, 'sessions', `${name}.json`);
  }

  /** The session's written files; an unreadable or malformed store reads as empty. */
  load(sessionKey: string): SessionWrites {
    let paths: string[] = [];
    try {
      const parsed = storeFile.safeParse(JSON.parse(readFileSync(this.fileFor(sessionKey), 'utf8')));
      if (parsed.success) paths = parsed.data.paths;
    } catch {
      paths = [];
    }
    const set = new Set(paths);
    return { list: () => paths, has: (p) => set.has(p) };
  }

  /** Adds paths (deduplicated, bounded); returns whether anything changed. */
  record(sessionKey: string, written: readonly string[]): boolean {
    const fresh = written.filter((p) => p !== '' && p.length <= MAX_PATH_CHARS);
    if (!fresh.length) return false;
    const current = this.load(sessionKey).list();
    const kept = current.filter((p) => !fresh.includes(p));
    const next = [...kept, ...new Set(fresh)].slice(-MAX_SESSION_WRITES);
    if (next.length === current.length && next.every((p, i) => p === current[i])) return false;
    ensurePrivateDir(join(this.stateDir, 'sessions'));
    writePrivateFile(this.fileFor(sessionKey), JSON.stringify({ paths: next }));
    return true;
  }
}
