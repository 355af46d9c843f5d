import { parentPort } from 'node:worker_threads';
import { defaultConfig, type ResolvedConfig } from '../config/load';
import type { HookEvent } from '../types';
import { initShellParser } from '../shell';
import { loadWantedGrammars, takeWantedGrammars } from '../interp';
import { setCompileGate, type CompileGate } from '../treesitter/loader';
import { nodeFactSource } from '../facts/io-node';
import { WARM_UP_COMMANDS, warmUpShellParser } from '../shell/warm-up';
import { resolvePolicyStates, type PolicyState } from '../policies/run';
import type { AnyPolicy } from '../policies/types';
import { runDeterministic, sessionWritesOf } from './run';
import { NO_FACT_SOURCE } from '../facts/io';
import { NO_SESSION_WRITES } from '../facts/session-writes';
import { readThreadMemory } from './threadMemory';
import { configFromWire, inputFromWire, resultToWire, type FromWorker, type ToWorker } from './wire';

// The evaluation worker's loop: it loads its own parser, keeps the configs the host sent it, and answers
// one call at a time, in the order the host sent them. The host stops it (terminate) when a call overruns its budget.

const KEPT_CONFIGS = 32;

export function serveDeterministicCalls(policies: AnyPolicy[]): void {
  const port = parentPort;
  if (!port) throw new Error('the evaluation worker must run as a worker thread');
  const send = (message: FromWorker) => port.postMessage(message);
  const configs = new Map<number, { config: ResolvedConfig; states: PolicyState[] }>();

  const gate = hostCompileGate(send);
  setCompileGate(gate.run);

  const answer = async (message: Extract<ToWorker, { type: 'run' }>) => {
    try {
      const entry = configs.get(message.configId);
      if (!entry) throw new Error(`config ${message.configId} never reached the evaluation worker`);
      const input = inputFromWire(message.input);
      const evaluate = () =>
        runDeterministic(input, entry.config, entry.states, nodeFactSource, sessionWritesOf(input));
      takeWantedGrammars();
      let result = evaluate();
      // A call that needed an interpreter grammar not loaded yet is read again once it is; each round
      // loads at least one more grammar, so this ends.
      while (await loadWantedGrammars()) result = evaluate();
      send({ type: 'result', id: message.id, result: resultToWire(result) });
    } catch (err) {
      send({ type: 'error', id: message.id, message: (err as Error).message });
    }
  };

  let answering = Promise.resolve();
  port.on('message', (message: ToWorker) => {
    if (message.type === 'compile-go') {
      gate.go();
      return;
    }
    if (message.type === 'memory') {
      send({ type: 'memory', reading: readThreadMemory(message.thread) });
      return;
    }
    if (message.type === 'config') {
      const config = configFromWire(message.config);
      configs.set(message.configId, { config, states: resolvePolicyStates(policies, config) });
      if (configs.size > KEPT_CONFIGS) configs.delete(configs.keys().next().value as number);
      return;
    }
    // The host may hand over the next call while this one runs: calls are answered one after another,
    // in the order sent (an answer can wait on a grammar loading).
    answering = answering.then(() => answer(message));
  });

  // Ready once the shell parser loads and every policy has run on a few calls: a first call never pays
  // for compiling them. The interpreter grammars load when a call first needs one (most calls need
  // none: each costs memory in every worker). The parser's longer warm-up then runs between calls (it
  // yields after each round).
  initShellParser().then(
    () => {
      warmUpPolicies(policies);
      takeWantedGrammars();
      send({ type: 'ready' });
      void warmUpShellParser();
    },
    (err: Error) => send({ type: 'failed', message: err.message }),
  );
}

/** Compiles take turns across the host's workers: the host grants one turn at a time. */
function hostCompileGate(send: (message: FromWorker) => void): { run: CompileGate; go: () => void } {
  const waiting: (() => void)[] = [];
  return {
    go: () => waiting.shift()?.(),
    run: async (compile) => {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        send({ type: 'compile-turn' });
      });
      try {
        return await compile();
      } finally {
        send({ type: 'compile-done' });
      }
    },
  };
}

function warmUpPolicies(policies: AnyPolicy[]): void {
  const config = defaultConfig();
  const states = resolvePolicyStates(policies, config);
  for (const command of WARM_UP_COMMANDS) {
    const event: HookEvent = {
      agent: 'claude',
      event: 'PreToolUse',
      rawEventName: 'PreToolUse',
      sessionId: 'warm-up',
      cwd: '/warm-up/project',
      toolName: 'Bash',
      toolInput: { command },
      raw: {},
    };
    runDeterministic(
      {
        event,
        projectRoot: '/warm-up/project',
        home: '/warm-up/home',
        stateDir: '/warm-up/state',
        session: [],
        sessionKey: 'claude:warm-up',
        wholeCall: false,
      },
      config,
      states,
      NO_FACT_SOURCE,
      NO_SESSION_WRITES,
    );
  }
}
