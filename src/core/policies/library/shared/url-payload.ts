import { classifySecretName } from '../../../redaction/secret-names';
import { scanSecrets } from './secret-scan';
import { trimEndChars } from '../../../text/scan';

// What a URL carries to its host besides the address: a request is data out, so a token in its
// path, a secret-named query parameter, or an env-file line packed into base64 or hex (in a query
// value, a path segment or a DNS label) leaves the machine the moment the URL is fetched.

// Credential prefixes issuers put on their tokens; shorter than a real token still means a token.
const TOKEN_PREFIX =
  /(?:^|[^A-Za-z0-9])(gh[pousr]_|github_pat_|glpat-|xox[abpr]-|sk-(?:proj-|ant-)?|sk_(?:live|test)_|rk_live_|AKIA|ASIA|AIza|ya29\.|npm_|pypi-|hf_|dop_v1_|SG\.)[A-Za-z0-9_\-.]{8,}/;
// A Salesforce session or access token: the org's id (`00D…`), `!`, then the session's own part.
const SALESFORCE_SESSION = /(?:^|[^A-Za-z0-9])00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{20,}/;
// A value ends at a space, or at the `;` or `&` that separates a connection string's or a query's pairs:
// `Database=db;Password=…` has two.
const SECRET_LINE =
  /-----BEGIN [A-Z ]*PRIVATE KEY|(?:^|[\s;&])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*[^\s;&]{3,}|(?<![\w+.-])[a-z][\w+.-]*:\/\/[^\s:/@]+:[^\s@/]+@/;

const SECRET_LINES = new RegExp(SECRET_LINE.source, 'g');

export interface UrlPayload {
  what: string;
  /** A credential for certain (deny) or data that could be anything (ask). */
  certain: boolean;
}

/** Text that is mostly printable: what an encoded env line decodes to, unlike a hash or an id. */
function printable(text: string): boolean {
  if (text.length < 8) return false;
  let ok = 0;
  for (const ch of text) if (/[\x20-\x7e\n\r\t]/.test(ch)) ok++;
  return ok / text.length > 0.95;
}

// A base64 run within a part: the payload may be followed by other text (`d=<base64>.png`, a value cut short).
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;

function decodings(part: string): string[] {
  const out: string[] = [];
  if (/^[0-9a-f]{16,}$/i.test(part) && part.length % 2 === 0) out.push(Buffer.from(part, 'hex').toString('latin1'));
  for (const [run] of part.matchAll(BASE64_RUN))
    if (/[A-Z]/.test(run) && /[a-z]/.test(run))
      out.push(Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'));
  return out.filter(printable);
}

export function secretInText(text: string, opts: { shapeOnly?: boolean } = {}): string | undefined {
  const token = TOKEN_PREFIX.exec(text)?.[1];
  if (token) return `a token (${token}…)`;
  if (SALESFORCE_SESSION.test(text)) return 'a Salesforce session id';
  const scan = scanSecrets(text, { realLooking: true });
  // A long random id (a document's, a commit's) looks like high entropy; only named shapes count there.
  const labels = opts.shapeOnly ? scan.labels.filter((l) => l !== 'high-entropy') : scan.labels;
  if (labels.length > 0) return `a secret (${labels.join(', ')})`;
  // Every `NAME=value` of the text, not only the first (`deployer env:` before `PRIVATE_KEY=…`).
  for (const line of text.matchAll(SECRET_LINES)) {
    if (line[1] === undefined) return 'a key or a password';
    if (classifySecretName(line[1]) !== null && assignedValue(line[0])) return `the secret-named value ${line[1]}`;
  }
  return undefined;
}

// What stands for a value rather than being one: `<password>`, `${DB_PASSWORD}`, `{{ secret }}`, `%PASS%`, `***`.
const PLACEHOLDER = /^["']?(?:<.*>|\$\{?\w|\{\{|%\w+%|\*{3,}|x{3,}|\.{3}|your[\w-]*|example|changeme|redacted)/i;

/**
 * Whether a `NAME=value` holds a value: `PASSWORD=hunter2` does, `password=<passphrase>` does not. Written
 * with a space (`password: how to hide`, `Password= not working`), it is as likely prose, so the word
 * must look like a credential: a digit, a capital after the start, or a sign in it.
 */
function assignedValue(assignment: string): boolean {
  const match = /^[\s;&]*(?:export\s+)?[A-Za-z_]\w*(\s*)[=:](\s*)(\S+)/.exec(assignment);
  if (!match) return false;
  const value = match[3] ?? '';
  if (PLACEHOLDER.test(value)) return false;
  if (match[1] === '' && match[2] === '') return true;
  return /\d|.[A-Z]|[^\w"'.,;:!?)]/.test(trimEndChars(value, `"'.,;:!?)`));
}

/** The parts of a URL a host receives as data: host labels, path segments, query names and values, fragment excluded. */
function partsOf(url: URL): { name?: string; value: string }[] {
  const parts: { name?: string; value: string }[] = [];
  for (const label of url.hostname.split('.')) parts.push({ value: label });
  for (const segment of url.pathname.split('/')) parts.push({ value: safeDecode(segment) });
  for (const [name, value] of url.searchParams) parts.push({ name, value });
  return parts;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What a URL sends to its host that is a secret or encoded data, or undefined for an ordinary address. */
export function urlPayload(raw: string): UrlPayload | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (!/^(https?|ftp|wss?):$/.test(url.protocol)) return undefined;
  // user:password@host sends the password to that host as its login.
  if (url.password.length >= 4) return { what: `the password of ${url.username || 'a login'}`, certain: true };
  for (const part of partsOf(url)) {
    const direct = secretInText(part.name !== undefined ? `${part.name}=${part.value}` : part.value, {
      shapeOnly: true,
    });
    if (direct) return { what: direct, certain: true };
    // ?secret=…, ?aws=…, ?password=…: a secret-named parameter with a value of some length.
    if (part.name !== undefined && part.value.length >= 8 && classifySecretName(part.name) !== null)
      return { what: `the secret-named parameter ${part.name}`, certain: true };
    for (const decoded of decodings(part.value)) {
      const inside = secretInText(decoded);
      if (inside) return { what: `${inside}, encoded`, certain: true };
      if (decoded.length >= 24) return { what: `${decoded.length} bytes of encoded text`, certain: false };
    }
  }
  return undefined;
}
