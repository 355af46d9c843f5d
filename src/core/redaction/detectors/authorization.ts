// The value of an Authorization header: the scheme word stays (`Bearer`, `Basic`, `token`), the
// credential after it goes. Used wherever such a header is met: a header line, `-H '…'`, JSON.
import { isAlnum } from '../charset';
import type { Label } from '../labels';
import type { Slice } from '../scan';
import type { Candidate, RedactionMode } from '../types';
import { isPlaceholder, isReference } from '../value-shape';

const MIN_HEADER_CREDENTIAL_LENGTH = 4;

/** Authentication schemes of the Authorization header; the word stays visible, the credential goes. */
const AUTH_SCHEMES = new Set([
  'bearer',
  'basic',
  'token',
  'digest',
  'negotiate',
  'ntlm',
  'hoba',
  'mutual',
  'vapid',
  'dpop',
  'gssapi',
  'apikey',
  'key',
  'sso-key',
  'bot',
  'oauth',
  'hmac',
  'splunk',
  'otoken',
  'aws4-hmac-sha256',
  'scram-sha-1',
  'scram-sha-256',
]);

/** Where the credential starts: after a known scheme word (`Bearer abc` → 7), else the whole value. */
function credentialOffset(value: string): { scheme: string; offset: number } {
  let i = 0;
  while (i < value.length && i <= 24 && value.charAt(i) !== ' ' && value.charAt(i) !== '\t') i++;
  const scheme = value.slice(0, i).toLowerCase();
  if (i === value.length || !AUTH_SCHEMES.has(scheme)) return { scheme: '', offset: 0 };
  while (value.charAt(i) === ' ' || value.charAt(i) === '\t') i++;
  return { scheme, offset: i };
}

function authorizationLabel(scheme: string): Label {
  if (scheme === 'bearer') return 'bearer-token';
  if (scheme === 'basic') return 'basic-auth';
  return 'authorization-header';
}

/** token68 and the few chars credentials add (`%`, `:`): where a narrow credential stops. */
function isCredentialChar(code: number): boolean {
  return (
    isAlnum(code) ||
    code === 45 ||
    code === 46 ||
    code === 95 ||
    code === 126 ||
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 37 ||
    code === 58
  );
}

/**
 * Blunt takes the whole credential whatever it is; narrow leaves references and masks, and in a
 * sentence (no header line, no quoted value) takes only the token right after the scheme.
 */
export function judgeAuthorization(
  slice: Slice,
  value: string,
  mode: RedactionMode,
  structured: boolean,
  detector: string,
  out: Candidate[],
): void {
  const { scheme, offset } = credentialOffset(value);
  const label = authorizationLabel(scheme);
  if (mode === 'blunt') {
    out.push({ label, detector, start: slice.start + offset, end: slice.end });
    return;
  }
  let end = offset;
  if (structured) end = value.length;
  else while (end < value.length && isCredentialChar(value.charCodeAt(end))) end++;
  const credential = value.slice(offset, end);
  if (credential.length < MIN_HEADER_CREDENTIAL_LENGTH || isReference(credential) || isPlaceholder(credential)) return;
  // "Authorization: Bearer" in a sentence names the scheme and holds no credential.
  if (offset === 0 && AUTH_SCHEMES.has(credential.toLowerCase())) return;
  out.push({ label, detector, start: slice.start + offset, end: slice.start + end });
}
