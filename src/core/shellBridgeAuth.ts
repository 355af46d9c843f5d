// What the shell bridge (dist/hook.sh) trusts: an endpoint record and a reply
// signed with an ECDSA P-256 key derived from the endpoint key. A shell script
// cannot compute an HMAC without putting the key on a command line, where any
// process of the same user (the agent) can read it; it can check a signature
// with `openssl dgst -verify` and a public key, which is no secret. P-256 and
// `dgst` (not Ed25519, whose `pkeyutl -rawin` needs a regular file) because
// every openssl the script may meet, LibreSSL included, verifies them from a pipe.
import { createECDH, createHmac, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from './state';

/**
 * Header the shell bridge sends with its nonce; the endpoint then signs its reply.
 * @public the wire contract between the shell bridge and the endpoint
 */
export const SHELL_BRIDGE_NONCE_HEADER = 'x-warden-shell-bridge-nonce';
/** @public the wire contract between the shell bridge and the endpoint */
export const REPLY_SIGNATURE_HEADER = 'x-warden-reply-signature';
/** The public half, in the state folder, where hook.sh reads it. */
export const BRIDGE_PUBLIC_KEY_FILE = 'bridge-key.pem';
/** First line of a shell record; hook.sh refuses any other. */
export const SHELL_RECORD_MAGIC = 'agent-warden shell bridge record 1';

// P-256's group order: a derived scalar must be below it (and above zero).
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

const signingKeys = new Map<string, KeyObject>();

/** The signing key for an endpoint key: a P-256 scalar derived by HMAC, so no second secret is kept. */
function signingKeyFor(endpointKey: Buffer): KeyObject {
  const cacheKey = endpointKey.toString('hex');
  const cached = signingKeys.get(cacheKey);
  if (cached) return cached;
  let scalar: Buffer;
  for (let counter = 0; ; counter++) {
    scalar = createHmac('sha256', endpointKey).update(`agent-warden shell bridge signing key ${counter}`).digest();
    const value = BigInt('0x' + scalar.toString('hex'));
    if (value > 0n && value < P256_ORDER) break;
  }
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(scalar);
  const point = ecdh.getPublicKey();
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: scalar.toString('base64url'),
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  signingKeys.set(cacheKey, key);
  return key;
}

export function bridgePublicKeyPem(endpointKey: Buffer): string {
  return createPublicKey(signingKeyFor(endpointKey)).export({ type: 'spki', format: 'pem' }).toString();
}

/** Writes the public key where hook.sh reads it, unless it is there already. */
export function writeBridgePublicKey(stateDir: string, endpointKey: Buffer): void {
  const path = join(stateDir, BRIDGE_PUBLIC_KEY_FILE);
  const pem = bridgePublicKeyPem(endpointKey);
  try {
    if (readFileSync(path, 'utf8') === pem) return;
  } catch {
    // Missing: written below.
  }
  writePrivateFile(path, pem);
}

function signText(endpointKey: Buffer, text: string): string {
  return sign('sha256', Buffer.from(text, 'utf8'), signingKeyFor(endpointKey)).toString('hex');
}

/** The signed text of a reply: hook.sh feeds exactly these bytes (a here-document ends with a newline). */
export function shellReplyText(nonce: string, body: string): string {
  return `reply\n${nonce}\n${body}\n`;
}

export function signShellReply(endpointKey: Buffer, nonce: string, body: string): string {
  return signText(endpointKey, shellReplyText(nonce, body));
}

/** What a shell record holds of an endpoint record. */
export interface ShellRecordFields {
  url: string;
  pid: number;
  startedAt: string;
  workspaceRoot: string | null;
}

/** Where the shell record of a JSON endpoint record lives. */
export function shellRecordPath(jsonRecordPath: string): string {
  return jsonRecordPath.replace(/\.json$/, '.shrec');
}

/**
 * The record as hook.sh reads it: fixed lines, then the signature of the lines
 * before it. Undefined when a value cannot sit on one line (hook.sh would hand
 * such a call to the Node bridge anyway).
 */
export function shellRecordText(endpointKey: Buffer, record: ShellRecordFields): string | undefined {
  const root = record.workspaceRoot ?? '';
  if (/[\r\n]/.test(root) || /[\r\n]/.test(record.url)) return undefined;
  const started = Date.parse(record.startedAt);
  if (!Number.isFinite(started)) return undefined;
  const signed = [SHELL_RECORD_MAGIC, `url=${record.url}`, `pid=${record.pid}`, `started=${started}`, `root=${root}`]
    .map((line) => line + '\n')
    .join('');
  return `${signed}signature=${signText(endpointKey, signed)}\n`;
}

/** Writes (or, when the record cannot be one, removes) the shell record beside a JSON record. */
export function writeShellRecord(jsonRecordPath: string, endpointKey: Buffer, record: ShellRecordFields): void {
  const path = shellRecordPath(jsonRecordPath);
  const text = shellRecordText(endpointKey, record);
  if (text === undefined) {
    if (existsSync(path)) rmSync(path, { force: true });
    return;
  }
  writePrivateFile(path, text);
}
