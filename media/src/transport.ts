import type {
  HostMessage,
  IpcCommand,
  IpcRequestMethod,
  IpcRequestParams,
  IpcResponses,
  PanelMessage,
} from '../../src/shared/protocol';
import { PROTOCOL_VERSION } from '../../src/shared/protocol';

// One interface, two transports: the webview talks to the extension host
// through postMessage; the web page talks to the standalone server through
// its event stream and approval API. The views never know which.

export interface Transport {
  readonly kind: 'vscode' | 'web';
  /** Starts delivery of host messages (the first one is the snapshot). */
  start(listener: (message: HostMessage) => void): void;
  command(command: IpcCommand): void;
  request<M extends IpcRequestMethod>(method: M, params: IpcRequestParams<M>): Promise<IpcResponses[M]>;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
}

/** The webview side: postMessage out, window 'message' events in, requests matched by id. */
export class PostMessageTransport implements Transport {
  readonly kind = 'vscode' as const;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly api: VsCodeApi,
    private readonly target: Pick<Window, 'addEventListener'>,
  ) {}

  start(listener: (message: HostMessage) => void): void {
    this.target.addEventListener('message', (event: Event) => {
      const data = (event as MessageEvent).data as HostMessage | undefined;
      if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
      if (data.type === 'response') {
        const waiter = this.waiting.get(data.id);
        if (!waiter) return;
        this.waiting.delete(data.id);
        if (data.ok) waiter.resolve(data.result);
        else waiter.reject(new Error(data.error));
        return;
      }
      listener(data);
    });
    this.command({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  }

  command(command: IpcCommand): void {
    const message: PanelMessage = { type: 'command', command };
    this.api.postMessage(message);
  }

  request<M extends IpcRequestMethod>(method: M, params: IpcRequestParams<M>): Promise<IpcResponses[M]> {
    const id = this.nextId++;
    return new Promise<IpcResponses[M]>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.api.postMessage({ type: 'request', id, method, params });
    });
  }
}

interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
}

/** The web page side: the server's event stream in, its approval API out (the session cookie authenticates). */
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
    for (const type of ['snapshot', 'record', 'pending', 'resolved'] as const) {
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

  command(command: IpcCommand): void {
    if (command.type === 'copyDigest') void navigator.clipboard?.writeText(command.digest);
    // The server keeps no originals and writes no config for the page: say so rather than do nothing.
    else if (command.type === 'notSecret' || command.type === 'togglePolicy')
      this.listener?.({
        type: 'toast',
        text: 'Available in the VS Code panel only: the standalone server does not change config files from this page.',
      });
  }

  async request<M extends IpcRequestMethod>(method: M, params: IpcRequestParams<M>): Promise<IpcResponses[M]> {
    if (method === 'approve' || method === 'refuse') {
      const p = params as IpcRequestParams<'approve'> | IpcRequestParams<'refuse'>;
      const body =
        'answer' in p
          ? p.answer
          : { decision: 'refuse', scope: 'once', digest: p.digest, ...(p.message ? { message: p.message } : {}) };
      const res = await this.fetchFn(`/api/approvals/${encodeURIComponent(p.approvalId)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      });
      const result = { status: res.status, body: (await res.json().catch(() => null)) as unknown };
      return result as IpcResponses[M];
    }
    throw new Error(`${method} is available in the VS Code panel only`);
  }
}
