import { readFileSync } from 'node:fs';
import { findProjectRoot } from '../core/project';
import { readEndpointKey } from '../core/endpointAuth';
import { endpointFor } from '../core/endpoints';
import { stateDir, statePaths } from '../core/state';
import { isAgentName, AGENT_NAMES } from '../core/agents/names';
import { lastResortDeny, type ProcessReply } from '../core/agents/lastResort';
import { forward } from './forward';

// The command bridge: one hook call from stdin to the running endpoint and its
// verdict back to the agent. The forwarding path loads only node built-ins and
// these small modules, so it starts about as fast as Node itself: it reads the
// state folder's files directly (not through the composition root, whose other
// parts load node:crypto) and creates nothing there. The evaluation core is
// loaded only when no endpoint gives a verdict.

export interface BridgeArgs {
  agent: string;
  config?: string;
  /** Seconds to wait for the endpoint's verdict (a held ask waits for a person). */
  timeoutSeconds?: number;
}

/** Evaluates in-process, as a headless run (an ask becomes a deny that says why). */
export type InProcess = (agent: string, body: string, config: string | undefined) => Promise<ProcessReply>;

/** The agent's reply; `forwarded` says the endpoint gave it, so nothing in this process is left to finish. */
export interface BridgeReply extends ProcessReply {
  forwarded?: boolean;
}

export interface BridgeIo {
  stdin: () => string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  warn: (message: string) => void;
  loadInProcess: () => InProcess;
}

const DEFAULT_TIMEOUT_SECONDS = 600;
const CONNECT_TIMEOUT_MS = 2000;

/** The folder the call runs in: cwd, or Cursor's first workspace root, else the bridge's own. */
function callFolder(body: string, fallback: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    if (typeof parsed.cwd === 'string' && parsed.cwd !== '') return parsed.cwd;
    const roots = parsed.workspace_roots;
    if (Array.isArray(roots) && typeof roots[0] === 'string' && roots[0] !== '') return roots[0];
  } catch {
    // The endpoint (or the in-process evaluation) names what is wrong with the body.
  }
  return fallback;
}

export async function runBridge(args: BridgeArgs, io: BridgeIo): Promise<BridgeReply> {
  if (!isAgentName(args.agent))
    return {
      stdout: '',
      stderr: `agent-warden: unknown agent "${args.agent}" (known: ${AGENT_NAMES.join(', ')})\n`,
      code: 2,
    };
  let body: string;
  try {
    body = io.stdin();
  } catch (err) {
    return lastResortDeny(args.agent, `Agent Warden could not read the hook input: ${(err as Error).message}`);
  }
  // Records verified under the endpoint key, on loopback, of live processes.
  const paths = statePaths(stateDir(io.env));
  const key = readEndpointKey(paths.dir);
  const endpoint = endpointFor(paths.endpointsDir, key, findProjectRoot(callFolder(body, io.cwd)), (file, problem) =>
    io.warn(`ignored the endpoint record ${file}: ${problem}`),
  );
  if (endpoint && key) {
    let token: string | undefined;
    try {
      // A live endpoint created the token; the bridge only reads it.
      token = readFileSync(paths.hookTokenFile, 'utf8').trim();
    } catch (err) {
      io.warn(`cannot read the hook token (${(err as Error).message}); evaluating in-process`);
    }
    if (token) {
      const result = await forward({
        url: endpoint.url,
        token,
        agent: args.agent,
        body,
        key,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        replyTimeoutMs: (args.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
      });
      if (result.ok) return { stdout: result.text + '\n', stderr: '', code: 0, forwarded: true };
      io.warn(`the endpoint at ${endpoint.url} did not answer (${result.problem}); evaluating in-process`);
    }
  }
  try {
    return await io.loadInProcess()(args.agent, body, args.config);
  } catch (err) {
    return lastResortDeny(args.agent, `Agent Warden could not produce a verdict: ${(err as Error).message}`);
  }
}

/** Parses the bridge's own arguments: --agent A [--config F] [--timeout S]. */
export function parseBridgeArgs(argv: string[]): BridgeArgs | { problem: string } {
  const args: Partial<BridgeArgs> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--agent' || flag === '--config' || flag === '--timeout') && value === undefined)
      return { problem: `${flag} needs a value` };
    if (flag === '--agent') args.agent = value;
    else if (flag === '--config') args.config = value;
    else if (flag === '--timeout') {
      const seconds = Number(value);
      if (!Number.isFinite(seconds) || seconds <= 0)
        return { problem: `--timeout must be a number of seconds (got "${value}")` };
      args.timeoutSeconds = seconds;
    } else return { problem: `unknown argument "${flag}" (usage: hook --agent A [--config F] [--timeout S])` };
    i++;
  }
  if (!args.agent) return { problem: `--agent is required (one of: ${AGENT_NAMES.join(', ')})` };
  return args as BridgeArgs;
}
