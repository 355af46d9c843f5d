import { join } from 'node:path';
import type { ActivityLog } from '../core/activity/log';
import type { Evaluator } from '../core/evaluator';
import { openWarden } from '../core/root/warden';
import type { WardenState } from '../core/root/state';
import type { HeldChange } from '../core/config/load';
import { RevealingEvaluator } from './reveal/evaluator';
import { RevealService } from './reveal/service';
import { OriginalsStore } from './reveal/store';
import type { SemanticTierHandle } from '../core/review/tier';
import { findProjectRoot } from '../core/project';
import { agentHookTimeoutSeconds } from '../core/install/hookTimeout';
import { VERSION } from '../core/version';
import { WardenHost } from '../server/host';
import type { PolicyView } from '../protocol';
import { Disposable, toDisposable } from './disposable';
import { portCandidates } from './port';

// One endpoint for this window's workspace: the evaluator, the approval broker
// and the HTTP server on 127.0.0.1, with its endpoint record in the state
// folder. Everything it owns dies with it (the endpoint lifetime scope).

export interface EndpointOptions {
  state: WardenState;
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
  /** Loosening config changes held until the person confirms them in the editor. */
  onHeldChanges?: (held: HeldChange[]) => void;
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
    private readonly state: WardenState,
    /** The originals behind the markers of calls still in memory: reveal and "not a secret". */
    readonly reveal: RevealService,
  ) {
    super();
  }

  static async start(opts: EndpointOptions): Promise<Endpoint> {
    const state = opts.state;
    const projectRoot = findProjectRoot(opts.workspaceRoot ?? process.cwd());
    let current: WardenHost | undefined;
    const originals = new OriginalsStore((recordId) => current?.broker.records.has(recordId) === true);
    let semantic: SemanticTierHandle | undefined;
    const warden = await openWarden({
      state,
      projectRoot,
      trustProject: opts.trusted,
      programDir: __dirname,
      // A stuck call is stopped in its worker: it never freezes the editor's extension host.
      workers: { file: join(__dirname, 'evalWorker.js'), onError: opts.log.error },
      onWarning: opts.log.warn,
      ...(opts.onHeldChanges ? { onHeldChanges: opts.onHeldChanges } : {}),
      semantic: (key) => (semantic = opts.semanticTier?.(key)),
      makeEvaluator: (evaluatorOptions) =>
        new RevealingEvaluator({
          ...evaluatorOptions,
          originals,
          allowlistKey: state.logKey(),
          semanticEnv: opts.semanticEnv ?? process.env,
        }),
    });
    const { evaluator, log: activityLog } = warden;
    const reveal = new RevealService({
      originals,
      allowlistKey: state.logKey(),
      projectRootOf: (recordId) => current?.broker.records.projectRootOf(recordId) ?? projectRoot,
    });
    const hookToken = state.hookToken();
    let lastError: unknown;
    for (const port of portCandidates(opts.configuredPort, opts.workspaceRoot)) {
      const host = new WardenHost({
        evaluator,
        log: activityLog,
        hookToken,
        endpointKey: state.endpointKey(),
        port,
        // Read again for every ask: a change of approvals.timeoutSeconds applies without a restart.
        approvalTimeoutSeconds: () => evaluator.configFor(projectRoot).approvalsTimeoutSeconds,
        hookTimeoutSeconds: (event) => agentHookTimeoutSeconds(event),
        failureDecision: () => evaluator.configFor(projectRoot).failureDecision,
        onError: opts.log.error,
      });
      current = host;
      try {
        const url = await host.listen();
        if (port !== 0 && host.server.port !== port) opts.log.warn(`asked for port ${port}, got ${host.server.port}`);
        if (port === 0 && opts.configuredPort + (opts.workspaceRoot ? 1 : 0) > 0)
          opts.log.warn(`the preferred port was busy; serving on ${url} instead (hook entries follow it)`);
        const endpoint = new Endpoint(host, evaluator, activityLog, url, hookToken, projectRoot, state, reveal);
        const tier = semantic;
        if (tier) endpoint._register(toDisposable(() => void tier.close()));
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
    warden.close();
    void semantic?.close();
    throw new Error(`could not start the Warden endpoint: ${(lastError as Error)?.message ?? 'unknown error'}`);
  }

  private afterListen(workspaceRoot: string | null): void {
    const removeRecord = this.state.recordEndpoint({
      url: this.url,
      workspaceRoot,
      version: VERSION,
      host: 'extension',
    });
    // Registered in reverse of teardown: the record goes first, so no agent finds a closing endpoint.
    this._register(toDisposable(() => this.activityLog.close()));
    this._register(toDisposable(() => this.host.close()));
    this._register(toDisposable(removeRecord));
  }

  get broker() {
    return this.host.broker;
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
