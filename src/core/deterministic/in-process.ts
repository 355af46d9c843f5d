import { createContext, Script } from 'node:vm';
import type { ResolvedConfig } from '../config/load';
import { resolvePolicyStates, type PolicyState } from '../policies/run';
import type { AnyPolicy } from '../policies/types';
import type { FactSource } from '../facts/io';
import { runDeterministic, sessionWritesOf, type DeterministicInput, type DeterministicResult } from './run';
import type { DeterministicAnswer, DeterministicRunner } from './runner';

// The deterministic tier on the caller's own thread, for one-shot commands (check, evaluate, the
// bridge's fallback), where starting a worker would cost more than the call. The deadline is V8's
// own: vm's timeout terminates whatever runs below it, a spinning policy, regex or parse included.
// Serve and the extension use the worker pool instead: while this runs, nothing else on the thread does.

const RUN_ONE = new Script('runOne()');

export class InProcessRunner implements DeterministicRunner {
  private readonly states = new WeakMap<ResolvedConfig, PolicyState[]>();
  private readonly sandbox: { runOne: () => void } = { runOne: () => undefined };
  private readonly context = createContext(this.sandbox);

  constructor(
    private readonly policies: AnyPolicy[],
    private readonly source: FactSource,
  ) {}

  async run(input: DeterministicInput, config: ResolvedConfig): Promise<DeterministicAnswer> {
    let states = this.states.get(config);
    if (!states) {
      states = resolvePolicyStates(this.policies, config);
      this.states.set(config, states);
    }
    const ready = states;
    let result: DeterministicResult | undefined;
    this.sandbox.runOne = () => {
      result = runDeterministic(input, config, ready, this.source, sessionWritesOf(input));
    };
    try {
      RUN_ONE.runInContext(this.context, { timeout: config.deterministicBudgetMs });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
      return {
        ok: false,
        why: 'over-budget',
        detail: `its deterministic evaluation took longer than the ${config.deterministicBudgetMs} ms budget`,
      };
    }
    return { ok: true, ...(result as DeterministicResult) };
  }

  async close(): Promise<void> {}
}
