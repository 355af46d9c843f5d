import { join } from 'node:path';
import { findProjectRoot } from '../core/project';
import { VERSION } from '../core/version';
import { WardenHost } from '../server/host';
import { renderPanelHtml } from '../shared/panelHtml';
import { openCore, warn } from './common';

const STOP_GRACE_MS = 3000;

export interface ServeOptions {
  port?: number;
  config?: string;
  trustProject?: boolean;
}

export async function serve(opts: ServeOptions): Promise<void> {
  const core = await openCore({
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.trustProject ? { trustProject: true } : {}),
    workers: true,
  });
  const projectRoot = findProjectRoot(process.cwd());
  const config = core.evaluator.configFor(projectRoot);
  const host = new WardenHost({
    evaluator: core.evaluator,
    log: core.log,
    hookToken: core.state.hookToken(),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    approvalTimeoutSeconds: config.approvalsTimeoutSeconds,
    failureDecision: () => core.evaluator.configFor(projectRoot).failureDecision,
    endpointKey: core.state.endpointKey(),
    panel: {
      assetsDir: join(__dirname, 'webview'),
      renderPage: ({ nonce, scriptUri, styleUri }) =>
        renderPanelHtml({ nonce, scriptUri, styleUri, cspSource: "'self'", transport: 'web' }),
    },
    onError: warn,
  });
  let removeRecord: (() => void) | undefined;
  let stopping = false;
  // SIGTERM at any time, even while a call spins in a worker or an ask waits for a person: the
  // record goes first (no agent is sent to a dead port), then connections, workers and the log.
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Whatever hangs below, the process still ends promptly.
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    removeRecord?.();
    await host.close();
    await core.evaluator.close();
    core.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  const url = await host.listen();
  // The one-time link goes to this terminal only: never into the record, never to disk.
  const panelUrl = host.panelRoutes!.newPanelLink(url);
  removeRecord = core.state.recordEndpoint({ url, workspaceRoot: null, version: VERSION, host: 'serve' });
  process.stdout.write(JSON.stringify({ url, tokenFile: core.state.paths.hookTokenFile, panelUrl }) + '\n');
  warn(`serving on ${url}; the panel (this link works once): ${panelUrl} (log: ${core.state.paths.logFile})`);
}
