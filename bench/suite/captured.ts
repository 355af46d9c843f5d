import type { ResolvedConfig } from '../../src/core/config/load';
import { runDeterministic, sessionWritesOf, type DeterministicInput } from '../../src/core/deterministic/run';
import { fixedSessionWrites, type SessionWrites } from '../../src/core/facts/session-writes';
import type { DeterministicRunner } from '../../src/core/deterministic/runner';
import { Evaluator } from '../../src/core/evaluator';
import { nodeFactSource } from '../../src/core/facts/io-node';
import { ALL_POLICIES } from '../../src/core/policies/registry';
import { resolvePolicyStates } from '../../src/core/policies/run';
import { WardenHost } from '../../src/server/host';
import { inProcessWorld } from './inprocess';
import { mixBody, mixCalls } from './mix';

// The deterministic tier's inputs as a long-running host builds them for the mix (real session memory,
// the paths the session wrote), captured once so a bench can evaluate them alone.

/** One call's input, with the session's written files as they stood when it arrived. */
export interface CapturedCall {
  input: DeterministicInput;
  writes: SessionWrites;
}

export interface CapturedInputs {
  calls: CapturedCall[];
  config: ResolvedConfig;
}

/** The inputs a long-running host hands its deterministic tier for `calls` calls of the mix. */
export async function captureMixInputs(folder: string, count: number, tag: string): Promise<CapturedInputs> {
  const { project, state, log } = await inProcessWorld(folder);
  const calls: CapturedCall[] = [];
  let seen: ResolvedConfig | undefined;
  const recording: DeterministicRunner = {
    run: async (input, config) => {
      const writes = sessionWritesOf(input);
      calls.push({ input: structuredClone(input), writes: fixedSessionWrites([...writes.list()]) });
      seen = config;
      return {
        ok: true,
        ...runDeterministic(input, config, resolvePolicyStates(ALL_POLICIES, config), nodeFactSource, writes),
      };
    },
    close: async () => undefined,
  };
  const host = new WardenHost({
    evaluator: new Evaluator({ stateDir: state, home: folder, log, deterministic: recording }),
    log,
    hookToken: 'bench',
    approvalTimeoutSeconds: 60,
    failureDecision: () => 'deny',
  });
  const mix = mixCalls(project);
  const signal = new AbortController().signal;
  for (let index = 0; index < count; index++)
    await host.hooks.handle('claude', mixBody(project, mix, index, tag), signal);
  await host.close();
  log.close();
  if (!seen) throw new Error('the host evaluated no call');
  return { calls, config: seen };
}

/** How many calls one round of the mix has. */
export function mixLength(): number {
  return mixCalls('/').length;
}
