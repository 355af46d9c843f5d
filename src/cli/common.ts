import { readFileSync } from 'node:fs';
import { ActivityLog } from '../core/activity/log';
import { Evaluator } from '../core/evaluator';
import { createSemanticTier } from '../core/semantic';
import { loadConfig } from '../core/config/load';
import { findProjectRoot } from '../core/project';
import { ensurePrivateDir, newToken, readOrCreateSecret, stateDir, statePaths, type StatePaths } from '../core/state';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { DeterministicPool } from '../core/deterministic/pool';

export class UsageError extends Error {}

export function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (err) {
    throw new UsageError(`could not read standard input (${(err as Error).message})`);
  }
}

export function warn(message: string): void {
  process.stderr.write(`agent-warden: ${message}\n`);
}

export interface Core {
  paths: StatePaths;
  log: ActivityLog;
  evaluator: Evaluator;
}

/** The state folder, its log and an evaluator, as every command that evaluates needs them. */
export async function openCore(opts: {
  config?: string;
  trustProject?: boolean;
  quiet?: boolean;
  /** Run the deterministic tier in workers a deadline can stop (serve); otherwise in-process. */
  workers?: boolean;
}): Promise<Core> {
  const paths = statePaths(stateDir());
  ensurePrivateDir(paths.dir);
  const key = Buffer.from(
    readOrCreateSecret(paths.logKeyFile, () => randomBytes(32).toString('hex')),
    'hex',
  );
  const probe = loadConfig({
    stateDir: paths.dir,
    projectRoot: findProjectRoot(process.cwd()),
    ...(opts.config ? { cliConfigPath: opts.config } : {}),
  });
  if (opts.config) refuseBadCliConfig(opts.config, probe.errors);
  // Quiet commands (check, hook, policies) still say once that a config file was
  // refused: its protections are not in force, and the person should know why.
  if (opts.quiet) for (const error of probe.errors) warn(error);
  const log = new ActivityLog({
    path: paths.logFile,
    key,
    maxBytes: probe.logMaxBytes,
    keep: probe.logKeep,
    onWarning: warn,
  });
  const pool = opts.workers ? evaluationPool(opts.quiet ? () => undefined : warn) : undefined;
  if (pool) await pool.whenReady();
  else await Evaluator.ready({ warmUp: false });
  const evaluator = new Evaluator({
    ...(pool ? { deterministic: pool } : {}),
    stateDir: paths.dir,
    log,
    ...(opts.config ? { cliConfigPath: opts.config } : {}),
    ...(opts.trustProject ? { trustProject: true } : {}),
    // Off unless semantic.mode says otherwise; the tier reads the config per call.
    semantic: createSemanticTier({ allowlistKey: key }),
    onWarning: opts.quiet ? () => undefined : warn,
  });
  return { paths, log, evaluator };
}

/** The evaluation workers, from dist/evalWorker.js beside this bundle. */
export function evaluationPool(onError: (message: string) => void): DeterministicPool {
  return new DeterministicPool({
    workerFile: join(__dirname, 'evalWorker.js'),
    budgetMs: (config) => config.deterministicBudgetMs,
    onError,
  });
}

/**
 * A --config file the user named but that cannot be used is an error, not a
 * warning: running on without it would silently drop what it asked for.
 */
export function refuseBadCliConfig(file: string, errors: string[]): void {
  const path = resolve(file);
  const own = errors.filter((e) => e.startsWith(`${path}:`));
  if (own.length) throw new UsageError(`the --config file was refused:\n  ${own.join('\n  ')}`);
}

/** The hook token, created on first use (install and env may run before anything made the state folder). */
export function hookToken(paths: StatePaths): string {
  ensurePrivateDir(paths.dir);
  return readOrCreateSecret(paths.hookTokenFile, newToken);
}
