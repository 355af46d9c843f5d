// What Elixir code and rebar3's config run as shell commands, when a written file holds them: Elixir's
// shell-outs name their command outright, so it is a command line whatever it does (unlike a string that
// only looks like one), and rebar3 runs a config's hooks around every compile, a dependency's too.

import { shellQuote } from '../shell/quote';
import { QUOTED_STRING_SOURCE as QUOTED } from '../text/quoted';

// `:os.cmd(~c"…")`, `:os.cmd('…')`, `:os.cmd(String.to_charlist("…"))`, `System.shell("…")`, `Mix.shell().cmd("…")`.
const SHELL_CALL = new RegExp(
  `(?::os\\.cmd\\(\\s*(?:~c|(?:String\\.)?to_charlist\\(\\s*)?|System\\.shell\\(\\s*|Mix\\.[Ss]hell(?:\\(\\))?\\.cmd\\(\\s*)${QUOTED}`,
  'g',
);
// `System.cmd("prog", ["a", "b"])`: the program and its literal arguments, read from each call's start.
const SYSTEM_CMD_ARGS = /\s*"([^"\n]*)"\s*,\s*\[([^\]\n]*)\]/y;
const LIST_STRING = /"([^"\n]*)"/g;

/** The command lines Elixir code hands to the shell or runs as a program with its arguments. */
export function elixirShellCalls(code: string): string[] {
  const found = [...code.matchAll(SHELL_CALL)].map((m) => m[1] ?? m[2] ?? '');
  for (let at = code.indexOf('System.cmd('); at >= 0; at = code.indexOf('System.cmd(', at + 1)) {
    SYSTEM_CMD_ARGS.lastIndex = at + 'System.cmd('.length;
    const [, program, list] = SYSTEM_CMD_ARGS.exec(code) ?? [];
    if (program === undefined) continue;
    const args = [...(list ?? '').matchAll(LIST_STRING)].map((m) => shellQuote(m[1] ?? ''));
    found.push([shellQuote(program), ...args].join(' '));
  }
  return found.filter((line) => line.trim() !== '');
}

const HOOK_LIST = /\b(?:pre|post)_hooks\s*,\s*\[/g;
// `{compile, "cmd"}` and `{"linux", compile, "cmd"}`: the command is the tuple's last string.
const HOOK_TUPLE = /\{\s*(?:"[^"\n]*"\s*,\s*)?[a-z_]+\s*,\s*"((?:[^"\\\n]|\\.)*)"\s*\}/g;

/** The commands of a rebar.config's `pre_hooks` and `post_hooks`. */
export function rebarHookCommands(config: string): string[] {
  const found: string[] = [];
  for (const list of config.matchAll(HOOK_LIST)) {
    const start = (list.index ?? 0) + list[0].length;
    const end = config.indexOf(']}', start);
    const body = config.slice(start, end < 0 ? start + 4000 : end);
    for (const [, command] of body.matchAll(HOOK_TUPLE)) found.push(command ?? '');
  }
  return found;
}
