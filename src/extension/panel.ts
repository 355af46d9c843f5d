import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { renderPanelHtml } from '../../media/html';
import {
  panelMessageSchema,
  type HostMessage,
  type HostState,
  type IpcCommand,
  type IpcRequest,
  type IpcResponses,
} from '../shared/protocol';
import { Disposable, DisposableScope, toDisposable } from './disposable';
import type { Endpoint } from './endpoint';

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
  onCommand: (command: Exclude<IpcCommand, { type: 'ready' }>) => Promise<string | void>;
  rescreen: (
    params: Extract<IpcRequest, { method: 'rescreenEdit' }>['params'],
  ) => Promise<IpcResponses['rescreenEdit']>;
}

export class PanelHost extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewType = 'agentWarden.panel';
  private readonly connections = new Set<PanelConnection>();
  private view: vscode.WebviewView | undefined;

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
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      connection.dispose();
    });
  }

  /** Opens the panel as an editor tab (another connection to the same endpoint). */
  openInEditor(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel('agentWarden.panelTab', 'Agent Warden', vscode.ViewColumn.Active, {
      ...this.webviewOptions(),
      retainContextWhenHidden: true,
    });
    const connection = this.connect(panel.webview);
    panel.onDidDispose(() => connection.dispose());
    return panel;
  }

  async reveal(): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${PanelHost.viewType}.focus`);
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
  onDispose: (() => void) | undefined;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly deps: PanelDeps,
  ) {
    super();
    this._register(webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)));
    this._register(toDisposable(() => this.attachment?.dispose()));
    this._register(toDisposable(() => this.onDispose?.()));
  }

  post(message: HostMessage): void {
    if (!this.ready || this.isDisposed) return;
    void this.webview.postMessage(message);
  }

  postState(): void {
    this.post({ type: 'state', state: this.deps.hostState() });
  }

  /** Attaches to the current endpoint's broker: a snapshot first, then live changes. */
  attach(): void {
    this.attachment?.dispose();
    if (!this.ready || this.isDisposed) return;
    const endpoint = this.deps.endpoint();
    const scope = new DisposableScope('panel attachment', (m) => this.deps.log.warn(m));
    this.attachment = scope;
    if (!endpoint) {
      this.post({ type: 'snapshot', records: [], pending: [] });
      this.postState();
      return;
    }
    const broker = endpoint.broker;
    scope.add(toDisposable(broker.onChange((n) => this.post(n))));
    scope.add(toDisposable(broker.attachPanel()));
    const records = broker.records.all();
    this.post({ type: 'snapshot', records: records.slice(-this.deps.maxRows()), pending: broker.pending() });
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
      const result = await this.request(message);
      void this.webview.postMessage({ type: 'response', id: message.id, ok: true, result });
    } catch (err) {
      void this.webview.postMessage({ type: 'response', id: message.id, ok: false, error: (err as Error).message });
    }
  }

  private async request(message: IpcRequest): Promise<unknown> {
    const endpoint = this.deps.endpoint();
    if (!endpoint) throw new Error('the Warden endpoint is not running; see the Agent Warden output');
    switch (message.method) {
      case 'approve':
        return endpoint.broker.answer(message.params.approvalId, message.params.answer, 'vscode-panel');
      case 'refuse': {
        const { approvalId, digest, message: text } = message.params;
        return endpoint.broker.answer(
          approvalId,
          { decision: 'refuse', scope: 'once', digest, ...(text ? { message: text } : {}) },
          'vscode-panel',
        );
      }
      case 'rescreenEdit':
        return this.deps.rescreen(message.params);
      case 'reveal': {
        const { recordId, source, spanIndex } = message.params;
        const result = endpoint.reveal.reveal(recordId, source, spanIndex);
        // Which marker, never the value: the output channel is a log.
        if (result.available)
          this.deps.log.info(`revealed the original behind a ${source} marker of call ${recordId} in the panel`);
        return result;
      }
      case 'markerInfo':
        return endpoint.reveal.markerInfo(message.params.recordId, message.params.source, message.params.spanIndex);
    }
  }
}
