// Tokens that announce themselves with a fixed prefix: GitHub, GitLab, Slack, Stripe, OpenAI,
// Anthropic, npm, PyPI, Hugging Face, Google API keys, AWS access key ids, SendGrid, Shopify, Linear,
// 1Password service accounts, DigitalOcean, HashiCorp Vault. One regex of plain literals finds the prefixes; the body
// is read by hand against the format's alphabet and length, and the scan resumes after the body.
import {
  ALNUM_CHARS,
  BASE64URL_CHARS,
  BASE64_CHARS,
  has,
  HEX_CHARS,
  isAlnum,
  isDigit,
  runEnd,
  wordBoundaryAfter,
  wordBoundaryBefore,
} from '../charset';
import type { Label } from '../labels';
import { looksRandom, variedChars } from '../randomness';
import type { Candidate, Detector } from '../types';

const DETECTOR = 'prefixed-token';

interface TokenFormat {
  label: Label;
  prefixes: string[];
  body: Uint8Array;
  min: number;
  max: number;
  /** Extra shape test on the body, for prefixes that also start ordinary words. */
  accept?: (text: string, start: number, end: number) => boolean;
}

function alphabet(chars: string): Uint8Array {
  const t = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) t[chars.charCodeAt(i)] = 1;
  return t;
}

const UPPER_DIGITS = alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const ALNUM_DASH = alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-');
const ALNUM_UNDERSCORE = alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_');
const BASE64URL_DOT = alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.');
const ANY_BASE64 = alphabet('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=');

function hasDigitAndLetter(text: string, start: number, end: number): boolean {
  let digit = false;
  let letter = false;
  for (let i = start; i < end && !(digit && letter); i++) {
    const code = text.charCodeAt(i);
    if (isDigit(code)) digit = true;
    else if (isAlnum(code)) letter = true;
  }
  return digit && letter;
}

/** SendGrid: `SG.` + 22 chars + `.` + 43 chars. */
function twoDottedParts(text: string, start: number, end: number): boolean {
  let dot = -1;
  for (let i = start; i < end; i++) {
    if (text.charAt(i) !== '.') continue;
    if (dot >= 0) return false;
    dot = i;
  }
  return dot >= 0 && dot - start >= 16 && end - dot - 1 >= 30;
}

/** Ordered from specific to general: at one position the first accepted format names the token. */
export const TOKEN_FORMATS: TokenFormat[] = [
  {
    label: 'github-token',
    prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    body: ALNUM_UNDERSCORE,
    min: 30,
    max: 255,
    accept: variedChars,
  },
  { label: 'github-token', prefixes: ['github_pat_'], body: ALNUM_UNDERSCORE, min: 50, max: 255, accept: variedChars },
  {
    label: 'gitlab-token',
    prefixes: [
      'glpat-',
      'gldt-',
      'glrt-',
      'glptt-',
      'glft-',
      'glsoat-',
      'glcbt-',
      'gloas-',
      'glimt-',
      'glagent-',
      'GR1348941',
    ],
    body: BASE64URL_CHARS,
    min: 20,
    max: 255,
  },
  {
    label: 'slack-token',
    prefixes: ['xoxe.xoxp-', 'xoxb-', 'xoxa-', 'xoxp-', 'xoxr-', 'xoxs-', 'xoxo-', 'xoxe-', 'xapp-'],
    body: ALNUM_DASH,
    min: 10,
    max: 512,
  },
  {
    label: 'stripe-key',
    prefixes: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_', 'whsec_'],
    body: ALNUM_CHARS,
    min: 16,
    max: 255,
  },
  { label: 'anthropic-key', prefixes: ['sk-ant-'], body: BASE64URL_CHARS, min: 20, max: 512, accept: variedChars },
  {
    label: 'openai-key',
    prefixes: ['sk-proj-', 'sk-svcacct-', 'sk-admin-'],
    body: BASE64URL_CHARS,
    min: 20,
    max: 512,
    accept: variedChars,
  },
  // Bare `sk-` also starts words (`sk-learn-metrics-and-more`): the body must also not read as words.
  { label: 'openai-key', prefixes: ['sk-'], body: BASE64URL_CHARS, min: 20, max: 512, accept: looksRandom },
  { label: 'npm-token', prefixes: ['npm_'], body: ALNUM_CHARS, min: 30, max: 64, accept: variedChars },
  { label: 'pypi-token', prefixes: ['pypi-AgE'], body: BASE64URL_CHARS, min: 50, max: 1024 },
  {
    label: 'huggingface-token',
    prefixes: ['hf_', 'api_org_'],
    body: ALNUM_CHARS,
    min: 30,
    max: 64,
    accept: variedChars,
  },
  { label: 'gcp-api-key', prefixes: ['AIza'], body: BASE64URL_CHARS, min: 35, max: 35 },
  { label: 'aws-access-key', prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], body: UPPER_DIGITS, min: 16, max: 16 },
  { label: 'aws-access-key', prefixes: ['A3T'], body: UPPER_DIGITS, min: 17, max: 17 },
  { label: 'sendgrid-key', prefixes: ['SG.'], body: BASE64URL_DOT, min: 50, max: 100, accept: twoDottedParts },
  { label: 'shopify-token', prefixes: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], body: ALNUM_CHARS, min: 32, max: 64 },
  { label: 'linear-key', prefixes: ['lin_api_'], body: ALNUM_UNDERSCORE, min: 32, max: 128 },
  { label: 'onepassword-token', prefixes: ['ops_eyJ'], body: ANY_BASE64, min: 50, max: 8192 },
  { label: 'digitalocean-token', prefixes: ['dop_v1_', 'doo_v1_', 'dor_v1_'], body: HEX_CHARS, min: 64, max: 64 },
  // HashiCorp Vault's service, batch and recovery tokens (`hvs.CAESI…`); a cut-down one still names a token.
  {
    label: 'vault-token',
    prefixes: ['hvs.', 'hvb.', 'hvr.'],
    body: BASE64URL_CHARS,
    min: 14,
    max: 512,
    accept: variedChars,
  },
];

