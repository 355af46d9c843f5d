import type { Evaluator } from '../core/evaluator';
import type { ActivityLog } from '../core/activity/log';
import type { VerdictRecord } from '../core/verdict/record';
import { AskBroker } from './asks';
import { HookService } from './hooks';
import { PanelRoutes } from './panel';
import { WardenServer } from './server';
import type { Decision, HookEvent } from '../core/types';
import type { LoopStats } from './loopStats';

// One endpoint as every host runs it (serve, the extension): the evaluator
// behind the hook routes, the approval broker, and optionally the web panel.

export interface WardenHostOptions {
  evaluator: Evaluator;
  log?: ActivityLog;
  hookToken: string;
  port?: number;
  approvalTimeoutSeconds: number | (() => number);
  /** How many asks left to the agent's prompt stay open in the panel at once (AskBroker's bound). */
  maxPromptAsks?: number;
  /** How long the agent's hook waits for a call, where Warden wrote it: a held ask ends before it. */
  hookTimeoutSeconds?: (event: HookEvent) => number | undefined;
  failureDecision: () => Decision;
  /** Signs replies for the command bridge (see endpointAuth); without it the bridge relays nothing. */
  endpointKey?: Buffer;
  /** How long a hook request's body may take to arrive (default 30 s). */
  bodyTimeoutMs?: number;
  /** Serve the web panel (the standalone server); the extension uses its webview instead. */
  panel?: {
    assetsDir: string;
    renderPage: (opts: { nonce: string; scriptUri: string; styleUri: string }) => string;
  };
  /** Opt-in load figures on /health. */
  stats?: LoopStats;
  onRecord?: (record: VerdictRecord) => void;
  onError?: (message: string) => void;
}

export class WardenHost {
  readonly broker: AskBroker;
  readonly hooks: HookService;
  readonly server: WardenServer;
  readonly panelRoutes: PanelRoutes | undefined;

  constructor(opts: WardenHostOptions) {
    this.broker = new AskBroker({
      evaluator: opts.evaluator,
      timeoutSeconds: opts.approvalTimeoutSeconds,
      ...(opts.maxPromptAsks !== undefined ? { maxPromptAsks: opts.maxPromptAsks } : {}),
      ...(opts.hookTimeoutSeconds ? { hookTimeoutSeconds: opts.hookTimeoutSeconds } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.onError ? { onError: opts.onError } : {}),
    });
    // A restarted host lists the newest rows of its log again, and each can still be opened.
    if (opts.log) this.broker.records.restore(opts.log.index.rebuild());
    this.hooks = new HookService({
      evaluator: opts.evaluator,
      failureDecision: opts.failureDecision,
      asks: this.broker,
      onRecord: (record) => {
        this.broker.publishRecord(record);
        opts.onRecord?.(record);
      },
      ...(opts.onError ? { onError: opts.onError } : {}),
    });
    let server: WardenServer | undefined;
    const origins = () => (server ? [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`] : []);
    this.panelRoutes = opts.panel
      ? new PanelRoutes({
          broker: this.broker,
          origins,
          recentRows: () => this.broker.records.summaries(),
          recordById: (id) => this.broker.records.detail(id),
          assetsDir: opts.panel.assetsDir,
          renderPage: opts.panel.renderPage,
        })
      : undefined;
    server = new WardenServer({
      hooks: this.hooks,
      hookToken: opts.hookToken,
      ...(opts.endpointKey ? { endpointKey: opts.endpointKey } : {}),
      ...(opts.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: opts.bodyTimeoutMs } : {}),
      port: opts.port ?? 0,
      routes: this.panelRoutes ? [this.panelRoutes] : [],
      ...(opts.stats ? { stats: opts.stats } : {}),
      ...(opts.onError ? { onError: opts.onError } : {}),
    });
    this.server = server;
  }

  listen(): Promise<string> {
    return this.server.listen();
  }

  async close(): Promise<void> {
    this.broker.close();
    await this.server.close();
  }
}
