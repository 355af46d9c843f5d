import {
  closeSync,
  existsSync,
  fstatSync,
  fsync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createHmac } from 'node:crypto';
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../state';
import { DEFAULT_INDEX_LIMIT, LogIndex, type LogLocation } from './logIndex';

// Append-only JSONL. Each line goes out in one write() on an O_APPEND
// descriptor, so lines from two processes never interleave. Rotation is by
// size, under an exclusive lock file, and a writer whose file was rotated away
// reopens the path before its next line.

export interface ActivityLogOptions {
  path: string;
  /** Key for the keyed digest the log keeps instead of a plain one. */
  key: Buffer;
  maxBytes: number;
  keep: number;
  onWarning?: (message: string) => void;
  /** How many of the newest record lines the index locates (default 10,000). */
  indexLimit?: number;
}

const FSYNC_DELAY_MS = 1000;
/** Rows kept in memory while the log cannot be written; past this, calls fail closed rather than lose a row. */
export const MAX_HELD_ROWS = 10_000;
const MAX_HELD_BYTES = 64 * 1024 * 1024;
const RETRY_MS = 2000;

/** The log cannot be written and its in-memory bound is reached: the caller must fail closed. */
export class LogFullError extends Error {}
const LOCK_STALE_MS = 10_000;
/** How many unchanged looks, this far apart, make a tail that looks torn really torn. */
const TORN_TAIL_CHECKS = 3;
const TORN_TAIL_CHECK_MS = 2;
const TORN_TAIL_MAX_LOOKS = 50;

export class ActivityLog {
  private fd: number | undefined;
  private ino: number | undefined;
  private tornTail = false;
  private fsyncTimer: NodeJS.Timeout | undefined;
  /** Lines not yet written because writing failed, oldest first, with the record id each carries. */
  private held: { line: string; id: string | undefined }[] = [];
  private heldBytes = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private failure: string | undefined;

  /** Where the newest record lines are, so a host keeps row summaries only and reads a record back by id. */
  readonly index: LogIndex;

  constructor(private readonly opts: ActivityLogOptions & { maxHeldRows?: number }) {
    ensurePrivateDir(dirname(opts.path));
    this.index = new LogIndex(() => this.files(), opts.indexLimit ?? DEFAULT_INDEX_LIMIT);
  }

  /** The live file, then its rotations, newest first. */
  files(): string[] {
    const files = [this.opts.path];
    for (let i = 1; i <= this.opts.keep; i++) files.push(rotatedName(this.opts.path, i));
    return files;
  }

  get path(): string {
    return this.opts.path;
  }

  /** The private key behind keyed digests (also used for the redaction allow list). */
  get key(): Buffer {
    return this.opts.key;
  }

  /** The log never holds a plain digest of unredacted arguments: a short secret inside could be guessed offline. */
  keyedDigest(plainDigest: string | null): string | null {
    if (plainDigest === null) return null;
    return 'hmac-sha256:' + createHmac('sha256', this.opts.key).update(plainDigest).digest('hex');
  }

  /**
   * Appends one line synchronously: the caller replies only after this returns. When the
   * file cannot be written (folder unwritable, disk full) the line is held in memory, the
   * failure is reported once, and held lines go out first once writing works again. Past
   * the bound it throws LogFullError, so the call fails closed instead of losing its row.
   */
  append(entry: object): void {
    const line = JSON.stringify(entry) + '\n';
    const id = recordIdOf(entry);
    if (this.held.length === 0 || this.flushHeld()) {
      try {
        this.written(id, this.writeLine(line));
        return;
      } catch (err) {
        this.failed(err);
      }
    }
    this.hold(line, id);
  }

  private written(id: string | undefined, location: LogLocation): void {
    if (id !== undefined) this.index.add(id, location);
  }

  /** Rows waiting in memory for the log to be writable again. */
  get heldRows(): number {
    return this.held.length;
  }

