import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createSemanticTier } from '../core/review/tier';
import { findProjectRoot } from '../core/project';
import { openWarden, type Warden } from '../core/root/warden';
import { openState } from '../core/root/state';
import { describeHeld, type HeldChange } from '../core/config/load';

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

export type Core = Warden;

/** The composition root as every command that evaluates needs it. */
export async function openCore(opts: {
  config?: string;
  trustProject?: boolean;
  quiet?: boolean;
  onHeldChanges?: (held: HeldChange[]) => void;
  /** Run the deterministic tier in workers a deadline can stop (serve); otherwise in-process. */
  workers?: boolean;
  /** Called each time an evaluation worker's thread starts. */
  onWorkerStarted?: () => void;
}): Promise<Core> {
  const core = await openWarden({
    projectRoot: findProjectRoot(process.cwd()),
    programDir: __dirname,
    ...(opts.config ? { cliConfigPath: opts.config } : {}),
    ...(opts.trustProject ? { trustProject: true } : {}),
    // Off unless semantic.mode says otherwise; the tier reads the config per call.
    semantic: (logKey) => createSemanticTier({ allowlistKey: logKey }),
    onWarning: opts.quiet ? () => undefined : warn,
    onLogWarning: warn,
    ...(opts.workers
      ? {
          workers: {
            file: join(__dirname, 'evalWorker.js'),
            onError: warn,
            ...(opts.onWorkerStarted ? { onWorkerStarted: opts.onWorkerStarted } : {}),
          },
        }
      : {}),
    // Held loosening is announced even by quiet commands: the person must know what is not in force.
    onHeldChanges: opts.onHeldChanges ?? ((held) => held.forEach((h) => warn(describeHeld(h)))),
  });
  if (opts.config) refuseBadCliConfig(opts.config, core.configErrors);
  // Quiet commands (check, hook, policies) still say once that a config file was
  // refused: its protections are not in force, and the person should know why.
  if (opts.quiet) for (const error of core.configErrors) warn(error);
  return core;
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
export function hookToken(): string {
  return openState().hookToken();
}
