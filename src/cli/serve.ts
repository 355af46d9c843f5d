import { join } from 'node:path';
import { removeEndpointRecord, writeEndpointRecord } from '../core/endpoints';
import { findProjectRoot } from '../core/project';
import { newToken, readOrCreateSecret } from '../core/state';
import { VERSION } from '../core/version';
import { WardenHost } from '../server/host';
import { renderPanelHtml } from '../../media/html';
import { hookToken, openCore, warn } from './common';
import { Evaluator } from '../core/evaluator';
import { readOrCreateEndpointKey } from '../core/endpointAuth';

export interface ServeOptions {
  port?: number;
  config?: string;
  trustProject?: boolean;
}

export async function serve(opts: ServeOptions): Promise<void> {
  const core = await openCore({
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.trustProject ? { trustProject: true } : {}),
  });
  const config = core.evaluator.configFor(findProjectRoot(process.cwd()));
  const panelToken = readOrCreateSecret(core.paths.panelTokenFile, newToken);
  const endpointKey = readOrCreateEndpointKey(core.paths.dir);
  const host = new WardenHost({
    replyKey: endpointKey,
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
  const url = await host.listen();
  const panelUrl = host.panelRoutes!.newPanelLink(url);
  const recordFile = writeEndpointRecord(
    core.paths.endpointsDir,
    {
      url,
      tokenFile: core.paths.hookTokenFile,
      workspaceRoot: null,
      pid: process.pid,
      version: VERSION,
      startedAt: new Date().toISOString(),
      panelUrl: `${url}/panel`,
      host: 'serve',
    },
    endpointKey,
  );
  const stop = async () => {
    removeEndpointRecord(recordFile);
    await host.close();
    core.log.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.stdout.write(
    JSON.stringify({ url, tokenFile: core.paths.hookTokenFile, panelUrl, panelTokenFile: core.paths.panelTokenFile }) +
      '\n',
  );
  warn(`serving on ${url}; the panel: ${panelUrl} (log: ${core.paths.logFile})`);
  // After the ready line: startup stays quick, and the parser is warm before most first calls.
  void Evaluator.warmUp();
}
