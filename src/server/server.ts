import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerToken, isLoopbackHost, tokensEqual } from './auth';
import { DEFAULT_BODY_CAP, readBody } from './body';
import type { HookService } from './hooks';
import { VERSION } from '../core/version';
import { BRIDGE_NONCE_HEADER, REPLY_MAC_HEADER, replyMac } from '../core/endpointAuth';
import { REPLY_SIGNATURE_HEADER, SHELL_BRIDGE_NONCE_HEADER, signShellReply } from '../core/shellBridgeAuth';
import type { LoopStats } from './loopStats';

/** A hook body arrives in one go from a local agent; one that trickles for longer is refused. */
export const BODY_TIMEOUT_MS = 30_000;

/**
 * Connections the kernel holds for us while the event loop is busy. Node's default (511) fills in
 * a burst of agent calls; the kernel then drops new connections and the agent's TCP stack retries
 * after 1, 3, 7 s, so a call (an ask among them) waits seconds before Warden even sees it. The
 * kernel caps this at its own limit (net.core.somaxconn).
 */
const LISTEN_BACKLOG = 65_535;

/** A route group mounted beside the hook routes (the panel API adds one). */
export interface RouteGroup {
  /** Returns true when it handled the request. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> | boolean;
}

export interface WardenServerOptions {
  hooks: HookService;
  hookToken: string;
  /** Signs replies to requests that carry the bridge's nonce. */
  endpointKey?: Buffer;
  port?: number;
  host?: string;
  bodyCap?: number;
  /** How long a hook request's body may take to arrive (apart from how long a held ask may wait). */
  bodyTimeoutMs?: number;
  routes?: RouteGroup[];
  /** Opt-in load figures on /health (AGENT_WARDEN_STATS=1); `?reset=1` starts a new window. */
  stats?: LoopStats;
  onError?: (message: string) => void;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, JSON.stringify(value), headers);
}

/** Sends an already serialised JSON body (its exact bytes may be under a MAC). */
function sendText(res: ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/** The HTTP endpoint on loopback: hooks for agents, health, and any mounted route groups. */
export class WardenServer {
  private server: Server | undefined;
  private boundPort = 0;

  constructor(private readonly opts: WardenServerOptions) {}

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  async listen(): Promise<string> {
    const server = createServer((req, res) => {
      this.inFlight++;
      res.once('close', () => this.inFlight--);
      this.route(req, res).catch((err: Error) => {
        this.opts.onError?.(`request failed: ${err.stack ?? err.message}`);
        if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
        else res.end();
      });
    });
    // Held asks can wait minutes for a person; never cut them off.
    server.requestTimeout = 0;
    server.headersTimeout = 30_000;
    server.keepAliveTimeout = 65_000;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, this.opts.host ?? '127.0.0.1', LISTEN_BACKLOG, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.boundPort = (server.address() as AddressInfo).port;
    return this.url;
  }

  /**
   * Stops listening, lets the replies already being written go out (held asks
   * settled by the host's shutdown answer deny, not a dropped connection that an
   * agent would read as "go ahead"), then cuts what is left after `graceMs`.
   */
  async close(graceMs = 2000): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = Date.now() + graceMs;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    server.closeAllConnections();
    await closed;
  }

  private inFlight = 0;

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!isLoopbackHost(req, this.boundPort)) {
      sendJson(res, 403, { error: 'the Host header must name this loopback endpoint' });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/health') {
      const stats = await this.opts.stats?.read(url.searchParams.get('reset') === '1');
      sendJson(res, 200, stats ? { ok: true, version: VERSION, stats } : { ok: true, version: VERSION });
      return;
    }
    const hookMatch = /^\/hooks\/([a-z][a-z0-9-]*)$/.exec(url.pathname);
    if (hookMatch) {
      await this.hook(req, res, hookMatch[1]!);
      return;
    }
    for (const group of this.opts.routes ?? []) {
      if (await group.handle(req, res, url)) return;
    }
    sendJson(res, 404, { error: `no route for ${req.method} ${url.pathname}` });
  }

  private async hook(req: IncomingMessage, res: ServerResponse, agent: string): Promise<void> {
    // A browser page must never drive the hook endpoint.
    if (req.headers.origin !== undefined) {
      req.resume();
      sendJson(res, 403, { error: 'requests with an Origin header are refused' });
      return;
    }
    const token = bearerToken(req);
    if (!token || !tokensEqual(token, this.opts.hookToken)) {
      req.resume();
      sendJson(res, 401, { error: 'a valid hook token is required (Authorization: Bearer …)' });
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'hooks take POST' }, { allow: 'POST' });
      return;
    }
    const hangUp = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) hangUp.abort();
    });
    const body = await readBody(req, this.opts.bodyCap ?? DEFAULT_BODY_CAP, this.opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS);
    const headless = req.headers['x-agent-warden-headless'] === '1';
    const result = await this.opts.hooks.handle(
      agent,
      body.ok ? body.text : { problem: body.problem },
      hangUp.signal,
      headless,
    );
    // Agents treat anything but 2xx as "go ahead": every agent request gets 200 and a verdict.
    const headers: Record<string, string> = !body.ok && (body.tooLarge || body.stalled) ? { connection: 'close' } : {};
    const replyText = JSON.stringify(result.reply);
    const nonce = req.headers[BRIDGE_NONCE_HEADER];
    if (this.opts.endpointKey && typeof nonce === 'string' && /^[0-9a-f]{32}$/.test(nonce))
      headers[REPLY_MAC_HEADER] = replyMac(this.opts.endpointKey, nonce, replyText);
    const shellNonce = req.headers[SHELL_BRIDGE_NONCE_HEADER];
    if (this.opts.endpointKey && typeof shellNonce === 'string' && /^[0-9a-f]{32}$/.test(shellNonce))
      headers[REPLY_SIGNATURE_HEADER] = signShellReply(this.opts.endpointKey, shellNonce, replyText);
    sendText(res, 200, replyText, headers);
  }
}
