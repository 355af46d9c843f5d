// Shared by the policy tests: a fixed fake project and home, so no result depends on this machine.
import assert from 'node:assert/strict';
import { initShellParser } from '../../../src/core/shell';
import { loadCodeGrammars } from '../../../src/core/interp';
import { INTERPRETER_CODE_READER } from '../../../src/core/interp/reader';
import { toolCallOf } from '../../../src/core/policies/call';
import { resolvePolicyStates, runPolicies } from '../../../src/core/policies/run';
import type { PolicyState } from '../../../src/core/policies/run';
import { SessionStore } from '../../../src/core/policies/session';
import { ALL_POLICIES, policyByName } from '../../../src/core/policies/registry';
import type { AnyPolicy, SessionMemory } from '../../../src/core/policies/types';
import { aConfig } from '../../builders/config';
import { aHookEvent } from '../../builders/hookEvent';
import type { AgentName, HookEvent, HookEventName, Outcome } from '../../../src/core/types';
import { IoFacts, type FactSource } from '../../../src/core/facts/io';
import { nodeFactSource } from '../../../src/core/facts/io-node';
import type { SessionWrites } from '../../../src/core/facts/session-writes';

export const HOME = '/home/dev';
export const ROOT = '/home/dev/proj';
export const STATE_DIR = '/home/dev/.agent-warden';
/** Where the running Warden's bundles are, in the fake world: a folder whose name says nothing of Warden. */
export const PROGRAM_DIR = '/opt/tools/guard/dist';

export async function ready(): Promise<void> {
  await initShellParser();
  await loadCodeGrammars();
}

export interface CallSpec {
  tool?: string;
  input?: Record<string, unknown>;
  /** Shorthand for a Bash call. */
  bash?: string;
  cwd?: string;
  root?: string;
  home?: string;
  event?: HookEventName;
  toolResponse?: unknown;
  raw?: Record<string, unknown>;
  stateDir?: string;
  /** The running Warden's program folder; default PROGRAM_DIR, null for a host that did not say. */
  programDir?: string | null;
  /** The file system and git the facts see; default the real ones (Stop policies run real git in temp repos). */
  source?: FactSource;
  /** Files this session wrote before the call. */
  writes?: SessionWrites;
  /** The agent that sent the call (its tool names); default Claude Code. */
  agent?: AgentName;
}

function eventOf(spec: CallSpec): HookEvent {
  const event = aHookEvent()
    .event(spec.event ?? 'PreToolUse')
    .session('test-session')
    .inCwd(spec.cwd ?? spec.root ?? ROOT)
    .mode(undefined)
    .raw(spec.raw ?? {});
  if (spec.agent !== undefined) event.agent(spec.agent);
  if (spec.bash !== undefined) event.bash(spec.bash);
  else if (spec.tool !== undefined) event.tool(spec.tool, spec.input ?? {});
  else event.noTool();
  if (spec.toolResponse !== undefined) event.response(spec.toolResponse);
  return event.build();
}

export function freshSession(): SessionMemory {
  return new SessionStore().memoryFor('test-session');
}

/** Runs the given policies (all default-on ones when omitted) on one call. */
export function run(
  spec: CallSpec,
  opts: {
    policies?: AnyPolicy[];
    states?: PolicyState[];
    session?: SessionMemory;
    params?: Record<string, Record<string, unknown>>;
  } = {},
): Outcome[] {
  const withParams = aConfig();
  for (const [name, params] of Object.entries(opts.params ?? {})) withParams.policy(name, params);
  const config = withParams.build();
  const states = opts.states ?? resolvePolicyStates(opts.policies ?? ALL_POLICIES, config);
  const event = eventOf(spec);
  const source = spec.source ?? nodeFactSource;
  const call = toolCallOf(event, {
    projectRoot: spec.root ?? ROOT,
    home: spec.home ?? HOME,
    faces: config.faces,
    source,
    reader: INTERPRETER_CODE_READER,
    ...(spec.writes ? { writes: spec.writes } : {}),
  });
  const input = {
    event,
    session: opts.session ?? freshSession(),
    stateDir: spec.stateDir ?? STATE_DIR,
    ...(spec.programDir === null ? {} : { programDir: spec.programDir ?? PROGRAM_DIR }),
    io: call?.io ?? new IoFacts(source),
  };
  return runPolicies(states, call ? { ...input, call } : input);
}

