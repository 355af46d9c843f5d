import { readFileSync, writeSync } from 'node:fs';
import type { ProcessReply } from '../core/agents/lastResort';

/** Reads all of stdin (the hook input). */
export function readAllStdin(): string {
  return readFileSync(0, 'utf8');
}

/**
 * Writes all of a text to a file descriptor synchronously: creating
 * process.stdout (a stream over a pipe) costs the bridge more than the write.
 * A non-blocking pipe that is full says EAGAIN; then the write is retried.
 */
function writeAll(fd: number, text: string): void {
  let data = Buffer.from(text, 'utf8');
  while (data.length > 0) {
    try {
      data = data.subarray(writeSync(fd, data));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    }
  }
}

/** Writes a reply and sets the exit code; the writes are complete when this returns. */
export function emit(reply: ProcessReply): void {
  if (reply.stderr) writeAll(2, reply.stderr);
  if (reply.stdout) writeAll(1, reply.stdout);
  process.exitCode = reply.code;
}

export function bridgeWarn(message: string): void {
  writeAll(2, `agent-warden: ${message}\n`);
}
