// A real Warden endpoint for the approval tests and the held-ask bench: WardenHost
// (hook routes, ask broker, panel routes) over a temp state folder, with an
// evaluator whose only policy asks for `echo ask-me …` and denies `rm -rf /`.
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { z } from 'zod';
import { ActivityLog } from '../../../src/core/activity/log';
import { Evaluator } from '../../../src/core/evaluator';
import { definePolicy } from '../../../src/core/policies/types';
import { WardenHost } from '../../../src/server/host';
import type { HookEvent } from '../../../src/core/types';
import { aHookEvent } from '../../builders/hookEvent';
import { aTempProject } from '../../builders/tempProject';

export const ASK_REASON = 'the test policy asks a person before any echo ask-me';
export const DENY_REASON = 'the test policy refuses rm -rf / outright';

/** Asks for `echo ask-me …`, denies `rm -rf /`, has no objection to anything else. */
export const askMePolicy = definePolicy({
  name: 'test-ask-me',
  category: 'workflow',
  description: 'Test only: asks for echo ask-me commands and denies rm -rf /.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const command = call?.command?.trim();
    if (command === undefined) return null;
    if (/^rm\s+-rf\s+\/$/.test(command)) return { decision: 'deny', reason: DENY_REASON };
    if (command.startsWith('echo ask-me')) return { reason: ASK_REASON };
    return null;
  },
});

export interface Endpoint {
  url: string;
  hookToken: string;
  /** The session cookie (name=value) that the one-time panel link was exchanged for. */
  panelCookie: string;
  /** A project folder (holds .git) used as the calls' cwd. */
  project: string;
  logPath: string;
  host: WardenHost;
  close(): Promise<void>;
}

export async function startEndpoint(opts: {
  approvalTimeoutSeconds: number | (() => number);
  hookTimeoutSeconds?: (event: HookEvent) => number | undefined;
  maxPromptAsks?: number;
}): Promise<Endpoint> {
  await Evaluator.ready();
  const temp = aTempProject({ name: 'approvals-http', branch: 'main' });
  const { root, dir: project } = temp;
  const stateDir = join(root, 'state');
  const logPath = join(stateDir, 'activity.jsonl');
  const log = new ActivityLog({ path: logPath, key: randomBytes(32), maxBytes: 64 * 1024 * 1024, keep: 2 });
  const evaluator = new Evaluator({ stateDir, log, home: temp.home, policies: [askMePolicy] });
  const hookToken = randomBytes(24).toString('base64url');
  const errors: string[] = [];
  const host = new WardenHost({
    evaluator,
    log,
    hookToken,
    approvalTimeoutSeconds: opts.approvalTimeoutSeconds,
    ...(opts.hookTimeoutSeconds ? { hookTimeoutSeconds: opts.hookTimeoutSeconds } : {}),
    ...(opts.maxPromptAsks !== undefined ? { maxPromptAsks: opts.maxPromptAsks } : {}),
    failureDecision: () => 'deny',
    panel: {
      assetsDir: join(root, 'no-assets'),
      renderPage: ({ nonce }) => `<!doctype html><title>panel</title><script nonce="${nonce}"></script>`,
    },
    onError: (message) => errors.push(message),
  });
  const url = await host.listen();
  const opened = await send(host.panelRoutes!.newPanelLink(url));
  if (opened.status !== 303) throw new Error(`the one-time panel link answered ${opened.status}: ${opened.text}`);
  const panelCookie = String(opened.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  return {
    url,
    hookToken,
    panelCookie,
    project,
    logPath,
    host,
    async close() {
      await host.close();
      log.close();
      temp.dispose();
      if (errors.length) throw new Error(`the endpoint reported errors:\n${errors.join('\n')}`);
    },
  };
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export function send(
  url: string,
  opts: { method?: string; headers?: OutgoingHttpHeaders; body?: string; signal?: AbortSignal } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: opts.method ?? 'GET',
      headers: {
        ...(opts.body !== undefined
          ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(opts.body) }
          : {}),
        ...opts.headers,
      },
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.end(opts.body);
  });
}

