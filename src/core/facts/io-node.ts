// The real machine behind FactSource: the file system and the git binary.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, readdirSync, realpathSync } from 'node:fs';
import type { FactSource } from './io';

const GIT_TIMEOUT_MS = 3000;

// Opened without waiting and read only when a regular file: a call can name a FIFO or a device, which
// would block the evaluation or never end.
const READ_NOW = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function readHead(p: string, maxBytes: number): string {
  const fd = openSync(p, READ_NOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${p} is not a regular file`);
    // Sized to the file: a zero-filled buffer of the whole limit (256 KB for some readers) cost more than
    // the read. The proc file system reports no size, so its files get the limit.
    const want = stat.size > 0 ? Math.min(stat.size, maxBytes) : maxBytes;
    const buffer = Buffer.allocUnsafe(want);
    let length = 0;
    while (length < want) {
      const got = readSync(fd, buffer, length, want - length, length);
      if (got === 0) break;
      length += got;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export const nodeFactSource: FactSource = {
  realpath(p) {
    // Most paths a call names do not exist yet (a file it creates, the prefixes above it): asking
    // first spares the error realpath throws for each, which costs more than the answer.
    if (!existsSync(p)) return null;
    try {
      // The C library's realpath: one call, where node's own walks the path in JavaScript (half the time).
      return realpathSync.native(p);
    } catch {
      return null;
    }
  },
  exists: (p) => existsSync(p),
  readText(p, maxBytes) {
    // Most files a call's policies ask about do not exist (the file a Write creates): the error open
    // throws costs several times the question.
    if (!existsSync(p)) return null;
    try {
      return readHead(p, maxBytes);
    } catch {
      return null;
    }
  },
  listDir(p) {
    try {
      return readdirSync(p);
    } catch {
      return null;
    }
  },
  git(args, cwd) {
    try {
      return execFileSync('git', args, {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 4 * 1024 * 1024,
      });
    } catch {
      return null;
    }
  },
};