/** The policies that refuse or ask about a Bash command, with the default policies. */
export function blockingPolicies(command: string): string[] {
  return blockingPoliciesOf('Bash', { command });
}

/** The policies that refuse or ask about a call of any tool, with the default policies. */
export function blockingPoliciesOf(tool: string, input: Record<string, unknown>): string[] {
  return blockingPoliciesIn({ tool, input });
}

function blockingPoliciesIn(spec: CallSpec): string[] {
  return run(spec)
    .filter((o) => o.verdict === 'deny' || o.verdict === 'ask')
    .map((o) => o.policy);
}

/** A file's path: an absolute one (or a Windows drive's) as it is, any other under ROOT. */
function inProject(file: string): string {
  return /^(\/|[A-Za-z]:)/.test(file) ? file : `${ROOT}/${file}`;
}

/** One shape for the breadth tests' calls: the policies that refuse or ask about each, with the default policies. */
export const blockers = {
  bash: blockingPolicies,
  read: (file: string) => blockingPoliciesOf('Read', { file_path: inProject(file) }),
  write: (file: string, content: string) => blockingPoliciesIn(aWrite(inProject(file), content)),
  edit: (file: string, old_string: string, new_string: string) =>
    blockingPoliciesIn(anEdit(inProject(file), old_string, new_string)),
  brief: (prompt: string) => blockingPoliciesIn(aTaskBrief(prompt)),
  /** A statement to the Postgres MCP server's query tool. */
  sql: (statement: string) => blockingPoliciesOf('mcp__postgres__query', { sql: statement }),
};

/** Rows of what a call is, the policies it drew and the one it must draw: each row draws its policy. */
export function assertEachCaught(
  rows: readonly (readonly [what: string, found: () => string[], policy: string])[],
): void {
  for (const [what, found, policy] of rows) {
    const got = found();
    assert.ok(got.includes(policy), `${what}: expected ${policy}, got ${got.join(', ') || 'nothing'}`);
  }
}

/** Bash commands none of which any policy refuses or asks about (each one that is, with its policies, fails). */
export function assertUnremarked(commands: readonly string[]): void {
  const remarked = commands.flatMap((command) => {
    const found = blockingPolicies(command);
    return found.length ? [`${command}: [${found.join(', ')}]`] : [];
  });
  assert.deepEqual(remarked, []);
}

/** Rows of what a call is and the policies it drew: none draws any. */
export function assertEachQuiet(rows: readonly (readonly [what: string, found: () => string[]])[]): void {
  for (const [what, found] of rows) assert.deepEqual(found(), [], what);
}

/** The outcome of one named policy on a call (enabled whatever its default), or undefined. */
export function verdictOf(
  name: string,
  spec: CallSpec,
  params?: Record<string, unknown>,
  session?: SessionMemory,
): Outcome | undefined {
  const policy = policyByName(name);
  if (!policy) throw new Error(`no policy named ${name}`);
  const states = resolvePolicyStates([policy], aConfig().policy(name, params).build());
  const state = states[0];
  if (state?.error) throw new Error(state.error);
  return run(spec, { states, ...(session ? { session } : {}) }).find((o) => o.policy === name);
}

export interface Row {
  /** What the row shows, for the test name. */
  note?: string;
  spec: CallSpec | string;
  /** The verdict expected from the policy, or null for no finding. */
  expect: Outcome['verdict'] | null;
  params?: Record<string, unknown>;
}

/** A Write of `content` to `file_path`. */
export function aWrite(file_path: string, content: string): CallSpec {
  return { tool: 'Write', input: { file_path, content } };
}

/** A sub-agent (Task) handed `prompt` as its brief. */
export function aTaskBrief(prompt: string): CallSpec {
  return { tool: 'Task', input: { description: 'Help', prompt, subagent_type: 'general-purpose' } };
}

/** An Edit of `file_path` that replaces `old_string` with `new_string`. */
export function anEdit(file_path: string, old_string: string, new_string: string): CallSpec {
  return { tool: 'Edit', input: { file_path, old_string, new_string } };
}

export function specOf(row: Row): CallSpec {
  return typeof row.spec === 'string' ? { bash: row.spec } : row.spec;
}

export function describeSpec(spec: CallSpec): string {
  if (spec.bash !== undefined) return spec.bash.length > 90 ? `${spec.bash.slice(0, 89)}…` : spec.bash;
  return `${spec.tool} ${JSON.stringify(spec.input ?? {}).slice(0, 90)}`;
}
