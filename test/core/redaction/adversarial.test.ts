// Inputs at the 128,000-char cap built to make careless patterns backtrack. Every detector is
// linear, so each completes; these tests check that each also gives the right answer. (Speed is
// measured in bench/redaction.ts, not asserted here.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, type RedactionResult } from '../../../src/core/redaction';
import { adversarialInputs, CAP, typicalInput } from './inputs';

const redactor = new Redactor({ env: {} });
const inputs = new Map(adversarialInputs().map((input) => [input.name, input.text]));

function input(name: string): string {
  const text = inputs.get(name);
  assert.ok(text !== undefined, `no input named ${name}`);
  assert.equal(text.length, CAP);
  return text;
}

function outsideMarkers(result: RedactionResult): string {
  return result.text.replace(/<redacted:[a-z0-9-]+>/g, '');
}

const UNTOUCHED = [
  'a-run',
  'eyJ-dots',
  'eyJ-repeated',
  'postgres-colons',
  'scheme-repeated',
  'equals-run',
  'sk-repeated',
  'ghp-repeated',
  'akia-repeated',
  'key-repeated',
  // A YAML plain value cannot hold ": ", and in prose a word ending in ":" is the next name.
  'password-colon-repeated',
  'dashed-name',
  'double-quotes',
  'escaped-quotes',
  'quote-then-run',
  'long-flags',
  'short-flags-mysql',
  'bearer-repeated',
  'marker-openers',
  'digits',
  'userinfo-colons',
];

for (const name of UNTOUCHED) {
  test(`adversarial ${name}: nothing to redact, and it says so`, () => {
    for (const mode of ['narrow', 'blunt'] as const) {
      const result = redactor.redactText(input(name), mode);
      assert.equal(result.count, 0, `${mode}: ${JSON.stringify(result.byLabel)}`);
      assert.equal(result.text, input(name));
    }
  });
}

test('adversarial BEGIN lines without END: all of it is treated as key material', () => {
  const result = redactor.redactText(input('pem-begin-no-end'));
  assert.deepEqual(Object.keys(result.byLabel), ['private-key']);
  assert.match(outsideMarkers(result), /^-*$/, 'only dashes of a cut BEGIN line stay');
});

test('adversarial BEGIN/END pairs with no body: each pair is one block', () => {
  const text = input('pem-begin-end-labels');
  const result = redactor.redactText(text);
  assert.deepEqual(Object.keys(result.byLabel), ['private-key']);
  const pairs = text.split('-----BEGIN RSA PRIVATE KEY-----').length - 1;
  assert.ok(
    result.count >= Math.floor(pairs / 2) && result.count <= pairs,
    `${result.count} blocks for ${pairs} BEGIN lines`,
  );
});

test('adversarial postgres://a@@@…: one long user name, read as a credential', () => {
  const result = redactor.redactText(input('postgres-ats'));
  assert.deepEqual(result.byLabel, { 'url-credential': 1 });
  assert.ok(result.text.startsWith('postgres://<redacted:url-credential>@'));
});

test('adversarial password=password=…: every value goes, only the names stay', () => {
  const result = redactor.redactText(input('password-assign-repeated'));
  assert.deepEqual(Object.keys(result.byLabel), ['secret-assignment']);
  assert.match(outsideMarkers(result), /^[pasword=]*$/);
  assert.ok(outsideMarkers(result).length < CAP / 100);
});

test('adversarial "Authorization: " repeated: header values go, header names stay', () => {
  const result = redactor.redactText(input('authorization-repeated'));
  assert.deepEqual(Object.keys(result.byLabel), ['authorization-header']);
  assert.match(outsideMarkers(result), /^[Authorizaton: ]*$/);
});

test('adversarial random base64 at the cap: one high-entropy token, all of it', () => {
  const result = redactor.redactText(input('random-base64'));
  assert.equal(result.text, '<redacted:high-entropy>');
  assert.equal(result.findings[0]!.end, CAP);
});

test('every adversarial input glued together, cut at the cap, completes in both modes', () => {
  const mixed = adversarialInputs(4_000)
    .map((i) => i.text)
    .join('\n')
    .slice(0, CAP);
  for (const mode of ['narrow', 'blunt'] as const) {
    const result = redactor.redactText(mixed, mode);
    assert.ok(result.count > 0);
    assert.equal(redactor.redactText(result.text, mode).count, 0, 'and its output redacts to itself');
  }
});

test('the typical input at the cap loses its planted secrets and keeps the rest', () => {
  const text = typicalInput();
  const result = redactor.redactText(text);
  assert.deepEqual(Object.keys(result.byLabel).sort(), ['bearer-token', 'connection-string-password', 'github-token']);
  assert.ok(!/ghp_[A-Za-z0-9]{36}/.test(result.text));
  assert.ok(result.text.includes('git log --oneline -n 20 | cat'));
  assert.ok(result.text.includes('commit 3f2a9c1b7d4e5f60718293a4b5c6d7e8f9012345'));
});

test('redactJson over a cap-sized adversarial string completes', () => {
  const result = redactor.redactJson(
    { tool_input: { command: input('pem-begin-no-end'), other: input('a-run') } },
    'blunt',
  );
  assert.deepEqual(Object.keys(result.byLabel), ['private-key']);
  assert.ok(result.findings.every((f) => f.path === '$.tool_input.command'));
});
