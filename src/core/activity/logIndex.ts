import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { floats, Slots } from './slots';

// Where each recent record line sits in the activity log, so a host keeps only row summaries in
// memory and reads a call's whole record back when a person opens it. A location names the file by
// inode, not by name: rotation renames files (activity.jsonl becomes activity.1.jsonl) without
// moving their bytes, so a location stays true until its file is deleted.

export interface LogLocation {
  ino: number;
  offset: number;
  length: number;
}

export type LogReadBack = { found: true; entry: Record<string, unknown> } | { found: false; why: string };

/** The log lines the index was rebuilt from, oldest first: records and the approval lines after them. */
export type LogEntries = Record<string, unknown>[];

export const DEFAULT_INDEX_LIMIT = 10_000;
const GONE =
  'this call is no longer in the activity log: its file was rotated out (log.keep sets how many are kept) or its line was changed on disk';
const NEWLINE = 0x0a;

export class LogIndex {
  private readonly slots: Slots;
  private readonly inodes: ReturnType<typeof floats>;
  private readonly offsets: ReturnType<typeof floats>;
  private readonly lengths: ReturnType<typeof floats>;

  /** `files` lists the log's files newest first (the live file, then its rotations). */
  constructor(
    private readonly files: () => string[],
    private readonly limit = DEFAULT_INDEX_LIMIT,
  ) {
    this.slots = new Slots(limit);
    this.inodes = floats(limit);
    this.offsets = floats(limit);
    this.lengths = floats(limit);
  }

  get size(): number {
    return this.slots.size;
  }

  add(id: string, location: LogLocation): void {
    this.locate(this.slots.place(id), location);
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  private locate(slot: number, location: LogLocation): void {
    this.inodes.set(slot, location.ino);
    this.offsets.set(slot, location.offset);
    this.lengths.set(slot, location.length);
  }

  private locationOf(id: string): LogLocation | undefined {
    const slot = this.slots.get(id);
    if (slot === undefined) return undefined;
    return { ino: this.inodes.get(slot), offset: this.offsets.get(slot), length: this.lengths.get(slot) };
  }

  /**
   * A record's line read back from the log. The line at the remembered place is checked to be that
   * record (another process appending at the same moment can shift it); otherwise its file is searched.
   */
  read(id: string): LogReadBack {
    const location = this.locationOf(id);
    if (!location) return { found: false, why: 'this call is not among the newest rows the activity log index holds' };
    const path = this.files().find((file) => inodeOf(file) === location.ino);
    if (path === undefined) return { found: false, why: GONE };
    try {
      const atPlace = readRange(path, location.offset, location.length);
      const entry = recordLine(atPlace, id);
      if (entry) return { found: true, entry };
      const searched = searchFile(path, id);
      if (searched) {
        const slot = this.slots.get(id);
        if (slot !== undefined)
          this.locate(slot, { ino: location.ino, offset: searched.offset, length: searched.length });
        return { found: true, entry: searched.entry };
      }
    } catch (err) {
      return {
        found: false,
        why: `the activity log could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      };
    }
    // A deleted file's inode can be reused by a newer file: then the id is simply not in it.
    return { found: false, why: GONE };
  }

  /**
   * Rebuilds the index from the newest log files (on start), up to its limit of records, and returns
   * the lines read, oldest first, so the host can list those rows again. A line that does not parse is skipped.
   */
  rebuild(): LogEntries {
    this.slots.clear();
    const perFile: { entries: LogEntries; ids: [string, LogLocation][] }[] = [];
    let records = 0;
    for (const path of this.files()) {
      if (records >= this.limit) break;
      let bytes: Buffer;
      let ino: number;
      try {
        ino = statSync(path).ino;
        bytes = readFileSync(path);
      } catch {
        continue;
      }
      const entries: LogEntries = [];
      const ids: [string, LogLocation][] = [];
      let start = 0;
      while (start < bytes.length) {
        let end = bytes.indexOf(NEWLINE, start);
        if (end < 0) end = bytes.length;
        const entry = parseLine(bytes.subarray(start, end));
        if (entry) {
          entries.push(entry);
          if (entry['type'] === 'record' && typeof entry['id'] === 'string')
            ids.push([entry['id'], { ino, offset: start, length: end - start }]);
        }
        start = end + 1;
      }
      perFile.push({ entries, ids });
      records += ids.length;
    }
    const entries: LogEntries = [];
    for (const file of perFile.reverse()) {
      for (const [id, location] of file.ids) this.add(id, location);
      entries.push(...file.entries);
    }
    // Only the lines of records still indexed, and the approval lines of those.
    return entries.filter((e) =>
      e['type'] === 'record' ? this.slots.has(e['id'] as string) : this.slots.has(e['recordId'] as string),
    );
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function readRange(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function parseLine(bytes: Buffer): Record<string, unknown> | undefined {
  if (bytes.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function recordLine(bytes: Buffer, id: string): Record<string, unknown> | undefined {
  const entry = parseLine(bytes);
  return entry && entry['type'] === 'record' && entry['id'] === id ? entry : undefined;
}

/** Finds the record line of `id` in a file (the remembered place was stale). */
function searchFile(
  path: string,
  id: string,
): { entry: Record<string, unknown>; offset: number; length: number } | undefined {
  const bytes = readFileSync(path);
  const needle = Buffer.from(`"id":${JSON.stringify(id)}`);
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + needle.length)) {
    const start = bytes.lastIndexOf(NEWLINE, at) + 1;
    let end = bytes.indexOf(NEWLINE, at);
    if (end < 0) end = bytes.length;
    const entry = recordLine(bytes.subarray(start, end), id);
    if (entry) return { entry, offset: start, length: end - start };
  }
  return undefined;
}
