import type { ProcessReply } from '../core/agents/lastResort';
import { lastResortDeny } from '../core/agents/lastResort';
import { HookService } from '../server/hooks';
import { openCore, warn } from './common';

/**
 * The command bridge's fallback when no endpoint gives a verdict: evaluates
 * the call here with the same config, as a headless run (nobody can answer an
 * ask, so it becomes a deny that says why). Never throws.
 */
export async function inProcessHook(agent: string, body: string, config: string | undefined): Promise<ProcessReply> {
  try {
    const core = await openCore({ ...(config ? { config } : {}), quiet: true });
    const hooks = new HookService({ evaluator: core.evaluator, failureDecision: () => 'deny', onError: warn });
    const result = await hooks.handle(agent, body, new AbortController().signal, true);
    core.close();
    return { stdout: JSON.stringify(result.reply) + '\n', stderr: '', code: 0 };
  } catch (err) {
    return lastResortDeny(agent, `Agent Warden could not produce a verdict: ${(err as Error).message}`);
  }
}
