// Inputs shared by the redaction tests and bench/redaction.ts: a typical tool-call text and
// adversarial texts built to make a careless pattern backtrack, at any length.

/** The cap the envelope puts on one part; the tests and the bench use it. */
export const CAP = 128_000;

/** Deterministic pseudo-random numbers (mulberry32), so every run sees the same inputs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const BASE64 = ALNUM + '+/';
export const BASE64URL = ALNUM + '-_';
export const HEX = '0123456789abcdef';

export function randomString(random: () => number, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet.charAt(Math.floor(random() * alphabet.length));
  return out;
}

function repeatTo(unit: string, length: number, prefix = ''): string {
  return (prefix + unit.repeat(Math.ceil((length - prefix.length) / unit.length))).slice(0, length);
}

export interface NamedInput {
  name: string;
  text: string;
}

/** Texts that defeat naive patterns: long runs, prefixes without their ends, openers without closers. */
export function adversarialInputs(length = CAP): NamedInput[] {
  const random = seededRandom(7);
  return [
    { name: 'a-run', text: 'a'.repeat(length) },
    { name: 'eyJ-dots', text: repeatTo('a.', length, 'eyJ') },
    { name: 'eyJ-repeated', text: repeatTo('eyJ', length) },
    { name: 'pem-begin-no-end', text: repeatTo('-----BEGIN PRIVATE KEY-----', length) },
    { name: 'pem-begin-end-labels', text: repeatTo('-----BEGIN RSA PRIVATE KEY----------END ', length) },
    { name: 'postgres-colons', text: repeatTo(':', length, 'postgres://') },
    { name: 'postgres-ats', text: repeatTo('@', length, 'postgres://a') },
    { name: 'scheme-repeated', text: repeatTo('x://', length) },
    { name: 'equals-run', text: '='.repeat(length) },
    { name: 'sk-repeated', text: repeatTo('sk-', length) },
    { name: 'ghp-repeated', text: repeatTo('ghp_', length) },
    { name: 'akia-repeated', text: repeatTo('AKIA', length) },
    { name: 'password-assign-repeated', text: repeatTo('password=', length) },
    { name: 'password-colon-repeated', text: repeatTo('password: ', length) },
    { name: 'key-repeated', text: repeatTo('key', length) },
    { name: 'dashed-name', text: repeatTo('api-', length) },
    { name: 'double-quotes', text: '"'.repeat(length) },
    { name: 'escaped-quotes', text: repeatTo('\\"', length) },
    { name: 'quote-then-run', text: repeatTo('a', length, 'token="') },
    { name: 'long-flags', text: repeatTo('--password ', length) },
    { name: 'short-flags-mysql', text: repeatTo(' -p', length, 'mysql') },
    { name: 'bearer-repeated', text: repeatTo('Bearer ', length) },
    { name: 'authorization-repeated', text: repeatTo('Authorization: ', length) },
    { name: 'marker-openers', text: repeatTo('<redacted:', length) },
    { name: 'digits', text: repeatTo('0123456789', length) },
    { name: 'random-base64', text: randomString(random, BASE64, length) },
    { name: 'userinfo-colons', text: repeatTo('a:', length, 'https://') },
  ];
}

const TYPICAL_LINES = [
  'cd /home/dev/project && npm run build -- --watch=false',
  'git log --oneline -n 20 | cat',
  'commit 3f2a9c1b7d4e5f60718293a4b5c6d7e8f9012345',
  'Author: Dev Person <dev@example.com>',
  'import { readFileSync } from "node:fs"; // load the config once',
  'export function parseConfig(text: string): Config { return configSchema.parse(JSON.parse(text)); }',
  '{"tool_name":"Bash","tool_input":{"command":"ls -la src/core","description":"List files"}}',
  '  "dependencies": { "zod": "^4.0.0", "undici": "^6.0.0" },',
  'curl -sS https://api.example.com/v1/items?page=2&limit=50 -H "Accept: application/json"',
  'docker run --rm -v "$PWD:/work" -w /work node:20 npm test',
  'The password field must be at least 12 characters; use a Bearer token for the API.',
  'src/core/redaction/detectors/prefixed-tokens.ts:42:7 - error TS2345: Argument of type',
  'const id = crypto.randomUUID(); // e.g. 123e4567-e89b-12d3-a456-426614174000',
  'sha256-9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
  'kubectl get pods -n staging -o wide --sort-by=.metadata.creationTimestamp',
  'python -m pytest tests/test_api.py -k "not slow" -x --maxfail=1',
  'for f in $(git ls-files "*.ts"); do wc -l "$f"; done',
  "SELECT id, name FROM users WHERE created_at > now() - interval '7 days';",
  "Error: ENOENT: no such file or directory, open '/home/dev/project/.env.local'",
];

/** About `length` chars of what agents send: commands, code, JSON, logs, and a secret now and then. */
export function typicalInput(length = CAP): string {
  const random = seededRandom(42);
  const lines: string[] = [];
  let size = 0;
  let n = 0;
  while (size < length) {
    let line = TYPICAL_LINES[Math.floor(random() * TYPICAL_LINES.length)]!;
    n++;
    if (n % 97 === 0) line = `export GITHUB_TOKEN=ghp_${randomString(random, ALNUM, 36)}`;
    else if (n % 89 === 0) line = `psql "postgres://app:${randomString(random, ALNUM, 16)}@db.internal:5432/app"`;
    else if (n % 83 === 0)
      line = `curl -H "Authorization: Bearer ${randomString(random, BASE64URL, 40)}" https://api.example.com/me`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, length);
}
