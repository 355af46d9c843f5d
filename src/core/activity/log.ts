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
}

const FSYNC_DELAY_MS = 1000;
const LOCK_STALE_MS = 10_000;

export class ActivityLog {
  private fd: number | undefined;
  private ino: number | undefined;
  private tornTail = false;
  private fsyncTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ActivityLogOptions) {
    ensurePrivateDir(dirname(opts.path));
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

  /** Appends one line synchronously: the caller replies only after this returns. */
  append(entry: object): void {
    const line = JSON.stringify(entry) + '\n';
    this.rotateIfNeeded(Buffer.byteLength(line));
    const fd = this.currentFd();
    // A line torn by a crashed writer is ended first, in the same write, so
    // this line is not glued onto it (the reader then skips the torn one).
    writeSync(fd, this.tornTail ? '\n' + line : line);
    this.tornTail = false;
    this.scheduleFsync();
  }

  close(): void {
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

  private currentFd(): number {
    let pathIno: number | undefined;
    try {
      pathIno = statSync(this.opts.path).ino;
    } catch {
      pathIno = undefined;
    }
    if (this.fd !== undefined && pathIno === this.ino) return this.fd;
    this.close();
    // a+: appends stay atomic (O_APPEND) and the tail can be read back.
    const fd = openSync(this.opts.path, 'a+', 0o600);
    this.fd = fd;
    this.ino = fstatSync(fd).ino;
    this.tornTail = this.endsMidLine(fd);
    return fd;
  }

  // Checked when the file is opened, not before every line: while other
  // writers are mid-write the tail can look torn for a moment, and a check
  // then would leave blank lines behind.
  private endsMidLine(fd: number): boolean {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  }

  private scheduleFsync(): void {
    if (this.fsyncTimer) return;
    this.fsyncTimer = setTimeout(() => {
      this.fsyncTimer = undefined;
      if (this.fd !== undefined) fsync(this.fd, () => undefined);
    }, FSYNC_DELAY_MS);
    this.fsyncTimer.unref();
  }

  private rotateIfNeeded(incoming: number): void {
    const size = sizeOf(this.opts.path);
    // An empty file is never rotated: one line over maxBytes would only push history out.
    if (size === undefined || size === 0 || size + incoming <= this.opts.maxBytes) return;
    const lock = `${this.opts.path}.lock`;
    let lockFd: number;
    try {
      lockFd = openSync(lock, 'wx', 0o600);
    } catch {
      this.breakStaleLock(lock);
      return; // another process is rotating; appending to the old file loses nothing
    }
    try {
      // Re-check under the lock: another process may have rotated already
      // (and the path may not even exist again yet).
      const current = sizeOf(this.opts.path);
      if (current === undefined || current === 0 || current + incoming <= this.opts.maxBytes) return;
      for (let i = this.opts.keep - 1; i >= 1; i--) {
        const from = rotatedName(this.opts.path, i);
        if (existsSync(from)) renameSync(from, rotatedName(this.opts.path, i + 1));
      }
      renameSync(this.opts.path, rotatedName(this.opts.path, 1));
      const oldest = rotatedName(this.opts.path, this.opts.keep + 1);
      if (existsSync(oldest)) rmSync(oldest);
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

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
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
