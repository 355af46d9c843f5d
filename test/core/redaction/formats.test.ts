// Each known secret format is found and labelled in narrow mode; near misses stay as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/redaction';
import { plantedSecrets } from './planted';

const redactor = new Redactor({ env: {} });

test('the corpus plants at least 40 secrets of distinct kinds', () => {
  const planted = plantedSecrets();
  assert.ok(planted.length >= 40, `only ${planted.length} planted`);
  assert.equal(new Set(planted.map((p) => p.kind)).size, planted.length);
  assert.ok(new Set(planted.map((p) => p.label)).size >= 30, 'the corpus covers many labels');
});

for (const planted of plantedSecrets()) {
  test(`narrow: ${planted.kind} is redacted as ${planted.label}`, () => {
    const result = redactor.redactText(planted.text, 'narrow');
    for (const secret of planted.secrets) {
      assert.ok(!result.text.includes(secret), `"${planted.kind}" survived: ${result.text}`);
      const at = planted.text.indexOf(secret);
      assert.ok(
        result.findings.some((f) => f.start <= at && f.end >= at + secret.length),
        'a finding covers the secret at its offset in the original text',
      );
    }
    assert.ok((result.byLabel[planted.label] ?? 0) >= 1, `labelled ${JSON.stringify(result.byLabel)}`);
    assert.match(result.text, new RegExp(`<redacted:${planted.label}>`));
    assert.equal(result.count, result.findings.length);
  });
}

