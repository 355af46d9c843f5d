import { request } from 'node:http';
import { BRIDGE_NONCE_HEADER, newBridgeNonce, REPLY_MAC_HEADER, verifyReply } from '../core/endpointAuth';

// One hook body to the endpoint over node:http, and its reply checked by MAC:
// a reply is used only if the endpoint that holds the key made it for this
// very request (the nonce), so neither a stale endpoint nor anything else
// listening on the port can answer for Warden.

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

export function forward(opts: ForwardOptions): Promise<ForwardResult> {
  const nonce = newBridgeNonce();
  const target = new URL(`${opts.url}/hooks/${opts.agent}`);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ForwardResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(replyTimer);
      req.destroy();
      resolve(result);
    };
    const req = request({
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port,
      path: target.pathname,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(opts.body),
        authorization: `Bearer ${opts.token}`,
        [BRIDGE_NONCE_HEADER]: nonce,
      },
    });
    const connectTimer = setTimeout(
      () => finish({ ok: false, problem: `no connection within ${opts.connectTimeoutMs} ms` }),
      opts.connectTimeoutMs,
    );
    const replyTimer = setTimeout(
      () => finish({ ok: false, problem: `no verdict within ${Math.round(opts.replyTimeoutMs / 1000)} s` }),
      opts.replyTimeoutMs,
    );
    req.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    req.on('error', (err) => finish({ ok: false, problem: err.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => finish({ ok: false, problem: err.message }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return finish({ ok: false, problem: `HTTP ${res.statusCode}` });
        const mac = res.headers[REPLY_MAC_HEADER];
        if (!verifyReply(opts.key, nonce, text, typeof mac === 'string' ? mac : undefined))
          return finish({ ok: false, problem: 'its reply failed authentication (no valid reply MAC)' });
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          return finish({ ok: false, problem: 'its reply is not JSON' });
        }
        if (typeof json !== 'object' || json === null || Array.isArray(json))
          return finish({ ok: false, problem: 'its reply is not a JSON object' });
        finish({ ok: true, text });
      });
    });
    req.end(opts.body);
  });
}
