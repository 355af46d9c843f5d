import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readJsonObject } from './jsonFile';
import { userHome } from '../state';
import { dirname, join } from 'node:path';

// Warden's command-hook entries for the agents that run command hooks only
// (Codex CLI, Gemini CLI, Cursor, Copilot CLI): each agent's own file, in its
// own format, merged without touching anything else in it. Warden's entries
// are recognised by their command (the bridge for that agent), so uninstall
// removes exactly those. Only the gate before a tool call is installed: each
// hook is a process start before every call, and the gate is what blocks.

export type CommandAgent = 'codex' | 'gemini' | 'cursor' | 'copilot';
export type Scope = 'local' | 'project' | 'user';
type Json = Record<string, unknown>;

export interface AgentPaths {
  projectRoot: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
}

export interface CommandHookPlan {
  agent: CommandAgent;
  scope: Scope;
  path: string;
  before: string | null;
  /** The file's new text, or null when the file is to be removed (Warden created it and nothing else is left). */
  after: string | null;
  changed: boolean;
  warnings: string[];
}

export interface CommandInstallOptions extends AgentPaths {
  agent: CommandAgent;
  scope: Scope;
  /** The bridge's command line, without the trailing arguments (e.g. `"node" "/x/dist/hook.js"`). */
  bridgeCommand: string;
  approvalTimeoutSeconds: number;
}