  private hold(line: string, id: string | undefined): void {
    const bytes = Buffer.byteLength(line);
    if (this.held.length >= (this.opts.maxHeldRows ?? MAX_HELD_ROWS) || this.heldBytes + bytes > MAX_HELD_BYTES)
      throw new LogFullError(
        `the activity log ${this.opts.path} cannot be written (${this.failure ?? 'unknown error'}) and ${this.held.length} rows already wait in memory; refusing the call rather than losing its row`,
      );
    this.held.push({ line, id });
    this.heldBytes += bytes;
    if (!this.retryTimer) {
      this.retryTimer = setInterval(() => this.flushHeld(), RETRY_MS);
      this.retryTimer.unref();
    }
  }

  /** Writes the held lines in order; true when none are left. */
  private flushHeld(): boolean {
    while (this.held.length) {
      const first = this.held[0]!;
      try {
        this.written(first.id, this.writeLine(first.line));
      } catch (err) {
        this.failed(err);
        return false;
      }
      this.held.shift();
      this.heldBytes -= Buffer.byteLength(first.line);
    }
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    if (this.failure !== undefined) {
      this.opts.onWarning?.(`the activity log ${this.opts.path} is writable again; every held row was written`);
      this.failure = undefined;
    }
    return true;
  }

  private failed(err: unknown): void {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    // A write that failed may have left the descriptor unusable: reopen next time.
    this.closeFile();
    if (this.failure !== undefined) return;
    this.failure = reason;
    this.opts.onWarning?.(
      `the activity log ${this.opts.path} cannot be written (${reason}); verdicts are still given and rows are held in memory (up to ${this.opts.maxHeldRows ?? MAX_HELD_ROWS}) until it can`,
    );
  }

  /** Writes one line; returns where it went (exact unless another process appended at the same moment). */
  private writeLine(line: string): LogLocation {
    const bytes = Buffer.byteLength(line);
    let seen = statOf(this.opts.path);
    if (this.rotateIfNeeded(bytes, seen?.size)) seen = statOf(this.opts.path);
    const { fd, size } = this.currentFd(seen);
    // A line torn by a crashed writer is ended first, in the same write, so
    // this line is not glued onto it (the reader then skips the torn one).
    const offset = size + (this.tornTail ? 1 : 0);
    writeSync(fd, this.tornTail ? '\n' + line : line);
    this.tornTail = false;
    this.scheduleFsync();
    return { ino: this.ino!, offset, length: bytes - 1 };
  }

  close(): void {
    if (this.held.length && !this.flushHeld())
      this.opts.onWarning?.(
        `${this.held.length} held rows could not be written to ${this.opts.path} before closing (${this.failure ?? 'unknown error'})`,
      );
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    this.closeFile();
  }

