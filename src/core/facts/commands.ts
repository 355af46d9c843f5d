import type { ForLoop, SimpleCommand, Via } from '../shell';
import { perCommand } from './per-command';
import { dashedValueOptions, GLOBAL_VALUE_OPTIONS, subcommandAt } from '../shell/cli-options';
import { relatePath, resolvePath } from '../shell/paths';
import { isGlobWord } from './globs';
import { literalOutput } from '../shell/literal-output';
import { resolveSystemPath } from './system-paths';
import type { PathRelation } from '../shell/paths';
import type { ToolCall } from './call';

// Reading argv the way the programs themselves do: combined short flags, long
// flags with or without `=value`, and `--` ending the options.

export function shellCommands(call: ToolCall | undefined): SimpleCommand[] {
  return call?.shell?.commands ?? [];
}

/**
 * aws and helm take their global options anywhere on the line, the container engines before their
 * subcommand; for all of them the subcommand is the first word that is not an option or an option's
 * value: `aws --profile prod s3 cp …` is `aws s3 cp … --profile prod`, `docker -l error push x` is
 * `docker push x -l error`. Their arguments are given in that order, so `args[0]` is the subcommand
 * whatever came first. (git's readers take its global options first: see git-invocation.)
 */
const OPTIONS_ANYWHERE: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  ['aws', 'awslocal', 'docker', 'podman', 'nerdctl', 'helm'].map((name) => [
    name,
    dashedValueOptions(GLOBAL_VALUE_OPTIONS[name]!),
  ]),
);

/**
 * Short options that take a value, for programs whose options are read in clusters: in `-XPOST` or
 * `-qO-` the rest of the word after such a letter is its value, not more letters (`-XPOST` is no `-T`).
 * wget's `-n` is left out: it prefixes a letter of its own (`-nv`, `-nc`).
 */
const VALUED_LETTERS: Readonly<Record<string, string>> = {
  curl: 'AbcCdDeEFhHKmoPQrtTuUwxXyYz',
  wget: 'oaeiBtOTwQPUlARDXI',
};

/** Splits a cluster after its first valued letter (`-sXPOST` into `-sX POST`); a valued option's own value stays whole. */
function clustersSplit(args: readonly string[], valued: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (word === '--') return [...out, ...args.slice(at)];
    if (!/^-[^-]/.test(word)) {
      out.push(word);
      continue;
    }
    const letters = word.slice(1);
    const first = [...letters].findIndex((letter) => valued.includes(letter));
    if (first >= 0 && first < letters.length - 1) out.push(`-${letters.slice(0, first + 1)}`, letters.slice(first + 1));
    else if (first === letters.length - 1 && at + 1 < args.length) out.push(word, args[++at]!);
    else out.push(word);
  }
  return out;
}

function optionsLast(cmd: SimpleCommand): string[] {
  const valued = Object.hasOwn(VALUED_LETTERS, cmd.name) ? VALUED_LETTERS[cmd.name] : undefined;
  const args = valued ? clustersSplit(cmd.argv.slice(1), valued) : cmd.argv.slice(1);
  const values = Object.hasOwn(OPTIONS_ANYWHERE, cmd.name) ? OPTIONS_ANYWHERE[cmd.name] : undefined;
  if (!values || !args[0]?.startsWith('-')) return args;
  const at = subcommandAt(args, values);
  return [...args.slice(at), ...args.slice(0, at)];
}

/** The arguments after the command name (one shared, read-only list per command). */
export const argsOf: (cmd: SimpleCommand) => readonly string[] = perCommand(optionsLast);

/** Options before `--`, split into single letters (for `-rf`) and long names (for `--force`, `--force=x`). */
export interface ParsedFlags {
  short: Set<string>;
  long: Set<string>;
  /** Words that are not options, in order (including every word after `--`). */
  positionals: string[];
}

/**
 * Splits a command's arguments. `valueShort` and `valueLong` name the options
 * that take the next word as their value, so that word is not read as a positional.
 */
