// Which key, header and flag names hold credentials: `DB_PASSWORD`, `clientSecret`, `X-Api-Key`.
import { isDigit, isLower, isUpper } from './charset';
import type { Label } from './labels';

export type SecretNameKind = 'authorization' | 'cookie' | 'secret' | 'aws-account';

export interface SecretName {
  kind: SecretNameKind;
  label: Label;
}

/** Last words that make a name secret on their own: `password`, `api_token`, `clientSecret`. */
const SECRET_LAST_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'passphrase',
  'pwd',
  'pw',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'auth',
  'sig',
  'signature',
  'accesskey',
  'secretkey',
  'secretaccesskey',
  'privatekey',
  'pat',
  // A Wi-Fi network's pre-shared key (wpa_supplicant's `psk=`).
  'psk',
  // A wallet's words: whoever has them holds every key derived from them.
  'mnemonic',
  'seedphrase',
]);

/** `phrase` alone is prose; these make it a wallet's recovery words (`SEED_PHRASE`). */
const PHRASE_QUALIFIERS = new Set(['seed', 'recovery', 'secret', 'wallet']);

/** Secret words that also count glued to a prefix, as in `PGPASSWORD` or `GITHUBTOKEN`. */
const GLUED_SECRET_SUFFIXES = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey'];

/** `key` alone is too common (`primary_key`, `sort_key`); these qualifiers make it a credential. */
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'secret',
  'private',
  'signing',
  'encryption',
  'decryption',
  'master',
  'auth',
  'client',
  'app',
  'account',
  'storage',
  'shared',
  'service',
  'license',
  'subscription',
  'session',
  'webhook',
  'hmac',
  'admin',
  'deploy',
  'sas',
  'consumer',
  'x',
  // A private key by what it is for: SSH_KEY, DEPLOY_SSH_KEY, GPG_KEY, TLS_KEY, JWT_KEY.
  'ssh',
  'gpg',
  'pgp',
  'tls',
  'ssl',
  'jwt',
]);

/** Names that end like a secret but are not one: the shell's working directory, counters, public halves. */
const NOT_SECRET_NAMES = new Set(['pwd', 'oldpwd', 'pw']);

/** Splits `X-Api-Key`, `clientSecret`, `APIKey`, `spring.datasource.password` into lower-case words. */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  let current = '';
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const ch = name.charAt(i);
    if (ch === '-' || ch === '_' || ch === '.' || ch === '$' || ch === ':') {
      if (current) words.push(current.toLowerCase());
      current = '';
      continue;
    }
    if (isUpper(code) && current) {
      const prev = name.charCodeAt(i - 1);
      const next = i + 1 < name.length ? name.charCodeAt(i + 1) : 0;
      // Split at `aB` and at the last capital of a run followed by lower case (`APIKey` → API, Key).
      if (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(next))) {
        words.push(current.toLowerCase());
        current = '';
      }
    }
    current += ch;
  }
  if (current) words.push(current.toLowerCase());
  return words;
}

/** Names repeat (the same keys and flags over and over): classify each once, in a bounded memo. */
const MEMO_LIMIT = 2048;
const nameMemo = new Map<string, SecretName | null>();
const flagMemo = new Map<string, boolean>();

function memoized<T>(memo: Map<string, T>, key: string, compute: (key: string) => T): T {
  const known = memo.get(key);
  if (known !== undefined || memo.has(key)) return known as T;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  const value = compute(key);
  memo.set(key, value);
  return value;
}

export function classifySecretName(name: string): SecretName | null {
  return memoized(nameMemo, name, classify);
}

export function isCredentialFlagName(flag: string): boolean {
  return memoized(flagMemo, flag, credentialFlag);
}

function classify(name: string): SecretName | null {
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return null;
  const joined = words.join('');
  if (joined === 'authorization' || joined === 'proxyauthorization')
    return { kind: 'authorization', label: 'authorization-header' };
  if (last === 'cookie') return { kind: 'cookie', label: 'cookie-header' };
  if (words.includes('public')) return null;
  if (words.includes('aws') && words.includes('account') && last === 'id')
    return { kind: 'aws-account', label: 'aws-account-id' };
  const previous = words[words.length - 2];
  const isKey =
    (last === 'key' && previous !== undefined && KEY_QUALIFIERS.has(previous)) ||
    (last === 'phrase' && previous !== undefined && PHRASE_QUALIFIERS.has(previous));
  const glued = GLUED_SECRET_SUFFIXES.some((suffix) => last.length > suffix.length && last.endsWith(suffix));
  if (!isKey && !SECRET_LAST_WORDS.has(last) && !glued) return null;
  if (words.length === 1 && NOT_SECRET_NAMES.has(last)) return null;
  if (words.includes('aws') && (words.includes('secret') || joined.endsWith('secretaccesskey'))) {
    return { kind: 'secret', label: 'aws-secret-key' };
  }
  if (joined === 'accountkey' || joined === 'sharedaccesskey' || joined.endsWith('storagekey')) {
    return { kind: 'secret', label: 'azure-storage-key' };
  }
  return { kind: 'secret', label: 'secret-assignment' };
}

/** Long command-line flags whose value is a credential: `--password`, `--api-key`, `--client-secret`. */
function credentialFlag(flag: string): boolean {
  const bare = flag.replace(/^-+/, '');
  if (bare.startsWith('no-')) return false;
  const words = nameWords(bare);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  const previous = words[words.length - 2];
  if (last === 'key') return previous !== undefined && KEY_QUALIFIERS.has(previous) && previous !== 'private';
  return SECRET_LAST_WORDS.has(last) && last !== 'privatekey';
}
