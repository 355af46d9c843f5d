import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AnswerResult, ApprovalAnswer, HostNotification, PendingView } from '../protocol';
import { approvalAnswerSchema } from '../shared/panelSchemas';
import type { RowSummary } from '../protocol';
import type { RecordDetail } from './records';
import { tokensEqual } from './auth';
import { readBody } from './body';
import { findDuplicateKey } from '../core/approvals/rawJsonScan';
import { sendJson, type RouteGroup } from './server';
import { RowBatcher } from './rowBatcher';

// The panel's routes on the standalone server: the page, its assets, the
// approval API and the event stream. The only way in is the one-time link that
// serve prints on its own terminal: it is exchanged once for a session that
// lives in this process's memory. No panel credential is ever written to disk,
// and the hook token (which agents hold) opens none of these routes.

const COOKIE = 'agent_warden_panel';
const API_BODY_CAP = 4 * 1024 * 1024;
/** A link not opened within this long is void: it was printed for a person at the terminal, now. */
const LINK_LIFETIME_MS = 10 * 60_000;

export interface PanelBroker {
  pending(): PendingView[];
  answer(id: string, answer: ApprovalAnswer, answeredBy: string): Promise<AnswerResult>;
  onChange(listener: (n: HostNotification) => void): () => void;
  attachPanel(): () => void;
}

export interface PanelRoutesOptions {
  broker: PanelBroker;
  /** The server's own origin(s), e.g. http://127.0.0.1:PORT. */
  origins: () => string[];
  recentRows: () => RowSummary[];
  /** A call's whole record, for the panel's detail view (read back from the activity log). */
  recordById: (id: string) => RecordDetail;
  /** The folder holding panel.js and panel.css (dist/webview). */
  assetsDir: string;
  renderPage: (opts: { nonce: string; scriptUri: string; styleUri: string }) => string;
}

export class PanelRoutes implements RouteGroup {
  /** One-time link tokens and when each stops working. */
  private readonly oneTimeTokens = new Map<string, number>();
  /** Session ids handed out for used links; memory only. */
  private readonly sessions = new Set<string>();

  constructor(private readonly opts: PanelRoutesOptions) {}

