// Credentials inside URLs: the password of a connection string (`postgres://u:p@h`), URL userinfo
// (`https://user:pass@host`, `https://TOKEN@host`), and webhook URLs whose path is the secret
// (Slack, Discord).
import { isAlnum } from '../charset';
import type { Label } from '../labels';
import type { Candidate, Detector } from '../types';
import { isPlaceholder, isReference } from '../value-shape';

const DETECTOR = 'url';
const MAX_SCHEME = 32;
const MAX_AUTHORITY = 2048;
/** A user name this long is a token used as the user (`https://ghp_…@github.com`, `https://<hex>:x-oauth-basic@…`). */
const TOKEN_AS_USER_LENGTH = 20;
const WEB_SCHEMES = new Set(['http', 'https', 'ws', 'wss']);

function isSchemeChar(code: number): boolean {
  return isAlnum(code) || code === 43 || code === 46 || code === 45;
}

/** Ends an authority: path, query, fragment, whitespace, quotes, brackets of markup, backslash. */
function endsAuthority(ch: string): boolean {
  switch (ch) {
    case '/':
    case '?':
    case '#':
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '"':
    case "'":
    case '`':
    case '<':
    case '>':
    case '\\':
    case ',':
    case ';':
      return true;
    default:
      return false;
  }
}

interface Webhook {
  host: string;
  paths: string[];
  label: Label;
}

const WEBHOOKS: Webhook[] = [
  { host: 'hooks.slack.com', paths: ['/services/', '/workflows/', '/triggers/'], label: 'slack-webhook' },
  { host: 'discord.com', paths: ['/api/webhooks/'], label: 'discord-webhook' },
  { host: 'discordapp.com', paths: ['/api/webhooks/'], label: 'discord-webhook' },
];

function isWebhookPathChar(code: number): boolean {
  return isAlnum(code) || code === 47 || code === 95 || code === 45;
}

const WEBHOOK_HOST_LENGTHS = new Set(WEBHOOKS.map((hook) => hook.host.length));

function detectWebhook(text: string, hostStart: number, hostEnd: number, out: Candidate[]): void {
  if (!WEBHOOK_HOST_LENGTHS.has(hostEnd - hostStart)) return;
  const host = text.slice(hostStart, hostEnd).toLowerCase();
  for (const hook of WEBHOOKS) {
    if (host !== hook.host) continue;
    for (const path of hook.paths) {
      if (!text.startsWith(path, hostEnd)) continue;
      const start = hostEnd + path.length;
      const stop = Math.min(text.length, start + MAX_AUTHORITY);
      let end = start;
      while (end < stop && isWebhookPathChar(text.charCodeAt(end))) end++;
      if (end - start >= 16) out.push({ label: hook.label, detector: DETECTOR, start, end });
      return;
    }
  }
}

function detectUserinfo(text: string, scheme: string, start: number, at: number, out: Candidate[]): void {
  let colon = -1;
  for (let i = start; i < at; i++) {
    if (text.charAt(i) === ':') {
      colon = i;
      break;
    }
  }
  const userEnd = colon < 0 ? at : colon;
  const user = text.slice(start, userEnd);
  if (user.length >= TOKEN_AS_USER_LENGTH && !isReference(user)) {
    out.push({ label: 'url-credential', detector: DETECTOR, start, end: at });
    return;
  }
  if (colon < 0) return;
  const password = text.slice(colon + 1, at);
  if (password.length === 0 || isReference(password) || isPlaceholder(password)) return;
  const label = WEB_SCHEMES.has(scheme) ? 'url-password' : 'connection-string-password';
  out.push({ label, detector: DETECTOR, start: colon + 1, end: at });
}

export const detectUrlCredentials: Detector = (text, _mode, out) => {
  let from = 0;
  while (from < text.length) {
    const sep = text.indexOf('://', from);
    if (sep < 0) return;
    const authorityStart = sep + 3;
    const stop = Math.min(text.length, authorityStart + MAX_AUTHORITY);
    let authorityEnd = authorityStart;
    let lastAt = -1;
    while (authorityEnd < stop) {
      const ch = text.charAt(authorityEnd);
      if (endsAuthority(ch)) break;
      if (ch === '@') lastAt = authorityEnd;
      authorityEnd++;
    }
    // The scan stopped at the next `/` at the latest, so the next `://` lies beyond it: linear.
    from = Math.max(authorityEnd, authorityStart);
    let schemeStart = sep;
    const floor = Math.max(0, sep - MAX_SCHEME);
    while (schemeStart > floor && isSchemeChar(text.charCodeAt(schemeStart - 1))) schemeStart--;
    if (schemeStart === sep) continue;
    if (lastAt > authorityStart)
      detectUserinfo(text, text.slice(schemeStart, sep).toLowerCase(), authorityStart, lastAt, out);
    detectWebhook(text, lastAt >= 0 ? lastAt + 1 : authorityStart, authorityEnd, out);
  }
};
