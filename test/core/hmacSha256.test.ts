// The plain-JavaScript HMAC-SHA-256 the bridge verifies MACs with must be the
// very function node:crypto signs with: published vectors, every length around
// the 64-byte block edges, and random keys and texts (any Unicode) agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { equalInConstantTime, hmacSha256Hex, sha256 } from '../../src/core/hmacSha256';

const nodeHmac = (key: Uint8Array, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');

test('RFC 4231 test cases 1, 2, 6 and 7, whose data is text (keys of 20, 4 and 131 bytes)', () => {
  const cases: [Buffer, Buffer, string][] = [
    [
      Buffer.alloc(20, 0x0b),
      Buffer.from('Hi There'),
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    ],
    [
      Buffer.from('Jefe'),
      Buffer.from('what do ya want for nothing?'),
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [
      Buffer.alloc(131, 0xaa),
      Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First'),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      Buffer.alloc(131, 0xaa),
      Buffer.from(
        'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
      ),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ];
  for (const [key, data, expected] of cases) assert.equal(hmacSha256Hex(key, data.toString('utf8')), expected);
});

test('SHA-256 agrees with node:crypto at every length from 0 to 200 bytes (the block and padding edges)', () => {
  for (let length = 0; length <= 200; length++) {
    const message = Buffer.alloc(length, length % 251);
    assert.equal(Buffer.from(sha256(message)).toString('hex'), createHash('sha256').update(message).digest('hex'));
  }
});

test('HMAC agrees with node:crypto for random keys (0 to 200 bytes) and any Unicode text', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 600 }),
      (key, text) => hmacSha256Hex(key, text) === nodeHmac(key, text),
    ),
    { numRuns: 400 },
  );
});

test('a long reply (100 kB) gets the same MAC', () => {
  const key = Buffer.alloc(32, 7);
  const text = JSON.stringify({ reason: 'x'.repeat(100_000), nested: { ü: '✓' } });
  assert.equal(hmacSha256Hex(key, text), nodeHmac(key, text));
});

test('the comparison is equality: any one character different, or another length, is unequal', () => {
  const mac = nodeHmac(Buffer.alloc(32, 1), 'text');
  assert.ok(equalInConstantTime(mac, mac.slice()));
  for (let i = 0; i < mac.length; i++) {
    const changed = mac.slice(0, i) + (mac[i] === '0' ? '1' : '0') + mac.slice(i + 1);
    assert.equal(equalInConstantTime(mac, changed), false, `position ${i}`);
  }
  assert.equal(equalInConstantTime(mac, mac.slice(0, -1)), false);
  assert.equal(equalInConstantTime('', ''), true);
});