  /** A URL that opens the panel once: /panel consumes its token and sets the session cookie. */
  newPanelLink(baseUrl: string, now = Date.now()): string {
    const once = randomBytes(24).toString('base64url');
    this.oneTimeTokens.set(once, now + LINK_LIFETIME_MS);
    return `${baseUrl}/panel?once=${once}`;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname !== '/panel' && !url.pathname.startsWith('/panel/') && !url.pathname.startsWith('/api/'))
      return false;
    const origin = req.headers.origin;
    if (origin !== undefined && !this.opts.origins().includes(origin)) {
      sendJson(res, 403, { error: 'cross-origin requests are refused' });
      return true;
    }
    if (req.method === 'GET' && url.pathname === '/panel' && url.searchParams.has('once')) {
      this.openWithOneTimeToken(res, url.searchParams.get('once') ?? '');
      return true;
    }
    if (!this.authorised(req)) {
      req.resume();
      sendJson(res, 401, {
        error: 'a panel session is required: open the one-time panel link that serve printed on its terminal',
      });
      return true;
    }
    await this.route(req, res, url);
    return true;
  }

  private openWithOneTimeToken(res: ServerResponse, once: string): void {
    const expires = this.oneTimeTokens.get(once);
    this.oneTimeTokens.delete(once);
    if (expires === undefined || Date.now() > expires) {
      sendJson(res, 401, {
        error:
          'this panel link was already used, has expired or is unknown; restart serve for a new one, or ask an open panel for one',
      });
      return;
    }
    const session = randomBytes(32).toString('base64url');
    this.sessions.add(session);
    res.writeHead(303, {
      location: '/panel',
      'set-cookie': `${COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    res.end();
  }

  private authorised(req: IncomingMessage): boolean {
    const cookie = (req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${COOKIE}=`));
    if (cookie === undefined) return false;
    const given = cookie.slice(COOKIE.length + 1);
    let found = false;
    for (const session of this.sessions) if (tokensEqual(given, session)) found = true;
    return found;
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { broker } = this.opts;
    if (req.method === 'GET' && url.pathname === '/panel') return this.page(res);
    if (req.method === 'GET' && (url.pathname === '/panel/panel.js' || url.pathname === '/panel/panel.css'))
      return this.asset(res, url.pathname.slice('/panel/'.length));
    if (req.method === 'GET' && url.pathname === '/api/pending')
      return sendJson(res, 200, { pending: broker.pending() });
    if (req.method === 'GET' && url.pathname === '/api/records')
      return sendJson(res, 200, { records: this.opts.recentRows() });
    if (req.method === 'GET' && url.pathname === '/api/events') return this.events(req, res);
    if (req.method === 'POST' && url.pathname === '/api/panel-link')
      return sendJson(res, 200, { url: this.newPanelLink(this.opts.origins()[0] ?? '') });
    const one = /^\/api\/records\/([A-Za-z0-9_-]{1,200})$/.exec(url.pathname);
    if (one && req.method === 'GET') {
      const detail = this.opts.recordById(one[1]!);
      return sendJson(res, detail.found ? 200 : 404, detail);
    }
    const approval = /^\/api\/approvals\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (approval && req.method === 'POST') return this.answer(req, res, approval[1]!);
    sendJson(res, 404, { error: `no route for ${req.method} ${url.pathname}` });
  }

  private async answer(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const body = await readBody(req, API_BODY_CAP);
    if (!body.ok) return sendJson(res, body.tooLarge ? 413 : 400, { error: body.problem });
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch (err) {
      return sendJson(res, 400, { error: `the body is not valid JSON (${(err as Error).message})` });
    }
    // JSON.parse keeps the last of two equal keys; an edit must mean one thing only.
    const duplicate = findDuplicateKey(body.text);
    if (duplicate)
      return sendJson(res, 400, {
        error: `bad approval body: a duplicate key ${JSON.stringify(duplicate.key)} at ${duplicate.path}`,
      });
    const parsed = approvalAnswerSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return sendJson(res, 400, {
        error: `bad approval body: ${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}`,
      });
    }
    const result = await this.opts.broker.answer(id, parsed.data, 'web-panel');
    sendJson(res, answerStatus(result), answerBody(result, this.opts.recordById));
  }

  private events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    const send = (n: HostNotification) => res.write(`event: ${n.type}\ndata: ${JSON.stringify(n)}\n\n`);
    // Rows go out in batches (one write per few milliseconds in a burst); anything else at once, after them.
    const rows = new RowBatcher((batch) => send({ type: 'rows', rows: batch }));
    send({ type: 'snapshot', rows: this.opts.recentRows(), pending: this.opts.broker.pending() });
    const detach = this.opts.broker.attachPanel();
    const unsubscribe = this.opts.broker.onChange((n) => {
      if (n.type === 'rows') return rows.add(n.rows);
      rows.flush();
      send(n);
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    heartbeat.unref();
    req.on('close', () => {
      clearInterval(heartbeat);
      rows.dispose();
      unsubscribe();
      detach();
    });
  }

  private page(res: ServerResponse): void {
    const nonce = randomBytes(16).toString('base64');
    const html = this.opts.renderPage({ nonce, scriptUri: '/panel/panel.js', styleUri: '/panel/panel.css' });
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'self'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    res.end(html);
  }

  private asset(res: ServerResponse, name: string): void {
    try {
      const content = readFileSync(join(this.opts.assetsDir, name));
      res.writeHead(200, {
        'content-type': name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.end(content);
    } catch {
      sendJson(res, 404, { error: `the panel asset ${name} is missing: run npm run build` });
    }
  }
}

/** The approval API speaks HTTP: an answer's result as a status code, here and only here. */
export function answerStatus(result: AnswerResult): 200 | 404 | 409 {
  switch (result.kind) {
    case 'ok':
      return 200;
    case 'not-pending':
      return 404;
    default:
      return 409;
  }
}

function answerBody(result: AnswerResult, recordById: (id: string) => RecordDetail): unknown {
  if (result.kind !== 'ok') return { error: result.message };
  const detail = result.row ? recordById(result.row.id) : undefined;
  return { resolution: result.resolution, record: detail?.found ? detail.record : null };
}
