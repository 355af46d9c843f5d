import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import { executesStdin, SHELLS } from '../../facts/programs';
import { TMUX_COMMAND_SUBCOMMANDS } from '../../shell/option-hops';

// A command run through another program's option, script language or a variable (tar's
// checkpoint action, ssh's ProxyCommand, sqlite's .shell, GIT_SSH_COMMAND): the shell analyzer
// follows it, so every policy judges the command inside; this policy asks for the hiding itself,
// because a person reading the call sees tar or sqlite, not the command it runs.

// What such options ordinarily run: the transport, a pager, an editor, a diff viewer.
const ORDINARY_OPTION_COMMANDS = new Set([
  'ssh',
  'cat',
  'less',
  'more',
  'most',
  'true',
  'false',
  ':',
  'vim',
  'vi',
  'nvim',
  'nano',
  'emacs',
  'code',
  'subl',
  'meld',
  'kdiff3',
  'vimdiff',
  'diff',
  'delta',
  'bat',
  'gzip',
  'pigz',
  'zstd',
  'xz',
  'bzip2',
  'lz4',
  'git-upload-pack',
  'git-receive-pack',
  // What BROWSER and GH_BROWSER usually name.
  'firefox',
  'chromium',
  'chromium-browser',
  'google-chrome',
  'xdg-open',
  'w3m',
  'lynx',
  // What kubectl's external diff and helm's post-renderer usually name.
  'colordiff',
  'icdiff',
  'dyff',
  'kustomize',
  // Compiler caches that RUSTC_WRAPPER usually names.
  'sccache',
  'ccache',
  // What a Cargo target's runner and linker usually name: an emulator, a checker, a wasm runtime, a linker.
  'valgrind',
  // A debugger or profiler in front of a program (`ros2 run … --prefix 'gdb -ex run --args'`).
  'gdb',
  'gdbserver',
  'perf',
  'wasmtime',
  'wasmer',
  'probe-rs',
  'rustc',
  'cc',
  'gcc',
  'clang',
  'ld',
  'lld',
  'ld.lld',
  'mold',
  'rust-lld',
  'ar',
  'ranlib',
  'as',
  'cpp',
  'c++',
  'g++',
  'clang++',
  'gfortran',
  'nasm',
  'yasm',
  'zig',
  // What a workflow engine's cluster submission names: the batch scheduler's own submit, status and cancel.
  ...['sbatch', 'squeue', 'scancel', 'sacct', 'qsub', 'qstat', 'qdel', 'bsub', 'bjobs', 'bkill'],
  // What a documentation Makefile's SPHINXBUILD names.
  'sphinx-build',
]);

/** The interpreter CLOUDSDK_PYTHON names. */
const INTERPRETER_NAMES = new Set(['python', 'python3']);

/** An emulator (qemu-aarch64), an LLVM tool, a versioned or cross compiler (gcc-12, aarch64-linux-gnu-gcc), on PATH. */
const TOOLCHAIN_PROGRAM =
  /^(?:qemu-[\w-]+|llvm-[\w-]+|[\w.]+(?:-[\w.]+)*-(?:gcc|g\+\+|clang|cc|ld)|(?:gcc|g\+\+|clang|clang\+\+)-[\d.]+)$/;

/**
 * Programs whose purpose is to run the command they are given, where the person reads it: `git
 * submodule foreach`, `git bisect run`, `script -c`, a tmux or screen session. Nothing is hidden there; the
 * command is judged by every other policy like one typed directly. A shell handed a script file
 * through them still runs what nobody read.
 */
const FOREGROUND_RUNNERS = new Set([
  'git submodule foreach',
  'git bisect run',
  // Zephyr's west runs it in each project of the workspace.
  'west forall -c',
  // git runs it after each commit it replays (the branch's tests, typically).
  'git rebase --exec',
  'git rebase -x',
  'script -c',
  'script --command',
  // A terminal multiplexer's command runs in a window or pane of its own, named on its command line.
  ...TMUX_COMMAND_SUBCOMMANDS.map((sub) => `tmux ${sub}`),
  // A line typed into a pane runs in that pane's shell, in front of whoever watches it.
  'tmux send-keys',
  'screen its operands',
]);

function inForegroundRunner(cmd: SimpleCommand): boolean {
  return cmd.wrappers.some((w) => FOREGROUND_RUNNERS.has(w)) && !(SHELLS.has(cmd.name) && runsScriptFile(cmd));
}

function throughWhat(cmd: SimpleCommand): string {
  return cmd.wrappers[cmd.wrappers.length - 1] ?? 'an option';
}

// ssh counts as a transport: a remote command after its host is a hop of its own, judged apart.
/** `sh /tmp/x.sh`: a shell given a script file to run rather than a command string or standard input. */
function runsScriptFile(cmd: SimpleCommand): boolean {
  const args = argsOf(cmd);
  if (args.some((a) => (/^-[a-z]+$/i.test(a) && a.includes('c')) || a === '-s')) return false;
  return args.some((a) => !a.startsWith('-') && !a.startsWith('+'));
}

