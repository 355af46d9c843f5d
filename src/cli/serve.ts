import { removeEndpointRecord, writeEndpointRecord } from '../core/endpoints';
import { findProjectRoot } from '../core/project';
import { VERSION } from '../core/version';
import { HookService } from '../server/hooks';
import { WardenServer } from '../server/server';
import { hookToken, openCore, UsageError, warn } from './common';

export interface ServeOptions {
  port?: number;
  config?: string;
  trustProject?: boolean;
}

export async function serve(opts: ServeOptions): Promise<void> {
  const core = await openCore({ ...(opts.config ? { config: opts.config } : {}), ...(opts.trustProject ? { trustProject: true } : {}) });
  const config = core.evaluator.configFor(findProjectRoot(process.cwd()));
  const cliErrors = opts.config ? config.errors.filter((e) => e.includes(opts.config!.replace(/^.*\//, ''))) : [];
  if (cliErrors.length) throw new UsageError(`the --config file was refused:\n  ${cliErrors.join('\n  ')}`);
  const token = hookToken(core.paths);
  const hooks = new HookService({
    evaluator: core.evaluator,
    failureDecision: () => core.evaluator.configFor(findProjectRoot(process.cwd())).failureDecision,
    onError: warn,
  });
  const server = new WardenServer({ hooks, hookToken: token, port: opts.port ?? 0, onError: warn });
  const url = await server.listen();
  const recordFile = writeEndpointRecord(core.paths.endpointsDir, {
    url,
    tokenFile: core.paths.hookTokenFile,
    workspaceRoot: null,
    pid: process.pid,
    version: VERSION,
    startedAt: new Date().toISOString(),
    host: 'serve',
  });
  const stop = async () => {
    removeEndpointRecord(recordFile);
    await server.close();
    core.log.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  process.stdout.write(JSON.stringify({ url, tokenFile: core.paths.hookTokenFile }) + '\n');
  warn(`serving on ${url} (log: ${core.paths.logFile})`);
}