interface PrefixEntry {
  prefix: string;
  format: TokenFormat;
}

const ENTRIES: PrefixEntry[] = TOKEN_FORMATS.flatMap((format) => format.prefixes.map((prefix) => ({ prefix, format })));
/**
 * For the prefix the regex matched (the longest at that position), every format to try there:
 * its own, then those of shorter prefixes it starts with (`sk-ant-` falls back to `sk-`).
 */
const TRY_AT_PREFIX = new Map<string, PrefixEntry[]>();
for (const entry of ENTRIES) {
  const fallbacks = ENTRIES.filter((other) => other !== entry && entry.prefix.startsWith(other.prefix));
  fallbacks.sort((a, b) => b.prefix.length - a.prefix.length);
  TRY_AT_PREFIX.set(entry.prefix, [entry, ...fallbacks]);
}

function escapeLiteral(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Plain literals only, longest first: no quantifier, so nothing to backtrack into. */
const PREFIX_PATTERN = new RegExp(
  [...new Set(ENTRIES.map((entry) => entry.prefix))]
    .sort((a, b) => b.length - a.length)
    .map(escapeLiteral)
    .join('|'),
  'g',
);

/** An AWS secret access key: exactly 40 base64 chars, looked for just after an access key id. */
const AWS_SECRET_LENGTH = 40;
const AWS_SECRET_WINDOW = 200;

function findAwsSecretAfter(text: string, from: number, out: Candidate[]): void {
  const stop = Math.min(text.length, from + AWS_SECRET_WINDOW);
  let i = from;
  while (i < stop) {
    if (!has(BASE64_CHARS, text.charCodeAt(i))) {
      i++;
      continue;
    }
    const end = runEnd(text, i, BASE64_CHARS, i + AWS_SECRET_LENGTH + 1);
    if (end - i === AWS_SECRET_LENGTH && !has(BASE64_CHARS, text.charCodeAt(end)) && hasDigitAndLetter(text, i, end)) {
      out.push({ label: 'aws-secret-key', detector: DETECTOR, start: i, end });
      return;
    }
    i = runEnd(text, end, BASE64_CHARS, stop);
  }
}

export const detectPrefixedTokens: Detector = (text, _mode, out) => {
  PREFIX_PATTERN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = PREFIX_PATTERN.exec(text)) !== null) {
    const at = match.index;
    let resume = at + 1;
    // Inside a word no prefix can start until the word ends: skip the rest of it.
    if (!wordBoundaryBefore(text, at)) resume = runEnd(text, at, ALNUM_CHARS);
    else {
      for (const entry of TRY_AT_PREFIX.get(match[0]) ?? []) {
        const { format } = entry;
        const bodyStart = at + entry.prefix.length;
        const bodyEnd = runEnd(text, bodyStart, format.body, bodyStart + format.max + 1);
        // A run longer than the format allows is some other, longer word: skip all of it.
        resume = Math.max(resume, bodyEnd);
        const length = bodyEnd - bodyStart;
        if (length < format.min || length > format.max || !wordBoundaryAfter(text, bodyEnd)) continue;
        if (format.accept && !format.accept(text, bodyStart, bodyEnd)) continue;
        out.push({ label: format.label, detector: DETECTOR, start: at, end: bodyEnd });
        if (format.label === 'aws-access-key') findAwsSecretAfter(text, bodyEnd, out);
        break;
      }
    }
    PREFIX_PATTERN.lastIndex = resume;
  }
};
