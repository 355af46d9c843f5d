import type { HookEvent, Outcome } from '../types';
import type { ResolvedConfig } from '../config/load';
import { toolCallOf } from '../policies/call';
import { runPolicies, type PolicyState } from '../policies/run';
import type { SessionMemory, ToolCall } from '../policies/types';

// The deterministic tier for one call, as a plain function of its inputs: the same code runs in the
// evaluation worker (serve, the extension) and in-process (tests, one-shot commands).

/** One session's policy memory as it stood when the call arrived: `policy\0key` to value. */
export type SessionEntries = [string, unknown][];

export interface DeterministicInput {
  event: HookEvent;
  projectRoot: string;
  home: string;
  stateDir: string;
  session: SessionEntries;
}

export interface DeterministicResult {
  call?: ToolCall;
  outcomes: Outcome[];
  /** What the policies remembered for the session during this call, to apply where the session lives. */
  sessionWrites: SessionEntries;
}

function recordingSession(entries: SessionEntries, writes: SessionEntries): SessionMemory {
  const bucket = new Map(entries);
  return {
    get: <T>(policy: string, key: string) => bucket.get(`${policy}\u0000${key}`) as T | undefined,
    set: <T>(policy: string, key: string, value: T) => {
      bucket.set(`${policy}\u0000${key}`, value);
      writes.push([`${policy}\u0000${key}`, value]);
    },
  };
}

export function runDeterministic(
  input: DeterministicInput,
  config: ResolvedConfig,
  states: PolicyState[],
): DeterministicResult {
  const { event, projectRoot, home, stateDir } = input;
  const call = toolCallOf(event, { projectRoot, home, faces: config.faces });
  const sessionWrites: SessionEntries = [];
  const session = recordingSession(input.session, sessionWrites);
  const outcomes = runPolicies(states, { event, ...(call ? { call } : {}), session, stateDir });
  if (call && config.allowTools && !config.allowTools.includes(call.toolName)) {
    outcomes.push({
      policy: 'allow-tools',
      tier: 'deterministic',
      verdict: 'deny',
      reason: `${call.toolName} is not in this project's allowTools list; add it to allowTools in the Warden config to let it run`,
    });
  }
  return { ...(call ? { call } : {}), outcomes, sessionWrites };
}
