import { Redactor } from '../../../redaction';
import { decodedBase64Text } from '../../../text/embedded-commands';

// The redactor's narrow detectors decide what a secret is, so the policies and
// the log agree. It never reads this machine's environment here: a policy's
// answer must not depend on which variables happen to be set.

let shared: Redactor | undefined;

function redactor(): Redactor {
  shared ??= new Redactor({ mode: 'narrow', env: {} });
  return shared;
}

/** Labels found by name or shape only (`token = "abc"`); short values under them are usually test data. */
const GENERIC_LABELS = new Set([
  'secret-assignment',
  'cli-credential-flag',
  'high-entropy',
  'secret-header',
  'basic-auth',
  'bearer-token',
  'named-value',
]);
const STRONG_GENERIC_LENGTH = 16;
/**
 * A database URL's password for a database on this machine or a compose service (`dev:dev@localhost`,
 * `postgres:postgres@db`), short, is the local one an example file carries, not a credential.
 */
const URL_PASSWORD_LABELS = new Set(['connection-string-password', 'url-password']);
const STRONG_URL_PASSWORD_LENGTH = 10;
/** A value that says it is a stand-in (`sk_test_replace_me`, `your-api-key-here`): no issuer writes these. */
const SAYS_PLACEHOLDER = /replace[_-]?me|change[_-]?me|placeholder|^your[_-]|[_-]here$/i;

function localDevPassword(text: string, finding: { start: number; end: number; valueLength: number }): boolean {
  if (finding.valueLength >= STRONG_URL_PASSWORD_LENGTH || text[finding.end] !== '@') return false;
  const host = /^[\w.-]*/.exec(text.slice(finding.end + 1, finding.end + 256))?.[0] ?? '';
  return host === 'localhost' || host === '127.0.0.1' || /^[a-z][\w-]*$/i.test(host);
}

/** Base64 of an image, a font or a PDF (PNG, JPEG, GIF, WebP, WOFF, an icon, SVG, PDF): a fixture, not a credential. */
const MEDIA_BASE64 = /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR|d09GR|d09GMg|AAABAA|PHN2Zy|JVBERi0)/;

function isEncodedFixture(value: string): boolean {
  return MEDIA_BASE64.test(value.replace(/^['"`]/, '')) || encodesPlainText(value);
}

/** Words a secret's own text carries (`password: …`, `"api_key": …`): decoded text with one stays a secret. */
const NAMES_A_SECRET =
  /pass(?:word|wd|phrase)?\b|secret|\btokens?\b|_token\b|api.?key|private|credential|bearer|cookie/i;
/** `user:password`, `KEY=value`: one pair with nothing around it is a credential however it reads. */
const LONE_PAIR = /^\s*[^\s:=]+[:=]\S+\s*$/;

/**
 * Base64 of written text (a JSON request body, an eval sample, a sentence) that holds no secret of
 * its own: an encoded fixture, which the shape alone would take for a random token. Text of three
 * words or more, or a JSON document, counts as written; a lone `user:password` or a random password
 * does not.
 */
function encodesPlainText(value: string): boolean {
  const decoded = decodedBase64Text(value.replace(/^['"`]|['"`]$/g, ''));
  if (decoded === undefined || NAMES_A_SECRET.test(decoded)) return false;
  const json = isJsonDocument(decoded);
  if (!json && LONE_PAIR.test(decoded)) return false;
  const written = json || /\S\s+\S+\s+\S/.test(decoded);
  return written && scanSecrets(decoded, { realLooking: true }).count === 0;
}

function isJsonDocument(text: string): boolean {
  if (!/^\s*[{[]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export interface SecretScan {
  count: number;
  labels: string[];
  redacted: string;
  /** Each secret found: its label and the text it was found in. */
  found: { label: string; text: string }[];
}

/**
 * Secrets in a text. With `realLooking`, a value found only by its name must
 * also be long enough to be a real credential rather than a test placeholder.
 */
export function scanSecrets(text: string, opts: { realLooking?: boolean } = {}): SecretScan {
  if (text === '') return { count: 0, labels: [], redacted: text, found: [] };
  const result = redactor().redactText(text);
  const findings = opts.realLooking
    ? result.findings.filter(
        (f) =>
          (!GENERIC_LABELS.has(f.label) || f.valueLength >= STRONG_GENERIC_LENGTH) &&
          !(URL_PASSWORD_LABELS.has(f.label) && localDevPassword(text, f)) &&
          !SAYS_PLACEHOLDER.test(text.slice(f.start, f.end)) &&
          !(f.label === 'high-entropy' && isEncodedFixture(text.slice(f.start, f.end))),
      )
    : result.findings;
  return {
    count: findings.length,
    labels: [...new Set(findings.map((f) => f.label))].sort(),
    redacted: result.text,
    found: findings.map((f) => ({ label: f.label, text: text.slice(f.start, f.end) })),
  };
}
