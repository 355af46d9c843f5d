import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/redaction';

const redactor = new Redactor({ env: {} });

test('a secret word glued to a prefix still names a secret: PGPASSWORD, GITHUBTOKEN', () => {
  for (const [text, value] of [
    ["PGPASSWORD='Zq8#vLm2pRt' pg_dump -h db prod", 'Zq8#vLm2pRt'],
    ['export GITHUBTOKEN=Hk29dLqpWx81', 'Hk29dLqpWx81'],
    ['MYAPPSECRET="n0t-a-real-one-but-long"', 'n0t-a-real-one-but-long'],
  ] as const) {
    const out = redactor.redactText(text);
    assert.ok(!out.text.includes(value), `${text} → ${out.text}`);
    assert.equal(out.count, 1, out.text);
  }
});

test('near misses stay: plain words that merely contain a secret word are not names of secrets', () => {
  for (const text of [
    'tokens=5 npm test',
    'password reset flow documented in README',
    'TOKENIZER=bert python train.py',
  ]) {
    assert.equal(redactor.redactText(text).count, 0, text);
  }
});
