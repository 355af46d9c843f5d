import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { endpointFor } from '../core/endpoints';
import { findProjectRoot } from '../core/project';
import { stateDir, statePaths } from '../core/state';
import { HookService } from '../server/hooks';
import { openCore, readStdin, warn } from './common';
import { requireAgent } from './check';

const FORWARD_TIMEOUT_MS = 10 * 60_000;

/** The Host-checked, token-authenticated forward of one hook body to a running endpoint. */
async function forward(
  url: string,
  token: string,
  agent: string,
  body: string,
): Promise<Record<string, unknown> | undefined> {
  const res = await request(`${url}/hooks/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
    headersTimeout: FORWARD_TIMEOUT_MS,
    bodyTimeout: FORWARD_TIMEOUT_MS,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) return undefined;
  const json: unknown = JSON.parse(text);
  return typeof json === 'object' && json !== null && !Array.isArray(json)
    ? (json as Record<string, unknown>)
    : undefined;
}

function cwdOf(body: string): string {
  try {
    const cwd = (JSON.parse(body) as Record<string, unknown>).cwd;
    return typeof cwd === 'string' && cwd !== '' ? cwd : process.cwd();
  } catch {
    return process.cwd();
  }
}

/**
 * `hook --agent A`: the command bridge. Forwards stdin to the endpoint recorded
 * for the project; when none answers, evaluates in-process (an ask becomes a
 * deny that says why). Exits 2 only when no verdict can be produced at all.
 */
export async function hookBridge(opts: { agent?: string; config?: string }): Promise<number> {
  const agent = requireAgent(opts.agent);
  const body = readStdin();
  const paths = statePaths(stateDir());
  const endpoint = endpointFor(paths.endpointsDir, findProjectRoot(cwdOf(body)));
  if (endpoint) {
    try {
      const token = readFileSync(endpoint.tokenFile, 'utf8').trim();
      const reply = await forward(endpoint.url, token, agent, body);
      if (reply) {
        process.stdout.write(JSON.stringify(reply) + '\n');
        return 0;
      }
      warn(`the endpoint at ${endpoint.url} did not give a verdict; evaluating in-process`);
    } catch (err) {
      warn(`the endpoint at ${endpoint.url} did not answer (${(err as Error).message}); evaluating in-process`);
    }
  }
  try {
    const core = await openCore({ ...(opts.config ? { config: opts.config } : {}), quiet: true });
    const hooks = new HookService({
      evaluator: core.evaluator,
      failureDecision: () => 'deny',
      onError: warn,
    });
    const result = await hooks.handle(agent, body, new AbortController().signal, true);
    core.log.close();
    process.stdout.write(JSON.stringify(result.reply) + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`Agent Warden could not produce a verdict: ${(err as Error).message}\n`);
    return 2;
  }
}