export function parseFlags(
  args: readonly string[],
  valueShort: readonly string[] = [],
  valueLong: readonly string[] = [],
): ParsedFlags {
  const short = new Set<string>();
  const long = new Set<string>();
  const positionals: string[] = [];
  let optionsEnded = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (optionsEnded || word === '-' || !word.startsWith('-')) {
      positionals.push(word);
      continue;
    }
    if (word === '--') {
      optionsEnded = true;
      continue;
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = word.slice(2, eq === -1 ? undefined : eq);
      long.add(name);
      if (eq === -1 && valueLong.includes(name)) i++;
      continue;
    }
    const letters = word.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const letter = letters[j] ?? '';
      short.add(letter);
      if (valueShort.includes(letter)) {
        // `-ofile` carries its value inline; `-o file` takes the next word.
        if (j === letters.length - 1) i++;
        break;
      }
    }
  }
  return { short, long, positionals };
}

/**
 * The values of an option given as `--name=value`, `--name value`, `-x value`,
 * `-xvalue`, or at the end of combined flags (`-sLo value`).
 */
export function optionValues(args: readonly string[], short: readonly string[], long: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (word === '--') break;
    if (word.startsWith('--')) {
      for (const name of long) {
        if (word === `--${name}` && i + 1 < args.length) values.push(args[i + 1] ?? '');
        else if (word.startsWith(`--${name}=`)) values.push(word.slice(name.length + 3));
      }
      continue;
    }
    if (!/^-[a-zA-Z]/.test(word)) continue;
    const letters = word.slice(1);
    for (let j = 0; j < letters.length; j++) {
      if (!short.includes(letters[j] ?? '')) continue;
      if (j === letters.length - 1) {
        if (i + 1 < args.length) values.push(args[i + 1] ?? '');
      } else if (j === 0) values.push(letters.slice(1));
      break;
    }
  }
  return values;
}

/** Whether the argument word (as returned by argsOf) at `argIndex` is dynamic. */
export function isDynamicArg(cmd: SimpleCommand, arg: string): boolean {
  const index = cmd.argv.indexOf(arg);
  return index > 0 && cmd.dynamicWords.includes(index);
}

export interface ShellPath {
  raw: string;
  absolute: string;
  /** Where the file system says it leads (a symlink followed), when that differs. */
  real?: string;
  relation: PathRelation;
  dynamic: boolean;
}

/**
 * How `cmd` was reached, looking through the wrappers that run it: in `$(command base64 -d …)` or
 * `<(timeout 5 curl …)` base64 and curl were reached by the substitution, from the command holding it.
 * The last hop that was not a wrapper's, and the command that hop came from.
 */
export function reachedBy(
  commands: readonly SimpleCommand[],
  cmd: SimpleCommand,
): { via: Via | undefined; from: SimpleCommand | undefined } {
  const current = outermostAtStage(commands, cmd);
  return { via: current.via.at(-1), from: current.parent === undefined ? undefined : commands[current.parent] };
}

function sameStage(a: SimpleCommand, b: SimpleCommand): boolean {
  return a.pipeline.id === b.pipeline.id && a.pipeline.index === b.pipeline.index;
}

/** Whether `inner` is the command `outer` runs as a wrapper (`command tee` for tee), in the same process slot. */
function wraps(outer: SimpleCommand, inner: SimpleCommand): boolean {
  return inner.via.at(-1) === 'wrapper' && inner.via.length === outer.via.length + 1 && sameStage(outer, inner);
}

/**
 * The wrapper that starts `cmd`'s pipeline stage (`command` for the grep of `env | command grep`), or `cmd`.
 * Each step goes to a parent, which comes earlier in the list: at most as many steps as commands.
 */
function outermostAtStage(commands: readonly SimpleCommand[], cmd: SimpleCommand): SimpleCommand {
  let current = cmd;
  for (let steps = 0; steps < commands.length; steps++) {
    const parent = current.parent === undefined ? undefined : commands[current.parent];
    if (!parent || !wraps(parent, current)) break;
    current = parent;
  }
  return current;
}

/**
 * The program a pipeline stage runs: past its wrappers (`command grep`, `env X=1 nc`, `timeout 5 sh`) to the
 * command inside, which shares their process slot and so their place in the pipeline.
 */
