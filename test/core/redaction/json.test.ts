// redactJson walks JSON-like data: every string is redacted with its member name as context,
// keys that are secrets are replaced, and each finding says where it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH, Redactor } from '../../../src/core/redaction';

const redactor = new Redactor({ env: {} });
const TOKEN = 'ghp_' + 'Qw12Er34Ty56Ui78Op90As12Df34Gh56Jk78';
const BEARER =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXYiLCJpYXQiOjE3MDAwMDAwMDB9.' + 'c2lnbmF0dXJlLW5vdC1yZWFsLWF0LWFsbC14eXo';

test('strings are redacted in place and findings carry their paths', () => {
  const input = {
    tool_name: 'Bash',
    tool_input: {
      command: `git push https://bot:${TOKEN}@github.com/acme/app.git`,
      timeout: 30,
      run_in_background: false,
    },
    headers: { Authorization: `Bearer ${BEARER}`, 'x-request-id': 'r-1' },
    args: ['deploy', '--token', 'Sup3r-Secret-Value'],
    nested: { deep: [{ password: 'hunter2x', note: 'hunter2x' }] },
    nothing: null,
  };
  const copy = structuredClone(input);
  const result = redactor.redactJson(input);
  assert.deepEqual(input, copy, 'the input is not changed');
  assert.deepEqual(result.value, {
    tool_name: 'Bash',
    tool_input: {
      command: 'git push https://bot:<redacted:github-token>@github.com/acme/app.git',
      timeout: 30,
      run_in_background: false,
    },
    headers: { Authorization: 'Bearer <redacted:jwt>', 'x-request-id': 'r-1' },
    args: ['deploy', '--token', 'Sup3r-Secret-Value'],
    nested: { deep: [{ password: '<redacted:secret-assignment>', note: 'hunter2x' }] },
    nothing: null,
  });
  const paths = result.findings.map((f) => `${f.path}:${f.label}`).sort();
  assert.deepEqual(paths, [
    '$.headers.Authorization:jwt',
    '$.nested.deep[0].password:secret-assignment',
    '$.tool_input.command:github-token',
  ]);
  assert.equal(result.count, 3);
  assert.deepEqual(result.byLabel, { 'github-token': 1, jwt: 1, 'secret-assignment': 1 });
  const command = input.tool_input.command;
  const finding = result.findings.find((f) => f.path === '$.tool_input.command')!;
  assert.equal(command.slice(finding.start, finding.end), TOKEN, 'offsets point into the original string');
});

test('a member name gives context a bare string lacks', () => {
  assert.deepEqual(redactor.redactJson({ client_secret: 'plainish-value' }).value, {
    client_secret: '<redacted:secret-assignment>',
  });
  assert.deepEqual(redactor.redactJson({ description: 'plainish-value' }).value, { description: 'plainish-value' });
  assert.deepEqual(
    redactor.redactJson({ password: '$DB_PASSWORD' }).value,
    { password: '$DB_PASSWORD' },
    'a reference is not a secret',
  );
});

test('blunt mode takes a credential header value whole', () => {
  const input = { headers: { Authorization: 'anything at all', Cookie: 'session=abc' } };
  assert.deepEqual(redactor.redactJson(input, 'blunt').value, {
    headers: { Authorization: '<redacted:authorization-header>', Cookie: '<redacted:cookie-header>' },
  });
  assert.deepEqual(redactor.redactJson(input, 'narrow').value, {
    headers: { Authorization: '<redacted:authorization-header>', Cookie: 'session=abc' },
  });
});

test('keys that are secrets are replaced, and their findings are marked as keys', () => {
  const result = redactor.redactJson({ tokens: { [TOKEN]: { scopes: ['repo'] } }, 'odd key': 1 });
  assert.deepEqual(result.value, { tokens: { '<redacted:github-token>': { scopes: ['repo'] } }, 'odd key': 1 });
  assert.deepEqual(
    result.findings.map((f) => f.path),
    ['$.tokens["<redacted:github-token>"]#key'],
  );
});

test('two keys that redact alike both survive', () => {
  const other = 'ghp_' + 'Zx98Cv76Bn54Mm32Ll10Kk98Jj76Hh54Gg32';
  const result = redactor.redactJson({ [TOKEN]: 1, [other]: 2 });
  assert.deepEqual(result.value, { '<redacted:github-token>': 1, '<redacted:github-token>#2': 2 });
  assert.equal(result.count, 2);
});

test('a subtree deeper than the limit is replaced whole, never walked', () => {
  let deep: unknown = { secret: `still ${TOKEN}` };
  for (let i = 0; i < MAX_JSON_DEPTH + 10; i++) deep = { next: deep };
  const result = redactor.redactJson(deep);
  const text = JSON.stringify(result.value);
  assert.ok(!text.includes(TOKEN));
  assert.ok(text.includes('"<redacted:too-deep>"'));
  assert.equal(result.byLabel['too-deep'], 1);
});

test('non-string values pass through unchanged', () => {
  const input = { n: 12345678901234, b: true, z: null, list: [1, 2, [3]], empty: {}, s: '' };
  const result = redactor.redactJson(input);
  assert.deepEqual(result.value, input);
  assert.equal(result.count, 0);
  assert.deepEqual(redactor.redactJson(TOKEN).value, '<redacted:github-token>', 'a bare string is walked too');
});
