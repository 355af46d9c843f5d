import type {
  ApprovalAnswer,
  AnswerResult,
  HostMessage,
  PanelCommand,
  PanelMessage,
  RequestMethod,
  RequestParams,
  RequestResult,
} from '../../src/protocol';
import { PROTOCOL_VERSION, REQUEST_TIMEOUT_MS } from '../../src/protocol';

// One interface, two transports: the webview talks to the extension host
// through postMessage; the web page talks to the standalone server through
// its event stream and HTTP routes. The views never know which.

export interface Transport {
  readonly kind: 'vscode' | 'web';
  /** Starts delivery of host messages (the first one is the snapshot). */
  start(listener: (message: HostMessage) => void): void;
  command(command: PanelCommand): void;
  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
}

interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The webview side: postMessage out, window 'message' events in, requests matched by id, each with a deadline. */
export class PostMessageTransport implements Transport {
  readonly kind = 'vscode' as const;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: unknown }
  >();

  constructor(
    private readonly api: VsCodeApi,
    private readonly target: Pick<Window, 'addEventListener'>,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
    private readonly timers: Timers = realTimers,
  ) {}

  start(listener: (message: HostMessage) => void): void {
    this.target.addEventListener('message', (event: Event) => {
      const data = (event as MessageEvent).data as HostMessage | undefined;
      if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
      if (data.type === 'response') {
        const waiter = this.waiting.get(data.id);
        if (!waiter) return;
        this.waiting.delete(data.id);
        this.timers.clearTimeout(waiter.timer);
        if (data.ok) waiter.resolve(data.result);
        else waiter.reject(new Error(data.error));
        return;
      }
      listener(data);
    });
    this.command({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  }

  command(command: PanelCommand): void {
    const message: PanelMessage = { type: 'command', command };
    this.api.postMessage(message);
  }

  request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const id = this.nextId++;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      const timer = this.timers.setTimeout(() => {
        if (!this.waiting.delete(id)) return;
        reject(new Error(`Agent Warden did not answer within ${Math.round(this.timeoutMs / 1000)} s (${method})`));
      }, this.timeoutMs);
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.api.postMessage({ type: 'request', id, method, params });
    });
  }
}

interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
}

/** The approval API's status codes, read back into the protocol's result union (here only: HTTP ends here). */
function answerFromHttp(status: number, body: unknown): AnswerResult {
  const message =
    typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : '';
  if (status === 200) return { kind: 'ok', resolution: (body as { resolution: never }).resolution, row: null };
  if (status === 404) return { kind: 'not-pending', message };
  if (status === 409 && /digest/.test(message)) return { kind: 'digest-mismatch', message };
  if (status === 409) return { kind: 'not-bindable', message };
  return { kind: 'invalid', message: message || `the server answered ${status}` };
}

/** The web page side: the server's event stream in, its HTTP routes out (the session cookie authenticates). */
export class WebTransport implements Transport {
  readonly kind = 'web' as const;
  private listener: ((message: HostMessage) => void) | undefined;

  constructor(
    private readonly openEvents: () => EventSourceLike,
    private readonly fetchFn: typeof fetch,
  ) {}

  start(listener: (message: HostMessage) => void): void {
    this.listener = listener;
    const source = this.openEvents();
    for (const type of ['snapshot', 'rows', 'pending', 'resolved'] as const) {
      source.addEventListener(type, (event) => {
        try {
          listener(JSON.parse(String(event.data)) as HostMessage);
        } catch {
          // A malformed event is dropped; the stream goes on.
        }
      });
    }
    listener({
      type: 'state',
      state: {
        host: 'web',
        guarded: true,
        guardDetail: 'standalone server',
        endpointUrl: null,
        pausedUntil: null,
        policies: [],
      },
    });
  }

  command(command: PanelCommand): void {
    if (command.type === 'copyDigest') void navigator.clipboard?.writeText(command.digest);
    // The server keeps no originals and writes no config for the page: say so rather than do nothing.
    else if (command.type !== 'ready' && command.type !== 'openLog')
      this.listener?.({
        type: 'toast',
        text: 'Available in the VS Code panel only: the standalone server does not change settings from this page.',
      });
  }

  async request<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    if (method === 'approve' || method === 'refuse') {
      const p = params as RequestParams<'approve'> | RequestParams<'refuse'>;
      const body: ApprovalAnswer =
        'answer' in p
          ? p.answer
          : { decision: 'refuse', scope: 'once', digest: p.digest, ...(p.message ? { message: p.message } : {}) };
      const res = await this.fetchFn(`/api/approvals/${encodeURIComponent(p.approvalId)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
      return answerFromHttp(res.status, await res.json().catch(() => null)) as RequestResult<M>;
    }
    if (method === 'detail') {
      const { recordId } = params as RequestParams<'detail'>;
      const res = await this.fetchFn(`/api/records/${encodeURIComponent(recordId)}`, {
        credentials: 'same-origin',
        signal,
      });
      const body = (await res.json().catch(() => null)) as RequestResult<'detail'> | null;
      return (body ?? { found: false, why: `the server answered ${res.status}` }) as RequestResult<M>;
    }
    throw new Error(`${method} is available in the VS Code panel only`);
  }
}