export function stageProgram(commands: readonly SimpleCommand[], cmd: SimpleCommand): SimpleCommand {
  let current = cmd;
  for (let steps = 0; steps < commands.length; steps++) {
    const at = commands.indexOf(current);
    const inner = commands.find((c) => c.parent === at && wraps(current, c));
    if (!inner) break;
    current = inner;
  }
  return current;
}

/** The stage's program at `offset` stages from `cmd`'s (-1 the one feeding it, 1 the one it feeds). */
function neighbourStage(
  commands: readonly SimpleCommand[],
  cmd: SimpleCommand,
  offset: number,
): SimpleCommand | undefined {
  const root = outermostAtStage(commands, cmd);
  const stage = commands.find(
    (c) =>
      c.pipeline.id === cmd.pipeline.id && c.pipeline.index === cmd.pipeline.index + offset && c.parent === root.parent,
  );
  return stage && stageProgram(commands, stage);
}

/** The stage piped into `cmd` (`find … | xargs cat`: find for xargs), if `cmd` is not the first one. */
export function upstreamStage(commands: readonly SimpleCommand[], cmd: SimpleCommand): SimpleCommand | undefined {
  return cmd.pipeline.index === 0 ? undefined : neighbourStage(commands, cmd, -1);
}

/** The literal output of the stage piped into `cmd` (`echo … | tee x`), if it is literal. */
export function pipedLiteral(commands: readonly SimpleCommand[], cmd: SimpleCommand): string | undefined {
  const upstream = upstreamStage(commands, cmd);
  return upstream
    ? literalOutput(upstream.name, { argv: upstream.argv, dynamic: new Set(upstream.dynamicWords) }, undefined)
    : undefined;
}

const LITERAL_INPUTS = new Set(['<<', '<<-', '<<<']);

/** The heredoc or here-string `cmd` is given on its input, if any. */
export function heredocInput(cmd: SimpleCommand): string | undefined {
  return cmd.redirects.find((r) => LITERAL_INPUTS.has(r.op))?.target;
}

/** What `cmd` reads on its input when the call writes it out: its heredoc or here-string, else a literal piped in. */
export function literalStdin(commands: readonly SimpleCommand[], cmd: SimpleCommand): string | undefined {
  return heredocInput(cmd) ?? pipedLiteral(commands, cmd);
}

/** The stage `cmd` pipes into (`aws ecr get-login-password | docker login …`: docker for aws), if any. */
export function downstreamStage(commands: readonly SimpleCommand[], cmd: SimpleCommand): SimpleCommand | undefined {
  return neighbourStage(commands, cmd, 1);
}

/**
 * A CLI's words from its subcommand on (shell/cli-options' subcommandAt). Options are still read from the
 * whole word list; this only finds the subcommand.
 */
export function fromSubcommand(args: readonly string[], valueOptions?: ReadonlySet<string>): readonly string[] {
  const at = subcommandAt(args, valueOptions);
  return at === 0 ? args : args.slice(at);
}

/** Each `for NAME in WORDS` loop around the commands (however they were reached), once. */
export function forLoops(commands: readonly SimpleCommand[]): ForLoop[] {
  const loops = new Set<ForLoop>();
  for (const cmd of commands) for (const loop of cmd.loops ?? []) loops.add(loop);
  return [...loops];
}

/**
 * `for f in …; do : > "$f"; done`: each command that empties the file a loop variable around it names,
 * with that loop: a command that prints nothing (a bare redirect, `:`, `true`, `cat /dev/null`, `echo
 * -n`) with `>` to the variable.
 */
export function loopEmptyings(commands: readonly SimpleCommand[]): { cmd: SimpleCommand; loop: ForLoop }[] {
  const out: { cmd: SimpleCommand; loop: ForLoop }[] = [];
  for (const cmd of commands) {
    if (!cmd.loops || !printsNothing(cmd)) continue;
    for (const loop of cmd.loops) {
      const named = [`$${loop.variable}`, `\${${loop.variable}}`];
      if (cmd.redirects.some((r) => (r.op === '>' || r.op === '>|') && named.includes(r.target)))
        out.push({ cmd, loop });
    }
  }
  return out;
}

