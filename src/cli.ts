import { parseArgs } from 'node:util';
import { check, evaluate } from './cli/check';
import { UsageError, openCore } from './cli/common';
import { inProcessHook } from './cli/hook';
import { parseBridgeArgs, runBridge } from './bridge/bridge';
import { bridgeWarn, emit, readAllStdin } from './bridge/io';
import { install, printEnv, uninstall } from './cli/install';
import { serve } from './cli/serve';
import { digestCommand } from './cli/digest';
import { policiesCommand } from './cli/policies';
import { VERSION } from './core/version';

const USAGE = `agent-warden ${VERSION}: a guard for AI coding agents

usage: agent-warden <command> [options]

  serve [--port N] [--config F] [--trust-project]   start the endpoint on 127.0.0.1
  check --agent A [--config F]                      evaluate one hook event from stdin; print the agent's reply
  evaluate --agent A [--config F]                   same input; print the whole VerdictRecord
  hook --agent A [--config F] [--timeout S]         the command bridge (forward to the endpoint, else evaluate here)
  install --agent A --scope local|project|user [--dry-run] [--url U] [--bridge]
                                                    A: claude, codex, gemini, cursor, copilot
  uninstall --agent A --scope local|project|user [--dry-run]
  env                                               print the export line for the hook token
  digest [--tool NAME]                              print the exact-args digest of stdin
  policies [--json] [--config F]                    list the policies, on or off, with source scope and parameters
`;

const OPTIONS = {
  agent: { type: 'string' },
  scope: { type: 'string' },
  port: { type: 'string' },
  config: { type: 'string' },
  url: { type: 'string' },
  tool: { type: 'string' },
  timeout: { type: 'string' },
  'dry-run': { type: 'boolean' },
  bridge: { type: 'boolean' },
  json: { type: 'boolean' },
  'trust-project': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${value}")`);
  return port;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command] = positionals;
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 1;
  }
  const config = values.config;
  switch (command) {
    case 'serve':
      await serve({
        ...(parsePort(values.port) !== undefined ? { port: parsePort(values.port)! } : {}),
        ...(config ? { config } : {}),
        trustProject: !!values['trust-project'],
      });
      return -1; // keeps running
    case 'check':
      await check({ ...(values.agent ? { agent: values.agent } : {}), ...(config ? { config } : {}) });
      return 0;
    case 'evaluate':
      await evaluate({ ...(values.agent ? { agent: values.agent } : {}), ...(config ? { config } : {}) });
      return 0;
    case 'hook': {
      // The same bridge as dist/hook.js; here the evaluation core is already loaded.
      const args = parseBridgeArgs([
        ...(values.agent !== undefined ? ['--agent', values.agent] : []),
        ...(config !== undefined ? ['--config', config] : []),
        ...(values.timeout !== undefined ? ['--timeout', values.timeout] : []),
      ]);
      if ('problem' in args) throw new UsageError(args.problem);
      emit(
        await runBridge(args, {
          stdin: readAllStdin,
          env: process.env,
          cwd: process.cwd(),
          warn: bridgeWarn,
          loadInProcess: () => inProcessHook,
        }),
      );
      return -1;
    }
    case 'install':
    case 'uninstall': {
      const args = {
        ...(values.agent ? { agent: values.agent } : {}),
        ...(values.scope ? { scope: values.scope } : {}),
        ...(values.url ? { url: values.url } : {}),
        ...(config ? { config } : {}),
        dryRun: !!values['dry-run'],
        bridge: !!values.bridge,
      };
      if (command === 'install') install(args);
      else uninstall(args);
      return 0;
    }
    case 'env':
      printEnv();
      return 0;
    case 'digest':
      return digestCommand(values.tool);
    case 'policies':
      return policiesCommand(await openCore({ ...(config ? { config } : {}), quiet: true }), !!values.json);
    default:
      throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

// dist/hook.js requires this bundle for its in-process fallback: then only the export is wanted.
export { inProcessHook };

if (require.main === module) runMain();

function runMain(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    (err: Error) => {
      if (err instanceof UsageError || (err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
        process.stderr.write(`agent-warden: ${err.message}\n`);
        process.exitCode = 2;
        return;
      }
      process.stderr.write(`agent-warden: ${err.stack ?? err.message}\n`);
      process.exitCode = 2;
    },
  );
}
