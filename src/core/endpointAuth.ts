// Authenticates what Warden reads back from its own state folder: endpoint
// records and the endpoint's replies to the command bridge. The agent runs as
// the same user and can write into the state folder, so a record or a reply
// is trusted only under a MAC made with a key that self-protection keeps the
// agent from reading. The bridge loads this on its forwarding path, which must
// start as fast as Node itself: what it uses (verifying, the nonce) needs no
// node:crypto, which signing and key creation load.
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { equalInConstantTime, hmacSha256Hex } from './hmacSha256';

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

/** A MAC made by hmacHex, checked with the plain-JavaScript HMAC (the same function, without loading node:crypto). */
function macMatches(mac: string, key: Buffer, text: string): boolean {
  return /^[0-9a-f]{64}$/.test(mac) && equalInConstantTime(mac, hmacSha256Hex(key, text));
}

/** The record with its `mac` field set. */
export function signRecord<T extends Record<string, unknown>>(key: Buffer, record: T): T & { mac: string } {
  return { ...record, mac: hmacHex(key, 'record\n' + canonicalRecordText(record)) };
}

export function verifyRecord(key: Buffer, record: Record<string, unknown>): boolean {
  return typeof record.mac === 'string' && macMatches(record.mac, key, 'record\n' + canonicalRecordText(record));
}

/**
 * 128 random bits as hex. On POSIX systems they come from /dev/urandom, which
 * costs a read instead of loading node:crypto; elsewhere from node:crypto.
 */
export async function newBridgeNonce(): Promise<string> {
  const bytes = Buffer.alloc(16);
  if (process.platform !== 'win32') {
    try {
      const fd = openSync('/dev/urandom', 'r');
      try {
        if (readSync(fd, bytes, 0, 16, null) === 16) return bytes.toString('hex');
      } finally {
        closeSync(fd);
      }
    } catch {
      // No /dev/urandom (a sandbox, say): node:crypto below.
    }
  }
  // getBuiltinModule (Node 20.16+) also works where import() does not: in a bundle compiled through the code cache.
  const crypto =
    typeof process.getBuiltinModule === 'function'
      ? process.getBuiltinModule('node:crypto')
      : await import('node:crypto');
  return crypto.randomBytes(16).toString('hex');
}

const replyMacText = (nonce: string, body: string): string => `reply\n${nonce}\n${body}`;

/** The MAC of one reply body, bound to the bridge's nonce so an old reply cannot be replayed. */
export function replyMac(key: Buffer, nonce: string, body: string): string {
  return hmacHex(key, replyMacText(nonce, body));
}

export function verifyReply(key: Buffer, nonce: string, body: string, mac: string | undefined): boolean {
  return typeof mac === 'string' && macMatches(mac, key, replyMacText(nonce, body));
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
