// The redactor's options: the allowlist of keyed hashes, secret-named environment values,
// extra secrets scrubbed from every part, and secretsIn for finding them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { Redactor, allowlistHash } from '../../../src/core/redaction';

const KEY = randomBytes(32);
const TOKEN = 'ghp_' + 'Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0KkLlMm';
const ENTROPY = 'Zq3vN8xK2mP7tR4wY9bC6dF1hJ5kL0sA';

test('allowlistHash is HMAC-SHA256 hex under the given key', () => {
  const hash = allowlistHash(KEY, TOKEN);
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.equal(hash, createHmac('sha256', KEY).update(TOKEN).digest('hex'));
  assert.notEqual(hash, allowlistHash(randomBytes(32), TOKEN), 'another key gives another hash');
});

test('an allowlisted value is not redacted; others still are', () => {
  const redactor = new Redactor({ env: {}, allowlist: { key: KEY, hashes: new Set([allowlistHash(KEY, ENTROPY)]) } });
  const result = redactor.redactText(`fixture ${ENTROPY} and token ${TOKEN}`);
  assert.equal(result.text, `fixture ${ENTROPY} and token <redacted:github-token>`);
  assert.deepEqual(result.byLabel, { 'github-token': 1 });
});

test('an allowlist hashed under another key skips nothing', () => {
  const redactor = new Redactor({
    env: {},
    allowlist: { key: KEY, hashes: new Set([allowlistHash(randomBytes(32), ENTROPY)]) },
  });
  assert.equal(redactor.redactText(`fixture ${ENTROPY}`).text, 'fixture <redacted:high-entropy>');
});

test('values of secret-named environment variables are scrubbed wherever they appear', () => {
  const env = {
    MY_SERVICE_TOKEN: 'plain-words-but-secret',
    DB_PASSWORD: 'tr0ub4dor&3x',
    AUTH_HEADER_VALUE: 'letmein-please',
    GOOGLE_APPLICATION_CREDENTIALS: '/home/dev/keys/service.json',
    SHORT_KEY: 'abc1234',
    HOME: '/home/dev',
    AUTHOR_NAME: 'Jane Developer',
    EDITOR_THEME: 'solarized-dark-plus',
  };
  const redactor = new Redactor({ env });
  const text =
    'echo plain-words-but-secret; mysql -ptr0ub4dor&3x; x=letmein-please; cat /home/dev/keys/service.json; abc1234 by Jane Developer in solarized-dark-plus';
  const result = redactor.redactText(text);
  assert.equal(
    result.text,
    'echo <redacted:env-secret>; mysql -p<redacted:env-secret>; x=<redacted:env-secret>; cat /home/dev/keys/service.json; abc1234 by Jane Developer in solarized-dark-plus',
  );
  assert.equal(result.byLabel['env-secret'], 3);
});

test('process.env is the default environment', () => {
  const name = 'AGENT_WARDEN_REDACTION_TEST_SECRET';
  process.env[name] = 'value-from-process-env-71';
  try {
    const result = new Redactor().redactText('leak value-from-process-env-71 here');
    assert.equal(result.text, 'leak <redacted:env-secret> here');
  } finally {
    delete process.env[name];
  }
  assert.equal(new Redactor().redactText('leak value-from-process-env-71 here').count, 0);
});

test('extra secrets are scrubbed anywhere; short ones only as whole words', () => {
  const redactor = new Redactor({ env: {}, extraSecrets: ['hunter2x9', 'swordfish', 'pw42', 'ab'] });
  const result = redactor.redactText('a hunter2x9 b prefixswordfishsuffix c pw42 d pw42x e ab');
  assert.equal(
    result.text,
    'a <redacted:known-secret> b prefix<redacted:known-secret>suffix c <redacted:known-secret> d pw42x e ab',
  );
  assert.equal(result.byLabel['known-secret'], 3);
});

test('secretsIn returns the raw values, and scrubbing them from another part works', () => {
  const redactor = new Redactor({ env: {} });
  const call = `mysql -u app -pHunter2-shop shop; git push https://bot:${TOKEN}@github.com/acme/app.git`;
  const secrets = redactor.secretsIn(call);
  assert.deepEqual(new Set(secrets), new Set(['Hunter2-shop', TOKEN]));
  const transcript = 'earlier the user said: the db password is Hunter2-shop, use it';
  assert.equal(redactor.redactText(transcript).count, 0, 'alone, the transcript line holds no recognisable secret');
  const scrubbed = new Redactor({ env: {}, extraSecrets: secrets }).redactText(transcript);
  assert.equal(scrubbed.text, 'earlier the user said: the db password is <redacted:known-secret>, use it');
});

test('secretsIn honours the mode and the allowlist', () => {
  const text = 'tool --password x';
  const redactor = new Redactor({ env: {}, allowlist: { key: KEY, hashes: new Set([allowlistHash(KEY, TOKEN)]) } });
  assert.deepEqual(redactor.secretsIn(text, 'narrow'), []);
  assert.deepEqual(redactor.secretsIn(text, 'blunt'), ['x']);
  assert.deepEqual(redactor.secretsIn(`token ${TOKEN}`), []);
});
