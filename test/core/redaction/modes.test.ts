// Blunt mode (for the call itself) takes a credential header's or flag's whole value, whatever it
// looks like; narrow mode takes only values that look like secrets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/redaction';

const redactor = new Redactor({ env: {} });

interface ModeCase {
  name: string;
  text: string;
  narrow: string;
  blunt: string;
}

const CASES: ModeCase[] = [
  {
    name: 'an Authorization header with no scheme',
    text: 'curl -H "Authorization: abc" https://api.example.com',
    narrow: 'curl -H "Authorization: abc" https://api.example.com',
    blunt: 'curl -H "Authorization: <redacted:authorization-header>" https://api.example.com',
  },
  {
    name: 'a bearer header holding a variable',
    text: 'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com',
    narrow: 'curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com',
    blunt: 'curl -H "Authorization: Bearer <redacted:bearer-token>" https://api.example.com',
  },
  {
    name: '--password with a short value',
    text: 'tool login --password x',
    narrow: 'tool login --password x',
    blunt: 'tool login --password <redacted:cli-credential-flag>',
  },
  {
    name: '--password with a variable',
    text: 'tool login --password "$DB_PASS" --user app',
    narrow: 'tool login --password "$DB_PASS" --user app',
    blunt: 'tool login --password "<redacted:cli-credential-flag>" --user app',
  },
  {
    name: "mysql's -p with a variable",
    text: 'mysql -u root -p$MYSQL_PWD shop',
    narrow: 'mysql -u root -p$MYSQL_PWD shop',
    blunt: 'mysql -u root -p<redacted:cli-credential-flag> shop',
  },
  {
    name: 'curl -u with a short password',
    text: 'curl -u a:b https://example.com',
    narrow: 'curl -u a:b https://example.com',
    blunt: 'curl -u <redacted:cli-credential-flag> https://example.com',
  },
  {
    name: 'curl -u with a real password',
    text: 'curl -u alice:Wonder1and-42 https://example.com',
    narrow: 'curl -u alice:<redacted:cli-credential-flag> https://example.com',
    blunt: 'curl -u <redacted:cli-credential-flag> https://example.com',
  },
  {
    name: 'a Cookie header',
    text: "curl -H 'Cookie: session=abc; theme=dark' https://example.com",
    narrow: "curl -H 'Cookie: session=abc; theme=dark' https://example.com",
    blunt: "curl -H 'Cookie: <redacted:cookie-header>' https://example.com",
  },
  {
    name: 'an API key header holding a variable',
    text: "curl -H 'X-Api-Key: ${KEY}' https://example.com",
    narrow: "curl -H 'X-Api-Key: ${KEY}' https://example.com",
    blunt: "curl -H 'X-Api-Key: <redacted:secret-header>' https://example.com",
  },
];

for (const c of CASES) {
  test(`narrow and blunt differ on ${c.name}`, () => {
    assert.equal(redactor.redactText(c.text, 'narrow').text, c.narrow);
    assert.equal(redactor.redactText(c.text, 'blunt').text, c.blunt);
  });
}

test('blunt does everything narrow does on known formats', () => {
  const text =
    'export GITHUB_TOKEN=ghp_' + 'Xy12Ab34Cd56Ef78Gh90Ij12Kl34Mn56Op78' + ' && psql postgres://u:Passw0rd-1@db/app';
  const narrow = redactor.redactText(text, 'narrow');
  const blunt = redactor.redactText(text, 'blunt');
  assert.equal(blunt.text, narrow.text);
  assert.deepEqual(blunt.byLabel, { 'github-token': 1, 'connection-string-password': 1 });
});

test('a redactor built in blunt mode uses it by default, and a call can still ask for narrow', () => {
  const blunt = new Redactor({ env: {}, mode: 'blunt' });
  const text = 'tool --token x';
  assert.equal(blunt.redactText(text).text, 'tool --token <redacted:cli-credential-flag>');
  assert.equal(blunt.redactText(text, 'narrow').text, text);
  assert.equal(new Redactor({ env: {} }).redactText(text).text, text, 'narrow is the default');
});

test('prose keeps its words in both modes', () => {
  const text = 'Use a Bearer token; the password is checked by the server.';
  assert.equal(redactor.redactText(text, 'blunt').text, text);
});
