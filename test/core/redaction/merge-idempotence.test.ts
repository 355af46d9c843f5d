// Overlapping matches merge into one (the largest span names it); redacting twice changes nothing;
// markers are never matched as secrets; findings point into the original text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/redaction';
import { plantedSecrets } from './planted';

const redactor = new Redactor({ env: {} });
const TOKEN = 'ghp_' + 'Qw12Er34Ty56Ui78Op90As12Df34Gh56Jk78';

for (const mode of ['narrow', 'blunt'] as const) {
  test(`${mode}: redacting the redacted corpus changes nothing`, () => {
    for (const planted of plantedSecrets()) {
      const once = redactor.redactText(planted.text, mode);
      const twice = redactor.redactText(once.text, mode);
      assert.equal(twice.text, once.text, planted.kind);
      assert.equal(twice.count, 0, planted.kind);
    }
  });
}

test('a header and the token inside it are one finding', () => {
  const result = redactor.redactText(`curl -H "Authorization: token ${TOKEN}"`, 'blunt');
  assert.equal(result.count, 1);
  assert.equal(result.text, 'curl -H "Authorization: token <redacted:github-token>"');
});

test('the largest of overlapping spans names the merged finding', () => {
  const text = `git clone https://${TOKEN}:x-oauth-basic@github.com/acme/app.git`;
  const result = redactor.redactText(text);
  assert.equal(result.count, 1);
  assert.equal(result.text, 'git clone https://<redacted:url-credential>@github.com/acme/app.git');
  const [finding] = result.findings;
  assert.equal(text.slice(finding!.start, finding!.end), `${TOKEN}:x-oauth-basic`);
});

test('spans that only touch stay apart', () => {
  const other = 'ghp_' + 'Zx98Cv76Bn54Mm32Ll10Kk98Jj76Hh54Gg32';
  const result = redactor.redactText(`${TOKEN},${other}`);
  assert.equal(result.count, 2);
  assert.equal(result.text, '<redacted:github-token>,<redacted:github-token>');
});

test('findings are ordered, disjoint and point into the original text', () => {
  const planted = plantedSecrets();
  const text = planted.map((p) => p.text).join('\n---\n');
  const result = redactor.redactText(text);
  let cursor = 0;
  let rebuilt = '';
  for (const finding of result.findings) {
    assert.ok(finding.start >= cursor && finding.end > finding.start && finding.end <= text.length);
    assert.equal(finding.valueLength, finding.end - finding.start);
    rebuilt += text.slice(cursor, finding.start) + `<redacted:${finding.label}>`;
    cursor = finding.end;
  }
  rebuilt += text.slice(cursor);
  assert.equal(rebuilt, result.text);
  const total = Object.values(result.byLabel).reduce((a, b) => a + b, 0);
  assert.equal(total, result.count);
  for (const p of planted) for (const secret of p.secrets) assert.ok(!result.text.includes(secret), p.kind);
});

test('markers are never matched, even where a secret would be', () => {
  const text = [
    'API_KEY=<redacted:secret-assignment>',
    'password: <redacted:secret-assignment>',
    'curl -u admin:<redacted:cli-credential-flag> https://x',
    'Authorization: Bearer <redacted:bearer-token>',
    'postgres://u:<redacted:connection-string-password>@db/app',
    '"client_secret": "<redacted:secret-assignment>"',
  ].join('\n');
  for (const mode of ['narrow', 'blunt'] as const) {
    const result = redactor.redactText(text, mode);
    assert.equal(result.text, text, mode);
    assert.equal(result.count, 0, mode);
  }
});

test('a look-alike marker with an unknown label hides nothing', () => {
  const result = redactor.redactText(`token <redacted:${TOKEN.toLowerCase()}> ${TOKEN}`);
  assert.ok(!result.text.includes(TOKEN));
  assert.ok(!result.text.includes(TOKEN.toLowerCase()), result.text);
});

test('a value holding a marker counts as redacted already, but a known format inside it does not hide', () => {
  const held = 'API_KEY="<redacted:env-secret>Sup3rSecretTail99"';
  assert.equal(redactor.redactText(held).text, held);
  const result = redactor.redactText(`API_KEY="<redacted:env-secret> ${TOKEN}"`);
  assert.equal(result.text, 'API_KEY="<redacted:env-secret> <redacted:github-token>"');
});