  private closeFile(): void {
    if (this.fsyncTimer) clearTimeout(this.fsyncTimer);
    this.fsyncTimer = undefined;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        /* already closed */
      }
    }
    this.fd = undefined;
  }

  /** The descriptor of the file now at the path (reopened after a rotation), and that file's size before this line. */
  private currentFd(seen: { ino: number; size: number } | undefined): { fd: number; size: number } {
    if (this.fd !== undefined && seen !== undefined && seen.ino === this.ino) return { fd: this.fd, size: seen.size };
    this.closeFile();
    // a+: appends stay atomic (O_APPEND) and the tail can be read back.
    const fd = openSync(this.opts.path, 'a+', 0o600);
    this.fd = fd;
    const stat = fstatSync(fd);
    this.ino = stat.ino;
    this.tornTail = this.endsMidLine(fd, stat.size);
    return { fd, size: stat.size };
  }

  // Checked when the file is opened, not before every line. Another
  // process's write can be seen half done (the kernel grows the file a page
  // at a time), and ending that "torn" line would leave a blank line behind;
  // so a tail that looks torn counts as torn only once it has stayed the same
  // for a few milliseconds: a crashed writer's tail never changes, a live
  // writer's is finished within microseconds.
  private endsMidLine(fd: number, size: number): boolean {
    let observed = size;
    let stableChecks = 0;
    for (let looks = 0; stableChecks < TORN_TAIL_CHECKS && looks < TORN_TAIL_MAX_LOOKS; looks++) {
      if (observed === 0 || lastByteOf(fd, observed) === 0x0a) return false;
      sleepSync(TORN_TAIL_CHECK_MS);
      const now = fstatSync(fd).size;
      stableChecks = now === observed ? stableChecks + 1 : 0;
      observed = now;
    }
    return true; // still mid-line after every look: end it rather than glue a line onto it
  }

  private scheduleFsync(): void {
    if (this.fsyncTimer) return;
    this.fsyncTimer = setTimeout(() => {
      this.fsyncTimer = undefined;
      if (this.fd !== undefined) fsync(this.fd, () => undefined);
    }, FSYNC_DELAY_MS);
    this.fsyncTimer.unref();
  }

  /** Rotates when this line would take the file past maxBytes; true when this process rotated. */
  private rotateIfNeeded(incoming: number, size: number | undefined): boolean {
    // An empty file is never rotated: one line over maxBytes would only push history out.
    if (size === undefined || size === 0 || size + incoming <= this.opts.maxBytes) return false;
    const lock = `${this.opts.path}.lock`;
    let lockFd: number;
    try {
      lockFd = openSync(lock, 'wx', 0o600);
    } catch {
      this.breakStaleLock(lock);
      return false; // another process is rotating; appending to the old file loses nothing
    }
    try {
      // Re-check under the lock: another process may have rotated already
      // (and the path may not even exist again yet).
      const current = sizeOf(this.opts.path);
      if (current === undefined || current === 0 || current + incoming <= this.opts.maxBytes) return false;
      for (let i = this.opts.keep - 1; i >= 1; i--) {
        const from = rotatedName(this.opts.path, i);
        if (existsSync(from)) renameSync(from, rotatedName(this.opts.path, i + 1));
      }
      renameSync(this.opts.path, rotatedName(this.opts.path, 1));
      const oldest = rotatedName(this.opts.path, this.opts.keep + 1);
      if (existsSync(oldest)) rmSync(oldest);
      return true;
    } finally {
      closeSync(lockFd);
      rmSync(lock, { force: true });
    }
  }

  private breakStaleLock(lock: string): void {
    try {
      if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
    } catch {
      /* gone already */
    }
  }
}

function lastByteOf(fd: number, size: number): number | undefined {
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0];
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function sizeOf(path: string): number | undefined {
  return statOf(path)?.size;
}

function statOf(path: string): { ino: number; size: number } | undefined {
  try {
    const { ino, size } = statSync(path);
    return { ino, size };
  } catch {
    return undefined;
  }
}

/** A record line's id: records are the lines a host reads back by id. */
function recordIdOf(entry: object): string | undefined {
  const { type, id } = entry as { type?: unknown; id?: unknown };
  return type === 'record' && typeof id === 'string' ? id : undefined;
}

export function rotatedName(path: string, index: number): string {
  return path.replace(/\.jsonl$/, '') + `.${index}.jsonl`;
}

export interface ReadLogResult {
  entries: Record<string, unknown>[];
  warnings: string[];
}

/** Reads a log file; a torn or corrupt line is skipped with a warning naming its line number. */
export function readLogFile(path: string): ReadLogResult {
  const warnings: string[] = [];
  const entries: Record<string, unknown>[] = [];
  if (!existsSync(path)) return { entries, warnings };
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        entries.push(value as Record<string, unknown>);
      else warnings.push(`${path}:${index + 1}: not a JSON object; skipped`);
    } catch {
      const torn = index === lines.length - 1 || (index === lines.length - 2 && lines[lines.length - 1] === '');
      warnings.push(
        `${path}:${index + 1}: ${torn ? 'a truncated last line (a crash mid-write?)' : 'a corrupt line'}; skipped`,
      );
    }
  });
  return { entries, warnings };
}
