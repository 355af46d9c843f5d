import { ActivityLog } from '../activity/log';
import { loadConfig, type HeldChange } from '../config/load';
import { Evaluator, type EvaluatorOptions } from '../evaluator';
import { DeterministicPool } from '../deterministic/pool';
import type { SemanticTier } from '../review/tier';
import { openState, type WardenState } from './state';
import type { ThreadMemory } from '../deterministic/threadMemory';

// The composition root every host shares (the CLI's one-shot commands, `serve`,
// the extension): the state folder's layer, then the activity log and the
// evaluator wired to it. Hosts add only what is theirs (a server, a webview).

export interface OpenWardenOptions {
  state?: WardenState;
  /** The project the host serves first (its config sizes the log). */
  projectRoot: string;
  cliConfigPath?: string;
  trustProject?: boolean;
  /** The folder of the host's own bundles (dist), guarded like the state folder. */
  programDir?: string;
  /** Long-running hosts warm the parser up; one-shot commands do not. */
  warmUp?: boolean;
  onWarning?: (message: string) => void;
  /** Where the log's own warnings go (defaults to onWarning). */
  onLogWarning?: (message: string) => void;
  /** Builds the semantic tier; it needs the log key for the redaction allow-list. */
  semantic?: (logKey: Buffer) => SemanticTier | undefined;
  /** Loosening config changes held for a person (the host asks its person to confirm them). */
  onHeldChanges?: (held: HeldChange[], projectRoot: string) => void;
  /** A host's own evaluator (the extension keeps originals for reveal). */
  makeEvaluator?: (opts: EvaluatorOptions) => Evaluator;
  /**
   * Long-running hosts (serve, the extension) run the deterministic tier in worker threads a deadline
   * can stop: `file` is dist/evalWorker.js beside the host's bundle. One-shot commands run it in-process.
   */
  workers?: { file: string; onError?: (message: string) => void; onWorkerStarted?: () => void };
}

export interface Warden {
  state: WardenState;
  log: ActivityLog;
  evaluator: Evaluator;
  /** Config problems found while opening (each names its file and key). */
  configErrors: string[];
  /** Where each evaluation worker's memory sits (none when the tier runs in-process). */
  workerMemory(): Promise<ThreadMemory[]>;
  close(): void;
}

export async function openWarden(opts: OpenWardenOptions): Promise<Warden> {
  const state = opts.state ?? openState();
  const logKey = state.logKey();
  const probe = loadConfig({
    stateDir: state.paths.dir,
    projectRoot: opts.projectRoot,
    ...(opts.cliConfigPath ? { cliConfigPath: opts.cliConfigPath } : {}),
    ...(opts.trustProject !== undefined ? { trustProject: opts.trustProject } : {}),
    confirmations: state.confirmations(),
  });
  const log = new ActivityLog({
    path: state.paths.logFile,
    key: logKey,
    maxBytes: probe.logMaxBytes,
    keep: probe.logKeep,
    ...((opts.onLogWarning ?? opts.onWarning) ? { onWarning: opts.onLogWarning ?? opts.onWarning } : {}),
  });
  const pool = opts.workers
    ? new DeterministicPool({
        workerFile: opts.workers.file,
        budgetMs: (config) => config.deterministicBudgetMs,
        ...(opts.workers.onError ? { onError: opts.workers.onError } : {}),
        ...(opts.workers.onWorkerStarted ? { onWorkerStarted: opts.workers.onWorkerStarted } : {}),
      })
    : undefined;
  // The workers load and warm their own parser and grammars; only an in-process evaluator needs them here.
  if (pool) await pool.whenReady();
  else await Evaluator.ready({ warmUp: opts.warmUp ?? false });
  const semantic = opts.semantic?.(logKey);
  const evaluatorOptions: EvaluatorOptions = {
    stateDir: state.paths.dir,
    ...(opts.programDir ? { programDir: opts.programDir } : {}),
    log,
    ...(opts.cliConfigPath ? { cliConfigPath: opts.cliConfigPath } : {}),
    ...(opts.trustProject !== undefined ? { trustProject: opts.trustProject } : {}),
    ...(semantic ? { semantic } : {}),
    ...(pool ? { deterministic: pool } : {}),
    ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
    confirmations: state.confirmations(),
    ...(opts.onHeldChanges ? { onHeldChanges: opts.onHeldChanges } : {}),
  };
  const evaluator = opts.makeEvaluator ? opts.makeEvaluator(evaluatorOptions) : new Evaluator(evaluatorOptions);
  return {
    state,
    log,
    evaluator,
    configErrors: probe.errors,
    workerMemory: () => pool?.memory() ?? Promise.resolve([]),
    close: () => {
      log.close();
      void evaluator.close();
    },
  };
}
