import { adapterFor, knownAgents } from '../core/agents';
import { HookService } from '../server/hooks';
import { findProjectRoot } from '../core/project';
import { openCore, readStdin, UsageError, warn } from './common';

function requireAgent(agent: string | undefined): string {
  if (!agent) throw new UsageError(`--agent is required (one of: ${knownAgents().join(', ')})`);
  if (!adapterFor(agent)) throw new UsageError(`unknown agent "${agent}" (known: ${knownAgents().join(', ')})`);
  return agent;
}

/** `check`: one event from stdin, evaluated in-process; prints the agent's own reply. Headless: an ask becomes a deny. */
export async function check(opts: { agent?: string; config?: string }): Promise<void> {
  const agent = requireAgent(opts.agent);
  const input = readStdin();
  const core = await openCore({ ...(opts.config ? { config: opts.config } : {}), quiet: true });
  const hooks = new HookService({
    evaluator: core.evaluator,
    failureDecision: () => core.evaluator.configFor(findProjectRoot(process.cwd())).failureDecision,
    onError: warn,
  });
  const result = await hooks.handle(agent, input, new AbortController().signal, true);
  core.log.close();
  process.stdout.write(JSON.stringify(result.reply) + '\n');
}

/** `evaluate`: the same input; prints the whole VerdictRecord. */
export async function evaluate(opts: { agent?: string; config?: string }): Promise<void> {
  const agent = requireAgent(opts.agent);
  const adapter = adapterFor(agent)!;
  const input = readStdin();
  let body: unknown;
  try {
    body = JSON.parse(input);
  } catch (err) {
    throw new UsageError(`standard input is not valid JSON (${(err as Error).message})`);
  }
  const parsed = adapter.parse(body, { headless: true });
  if (!parsed.ok) throw new UsageError(parsed.problem);
  const core = await openCore({ ...(opts.config ? { config: opts.config } : {}), quiet: true });
  const evaluation = await core.evaluator.evaluate(parsed.event);
  core.log.close();
  process.stdout.write(JSON.stringify(evaluation.record, null, 2) + '\n');
}

export { requireAgent };
