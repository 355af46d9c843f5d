import { request } from 'undici';
import { BRIDGE_NONCE_HEADER, newBridgeNonce, REPLY_MAC_HEADER, verifyReply } from '../core/endpointAuth';
import { findProjectRoot } from '../core/project';
import { openState } from '../core/root/state';
import { HookService } from '../server/hooks';
import { openCore, readStdin, warn } from './common';
import { requireAgent } from './check';

const FORWARD_TIMEOUT_MS = 10 * 60_000;

type Forwarded = { ok: true; reply: Record<string, unknown> } | { ok: false; problem: string };

/**
 * The Host-checked, token-authenticated forward of one hook body to a running
 * endpoint. The reply counts only when its MAC, bound to this request's fresh
 * nonce, verifies under the state folder's key: a server the agent started
 * itself cannot make the bridge relay its answer.
 */
async function forward(url: string, token: string, key: Buffer, agent: string, body: string): Promise<Forwarded> {
  const nonce = newBridgeNonce();
  const res = await request(`${url}/hooks/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, [BRIDGE_NONCE_HEADER]: nonce },
    body,
    headersTimeout: FORWARD_TIMEOUT_MS,
    bodyTimeout: FORWARD_TIMEOUT_MS,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) return { ok: false, problem: `it answered HTTP ${res.statusCode}` };
  const mac = res.headers[REPLY_MAC_HEADER];
  if (!verifyReply(key, nonce, text, typeof mac === 'string' ? mac : undefined))
    return { ok: false, problem: 'its reply does not carry a valid MAC, so it is not relayed' };
  const json: unknown = JSON.parse(text);
  return typeof json === 'object' && json !== null && !Array.isArray(json)
    ? { ok: true, reply: json as Record<string, unknown> }
    : { ok: false, problem: 'its reply is not a JSON object' };
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
 * `hook --agent A`: the command bridge. Forwards stdin to the verified endpoint
 * recorded for the project; when none answers with a verifiable reply, evaluates
 * in-process (an ask becomes a deny that says why). Exits 2 only when no verdict
 * can be produced at all.
 */
export async function hookBridge(opts: { agent?: string; config?: string }): Promise<number> {
  const agent = requireAgent(opts.agent);
  const body = readStdin();
  const state = openState();
  const endpoint = state.endpointFor(findProjectRoot(cwdOf(body)), (file, problem) =>
    warn(`ignored the endpoint record ${file}: ${problem}`),
  );
  const key = state.existingEndpointKey();
  if (endpoint && key) {
    try {
      const forwarded = await forward(endpoint.url, state.hookToken(), key, agent, body);
      if (forwarded.ok) {
        process.stdout.write(JSON.stringify(forwarded.reply) + '\n');
        return 0;
      }
      warn(`the endpoint at ${endpoint.url} gave no usable verdict (${forwarded.problem}); evaluating in-process`);
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
    core.close();
    process.stdout.write(JSON.stringify(result.reply) + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`Agent Warden could not produce a verdict: ${(err as Error).message}\n`);
    return 2;
  }
}
