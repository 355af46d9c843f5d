// PEM private key blocks, BEGIN to END, whatever the key type (RSA, EC, DSA, OPENSSH, ENCRYPTED,
// PGP). Also inside JSON strings, where the line breaks are `\n` escapes (GCP service accounts).
// A block cut short (no END) is redacted up to where its base64 body stops.
import { markerAt } from '../labels';
import type { Detector } from '../types';

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';
const MARKER = '<redacted:';

/** Where the next real redaction marker starts (`<redacted:` with one of the redactor's labels), or -1. */
function nextMarkerFrom(text: string, from: number): number {
  let at = text.indexOf(MARKER, from);
  while (at >= 0 && !markerAt(text, at)) at = text.indexOf(MARKER, at + 1);
  return at;
}
const MAX_LABEL = 64;
/** An 8192-bit RSA key is under 7 KB of PEM; an END further away than this belongs to something else. */
const MAX_BLOCK = 16384;

function isLabelChar(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 32;
}

function labelEnd(text: string, from: number): number {
  const stop = Math.min(text.length, from + MAX_LABEL);
  let i = from;
  while (i < stop && isLabelChar(text.charCodeAt(i))) i++;
  return i;
}

/** Base64, PEM headers (`Proc-Type: 4,ENCRYPTED`), whitespace and `\n` escapes. */
function isBodyChar(code: number): boolean {
  if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57)) return true;
  return (
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 58 ||
    code === 44 ||
    code === 45 ||
    code === 92 ||
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13
  );
}

export const detectPrivateKeys: Detector = (text, _mode, out) => {
  let from = 0;
  // The next END at or after some position only moves forward as BEGINs do: search it once per region.
  let nextEnd = -2;
  let nextMarker = -2;
  while (from < text.length) {
    const begin = text.indexOf(BEGIN, from);
    if (begin < 0) return;
    const nameStart = begin + BEGIN.length;
    const nameEnd = labelEnd(text, nameStart);
    if (!text.startsWith(DASHES, nameEnd) || !text.slice(nameStart, nameEnd).includes('PRIVATE KEY')) {
      from = nameStart;
      continue;
    }
    const bodyStart = nameEnd + DASHES.length;
    if (nextEnd !== -1 && nextEnd < bodyStart) nextEnd = text.indexOf(END, bodyStart);
    if (nextMarker !== -1 && nextMarker < bodyStart) nextMarker = nextMarkerFrom(text, bodyStart);
    const holdsMarker = nextMarker >= 0 && nextMarker < nextEnd;
    let blockEnd: number;
    // A block that already holds a redaction marker cannot be redacted whole (markers are kept as
    // they are), so it is treated as cut short: the header goes now, as it would on a second pass.
    if (nextEnd >= 0 && nextEnd - bodyStart <= MAX_BLOCK && !holdsMarker) {
      const endNameEnd = labelEnd(text, nextEnd + END.length);
      blockEnd = text.startsWith(DASHES, endNameEnd) ? endNameEnd + DASHES.length : endNameEnd;
    } else {
      const stop = Math.min(text.length, bodyStart + MAX_BLOCK);
      blockEnd = bodyStart;
      while (blockEnd < stop && isBodyChar(text.charCodeAt(blockEnd))) blockEnd++;
    }
    out.push({ label: 'private-key', detector: 'private-key', start: begin, end: blockEnd });
    from = Math.max(blockEnd, bodyStart);
  }
};
