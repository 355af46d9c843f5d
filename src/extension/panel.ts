import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type {
  HostMessage,
  HostNotification,
  HostState,
  PanelCommand,
  RequestHandlers,
  RequestMessage,
  RowSummary,
} from '../protocol';
import { renderPanelHtml } from '../shared/panelHtml';
import { panelMessageSchema } from '../shared/panelSchemas';
import { Disposable, DisposableScope, toDisposable } from './disposable';
import type { Endpoint } from './endpoint';
import { RowBatcher } from '../server/rowBatcher';

// The panel's host side: a webview view in the Agent Warden activity-bar
// container, also openable as an editor tab. Each webview is one connection:
// it attaches to the endpoint's broker after the ready handshake (then the
// broker holds asks for it), and every message from it is parsed with zod.

export interface PanelDeps {
  extensionUri: vscode.Uri;
  endpoint: () => Endpoint | undefined;
  hostState: () => HostState;
  maxRows: () => number;
  log: vscode.LogOutputChannel;
  onCommand: (command: Exclude<PanelCommand, { type: 'ready' }>) => Promise<string | void>;
  /** The requests the host answers, one handler per method; "who" is this panel. */
  handlers: () => RequestHandlers;
  /** No panel is on screen any more (the view or the last tab was hidden or closed). */
  onHidden?: () => void;
}

export class PanelHost extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewType = 'agentWarden.panel';
  private readonly connections = new Set<PanelConnection>();
  private view: vscode.WebviewView | undefined;
  private readonly tabs = new Set<vscode.WebviewPanel>();

  constructor(private readonly deps: PanelDeps) {
    super();
    this._register(
      vscode.window.registerWebviewViewProvider(PanelHost.viewType, this, {
        webviewOptions: { retainContextWhenHidden: true },
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const connection = this.connect(view.webview);
    const visibility = view.onDidChangeVisibility(() => this.hiddenNow());
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      visibility.dispose();
      connection.dispose();
      this.hiddenNow();
    });
  }

  /** Tells the host when no panel is on screen, so asks waiting for a person are offered elsewhere. */
  private hiddenNow(): void {
    if (!this.visible) this.deps.onHidden?.();
  }

  /** Opens the panel as an editor tab (another connection to the same endpoint). */
  openInEditor(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel('agentWarden.panelTab', 'Agent Warden', vscode.ViewColumn.Active, {
      ...this.webviewOptions(),
      retainContextWhenHidden: true,
    });
    const connection = this.connect(panel.webview);
    this.tabs.add(panel);
    const visibility = panel.onDidChangeViewState(() => this.hiddenNow());
    panel.onDidDispose(() => {
      this.tabs.delete(panel);
      visibility.dispose();
      connection.dispose();
      this.hiddenNow();
    });
    return panel;
  }

  async reveal(): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${PanelHost.viewType}.focus`);
  }

  /** Whether a panel is on screen now (the view or an editor tab). */
  get visible(): boolean {
    return this.view?.visible === true || [...this.tabs].some((t) => t.visible);
  }

  /** The activity-bar badge: how many asks wait for a person. */
  setPendingBadge(count: number): void {
    if (!this.view) return;
    this.view.badge =
      count > 0 ? { value: count, tooltip: `${count} ask${count === 1 ? '' : 's'} waiting` } : undefined;
  }

  /** Panels past their ready handshake, attached to the broker. */
  get attachedCount(): number {
    return [...this.connections].filter((c) => c.attached).length;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** The endpoint was replaced (trust or port change): every panel re-attaches to the new broker. */
  endpointChanged(): void {
    for (const c of this.connections) c.attach();
  }

  broadcastState(): void {
    for (const c of this.connections) c.postState();
  }

  broadcast(message: HostMessage): void {
    for (const c of this.connections) c.post(message);
  }

  private webviewOptions(): vscode.WebviewOptions {
    // Narrow: the webview may load only the bundled panel assets.
    return {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview')],
    };
  }

  private connect(webview: vscode.Webview): PanelConnection {
    webview.options = this.webviewOptions();
    const assets = vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview');
    webview.html = renderPanelHtml({
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'panel.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(assets, 'panel.css')).toString(),
      nonce: randomBytes(18).toString('base64'),
      cspSource: webview.cspSource,
      transport: 'vscode',
      rowLimit: this.deps.maxRows(),
    });
    const connection = new PanelConnection(webview, this.deps);
    this.connections.add(connection);
    this._register(connection);
    connection.onDispose = () => this.connections.delete(connection);
    return connection;
  }
}

class PanelConnection extends Disposable {
  private attachment: DisposableScope | undefined;
  private ready = false;
  private readonly rows = new RowBatcher((rows) => this.post({ type: 'rows', rows }));
  onDispose: (() => void) | undefined;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly deps: PanelDeps,
  ) {
    super();
    this._register(webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)));
    this._register(toDisposable(() => this.attachment?.dispose()));
    this._register(toDisposable(() => this.rows.dispose()));
    this._register(toDisposable(() => this.onDispose?.()));
  }

  get attached(): boolean {
    return this.ready && this.attachment !== undefined && !this.isDisposed;
  }

  post(message: HostMessage): void {
    if (!this.ready || this.isDisposed) return;
    void this.webview.postMessage(message);
  }

  postState(): void {
    this.post({ type: 'state', state: this.deps.hostState() });
  }

  /** Rows go out in batches (one message per few milliseconds in a burst); everything else at once, after them. */
  private notify(n: HostNotification): void {
    if (n.type === 'rows') return this.rows.add(n.rows);
    this.rows.flush();
    this.post(n);
  }

  /** Attaches to the current endpoint's broker: a snapshot first, then live changes. */
  attach(): void {
    this.attachment?.dispose();
    if (!this.ready || this.isDisposed) return;
    const endpoint = this.deps.endpoint();
    const scope = new DisposableScope('panel attachment', (m) => this.deps.log.warn(m));
    this.attachment = scope;
    if (!endpoint) {
      this.post({ type: 'snapshot', rows: [], pending: [] });
      this.postState();
      return;
    }
    const broker = endpoint.broker;
    scope.add(toDisposable(broker.onChange((n) => this.notify(n))));
    scope.add(toDisposable(broker.attachPanel()));
    const rows: RowSummary[] = broker.records.summaries().slice(-this.deps.maxRows());
    this.post({ type: 'snapshot', rows, pending: broker.pending() });
    this.postState();
  }

  private async receive(raw: unknown): Promise<void> {
    const parsed = panelMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log.warn(`dropped a malformed panel message: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const message = parsed.data;
    if (message.type === 'command') {
      if (message.command.type === 'ready') {
        this.ready = true;
        this.attach();
        return;
      }
      try {
        const toast = await this.deps.onCommand(message.command);
        if (toast) this.post({ type: 'toast', text: toast });
      } catch (err) {
        this.post({ type: 'toast', text: (err as Error).message });
      }
      return;
    }
    try {
      const result = await answerRequest(this.deps.handlers(), message);
      void this.webview.postMessage({ type: 'response', id: message.id, ok: true, result });
    } catch (err) {
      void this.webview.postMessage({ type: 'response', id: message.id, ok: false, error: (err as Error).message });
    }
  }
}

/** Runs a request through its handler in the table. */
export function answerRequest(handlers: RequestHandlers, message: RequestMessage): Promise<unknown> {
  const handler = handlers[message.method] as (params: unknown) => Promise<unknown>;
  return handler(message.params);
}
