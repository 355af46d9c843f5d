// A project's .vscode/tasks.json read as what it runs. Its tasks run when the person starts one (a
// build, a test), or by themselves when the folder opens (`runOptions.runOn: folderOpen`). The file is
// JSON with comments and trailing commas, which VS Code writes itself, so it is read as such.

import { shellQuote } from '../shell/quote';
import { parseJsonWithComments } from '../text/jsonc';

export interface VscodeTasks {
  /** Each task's command line, as the shell would run it. */
  commands: string[];
  /** A task runs by itself when the folder opens. */
  runsOnOpen: boolean;
  /**
   * Something besides the command lines decides what runs: a task's shell or environment (a shell
   * program of its own, NODE_OPTIONS), or a task type whose command is not written here.
   */
  runsMore: boolean;
}

/** Task types whose command the file spells out, and the providers' that a line here can stand for. */
const PROVIDER_COMMANDS: Record<string, (task: Record<string, unknown>) => string | undefined> = {
  npm: (task) => (typeof task['script'] === 'string' ? `npm run ${shellQuote(task['script'])}` : undefined),
  typescript: (task) =>
    typeof task['tsconfig'] === 'string'
      ? `tsc -p ${shellQuote(task['tsconfig'])}${task['option'] === 'watch' ? ' --watch' : ''}`
      : undefined,
};
const OS_OVERRIDES = ['linux', 'osx', 'windows'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An argument as written: a string, or `{ value, quoting }`. */
function argumentText(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (isRecord(arg) && typeof arg['value'] === 'string') return arg['value'];
  if (isRecord(arg) && Array.isArray(arg['value']) && arg['value'].every((v) => typeof v === 'string'))
    return arg['value'].join(' ');
  return undefined;
}

/** A task's command line; undefined when the file does not say what it runs. */
function taskCommand(task: Record<string, unknown>, inherited: string | undefined): string | undefined {
  const type = typeof task['type'] === 'string' ? task['type'] : inherited;
  const rawCommand = task['command'];
  const command = argumentText(rawCommand);
  if (command === undefined) {
    if (type !== undefined && Object.hasOwn(PROVIDER_COMMANDS, type)) return PROVIDER_COMMANDS[type]!(task);
    return undefined;
  }
  const args = Array.isArray(task['args']) ? task['args'].map(argumentText) : [];
  if (args.some((a) => a === undefined)) return undefined;
  // A process task runs its program with those arguments; a shell task hands the line to the shell.
  const program = type === 'process' ? shellQuote(command) : command;
  return [program, ...(args as string[]).map(shellQuote)].join(' ');
}

/** Reads a tasks.json text; null when it is not such a file (it does not parse, or holds no task list). */
export function vscodeTasks(text: string): VscodeTasks | null {
  let parsed: unknown;
  try {
    parsed = parseJsonWithComments(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const found: VscodeTasks = { commands: [], runsOnOpen: false, runsMore: false };
  const tasks = parsed['tasks'];
  if (tasks !== undefined && !Array.isArray(tasks)) return null;
  const topType = typeof parsed['type'] === 'string' ? parsed['type'] : undefined;
  const settingsThatRun = (holder: Record<string, unknown>) => {
    const options = holder['options'];
    if (isRecord(options) && (options['shell'] !== undefined || options['env'] !== undefined)) found.runsMore = true;
  };
  settingsThatRun(parsed);
  for (const os of OS_OVERRIDES) if (isRecord(parsed[os])) settingsThatRun(parsed[os]);
  if (typeof parsed['command'] === 'string') found.runsMore = true;
  for (const task of tasks ?? []) {
    if (!isRecord(task)) return null;
    const runOptions = task['runOptions'];
    if (isRecord(runOptions) && runOptions['runOn'] === 'folderOpen') found.runsOnOpen = true;
    for (const form of [task, ...OS_OVERRIDES.map((os) => task[os]).filter(isRecord)]) {
      settingsThatRun(form);
      const typeOf = typeof task['type'] === 'string' ? task['type'] : topType;
      const line = taskCommand(form, typeOf);
      if (line !== undefined) found.commands.push(line);
      else if (form === task && task['dependsOn'] === undefined) found.runsMore = true;
    }
  }
  return found;
}