interface AgentFormat {
  /** The hook file for a scope, or a sentence saying why the agent has none there. */
  file(scope: Scope, paths: AgentPaths): string | { problem: string };
  /** Adds Warden's entry to a parsed file (never holding one already). */
  add(doc: Json, command: string, timeoutSeconds: number): Json;
  /** The entries' lists: where Warden's entries are looked for. */
  lists(doc: Json): { event: string; list: unknown[] }[];
  /** The command of one entry (a handler, or a matcher group holding handlers). */
  commandsOf(entry: unknown): string[];
  /** What an otherwise empty file looks like once Warden's entries are gone. */
  isBare(doc: Json): boolean;
  /** The text of a file that did not exist before. */
  fresh(): Json;
  notes: string[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function homeOf(paths: AgentPaths): string {
  return paths.home ?? userHome();
}

/** Claude-style nesting: hooks.EVENT = [{matcher?, hooks: [{type: "command", command, timeout}]}]. */
function groupedFormat(opts: {
  event: string;
  timeoutUnit: 'seconds' | 'milliseconds';
  file: AgentFormat['file'];
  extraHandler?: Json;
  notes: string[];
}): AgentFormat {
  return {
    file: opts.file,
    add(doc, command, timeoutSeconds) {
      const hooks = isObject(doc.hooks) ? { ...doc.hooks } : {};
      const groups = Array.isArray(hooks[opts.event]) ? [...(hooks[opts.event] as unknown[])] : [];
      const timeout = opts.timeoutUnit === 'seconds' ? timeoutSeconds : timeoutSeconds * 1000;
      groups.push({ hooks: [{ ...(opts.extraHandler ?? {}), type: 'command', command, timeout }] });
      hooks[opts.event] = groups;
      return { ...doc, hooks };
    },
    lists: (doc) =>
      isObject(doc.hooks)
        ? Object.entries(doc.hooks)
            .filter(([, list]) => Array.isArray(list))
            .map(([event, list]) => ({ event, list: list as unknown[] }))
        : [],
    commandsOf: (group) =>
      isObject(group) && Array.isArray(group.hooks)
        ? group.hooks.filter(isObject).map((h) => (typeof h.command === 'string' ? h.command : ''))
        : [],
    isBare: (doc) => Object.keys(doc).length === 0,
    fresh: () => ({}),
    notes: opts.notes,
  };
}

/** Flat lists: hooks.EVENT = [handler], in a {"version": 1, "hooks": …} file. */
function flatFormat(opts: {
  event: string;
  file: AgentFormat['file'];
  handler: (command: string, timeoutSeconds: number) => Json;
  commandKey: string;
  notes: string[];
  /** Warden's handler goes first in the event's list (for an agent that may run only the first). */
  first?: boolean;
}): AgentFormat {
  return {
    file: opts.file,
    add(doc, command, timeoutSeconds) {
      const hooks = isObject(doc.hooks) ? { ...doc.hooks } : {};
      const list = Array.isArray(hooks[opts.event]) ? [...(hooks[opts.event] as unknown[])] : [];
      const handler = opts.handler(command, timeoutSeconds);
      if (opts.first) list.unshift(handler);
      else list.push(handler);
      hooks[opts.event] = list;
      return { version: 1, ...doc, hooks };
    },
    lists: (doc) =>
      isObject(doc.hooks)
        ? Object.entries(doc.hooks)
            .filter(([, list]) => Array.isArray(list))
            .map(([event, list]) => ({ event, list: list as unknown[] }))
        : [],
    commandsOf: (handler) =>
      isObject(handler) && typeof handler[opts.commandKey] === 'string' ? [handler[opts.commandKey] as string] : [],
    isBare: (doc) =>
      Object.keys(doc).every((k) => k === 'version' || k === 'hooks') &&
      doc.version === 1 &&
      (!isObject(doc.hooks) || Object.keys(doc.hooks).length === 0),
    fresh: () => ({ version: 1, hooks: {} }),
    notes: opts.notes,
  };
}

function noLocal(agent: string, file: string): { problem: string } {
  return { problem: `${agent} has no local (uncommitted) hook file: use --scope project (${file}) or --scope user` };
}

const FORMATS: Record<CommandAgent, AgentFormat> = {
  // ~/.codex/hooks.json (CODEX_HOME moves it) and .codex/hooks.json: Codex refuses any top-level
  // key but `hooks` and `description`, so no `version`; timeouts in seconds.
  codex: groupedFormat({
    event: 'PreToolUse',
    timeoutUnit: 'seconds',
    file: (scope, paths) => {
      if (scope === 'local') return noLocal('Codex CLI', '.codex/hooks.json');
      if (scope === 'project') return join(paths.projectRoot, '.codex', 'hooks.json');
      const codexHome = paths.env?.CODEX_HOME;
      return join(codexHome && codexHome.trim() ? codexHome : join(homeOf(paths), '.codex'), 'hooks.json');
    },
    notes: [
      'Codex enforces only a deny from a hook: an ask is held in the Warden panel when one is open, else refused with the reason.',
      'Codex loads project hooks only in a trusted project.',
    ],
  }),
  // settings.json `hooks.BeforeTool`; Gemini's hook timeouts are in milliseconds.
  gemini: groupedFormat({
    event: 'BeforeTool',
    timeoutUnit: 'milliseconds',
    extraHandler: { name: 'agent-warden' },
    file: (scope, paths) => {
      if (scope === 'local') return noLocal('Gemini CLI', '.gemini/settings.json');
      return scope === 'project'
        ? join(paths.projectRoot, '.gemini', 'settings.json')
        : join(homeOf(paths), '.gemini', 'settings.json');
    },
    notes: ['Gemini CLI runs project hooks only in a trusted folder.'],
  }),
  // hooks.json {"version": 1, "hooks": {"preToolUse": [{"command": …}]}}: Cursor rejects fields
  // it does not know, so the entry holds the command only.
  cursor: flatFormat({
    event: 'preToolUse',
    commandKey: 'command',
    handler: (command) => ({ command }),
    // Cursor versions have run only the first handler of an event's list: Warden's must be that one.
    first: true,
    file: (scope, paths) => {
      if (scope === 'local') return noLocal('Cursor', '.cursor/hooks.json');
      return scope === 'project'
        ? join(paths.projectRoot, '.cursor', 'hooks.json')
        : join(homeOf(paths), '.cursor', 'hooks.json');
    },
    notes: [],
  }),
  // A file of Warden's own under .github/hooks/ (or ~/.copilot/hooks/, COPILOT_HOME moves it);
  // timeouts in seconds (timeoutSec).
  copilot: flatFormat({
    event: 'preToolUse',
    commandKey: 'bash',
    handler: (command, timeoutSeconds) => ({ type: 'command', bash: command, timeoutSec: timeoutSeconds }),
    file: (scope, paths) => {
      if (scope === 'local') return noLocal('Copilot CLI', '.github/hooks/agent-warden.json');
      if (scope === 'project') return join(paths.projectRoot, '.github', 'hooks', 'agent-warden.json');
      const copilotHome = paths.env?.COPILOT_HOME;
      return join(
        copilotHome && copilotHome.trim() ? copilotHome : join(homeOf(paths), '.copilot'),
        'hooks',
        'agent-warden.json',
      );
    },
    notes: [
      'Copilot CLI ignores a failing hook, so the bridge always answers with a well-formed deny when it has no verdict.',
    ],
  }),
};

export const COMMAND_AGENTS: readonly CommandAgent[] = ['codex', 'gemini', 'cursor', 'copilot'];

export function isCommandAgent(agent: string): agent is CommandAgent {
  return (COMMAND_AGENTS as readonly string[]).includes(agent);
}

/** Whether a hook command is Warden's bridge for this agent. */
export function isWardenCommand(command: string, agent: string): boolean {
  const forAgent = new RegExp(`--agent\\s+["']?${agent}["']?(\\s|$)`);
  return /(agent-warden-hook|dist[\\/]hook\.(?:js|sh))["']?\s/.test(command) ||
    /(agent-warden|cli\.js)["']?\s+hook\s/.test(command)
    ? forAgent.test(command)
    : false;
}

export function hookFile(agent: CommandAgent, scope: Scope, paths: AgentPaths): string {
  const file = FORMATS[agent].file(scope, paths);
  if (typeof file !== 'string') throw new Error(file.problem);
  return file;
}

/** The file without Warden's entries; a list or `hooks` only that removal empties is dropped. */
function withoutWarden(format: AgentFormat, agent: CommandAgent, doc: Json): { doc: Json; removed: boolean } {
  if (!isObject(doc.hooks)) return { doc, removed: false };
  const hooks: Json = { ...doc.hooks };
  let removed = false;
  for (const { event, list } of format.lists(doc)) {
    const kept = list
      .map((entry) => stripEntry(format, agent, entry))
      .filter((entry): entry is { entry: unknown; removed: boolean } => entry !== null);
    const removedHere = kept.length !== list.length || kept.some((k) => k.removed);
    if (!removedHere) continue;
    removed = true;
    if (kept.length) hooks[event] = kept.map((k) => k.entry);
    else delete hooks[event];
  }
  if (!removed) return { doc, removed };
  const next = { ...doc, hooks };
  if (Object.keys(hooks).length === 0 && !('version' in doc)) delete (next as Json).hooks;
  return { doc: next, removed };
}

/** One entry without Warden's handlers: null when nothing of it is left. */
function stripEntry(
  format: AgentFormat,
  agent: CommandAgent,
  entry: unknown,
): { entry: unknown; removed: boolean } | null {
  const commands = format.commandsOf(entry);
  if (!commands.some((c) => isWardenCommand(c, agent))) return { entry, removed: false };
  if (isObject(entry) && Array.isArray(entry.hooks)) {
    // A matcher group: keep the person's own handlers in it.
    const inner = entry.hooks.filter(
      (h) => !(isObject(h) && typeof h.command === 'string' && isWardenCommand(h.command, agent)),
    );
    return inner.length ? { entry: { ...entry, hooks: inner }, removed: true } : null;
  }
  return null;
}

const render = (doc: Json): string => JSON.stringify(doc, null, 2) + '\n';

export function planCommandInstall(opts: CommandInstallOptions): CommandHookPlan {
  const format = FORMATS[opts.agent];
  const path = hookFile(opts.agent, opts.scope, opts);
  const { text, json: doc } = readJsonObject(path);
  // Longer than the approval deadline, so a held ask is answered by Warden, not cut off by the agent;
  // the bridge itself gives up a little earlier and evaluates in-process.
  const agentTimeout = opts.approvalTimeoutSeconds + 30;
  const command = `${opts.bridgeCommand} --agent ${opts.agent} --timeout ${opts.approvalTimeoutSeconds + 15}`;
  const base = text === null ? format.fresh() : withoutWarden(format, opts.agent, doc).doc;
  const after = render(format.add(base, command, agentTimeout));
  return {
    agent: opts.agent,
    scope: opts.scope,
    path,
    before: text,
    after,
    changed: after !== text,
    warnings: [...format.notes],
  };
}

export function planCommandUninstall(agent: CommandAgent, scope: Scope, paths: AgentPaths): CommandHookPlan {
  const format = FORMATS[agent];
  const path = hookFile(agent, scope, paths);
  const { text, json: doc } = readJsonObject(path);
  const plan = { agent, scope, path, before: text, warnings: [] };
  if (text === null) return { ...plan, after: null, changed: false };
  const stripped = withoutWarden(format, agent, doc);
  if (!stripped.removed) return { ...plan, after: text, changed: false };
  // A file holding nothing but what Warden put there goes away with it.
  return { ...plan, after: format.isBare(stripped.doc) ? null : render(stripped.doc), changed: true };
}

export function applyCommandPlan(plan: CommandHookPlan): void {
  if (!plan.changed) return;
  if (plan.after === null) {
    rmSync(plan.path, { force: true });
    return;
  }
  mkdirSync(dirname(plan.path), { recursive: true });
  writeFileSync(plan.path, plan.after);
}

/** Whether the file holds Warden's hook for this agent (for the status bar). */
export function hasWardenHook(agent: CommandAgent, scope: Scope, paths: AgentPaths): boolean {
  try {
    const path = hookFile(agent, scope, paths);
    const { json: doc } = readJsonObject(path);
    return withoutWarden(FORMATS[agent], agent, doc).removed;
  } catch {
    return false;
  }
}
