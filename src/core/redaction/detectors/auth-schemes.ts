// `Bearer <token>` and `Basic <base64 user:pass>` outside a header line: in code, logs, prose.
// Prose such as "send a Bearer token" is left alone: a bearer credential here must look like one.
import { has, isDigit, wordBoundaryBefore } from '../charset';
import type { Detector } from '../types';

const SCHEME = /(?:bearer|basic)[ \t]/gi;
const MAX_CREDENTIAL = 4096;
const MIN_BEARER = 16;
const MIN_BASIC = 8;

/** token68 of RFC 7235: the alphabet of bearer and basic credentials. */
const TOKEN68 = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=') TOKEN68[ch.charCodeAt(0)] = 1;

function decodesToUserAndPassword(encoded: string): boolean {
  if (encoded.length % 4 === 1) return false;
  const decoded = Buffer.from(encoded, 'base64').toString('latin1');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return false;
  for (let i = 0; i < decoded.length; i++) {
    const code = decoded.charCodeAt(i);
    if (code < 32 || code > 126) return false;
  }
  return true;
}

export const detectAuthSchemes: Detector = (text, _mode, out) => {
  SCHEME.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = SCHEME.exec(text)) !== null) {
    const at = match.index;
    const bearer = match[0].length === 7;
    let i = at + match[0].length - 1;
    if (!wordBoundaryBefore(text, at)) continue;
    while (text.charAt(i) === ' ' || text.charAt(i) === '\t') i++;
    const start = i;
    const stop = Math.min(text.length, start + MAX_CREDENTIAL);
    let digit = false;
    while (i < stop && has(TOKEN68, text.charCodeAt(i))) {
      if (isDigit(text.charCodeAt(i))) digit = true;
      i++;
    }
    SCHEME.lastIndex = Math.max(i, at + 1);
    let end = i;
    // A sentence's full stop is not part of the token.
    while (end > start && text.charAt(end - 1) === '.') end--;
    const length = end - start;
    if (bearer && length >= MIN_BEARER && digit) {
      out.push({ label: 'bearer-token', detector: 'auth-scheme', start, end });
    } else if (!bearer && length >= MIN_BASIC && decodesToUserAndPassword(text.slice(start, end))) {
      out.push({ label: 'basic-auth', detector: 'auth-scheme', start, end });
    }
  }
};
