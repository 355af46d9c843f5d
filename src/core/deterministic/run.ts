import type { HookEvent, Outcome } from '../types';
import type { ResolvedConfig } from '../config/load';
import { toolCallOf } from '../policies/call';
import { INTERPRETER_CODE_READER } from '../interp/reader';
import { runPolicies, type PolicyState } from '../policies/run';
import { IoFacts, type FactSource } from '../facts/io';
import type { IoRecord, Unread } from '../facts/types';
import type { SessionMemory, ToolCall } from '../policies/types';
import { sessionWriteStoreFor, type SessionWrites } from '../facts/session-writes';

// The deterministic tier for one call, as a plain function of its inputs: the same code runs in the
// evaluation worker (serve, the extension) and in-process (tests, one-shot commands).

/** One session's policy memory as it stood when the call arrived: `policy\0key` to value. */
export type SessionEntries = [string, unknown][];

export interface DeterministicInput {
  event: HookEvent;
  projectRoot: string;
  home: string;
  stateDir: string;
  /** The folder of Warden's running program, which self-protection guards. */
  programDir?: string;
  session: SessionEntries;
  /**
   * The session's key in the written-files store of `stateDir`, which whoever runs the call reads itself:
   * a long session's list (up to a thousand paths) would otherwise cross to the worker with every call.
   */
  sessionKey: string;
  /**
   * Whether the caller needs the whole read of the call (the semantic tier builds its envelope from it).
   * Without it only `read` comes back: the whole read is several times the size of the rest of the
   * result, and crossing from the worker it is written and parsed as JSON on both threads.
   */
  wholeCall: boolean;
}

/** What the host keeps of a call's read when it needs no more: the files it writes, and what stayed unread. */
export interface CallRead {
  /** Files the call writes at paths known before it runs (no glob, nothing computed at run time). */
  written: string[];
  unread: Pick<Unread, 'reason' | 'detail'>[];
}

export interface DeterministicResult {
  /** The whole read of the call, when the input asked for it (`wholeCall`). */
  call?: ToolCall;
  /** Present whenever the event was a tool call Warden read. */
  read?: CallRead;
  outcomes: Outcome[];
  /** What the policies remembered for the session during this call, to apply where the session lives. */
  sessionWrites: SessionEntries;
  /** Every file-system or git question a policy asked, with its answer, for the VerdictRecord. */
  ioRecords: IoRecord[];
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
  source: FactSource,
  writes: SessionWrites,
): DeterministicResult {
  const { event, projectRoot, home, stateDir } = input;
  const call = toolCallOf(event, {
    projectRoot,
    home,
    faces: config.faces,
    source,
    reader: INTERPRETER_CODE_READER,
    writes,
  });
  const io = call?.io ?? new IoFacts(source);
  const sessionWrites: SessionEntries = [];
  const session = recordingSession(input.session, sessionWrites);
  const outcomes = runPolicies(states, {
    event,
    ...(call ? { call } : {}),
    session,
    stateDir,
    programDir: input.programDir,
    io,
  });
  if (call && config.allowTools && !config.allowTools.includes(call.toolName)) {
    outcomes.push({
      policy: 'allow-tools',
      tier: 'deterministic',
      verdict: 'deny',
      reason: `${call.toolName} is not in this project's allowTools list; add it to allowTools in the Warden config to let it run`,
    });
  }
  return {
    ...(call && input.wholeCall ? { call } : {}),
    ...(call ? { read: readOf(call) } : {}),
    outcomes,
    sessionWrites,
    ioRecords: io.records,
  };
}

function readOf(call: ToolCall): CallRead {
  return {
    written: call.facts.writes.filter((w) => !w.dynamic && !w.glob).map((w) => w.absolute),
    unread: call.facts.unread.map(({ reason, detail }) => ({ reason, detail })),
  };
}

/** The session's written files as this thread reads them from the state folder, for `input`. */
export function sessionWritesOf(input: DeterministicInput): SessionWrites {
  return sessionWriteStoreFor(input.stateDir).load(input.sessionKey);
}
