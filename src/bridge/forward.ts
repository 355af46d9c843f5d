import { connect } from 'node:net';
import { BRIDGE_NONCE_HEADER, newBridgeNonce, REPLY_MAC_HEADER, verifyReply } from '../core/endpointAuth';
import { readHttpReply } from './httpReply';

// One hook body to the endpoint as a plain HTTP/1.1 request over node:net
// (node:http would cost more to load than the exchange itself), and its reply
// checked by MAC: a reply is used only if the endpoint that holds the key made
// it for this very request (the nonce), so neither a stale endpoint nor
// anything else listening on the port can answer for Warden.

export type ForwardResult = { ok: true; text: string } | { ok: false; problem: string };

export interface ForwardOptions {
  url: string;
  token: string;
  agent: string;
  body: string;
  key: Buffer;
  /** How long to wait for the TCP connection. */
  connectTimeoutMs: number;
  /** How long to wait for the verdict (a held ask waits for a person). */
  replyTimeoutMs: number;
}

/** Bytes allowed in a header value we write (no CR/LF, so nothing can add headers). */
const HEADER_VALUE = /^[\x20-\x7e]*$/;

function requestHead(target: URL, opts: ForwardOptions, nonce: string): string {
  return [
    `POST ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(opts.body)}`,
    `Authorization: Bearer ${opts.token}`,
    `${BRIDGE_NONCE_HEADER}: ${nonce}`,
    // The endpoint closes after its reply; the bridge must not half-close first (node:http drops such requests).
    'Connection: close',
    '',
    '',
  ].join('\r\n');
}

/** The verdict text from a complete reply, or why it is not to be used. */
function verdictOf(status: number, mac: string | undefined, text: string, opts: ForwardOptions, nonce: string) {
  if (status !== 200) return { ok: false as const, problem: `HTTP ${status}` };
  if (!verifyReply(opts.key, nonce, text, mac))
    return { ok: false as const, problem: 'its reply failed authentication (no valid reply MAC)' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false as const, problem: 'its reply is not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false as const, problem: 'its reply is not a JSON object' };
  return { ok: true as const, text };
}

export async function forward(opts: ForwardOptions): Promise<ForwardResult> {
  if (!HEADER_VALUE.test(opts.token)) return { ok: false, problem: 'the hook token holds characters a header cannot' };
  let target: URL;
  try {
    target = new URL(`${opts.url}/hooks/${opts.agent}`);
  } catch {
    return { ok: false, problem: `its URL ${JSON.stringify(opts.url)} is not a URL` };
  }
  const nonce = await newBridgeNonce();
  return new Promise((resolve) => {
    let settled = false;
    const received: Buffer[] = [];
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port: Number(target.port) });
    // The timers never hold the process (the socket does while it waits), so a verdict needs no
    // clean-up before the bridge exits: the socket is only unref'd. A failure closes it, since the
    // process goes on to evaluate in-process.
    const finish = (result: ForwardResult) => {
      if (settled) return;
      settled = true;
      if (result.ok) socket.unref();
      else socket.destroy();
      resolve(result);
    };
    let connected = false;
    setTimeout(() => {
      if (!connected) finish({ ok: false, problem: `no connection within ${opts.connectTimeoutMs} ms` });
    }, opts.connectTimeoutMs).unref();
    setTimeout(
      () => finish({ ok: false, problem: `no verdict within ${Math.round(opts.replyTimeoutMs / 1000)} s` }),
      opts.replyTimeoutMs,
    ).unref();
    const read = (ended: boolean) => {
      const reply = readHttpReply(Buffer.concat(received), ended);
      if (reply.state === 'incomplete') return;
      if (reply.state === 'malformed') return finish({ ok: false, problem: `its reply is not HTTP: ${reply.problem}` });
      finish(verdictOf(reply.status, reply.headers.get(REPLY_MAC_HEADER), reply.body.toString('utf8'), opts, nonce));
    };
    socket.once('connect', () => (connected = true));
    socket.on('error', (err) => finish({ ok: false, problem: err.message }));
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      read(false);
    });
    socket.on('end', () => read(true));
    socket.on('close', () => finish({ ok: false, problem: 'it closed the connection without a reply' }));
    socket.write(requestHead(target, opts, nonce) + opts.body);
  });
}