export function json(result: HttpResult): Record<string, unknown> {
  const value: unknown = JSON.parse(result.text);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`not a JSON object: ${result.text}`);
  return value as Record<string, unknown>;
}

export interface CallShape {
  sessionId?: string;
  command?: string;
  toolInput?: Record<string, unknown>;
  event?: 'PreToolUse' | 'PermissionRequest';
}

/** A Claude Code hook body for a Bash call, as the real CLI sends it. */
export function hookBody(endpoint: Endpoint, shape: CallShape = {}): Record<string, unknown> {
  return aHookEvent()
    .tool('Bash', shape.toolInput ?? { command: shape.command ?? 'echo ask-me please', description: 'approval test' })
    .event(shape.event ?? 'PreToolUse')
    .session(shape.sessionId ?? 'session-A')
    .inCwd(endpoint.project)
    .toolUse('toolu_approvals_http')
    .body();
}

/** POSTs a hook body (an object, or raw text) to /hooks/claude; resolves with the agent's reply. */
export async function postHook(
  endpoint: Endpoint,
  body: object | string,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const result = await send(`${endpoint.url}/hooks/claude`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.hookToken}` },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (result.status !== 200) throw new Error(`the hook answered ${result.status}: ${result.text}`);
  return json(result);
}

export function panelHeaders(endpoint: Endpoint): OutgoingHttpHeaders {
  return { cookie: endpoint.panelCookie };
}

export function getPending(endpoint: Endpoint): Promise<HttpResult> {
  return send(`${endpoint.url}/api/pending`, { headers: panelHeaders(endpoint) });
}

export async function pendingList(endpoint: Endpoint): Promise<Array<Record<string, unknown>>> {
  const result = await getPending(endpoint);
  if (result.status !== 200) throw new Error(`GET /api/pending answered ${result.status}: ${result.text}`);
  return json(result)['pending'] as Array<Record<string, unknown>>;
}

export function postApproval(
  endpoint: Endpoint,
  id: string,
  body: object | string,
  headers: OutgoingHttpHeaders = panelHeaders(endpoint),
): Promise<HttpResult> {
  return send(`${endpoint.url}/api/approvals/${id}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** A panel on GET /api/events: it counts as connected from its snapshot on. */
export interface PanelStream {
  events: SseEvent[];
  /** The next event of `type` (after those already taken) matching `where`. */
  next(
    type: string,
    where?: (data: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  close(): void;
}

export function openPanel(endpoint: Endpoint): Promise<PanelStream> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const taken = new Set<number>();
    const waiters = new Set<() => void>();
    const req = httpRequest(`${endpoint.url}/api/events`, {
      headers: { ...panelHeaders(endpoint), accept: 'text/event-stream' },
    });
    const stream: PanelStream = {
      events,
      next(type, where = () => true, timeoutMs = 10_000) {
        return new Promise((found, fail) => {
          const look = (): boolean => {
            const index = events.findIndex((e, i) => !taken.has(i) && e.event === type && where(e.data));
            if (index < 0) return false;
            taken.add(index);
            found(events[index]!.data);
            return true;
          };
          if (look()) return;
          const timer = setTimeout(() => {
            waiters.delete(waiter);
            fail(new Error(`no ${type} event within ${timeoutMs} ms; seen: ${events.map((e) => e.event).join(', ')}`));
          }, timeoutMs);
          const waiter = () => {
            if (!look()) return;
            clearTimeout(timer);
            waiters.delete(waiter);
          };
          waiters.add(waiter);
        });
      },
      close: () => req.destroy(),
    };
    req.on('error', (err) => reject(err));
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET /api/events answered ${res.statusCode}`));
        res.resume();
        return;
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('error', () => undefined);
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = frame.split('\n').filter((line) => !line.startsWith(':'));
          const type = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
          const data = lines
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice('data: '.length))
            .join('\n');
          if (type === undefined || data === '') continue;
          events.push({ event: type, data: JSON.parse(data) as Record<string, unknown> });
          if (type === 'snapshot' && events.length === 1) resolve(stream);
          for (const waiter of [...waiters]) waiter();
        }
      });
    });
    req.end();
  });
}
