import { dirname, resolve } from 'node:path';
import {
  applyCommandPlan,
  COMMAND_AGENTS,
  isCommandAgent,
  planCommandInstall,
  planCommandUninstall,
  type CommandHookPlan,
} from '../core/install/commandAgents';
import {
  applyPlan,
  detectClaudeVersion,
  planInstall,
  planUninstall,
  TOKEN_ENV,
  type ClaudeScope,
  type InstallPlan,
} from '../core/install/claude';
import { loadConfig } from '../core/config/load';
import { findProjectRoot } from '../core/project';
import { bridgeCommandFor } from '../core/install/shellBridge';
import { openState } from '../core/root/state';
import { isLoopbackUrl } from '../core/endpointAuth';
import { hookToken, refuseBadCliConfig, UsageError } from './common';

const SCOPES: ClaudeScope[] = ['local', 'project', 'user'];

function parseScope(scope: string | undefined): ClaudeScope {
  const value = (scope ?? 'local') as ClaudeScope;
  if (!SCOPES.includes(value)) throw new UsageError(`--scope must be one of ${SCOPES.join(', ')} (got "${scope}")`);
  return value;
}

const AGENTS = ['claude', ...COMMAND_AGENTS];

function requireAgent(agent: string | undefined): string {
  if (!agent || !AGENTS.includes(agent))
    throw new UsageError(`--agent must be one of ${AGENTS.join(', ')} (got ${agent ? `"${agent}"` : 'none'})`);
  return agent;
}

/**
 * The bridge as a hook command: the shell bridge where this machine can run it, else the absolute
 * dist/hook.js; in a committed file, the `agent-warden-hook` bin (no path of this machine).
 */
function bridgeCommand(scope: ClaudeScope): string {
  if (scope === 'project') return 'agent-warden-hook';
  return bridgeCommandFor(dirname(resolve(process.argv[1] ?? 'dist/cli.js')), process.execPath);
}

function reportCommand(plan: CommandHookPlan, dryRun: boolean, verb: string): void {
  for (const warning of plan.warnings) process.stderr.write(`note: ${warning}\n`);
  if (dryRun) {
    process.stdout.write(
      plan.after === null
        ? `# ${plan.path} would be removed (dry run: nothing written)\n`
        : `# ${plan.path} (dry run: nothing written)\n${plan.after}`,
    );
    return;
  }
  process.stdout.write(plan.changed ? `${verb} ${plan.path}\n` : `${plan.path} already up to date\n`);
}

function report(plan: InstallPlan, dryRun: boolean, verb: string): void {
  for (const warning of plan.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (dryRun) {
    process.stdout.write(`# ${plan.path} (dry run: nothing written)\n${plan.after}`);
    return;
  }
  process.stdout.write(plan.changed ? `${verb} ${plan.path}\n` : `${plan.path} already up to date\n`);
}

export interface InstallArgs {
  agent?: string;
  scope?: string;
  dryRun?: boolean;
  url?: string;
  bridge?: boolean;
  config?: string;
}

export function install(args: InstallArgs): void {
  const agent = requireAgent(args.agent);
  const scope = parseScope(args.scope);
  const projectRoot = findProjectRoot(process.cwd());
  const state = openState();
  const paths = state.paths;
  const config = loadConfig({
    stateDir: paths.dir,
    projectRoot,
    ...(args.config ? { cliConfigPath: args.config } : {}),
    confirmations: state.confirmations(),
  });
  if (args.config) refuseBadCliConfig(args.config, config.errors);
  if (isCommandAgent(agent)) {
    const plan = commandPlan(() =>
      planCommandInstall({
        agent,
        scope,
        projectRoot,
        env: process.env,
        bridgeCommand: bridgeCommand(scope),
        approvalTimeoutSeconds: config.approvalsTimeoutSeconds,
      }),
    );
    if (!args.dryRun) applyCommandPlan(plan);
    reportCommand(plan, !!args.dryRun, 'installed Warden hooks in');
    return;
  }
  if (args.url !== undefined && !isLoopbackUrl(args.url))
    throw new UsageError(`--url must be an http URL on 127.0.0.1, localhost or [::1] (got "${args.url}")`);
  const url = args.url ?? state.endpointFor(projectRoot)?.url;
  if (!args.bridge && !url)
    throw new UsageError(
      'no running endpoint was found for this project: start `agent-warden serve` (or open it in VS Code with the extension), or pass --url',
    );
  const plan = planInstall({
    scope,
    projectRoot,
    ...(url ? { url } : {}),
    ...(scope === 'project' ? {} : { token: state.hookToken() }),
    bridge: !!args.bridge,
    bridgeCommand:
      scope === 'project' ? 'agent-warden' : `"${process.execPath}" "${resolve(process.argv[1] ?? 'dist/cli.js')}"`,
    claudeVersion: detectClaudeVersion(),
    approvalTimeoutSeconds: config.approvalsTimeoutSeconds,
  });
  if (!args.dryRun) applyPlan(plan);
  report(plan, !!args.dryRun, 'installed Warden hooks in');
}

export function uninstall(args: InstallArgs): void {
  const agent = requireAgent(args.agent);
  if (isCommandAgent(agent)) {
    const scope = parseScope(args.scope);
    const plan = commandPlan(() =>
      planCommandUninstall(agent, scope, { projectRoot: findProjectRoot(process.cwd()), env: process.env }),
    );
    if (!args.dryRun) applyCommandPlan(plan);
    reportCommand(
      plan,
      !!args.dryRun,
      plan.after === null ? 'removed Warden hooks and the file' : 'removed Warden hooks from',
    );
    return;
  }
  const plan = planUninstall(parseScope(args.scope), findProjectRoot(process.cwd()));
  if (!args.dryRun) applyPlan(plan);
  report(plan, !!args.dryRun, 'removed Warden hooks from');
}

/** A plan, with the installer's refusals (no such scope, a file that is not JSON) as usage errors. */
function commandPlan(make: () => CommandHookPlan): CommandHookPlan {
  try {
    return make();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** `env`: the export line that gives Claude Code the hook token for $VAR headers. */
export function printEnv(): void {
  const token = hookToken();
  process.stdout.write(`export ${TOKEN_ENV}=${token}\n`);
}
