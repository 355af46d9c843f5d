import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

// The expected side is the same few tokens on every request: its digest is kept rather than made again.
let lastExpected: { token: string; digest: Buffer } | undefined;

/** Constant-time token comparison (hashing first makes the lengths equal). */
export function tokensEqual(given: string, expected: string): boolean {
  if (lastExpected?.token !== expected) lastExpected = { token: expected, digest: sha256(expected) };
  return timingSafeEqual(sha256(given), lastExpected.digest) && given.length === expected.length;
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** DNS rebinding guard: the Host header must name the loopback address we listen on. */
export function isLoopbackHost(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  if (!host) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
  if (!match) return false;
  const name = match[1]!;
  const hostPort = match[2] ? Number(match[2]) : 80;
  return LOOPBACK_HOSTS.has(name) && hostPort === port;
}
