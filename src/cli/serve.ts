import { join } from 'node:path';
import { findProjectRoot } from '../core/project';
import { agentHookTimeoutSeconds } from '../core/install/hookTimeout';
import { VERSION } from '../core/version';
import { WardenHost } from '../server/host';
import { renderPanelHtml } from '../shared/panelHtml';
import { openCore, warn } from './common';
import type { HeldChange } from '../core/config/load';
import { TerminalConfirm } from './terminalConfirm';
import { loopStatsFromEnv } from '../server/loopStats';
import { keepHeapNearLiveSize } from './heapTuning';
import { restartWithStartSettings } from './startTuning';

const STOP_GRACE_MS = 3000;

export interface ServeOptions {
  port?: number;
  config?: string;
  trustProject?: boolean;
}

/** How often serve looks for config changes of the projects it served (to announce a held loosening at once). */
const CONFIG_WATCH_MS = 1000;

export async function serve(opts: ServeOptions): Promise<void> {
  // First, before any thread or file is opened: when it restarts, nothing below runs in this image.
  restartWithStartSettings(warn);
  let terminal: TerminalConfirm | undefined;
  const held: HeldChange[] = [];
  let startedUp = false;
  const core = await openCore({
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.trustProject ? { trustProject: true } : {}),
    workers: true,
    onWorkerStarted: () => startedUp && keepHeapNearLiveSize(),
    onHeldChanges: (changes) => (terminal ? terminal.held(changes) : held.push(...changes)),
  });
  // Start-up is over (the workers are warm): from here the heap stays near what it holds.
  keepHeapNearLiveSize();
  startedUp = true;
  terminal = new TerminalConfirm(core.state.confirmations(), warn);
  terminal.held(held);
  terminal.listen(process.stdin);
  const projectRoot = findProjectRoot(process.cwd());
  const stats = loopStatsFromEnv();
  if (stats) stats.workerMemory = () => core.workerMemory();
  const host = new WardenHost({
    evaluator: core.evaluator,
    ...(stats ? { stats } : {}),
    log: core.log,
    hookToken: core.state.hookToken(),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    // Read again for every ask: a change of approvals.timeoutSeconds applies without a restart.
    approvalTimeoutSeconds: () => core.evaluator.configFor(projectRoot).approvalsTimeoutSeconds,
    hookTimeoutSeconds: (event) => agentHookTimeoutSeconds(event),
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
  let watch: NodeJS.Timeout | undefined;
  let stopping = false;
  // SIGTERM at any time, even while a call spins in a worker or an ask waits for a person: the
  // record goes first (no agent is sent to a dead port), then connections, workers and the log.
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Whatever hangs below, the process still ends promptly.
    setTimeout(() => process.exit(0), STOP_GRACE_MS).unref();
    clearInterval(watch);
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
  watch = setInterval(() => {
    for (const root of new Set([projectRoot, ...core.evaluator.projectRoots()])) core.evaluator.configFor(root);
  }, CONFIG_WATCH_MS);
  watch.unref();
  process.stdout.write(JSON.stringify({ url, tokenFile: core.state.paths.hookTokenFile, panelUrl }) + '\n');
  warn(`serving on ${url}; the panel (this link works once): ${panelUrl} (log: ${core.state.paths.logFile})`);
}
