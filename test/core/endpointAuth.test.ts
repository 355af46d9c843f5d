// The MAC scheme for what Warden reads back from its state folder: endpoint
// records and the endpoint's replies to the command bridge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  isLoopbackUrl,
  newBridgeNonce,
  readEndpointKey,
  readOrCreateEndpointKey,
  replyMac,
  signRecord,
  verifyRecord,
  verifyReply,
} from '../../src/core/endpointAuth';
import { aTempDir, removeDir } from '../builders/tempProject';

function withState(fn: (dir: string) => void): void {
  const dir = aTempDir('endpoint-auth');
  try {
    fn(dir);
  } finally {
    removeDir(dir);
  }
}

test('the key is created once, private, and every later reader gets the same bytes', () =>
  withState((dir) => {
    assert.equal(readEndpointKey(dir), undefined);
    const key = readOrCreateEndpointKey(dir);
    assert.equal(key.length, 32);
    assert.deepEqual(readOrCreateEndpointKey(dir), key);
    assert.deepEqual(readEndpointKey(dir), key);
    assert.equal(statSync(join(dir, 'endpoint-key')).mode & 0o777, 0o600);
  }));

test('a malformed key file verifies nothing and is not silently replaced', () =>
  withState((dir) => {
    writeFileSync(join(dir, 'endpoint-key'), 'not hex\n');
    assert.equal(readEndpointKey(dir), undefined);
    assert.throws(() => readOrCreateEndpointKey(dir), /no valid endpoint key/);
    assert.equal(readFileSync(join(dir, 'endpoint-key'), 'utf8'), 'not hex\n');
  }));

test('a signed record verifies whatever its key order; any changed field, a missing MAC or another key does not', () => {
  const key = Buffer.alloc(32, 1);
  const record = { url: 'http://127.0.0.1:4000', pid: 42, workspaceRoot: null, host: 'serve' };
  const signed = signRecord(key, record);
  assert.ok(verifyRecord(key, signed));
  const reordered = { host: signed.host, mac: signed.mac, pid: signed.pid, url: signed.url, workspaceRoot: null };
  assert.ok(verifyRecord(key, reordered));
  assert.equal(verifyRecord(key, { ...signed, url: 'http://127.0.0.1:4001' }), false);
  assert.equal(verifyRecord(key, { ...signed, pid: 43 }), false);
  assert.equal(verifyRecord(key, { ...signed, extra: true }), false);
  assert.equal(verifyRecord(key, record), false);
  assert.equal(verifyRecord(key, { ...signed, mac: signed.mac.toUpperCase() }), false);
  assert.equal(verifyRecord(key, { ...signed, mac: 'zz' }), false);
  assert.equal(verifyRecord(Buffer.alloc(32, 2), signed), false);
});

test('a reply MAC is bound to its nonce, its exact bytes and the key', async () => {
  const key = Buffer.alloc(32, 3);
  const nonce = await newBridgeNonce();
  assert.match(nonce, /^[0-9a-f]{32}$/);
  assert.notEqual(await newBridgeNonce(), nonce);
  const body = '{"hookSpecificOutput":{"permissionDecision":"deny"}}';
  const mac = replyMac(key, nonce, body);
  assert.ok(verifyReply(key, nonce, body, mac));
  assert.equal(verifyReply(key, await newBridgeNonce(), body, mac), false, 'another nonce');
  assert.equal(verifyReply(key, nonce, body.replace('deny', 'allow'), mac), false, 'other bytes');
  assert.equal(verifyReply(key, nonce, body + ' ', mac), false, 'one byte more');
  assert.equal(verifyReply(Buffer.alloc(32, 4), nonce, body, mac), false, 'another key');
  assert.equal(verifyReply(key, nonce, body, undefined), false, 'no MAC');
  // A record MAC over the same text never passes as a reply MAC (domain separation).
  assert.equal(verifyReply(key, nonce, body, signRecord(key, { body }).mac), false);
});

test('only http URLs on the loopback interface are endpoint URLs', () => {
  for (const url of ['http://127.0.0.1:1', 'http://localhost:8080/x', 'http://[::1]:9/'])
    assert.ok(isLoopbackUrl(url), url);
  for (const url of [
    'https://127.0.0.1:1',
    'http://127.0.0.2:1',
    'http://192.0.2.1:80',
    'http://127.0.0.1.evil.example:80',
    'http://localhost.evil.example',
    'http://evil.example@example.com',
    'file:///etc/passwd',
    'not a url',
  ])
    assert.equal(isLoopbackUrl(url), false, url);
});
