// JSON Web Tokens: three base64url parts joined by dots, the first an encoded JSON object (`eyJ`).
import { BASE64URL_CHARS, has, runEnd } from '../charset';
import { markerEndsAt } from '../labels';
import type { Detector } from '../types';

const MIN_HEADER = 10;
const MIN_PAYLOAD = 10;

export const detectJwts: Detector = (text, _mode, out) => {
  let from = 0;
  while (from < text.length) {
    const at = text.indexOf('eyJ', from);
    if (at < 0) return;
    if (at > 0 && (has(BASE64URL_CHARS, text.charCodeAt(at - 1)) || markerEndsAt(text, at))) {
      // Inside a longer base64 word (a 1Password token, a blob): not where a JWT starts.
      from = runEnd(text, at, BASE64URL_CHARS);
      continue;
    }
    const headerEnd = runEnd(text, at, BASE64URL_CHARS);
    from = headerEnd;
    if (headerEnd - at < MIN_HEADER || text.charAt(headerEnd) !== '.') continue;
    const payloadEnd = runEnd(text, headerEnd + 1, BASE64URL_CHARS);
    from = payloadEnd;
    if (payloadEnd - headerEnd - 1 < MIN_PAYLOAD || text.charAt(payloadEnd) !== '.') continue;
    // The signature may be empty (`alg: none`); the claims alone are still worth hiding.
    const signatureEnd = runEnd(text, payloadEnd + 1, BASE64URL_CHARS);
    from = signatureEnd;
    out.push({ label: 'jwt', detector: 'jwt', start: at, end: signatureEnd });
  }
};
