// Reads one HTTP/1.1 response from the bytes received so far, for the bridge's
// request over a plain socket (node:http costs more to load than the whole
// exchange). Only what an endpoint's reply can be: a status line, headers, and
// a body sized by Content-Length, chunked, or ended by the connection closing.
// Whatever arrives, the body is used only if its MAC verifies.

export type HttpReply =
  | { state: 'complete'; status: number; headers: Map<string, string>; body: Buffer }
  | { state: 'incomplete' }
  | { state: 'malformed'; problem: string };

const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD_BYTES = 64 * 1024;

function parseHead(text: string): { status: number; headers: Map<string, string> } | string {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
  if (!status) return `its status line ${JSON.stringify(statusLine.slice(0, 80))} is not HTTP/1.1`;
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `a header line ${JSON.stringify(line.slice(0, 80))} has no name`;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    // A repeated header that decides the body or the verdict is ambiguous: refuse it.
    if (headers.has(name) && name !== 'set-cookie') return `the header ${name} appears twice`;
    headers.set(name, value);
  }
  return { status: Number(status[1]), headers };
}

/** Decodes a chunked body; undefined while more bytes are needed. */
function dechunk(data: Buffer): Buffer | string | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const sizeText = data.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return `a chunk size ${JSON.stringify(sizeText)} is not hex`;
    const size = parseInt(sizeText, 16);
    const start = lineEnd + 2;
    if (size === 0) return data.indexOf('\r\n', start) < 0 ? undefined : Buffer.concat(parts);
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** The response in `data`; `ended` says the peer closed, so a body without a length is whole. */
export function readHttpReply(data: Buffer, ended: boolean): HttpReply {
  const headEnd = data.indexOf(HEAD_END);
  if (headEnd < 0) {
    if (data.length > MAX_HEAD_BYTES) return { state: 'malformed', problem: 'its headers are too long' };
    return ended
      ? { state: 'malformed', problem: 'it closed the connection before a whole reply' }
      : { state: 'incomplete' };
  }
  const head = parseHead(data.subarray(0, headEnd).toString('latin1'));
  if (typeof head === 'string') return { state: 'malformed', problem: head };
  const rest = data.subarray(headEnd + HEAD_END.length);
  const incomplete: HttpReply = ended
    ? { state: 'malformed', problem: 'it closed the connection before the whole body' }
    : { state: 'incomplete' };
  const transfer = head.headers.get('transfer-encoding');
  if (transfer !== undefined) {
    if (transfer.toLowerCase() !== 'chunked') return { state: 'malformed', problem: `transfer-encoding ${transfer}` };
    const body = dechunk(rest);
    if (typeof body === 'string') return { state: 'malformed', problem: body };
    return body ? { state: 'complete', ...head, body } : incomplete;
  }
  const lengthText = head.headers.get('content-length');
  if (lengthText !== undefined) {
    if (!/^\d{1,10}$/.test(lengthText)) return { state: 'malformed', problem: `content-length ${lengthText}` };
    const length = Number(lengthText);
    return rest.length >= length ? { state: 'complete', ...head, body: rest.subarray(0, length) } : incomplete;
  }
  return ended ? { state: 'complete', ...head, body: rest } : { state: 'incomplete' };
}
