// The MAC scheme for what Warden reads back from its state folder: a record or a reply
// verifies only under the key, and any change to it (or another key, nonce or body) fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ENDPOINT_KEY_FILE,
  isLoopbackUrl,
  newBridgeNonce,
  readEndpointKey,
  readOrCreateEndpointKey,
  replyMac,
  signRecord,
  verifyRecord,
  verifyReply,
} from '../../src/core/endpointAuth';
import { removeDir, tempDir } from '../builders/process';

test('the key is created once, private to the user, and read back the same', (t) => {
  const state = tempDir('endpoint-key');
  t.after(() => removeDir(state));
  assert.equal(readEndpointKey(state), undefined);
  const key = readOrCreateEndpointKey(state);
  assert.equal(key.length, 32);
  assert.equal(statSync(join(state, ENDPOINT_KEY_FILE)).mode & 0o777, 0o600);
  assert.deepEqual(readOrCreateEndpointKey(state), key);
  assert.deepEqual(readEndpointKey(state), key);
  writeFileSync(join(state, ENDPOINT_KEY_FILE), 'not hex\n');
  assert.equal(readEndpointKey(state), undefined, 'a malformed key verifies nothing');
  assert.match(readFileSync(join(state, ENDPOINT_KEY_FILE), 'utf8'), /not hex/);
});

test('a signed record verifies whatever its key order, and not once changed or under another key', () => {
  const key = Buffer.alloc(32, 1);
  const signed = signRecord(key, { url: 'http://127.0.0.1:4000', pid: 42, startedAt: 'now' });
  assert.ok(verifyRecord(key, signed));
  assert.ok(verifyRecord(key, { startedAt: 'now', pid: 42, mac: signed.mac, url: 'http://127.0.0.1:4000' }));
  assert.equal(verifyRecord(key, { ...signed, url: 'http://127.0.0.1:4001' }), false);
  assert.equal(verifyRecord(key, { ...signed, extra: true }), false);
  assert.equal(verifyRecord(Buffer.alloc(32, 2), signed), false);
  assert.equal(verifyRecord(key, { ...signed, mac: undefined }), false);
  assert.equal(verifyRecord(key, { ...signed, mac: 'zz' }), false);
});

test('a reply MAC binds the nonce and the body', () => {
  const key = Buffer.alloc(32, 3);
  const nonce = newBridgeNonce();
  assert.match(nonce, /^[0-9a-f]{32}$/);
  assert.notEqual(newBridgeNonce(), nonce);
  const mac = replyMac(key, nonce, '{"decision":"deny"}');
  assert.ok(verifyReply(key, nonce, '{"decision":"deny"}', mac));
  assert.equal(verifyReply(key, nonce, '{}', mac), false);
  assert.equal(verifyReply(key, newBridgeNonce(), '{"decision":"deny"}', mac), false);
  assert.equal(verifyReply(key, nonce, '{"decision":"deny"}', undefined), false);
});

test('only loopback http URLs are endpoints', () => {
  for (const url of ['http://127.0.0.1:1234/hooks', 'http://localhost:9', 'http://[::1]:80'])
    assert.ok(isLoopbackUrl(url), url);
  for (const url of ['https://127.0.0.1:1', 'http://10.0.0.1:1', 'http://127.0.0.1.example:1', 'not a url'])
    assert.equal(isLoopbackUrl(url), false, url);
});
