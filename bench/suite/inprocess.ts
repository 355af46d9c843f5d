import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ActivityLog } from '../../src/core/activity/log';
import { parseClaudeInput } from '../../src/core/agents/claude';
import { defaultConfig } from '../../src/core/config/load';
import { runDeterministic } from '../../src/core/deterministic/run';
import { NO_SESSION_WRITES } from '../../src/core/facts/session-writes';
import { Evaluator } from '../../src/core/evaluator';
import { nodeFactSource } from '../../src/core/facts/io-node';
import { ALL_POLICIES } from '../../src/core/policies/registry';
import { resolvePolicyStates } from '../../src/core/policies/run';
import type { HookEvent } from '../../src/core/types';
import { mixBody, type MixCall } from './mix';
import type { BenchResults } from './schema';
import { ofRuns, ofSamples, type Budget } from './stats';

// Per call in this process: the whole evaluation of the mix (deterministic tier in-process under its
// vm deadline, record, redaction, the activity log), and the deterministic tier alone on the same
// calls. The event loop yields after every call, so its longest delay is the longest single block.

export interface InProcessOptions {
  folder: string;
  calls: readonly MixCall[];
  runs: number;
  callsPerRun: number;
  budget: Budget;
}

/** The mix's calls as parsed hook events, a fresh session per round of the mix. */
export function events(project: string, calls: readonly MixCall[], count: number, tag: string): HookEvent[] {
  return Array.from({ length: count }, (_, index) => {
    const parsed = parseClaudeInput(JSON.parse(mixBody(project, calls, index, tag)));
    if (!parsed.ok) throw new Error(parsed.problem);
    return parsed.event;
  });
}

/** The deterministic tier alone, with the default configuration, as a call in the world's project runs it. */
export function deterministicTier(world: { project: string; state: string; home: string }) {
  const config = defaultConfig();
  const states = resolvePolicyStates(ALL_POLICIES, config);
  return (event: HookEvent) =>
    runDeterministic(
      {
        event,
        projectRoot: world.project,
        home: world.home,
        stateDir: world.state,
        session: [],
        sessionKey: 'claude:bench',
        wholeCall: false,
      },
      config,
      states,
      nodeFactSource,
      NO_SESSION_WRITES,
    );
}

/** A Claude Code PreToolUse event for one tool call in `cwd`. */
export function benchEvent(cwd: string, toolName: string, toolInput: Record<string, unknown>): HookEvent {
  return {
    agent: 'claude',
    event: 'PreToolUse',
    rawEventName: 'PreToolUse',
    sessionId: 'bench',
    cwd,
    permissionMode: 'default',
    toolName,
    toolInput,
    raw: {},
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A project and a state folder under `folder`, the parser loaded, and an activity log named `logName`. */
export async function inProcessWorld(
  folder: string,
  logName = 'activity.jsonl',
): Promise<{ project: string; state: string; log: ActivityLog }> {
  const project = join(folder, 'project');
  const state = join(folder, 'state');
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(state, { recursive: true });
  await Evaluator.ready();
  const log = new ActivityLog({
    path: join(state, logName),
    key: Buffer.alloc(32, 9),
    maxBytes: 20 * 1024 * 1024,
    keep: 5,
  });
  return { project, state, log };
}

export async function inProcessFigures(opts: InProcessOptions): Promise<BenchResults['inProcess']> {
  const { project, state, log } = await inProcessWorld(opts.folder);
  const evaluator = new Evaluator({ stateDir: state, home: opts.folder, log });
  const deterministic = deterministicTier({ project, state, home: opts.folder });
  for (const event of events(project, opts.calls, opts.calls.length * 3, 'warm')) {
    await evaluator.evaluate(event);
    deterministic(event);
  }

  const mix: number[] = [];
  const alone: number[] = [];
  const loopMax: number[] = [];
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  try {
    for (let run = 0; opts.budget.another(run, opts.runs); run++) {
      const batch = events(project, opts.calls, opts.callsPerRun, `run${run}`);
      histogram.reset();
      histogram.enable();
      for (const event of batch) {
        const started = performance.now();
        await evaluator.evaluate(event);
        mix.push(performance.now() - started);
        await turn();
      }
      histogram.disable();
      loopMax.push(histogram.max / 1e6);
      for (const event of batch) {
        const started = performance.now();
        deterministic(event);
        alone.push(performance.now() - started);
      }
    }
  } finally {
    await evaluator.close();
    log.close();
  }
  return {
    mix: ofSamples(mix, 'ms'),
    deterministicOnly: ofSamples(alone, 'ms'),
    eventLoopMaxMs: ofRuns(loopMax, 'ms'),
  };
}