function printsNothing(cmd: SimpleCommand): boolean {
  const [name, ...rest] = cmd.argv;
  if (name === undefined) return true;
  if (rest.length === 0) return name === ':' || name === 'true';
  return rest.length === 1 && ((name === 'cat' && rest[0] === '/dev/null') || (name === 'echo' && rest[0] === '-n'));
}

/**
 * The working directory a command runs in: the call's cwd, moved by the `cd`
 * and `pushd` commands that come before it in the same command text.
 */
export function cwdBefore(commands: readonly SimpleCommand[], index: number, call: ToolCall): string {
  let cwd = call.cwd;
  for (let i = 0; i < index; i++) {
    const cmd = commands[i];
    const target = cmd ? changedFolder(cmd) : null;
    if (!cmd || target === null) continue;
    if (target === undefined) cwd = call.home;
    else if (target !== '-' && !isDynamicArg(cmd, target)) cwd = resolvePath(target, cwd, call.home);
  }
  return cwd;
}

/**
 * The folder a command moves the shell into: its word, undefined for home, null when it stays. Sourcing
 * Yocto's `oe-init-build-env [DIR]` moves into its build folder (`build` unless named).
 */
function changedFolder(cmd: SimpleCommand): string | undefined | null {
  const args = argsOf(cmd);
  if (cmd.name === 'cd' || cmd.name === 'pushd') return parseFlags(args).positionals[0];
  if ((cmd.name === 'source' || cmd.name === '.') && /(^|\/)oe-init-build-env$/.test(args[0] ?? ''))
    return args[1] ?? 'build';
  return null;
}

export function shellPath(raw: string, cmd: SimpleCommand, cwd: string, call: ToolCall): ShellPath {
  const resolved = resolveSystemPath(raw, { cwd, home: call.home });
  // The analyzer leaves `~name` and `~+` as run-time words; resolved here, they are known.
  const tildeForm = /^~[^/]/.test(raw) && resolved.resolved && !/[$`]/.test(raw);
  const dynamic = (isDynamicArg(cmd, raw) && !tildeForm) || !resolved.resolved;
  const real = dynamic || isGlobWord(resolved.absolute) ? null : (call.io?.realpath(resolved.absolute) ?? null);
  return {
    raw,
    absolute: resolved.absolute,
    ...(real ? { real } : {}),
    relation: relatePath(resolved.absolute, call.projectRoot, call.home),
    dynamic,
  };
}

export interface CommandInPlace {
  cmd: SimpleCommand;
  cwd: string;
  index: number;
}

// Many policies read the same call; its commands and their folders are worked out once.
const placedCache = new WeakMap<ToolCall, CommandInPlace[]>();

/** Each command with the directory it runs in. */
export function commandsWithCwd(call: ToolCall | undefined): CommandInPlace[] {
  if (!call) return [];
  const cached = placedCache.get(call);
  if (cached) return cached;
  const commands = shellCommands(call);
  const placed = commands.map((cmd, index) => ({ cmd, cwd: cwdBefore(commands, index, call), index }));
  placedCache.set(call, placed);
  return placed;
}

/** Files a command writes through redirections (`>`, `>>`, `&>`, `>|`, `<>`), not heredocs or fd duplication. */
export function redirectWrites(cmd: SimpleCommand): string[] {
  return cmd.redirects
    .filter(
      (r) => ['>', '>>', '&>', '&>>', '>|', '<>'].includes(r.op) || (r.op === '>&' && !/^\d+$|^-$/.test(r.target)),
    )
    .map((r) => r.target);
}

/** Files a command reads through `<` redirections. */
export function redirectReads(cmd: SimpleCommand): string[] {
  return cmd.redirects.filter((r) => r.op === '<').map((r) => r.target);
}

/** The commands in the same pipeline that run after this one (they read its output). */
export function downstreamOf(commands: SimpleCommand[], cmd: SimpleCommand): SimpleCommand[] {
  return commands.filter((other) => other.pipeline.id === cmd.pipeline.id && other.pipeline.index > cmd.pipeline.index);
}

/** Short, single-line evidence: the command's own text, trimmed. */
export function evidenceOf(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
