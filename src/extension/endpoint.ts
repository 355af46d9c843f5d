import { randomBytes } from 'node:crypto';
import { ActivityLog } from '../core/activity/log';
import { loadConfig } from '../core/config/load';
import { removeEndpointRecord, writeEndpointRecord } from '../core/endpoints';
import type { Evaluator } from '../core/evaluator';
import { join } from 'node:path';
import { DeterministicPool } from '../core/deterministic/pool';
import { RevealingEvaluator } from './reveal/evaluator';
import { RevealService } from './reveal/service';
import { OriginalsStore } from './reveal/store';
import type { SemanticTierHandle } from '../core/semantic/tier';
import { findProjectRoot } from '../core/project';
import { ensurePrivateDir, newToken, readOrCreateSecret, type StatePaths } from '../core/state';
import { VERSION } from '../core/version';
import { WardenHost } from '../server/host';
import type { PolicyView } from '../shared/protocol';
import { Disposable, toDisposable } from './disposable';
import { portCandidates } from './port';

// One endpoint for this window's workspace: the evaluator, the approval broker
// and the HTTP server on 127.0.0.1, with its endpoint record in the state
// folder. Everything it owns dies with it (the endpoint lifetime scope).

export interface EndpointOptions {
  paths: StatePaths;
  workspaceRoot: string | undefined;
  /** VS Code workspace trust, passed to the evaluator as the project's trust. */
  trusted: boolean;
  /** agentWarden.port (0: the stable port for the workspace). */
  configuredPort: number;
  log: { info(m: string): void; warn(m: string): void; error(m: string): void };
  /** Builds the semantic tier (it needs the state folder's key for the redaction allow-list). */
  semanticTier?: (allowlistKey: Buffer) => SemanticTierHandle;
  /** The environment the semantic tier redacts with (to find the originals behind its markers). */
  semanticEnv?: Record<string, string | undefined>;
}

function isAddressInUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'EADDRINUSE' || (err as NodeJS.ErrnoException)?.code === 'EACCES';
}

export class Endpoint extends Disposable {
  private constructor(
    readonly host: WardenHost,
    readonly evaluator: Evaluator,
    readonly activityLog: ActivityLog,
    readonly url: string,
    readonly hookToken: string,
    readonly projectRoot: string,
    private readonly paths: StatePaths,
    /** The originals behind the markers of calls still in memory: reveal and "not a secret". */
    readonly reveal: RevealService,
  ) {
    super();
  }

  static async start(opts: EndpointOptions): Promise<Endpoint> {
    const { paths } = opts;
    ensurePrivateDir(paths.dir);
    const projectRoot = findProjectRoot(opts.workspaceRoot ?? process.cwd());
    const key = Buffer.from(
      readOrCreateSecret(paths.logKeyFile, () => randomBytes(32).toString('hex')),
      'hex',
    );
    const probe = loadConfig({ stateDir: paths.dir, projectRoot, trustProject: opts.trusted });
    const activityLog = new ActivityLog({
      path: paths.logFile,
      key,
      maxBytes: probe.logMaxBytes,
      keep: probe.logKeep,
      onWarning: opts.log.warn,
    });
    // The deterministic tier runs in workers a deadline can stop: a stuck call never freezes the editor.
    const pool = new DeterministicPool({
      workerFile: join(__dirname, 'evalWorker.js'),
      budgetMs: (config) => config.deterministicBudgetMs,
      onError: opts.log.error,
    });
    await pool.whenReady();
    const semantic = opts.semanticTier?.(key);
    let current: WardenHost | undefined;
    const originals = new OriginalsStore((recordId) => current?.broker.records.get(recordId) !== undefined);
    const evaluator = new RevealingEvaluator({
      stateDir: paths.dir,
      log: activityLog,
      trustProject: opts.trusted,
      onWarning: opts.log.warn,
      deterministic: pool,
      ...(semantic ? { semantic } : {}),
      originals,
      allowlistKey: key,
      semanticEnv: opts.semanticEnv ?? process.env,
    });
    const reveal = new RevealService({
      originals,
      allowlistKey: key,
      projectRootOf: (recordId) => current?.broker.records.get(recordId)?.projectRoot ?? projectRoot,
    });
    const hookToken = readOrCreateSecret(paths.hookTokenFile, newToken);
    let lastError: unknown;
    for (const port of portCandidates(opts.configuredPort, opts.workspaceRoot)) {
      const host = new WardenHost({
        evaluator,
        log: activityLog,
        hookToken,
        port,
        approvalTimeoutSeconds: evaluator.configFor(projectRoot).approvalsTimeoutSeconds,
        failureDecision: () => evaluator.configFor(projectRoot).failureDecision,
        onError: opts.log.error,
      });
      current = host;
      try {
        const url = await host.listen();
        if (port !== 0 && host.server.port !== port) opts.log.warn(`asked for port ${port}, got ${host.server.port}`);
        if (port === 0 && opts.configuredPort + (opts.workspaceRoot ? 1 : 0) > 0)
          opts.log.warn(`the preferred port was busy; serving on ${url} instead (hook entries follow it)`);
        const endpoint = new Endpoint(host, evaluator, activityLog, url, hookToken, projectRoot, paths, reveal);
        if (semantic) endpoint._register(toDisposable(() => void semantic.close()));
        endpoint._register(toDisposable(() => originals.clear()));
        endpoint._register(toDisposable(() => void evaluator.close()));
        endpoint.afterListen(opts.workspaceRoot ?? null);
        opts.log.info(`endpoint up on ${url} for ${opts.workspaceRoot ?? '(no folder)'} (trusted: ${opts.trusted})`);
        return endpoint;
      } catch (err) {
        lastError = err;
        host.broker.close();
        if (!isAddressInUse(err)) break;
      }
    }
    activityLog.close();
    void semantic?.close();
    void pool.close();
    throw new Error(`could not start the Warden endpoint: ${(lastError as Error)?.message ?? 'unknown error'}`);
  }

  private afterListen(workspaceRoot: string | null): void {
    const recordFile = writeEndpointRecord(this.paths.endpointsDir, {
      url: this.url,
      tokenFile: this.paths.hookTokenFile,
      workspaceRoot,
      pid: process.pid,
      version: VERSION,
      startedAt: new Date().toISOString(),
      host: 'extension',
    });
    // Registered in reverse of teardown: the record goes first, so no agent finds a closing endpoint.
    this._register(toDisposable(() => this.activityLog.close()));
    this._register(toDisposable(() => this.host.close()));
    this._register(toDisposable(() => removeEndpointRecord(recordFile)));
  }

  get broker() {
    return this.host.broker;
  }

  get recordFile(): string {
    return this.paths.endpointsDir;
  }

  policies(): PolicyView[] {
    return this.evaluator.policyStates(this.projectRoot).map((s) => ({
      name: s.policy.name,
      enabled: s.enabled,
      source: s.source,
      alwaysOn: s.policy.alwaysOn === true,
      description: s.policy.description,
    }));
  }
}