const NEAR_MISSES: Array<[string, string]> = [
  ['git SHA', 'git checkout 3f2a9c1b7d4e5f60718293a4b5c6d7e8f9012345 && git log -1'],
  ['SHA-256 digest', 'image@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  ['UUID', 'request 123e4567-e89b-12d3-a456-426614174000 failed'],
  ['chain address', '{"Vault": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "chainId": 31337}'],
  [
    'data URL',
    '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
  ],
  ['URL without userinfo', 'curl https://example.com/api/v1/items?page=2&limit=50#top'],
  ['URL with a user only', 'git clone ssh://git@github.com/acme/app.git; open https://dev@example.com/'],
  ['connection string without password', 'psql postgres://localhost:5432/app; redis-cli -u redis://cache:6379/0'],
  ['password as a word', 'Enter your password to log in. The password: must be 12 characters long.'],
  ['Bearer in prose', 'Send a Bearer token in the Authorization header; Basic usage is in the docs.'],
  ['sk- inside words', 'the task-sk-force uses sk-learn, not a risk-free desk-sk-thing'],
  ['short prefixes', 'AKIAXYZ, ghp_abc, xoxb-1, eyJhbGci and npm_install'],
  ['references', 'export API_KEY=$API_KEY; password: ${DB_PASSWORD}; curl -H "Authorization: Bearer $TOKEN"'],
  ['code', 'const password = getPassword(); let token = await fetchToken(user);'],
  [
    'type annotations',
    'interface Login { password: string; token?: string } def f(password: str, token: Optional[str] = None):',
  ],
  [
    'names that only contain secret words',
    'password_hash max_tokens=4096 token_count: 5 public_key: ssh-ed25519 secret_name: db',
  ],
  ['paths', 'src/core/redaction/detectors/prefixed-tokens.ts node_modules/@types/node/v20.11.5/index.d.ts'],
  ['identifiers', 'getUserAccountSettingsForCurrentProfile2024 test_redaction_narrow_mode_keeps_git_shas_v2'],
  ['mysql prompting for a password', 'mysql -u root -p shop'],
  ['-u outside curl', 'docker run -u 1000:1000 node:20 ps -u root'],
  ['credential file path', 'GOOGLE_APPLICATION_CREDENTIALS=/home/dev/keys/service.json'],
  [
    'flag names that are not credentials',
    'tool --password-file ./pw.txt --token-file ~/.tok --no-password --max-tokens 4096',
  ],
  ['package names', 'npm install eslint-plugin-react-hooks-extra-rules-2 @typescript-eslint/eslint-plugin-tslint-v5'],
  ['author lines', 'Author: Jane Doe <jane@example.com>'],
  ['an existing marker', 'token=<redacted:github-token> and <redacted:private-key>'],
  ['placeholders', 'API_KEY=<your-api-key> PASSWORD=******** token: xxxxxxxx'],
  ['placeholders spelled with separators', 'JWT_SECRET=change-me SESSION_SECRET=CHANGE_ME'],
  ["a local emulator's fixed keys", 'AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test'],
];

for (const [name, text] of NEAR_MISSES) {
  test(`narrow leaves a near miss alone: ${name}`, () => {
    const result = redactor.redactText(text, 'narrow');
    assert.equal(result.text, text);
    assert.equal(result.count, 0);
    assert.deepEqual(result.byLabel, {});
  });
}

test('an AWS access key id inside a longer word is not one', () => {
  const id = 'AKIA' + 'QWERTYUIOPASDFGH';
  assert.equal(redactor.redactText(`id ${id} end`).count, 1);
  assert.equal(redactor.redactText(`id X${id} end`).byLabel['aws-access-key'], undefined);
  assert.equal(redactor.redactText(`id ${id}Z end`).byLabel['aws-access-key'], undefined);
});

test('an unterminated PEM block is redacted up to where its body stops', () => {
  const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7' + 'x'.repeat(10);
  const text = `key:\n-----BEGIN PRIVATE KEY-----\n${body}\n(cut here)`;
  const result = redactor.redactText(text);
  assert.ok(!result.text.includes(body.slice(0, 20)));
  assert.equal(result.byLabel['private-key'], 1);
  assert.ok(result.text.endsWith('(cut here)'), result.text);
});

test('a PEM block keeps the text around it', () => {
  const text = 'before\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBb2h3x4\n-----END EC PRIVATE KEY-----\nafter';
  assert.equal(redactor.redactText(text).text, 'before\n<redacted:private-key>\nafter');
});

test('connection strings keep user, host and database; only the password goes', () => {
  const text = 'postgres://admin:S3cr3t-pass@db.internal:5432/app?sslmode=require';
  assert.equal(
    redactor.redactText(text).text,
    'postgres://admin:<redacted:connection-string-password>@db.internal:5432/app?sslmode=require',
  );
});

test('an Authorization header keeps its scheme word', () => {
  const token = 'dGhpcyBpcyBub3QgYSByZWFsIHRva2VuIGF0IGFsbA';
  assert.equal(
    redactor.redactText(`Authorization: Bearer ${token}`).text,
    'Authorization: Bearer <redacted:bearer-token>',
  );
  assert.equal(
    redactor.redactText(`"authorization": "Token ${token}"`).text,
    '"authorization": "Token <redacted:authorization-header>"',
  );
});

test('YAML values run to the end of the line, without a trailing comment', () => {
  const text = 'db:\n  password: correct horse battery 9 # rotated\n  user: app';
  assert.equal(redactor.redactText(text).text, 'db:\n  password: <redacted:secret-assignment> # rotated\n  user: app');
});

test('a long random token with no known format is high entropy; a path segment alone goes', () => {
  const token = 'Zq3vN8xK2mP7tR4wY9bC6dF1hJ5kL0sA';
  assert.equal(redactor.redactText(`echo ${token}`).text, 'echo <redacted:high-entropy>');
  assert.equal(
    redactor.redactText(`https://files.example.com/share/${token}/download`).text,
    'https://files.example.com/share/<redacted:high-entropy>/download',
  );
});

test('an upper-case name joined to a file name is words; capitals inside a random token are not', () => {
  const template = 'value: "$$TRITON_MODEL_DIRECTORY/router-env.tar.gz"';
  assert.equal(redactor.redactText(template).text, template);
  assert.equal(redactor.redactText('echo Zq3vN8xK_ABE_2mP7tR4wY9bC6dF1hJ5kL0sA').text, 'echo <redacted:high-entropy>');
});

const CLI_FORMS: Array<[string, string]> = [
  ['mysql --password=Sup3r-secret shop', 'mysql --password=<redacted:cli-credential-flag> shop'],
  ['tool login --password Sup3r-secret', 'tool login --password <redacted:cli-credential-flag>'],
  [
    'curl --user deploy:Sup3r-secret https://x.example',
    'curl --user deploy:<redacted:cli-credential-flag> https://x.example',
  ],
  ['curl -udeploy:Sup3r-secret https://x.example', 'curl -udeploy:<redacted:cli-credential-flag> https://x.example'],
  ['mysql -p"Sup3r secret" shop', 'mysql -p"<redacted:cli-credential-flag>" shop'],
  ['sshpass -pSup3r-secret ssh host', 'sshpass -p<redacted:cli-credential-flag> ssh host'],
  [
    'keytool -list -keystore k.jks -storepass Sup3r-secret',
    'keytool -list -keystore k.jks -storepass <redacted:cli-credential-flag>',
  ],
  ['gh api --client-secret Sup3r-secret', 'gh api --client-secret <redacted:cli-credential-flag>'],
];

for (const [text, expected] of CLI_FORMS) {
  test(`narrow: credential flag in ${JSON.stringify(text)}`, () => {
    assert.equal(redactor.redactText(text, 'narrow').text, expected);
  });
}
