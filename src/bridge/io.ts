import { readFileSync } from 'node:fs';
import type { ProcessReply } from '../core/agents/lastResort';

/** Reads all of stdin (the hook input). */
export function readAllStdin(): string {
  return readFileSync(0, 'utf8');
}

/** Writes a reply and sets the exit code, letting stdout drain before Node exits. */
export function emit(reply: ProcessReply): void {
  if (reply.stderr) process.stderr.write(reply.stderr);
  if (reply.stdout) process.stdout.write(reply.stdout);
  process.exitCode = reply.code;
}

export function bridgeWarn(message: string): void {
  process.stderr.write(`agent-warden: ${message}\n`);
}