/**
 * A shell the option started that runs a command string: its commands are judged as they come. One that
 * reads its script from stdin (`sh`, `bash -s`) runs what the program feeds it, which nobody read here.
 */
function runsCommandString(cmd: SimpleCommand): boolean {
  return SHELLS.has(cmd.name) && !runsScriptFile(cmd) && !executesStdin(cmd);
}

// Variables that choose the shell a package manager runs scripts with: a shell looked up on PATH is the usual value.
const SCRIPT_SHELL_SETTINGS = new Set(
  ['npm_config_script_shell', 'NPM_CONFIG_SCRIPT_SHELL', 'npm_config_shell', 'NPM_CONFIG_SHELL'].map((v) => `$${v}`),
);

// A script of the project named by a relative path (`tools/stamp.sh`, `./deploy/post.sh`): the option runs what
// running it directly would, and that is judged the same way (no `..`, nothing from PATH, home or /tmp).
const PROJECT_SCRIPT = /^(?:\.\/)?[\w-][\w.-]*(?:\/[\w-][\w.-]*)+$/;

// `-XX:OnOutOfMemoryError="kill -9 %p"`: a JVM that ran out of memory is ended so its supervisor restarts it.
const JVM_ERROR_HOOK = /-XX:On(?:OutOfMemoryError|Error)$/;

function isOrdinary(cmd: SimpleCommand): boolean {
  if (PROJECT_SCRIPT.test(cmd.argv[0] ?? '')) return true;
  if (JVM_ERROR_HOOK.test(throughWhat(cmd))) return cmd.name === 'kill';
  if (SCRIPT_SHELL_SETTINGS.has(throughWhat(cmd)))
    return SHELLS.has(cmd.name) && argsOf(cmd).length === 0 && !(cmd.argv[0] ?? '').includes('/');
  // Only as a name looked up on PATH: /tmp/.py/python3 is whatever that file holds.
  if (INTERPRETER_NAMES.has(cmd.name)) return !(cmd.argv[0] ?? '').includes('/');
  if (ORDINARY_OPTION_COMMANDS.has(cmd.name)) return true;
  // Only as a name looked up on PATH: a path to such a name (/tmp/x-gcc) is whatever that file holds.
  return TOOLCHAIN_PROGRAM.test(cmd.name) && !(cmd.argv[0] ?? '').includes('/');
}

// Hydra's `_target_` (and its kin in other config systems) names a callable the program imports and calls with
// the override's other values: one that runs commands or code turns a config override into a command.
const COMMAND_CALLABLE =
  /_target_["']?\s*[=:]\s*["']?((?:subprocess|os|pty|commands)\.\w+|builtins\.(?:eval|exec)|(?:eval|exec))\b/;

/** `python train.py '+cb._target_=subprocess.getoutput'`: an override that names a callable that runs commands. */
function callableRunsCommands(commands: readonly SimpleCommand[]): { word: string; callable: string } | undefined {
  for (const cmd of commands)
    for (const word of argsOf(cmd)) {
      const found = word.includes('_target_') ? COMMAND_CALLABLE.exec(word) : null;
      if (found) return { word: evidenceOf(word, 80), callable: found[1]! };
    }
  return undefined;
}

export const commandHiddenInOptions = definePolicy({
  name: 'command-hidden-in-options',
  category: 'dangerous-commands',
  description:
    "Asks before a command run through another program's option, script or variable (tar --checkpoint-action, ssh -o ProxyCommand, sqlite3 .shell, GIT_SSH_COMMAND).",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const commands = shellCommands(call);
    for (const cmd of commands) {
      if (cmd.via[cmd.via.length - 1] !== 'option') continue;
      // A shell started by the option is judged by what it runs: its commands come next. A shell
      // handed a script file runs what nobody read here.
      if (runsCommandString(cmd)) continue;
      if (isOrdinary(cmd) || inForegroundRunner(cmd)) continue;
      return {
        reason: `${throughWhat(cmd)} runs \`${cmd.text.slice(0, 120)}\`: a command hidden in another program's option or variable. Run the command directly if it is needed, or approve this exact call.`,
        evidence: evidenceOf(cmd.text),
      };
    }
    const target = callableRunsCommands(commands);
    if (target)
      return {
        reason: `${target.word} makes the program call ${target.callable} with the values it is given: a command hidden in a config override. Run the command directly if it is needed, or approve this exact call.`,
        evidence: evidenceOf(target.word),
      };
    // Commands nested inside a shell the option started are hidden the same way.
    for (const cmd of commands) {
      if (!cmd.via.includes('option') || cmd.via[cmd.via.length - 1] === 'option') continue;
      if (isOrdinary(cmd) || inForegroundRunner(cmd) || runsCommandString(cmd)) continue;
      return {
        reason: `\`${cmd.text.slice(0, 120)}\` runs inside a shell started by ${throughWhat(cmd)}: a command hidden in another program's option or variable. Run it directly if it is needed, or approve this exact call.`,
        evidence: evidenceOf(cmd.text),
      };
    }
    return null;
  },
});
