// Authenticates what Warden reads back from its own state folder: endpoint
// records and the endpoint's replies to the command bridge. The agent runs as
// the same user and can write into the state folder, so a record or a reply
// is trusted only under a MAC made with a key that self-protection keeps the
// agent from reading. Only node:crypto and node:fs: the bridge loads this on
// its forwarding path, which must start as fast as Node itself.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const ENDPOINT_KEY_FILE = 'endpoint-key';
/**
 * Header the bridge sends with a fresh random nonce; the endpoint answers with the reply MAC.
 * @public the wire contract between the bridge and the endpoint
 */
export const BRIDGE_NONCE_HEADER = 'x-warden-bridge-nonce';
/** @public the wire contract between the bridge and the endpoint */
export const REPLY_MAC_HEADER = 'x-warden-reply-mac';

/** The key, created (exclusively, so racing processes agree) on first use. */
export function readOrCreateEndpointKey(stateDir: string): Buffer {
  const path = join(stateDir, ENDPOINT_KEY_FILE);
  const existing = readEndpointKey(stateDir);
  if (existing) return existing;
  const key = randomBytes(32).toString('hex');
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, key + '\n');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const written = readEndpointKey(stateDir);
  if (!written) throw new Error(`${path} holds no valid endpoint key (64 hex characters expected)`);
  return written;
}

/** The key, or undefined when it is missing or malformed (then nothing verifies). */
export function readEndpointKey(stateDir: string): Buffer | undefined {
  try {
    const text = readFileSync(join(stateDir, ENDPOINT_KEY_FILE), 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined;
  } catch {
    return undefined;
  }
}

// Records are flat objects of strings, numbers, booleans and null; sorting the
// keys makes the MAC independent of how a writer ordered them.
function canonicalRecordText(record: Record<string, unknown>): string {
  const keys = Object.keys(record)
    .filter((key) => key !== 'mac')
    .sort();
  return JSON.stringify(keys.map((key) => [key, record[key]]));
}

function hmacHex(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length || !/^[0-9a-f]+$/.test(a)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** The record with its `mac` field set. */
export function signRecord<T extends Record<string, unknown>>(key: Buffer, record: T): T & { mac: string } {
  return { ...record, mac: hmacHex(key, 'record\n' + canonicalRecordText(record)) };
}

export function verifyRecord(key: Buffer, record: Record<string, unknown>): boolean {
  return typeof record.mac === 'string' && sameHex(record.mac, hmacHex(key, 'record\n' + canonicalRecordText(record)));
}

export function newBridgeNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The MAC of one reply body, bound to the bridge's nonce so an old reply cannot be replayed. */
export function replyMac(key: Buffer, nonce: string, body: string): string {
  return hmacHex(key, `reply\n${nonce}\n${body}`);
}

export function verifyReply(key: Buffer, nonce: string, body: string, mac: string | undefined): boolean {
  return typeof mac === 'string' && sameHex(mac, replyMac(key, nonce, body));
}

/** Endpoint URLs are accepted only on the loopback interface. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(parsed.hostname);
  } catch {
    return false;
  }
}
