import { parentPort } from 'node:worker_threads';
import { defaultConfig, type ResolvedConfig } from '../config/load';
import type { HookEvent } from '../types';
import { initShellParser } from '../shell';
import { loadCodeGrammars } from '../interp';
import { nodeFactSource } from '../facts/io-node';
import { WARM_UP_COMMANDS, warmUpShellParser } from '../shell/warm-up';
import { resolvePolicyStates, type PolicyState } from '../policies/run';
import type { AnyPolicy } from '../policies/types';
import { runDeterministic } from './run';
import { NO_FACT_SOURCE } from '../facts/io';
import { configFromWire, inputFromWire, resultToWire, type FromWorker, type ToWorker } from './wire';

// The evaluation worker's loop: it loads its own parser, keeps the configs the host sent it, and answers
// one call at a time. The host stops it (terminate) when a call overruns its budget.

const KEPT_CONFIGS = 32;

export function serveDeterministicCalls(policies: AnyPolicy[]): void {
  const port = parentPort;
  if (!port) throw new Error('the evaluation worker must run as a worker thread');
  const send = (message: FromWorker) => port.postMessage(message);
  const configs = new Map<number, { config: ResolvedConfig; states: PolicyState[] }>();

  port.on('message', (message: ToWorker) => {
    if (message.type === 'config') {
      const config = configFromWire(message.config);
      configs.set(message.configId, { config, states: resolvePolicyStates(policies, config) });
      if (configs.size > KEPT_CONFIGS) configs.delete(configs.keys().next().value as number);
      return;
    }
    try {
      const entry = configs.get(message.configId);
      if (!entry) throw new Error(`config ${message.configId} never reached the evaluation worker`);
      const result = runDeterministic(inputFromWire(message.input), entry.config, entry.states, nodeFactSource);
      send({ type: 'result', id: message.id, result: resultToWire(result) });
    } catch (err) {
      send({ type: 'error', id: message.id, message: (err as Error).message });
    }
  });

  // Ready once the parser loads and every policy has run on a few calls: a first call never pays for
  // compiling them. The parser's longer warm-up then runs between calls (it yields after each round),
  // so the optimising compiler's pauses land on this thread, never on the host's event loop.
  Promise.all([initShellParser(), loadCodeGrammars()]).then(
    () => {
      warmUpPolicies(policies);
      send({ type: 'ready' });
      void warmUpShellParser();
    },
    (err: Error) => send({ type: 'failed', message: err.message }),
  );
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
        writtenPaths: [],
      },
      config,
      states,
      NO_FACT_SOURCE,
    );
  }
}
