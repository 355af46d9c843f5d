import { join } from 'node:path';
import { removeEndpointRecord, writeEndpointRecord } from '../core/endpoints';
import { findProjectRoot } from '../core/project';
import { newToken, readOrCreateSecret } from '../core/state';
import { VERSION } from '../core/version';
import { WardenHost } from '../server/host';
import { renderPanelHtml } from '../../media/html';
import { hookToken, openCore, warn } from './common';

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
  const config = core.evaluator.configFor(findProjectRoot(process.cwd()));
  const panelToken = readOrCreateSecret(core.paths.panelTokenFile, newToken);
  const host = new WardenHost({
    evaluator: core.evaluator,
    log: core.log,
    hookToken: hookToken(core.paths),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    approvalTimeoutSeconds: config.approvalsTimeoutSeconds,
    failureDecision: () => core.evaluator.configFor(findProjectRoot(process.cwd())).failureDecision,
    panel: {
      token: panelToken,
      assetsDir: join(__dirname, 'webview'),
      renderPage: ({ nonce, scriptUri, styleUri }) =>
        renderPanelHtml({ nonce, scriptUri, styleUri, cspSource: "'self'", transport: 'web' }),
    },
    onError: warn,
  });
  let recordFile: string | undefined;
  let stopping = false;
  // SIGTERM at any time, even while a call spins in a worker or an ask waits for a person: the
  // record goes first (no agent is sent to a dead port), then connections, workers and the log.
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Whatever hangs below, the process still ends promptly.
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    if (recordFile) removeEndpointRecord(recordFile);
    await host.close();
    await core.evaluator.close();
    core.log.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  const url = await host.listen();
  const panelUrl = host.panelRoutes!.newPanelLink(url);
  recordFile = writeEndpointRecord(core.paths.endpointsDir, {
    url,
    tokenFile: core.paths.hookTokenFile,
    workspaceRoot: null,
    pid: process.pid,
    version: VERSION,
    startedAt: new Date().toISOString(),
    panelUrl: `${url}/panel`,
    host: 'serve',
  });
  process.stdout.write(
    JSON.stringify({ url, tokenFile: core.paths.hookTokenFile, panelUrl, panelTokenFile: core.paths.panelTokenFile }) +
      '\n',
  );
  warn(`serving on ${url}; the panel: ${panelUrl} (log: ${core.paths.logFile})`);
}
