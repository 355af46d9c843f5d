import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// The expected side is the same few tokens on every request: its bytes are kept rather than made again.
let lastExpected: { token: string; bytes: Buffer } | undefined;

/**
 * Constant-time token comparison. Only the length can differ in time, and every token Warden makes has
 * the same length, which is no secret; hashing both sides to equal lengths cost more than the rest of
 * the check.
 */
export function tokensEqual(given: string, expected: string): boolean {
  if (lastExpected?.token !== expected) lastExpected = { token: expected, bytes: Buffer.from(expected, 'utf8') };
  const givenBytes = Buffer.from(given, 'utf8');
  return givenBytes.length === lastExpected.bytes.length && timingSafeEqual(givenBytes, lastExpected.bytes);
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
