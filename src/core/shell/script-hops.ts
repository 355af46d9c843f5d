// Commands whose arguments are shell source run again: sh -c, eval, ssh's remote command, su -c.
import { findOptionValue, skipOptions, type ArgvView, type OptionSpec } from './options';
import type { Via } from './types';
import { remoteHops, sshRemoteCommandOption } from './remote-hops';
import { cmdAsShell, cmdCommandLine } from './cmd-script';
import { shellQuote } from './quote';
import { fishAsPosix } from './fish-script';
import { SSH_VALUE_LETTERS } from './ssh-args';

/** The inner commands are shell source to parse again. */
export interface ScriptHop {
  kind: 'script';
  via: Via;
  /** Recorded in the inner commands' `wrappers` (su, watch, env -S); absent for shells, eval and ssh. */
  wrapper?: string;
  script: string;
  /** $0, $1, … for the script; undefined entries are dynamic. */
  positional?: (string | undefined)[];
}

export const SHELLS = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'yash',
  'posh',
  'fish',
  'csh',
  'tcsh',
]);

export const SCRIPT_HOP_NAMES: readonly string[] = [
  ...SHELLS,
  'eval',
  'source',
  '.',
  'ssh',
  'su',
  'runuser',
  'gcloud',
  'az',
  'aws',
  'heroku',
  'fly',
  'flyctl',
  'cmd',
  'cmd.exe',
  'wsl',
  'wsl.exe',
];

const SSH_SPEC: OptionSpec = { shortWithValue: SSH_VALUE_LETTERS };
const SU_SPEC: OptionSpec = {
  shortWithValue: 'cgGsw',
  longWithValue: ['command', 'group', 'supp-group', 'shell', 'whitelist-environment', 'session-command'],
};

interface ShellInvocation {
  /** The -c string, when there is one. */
  script?: { value: string; index: number };
  /** The shell reads its script from stdin: no -c and no script file (or -s). */
  readsStdin: boolean;
  /** The index of the script file operand, when it runs one. */
  file?: number;
}

/** Reads a shell's arguments: sh [-abefhkmnptuvxlic] [-o opt] [--rcfile f] [-c STRING [ARG0 [ARG…]] | FILE] */
function readShellInvocation(view: ArgvView, name: string): ShellInvocation {
  const { argv } = view;
  let hasC = false;
  let fromStdin = false;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string;
    // A -c script with parts known only at run time (`"…; exec $0 $@"`) is still followed for what is
    // written in it; that the rest is unknown is said apart (unread-shell).
    if (view.dynamic.has(i)) return hasC ? operand(i) : { readsStdin: false, file: i };
    if (word === '--' || word === '-') {
      return operand(i + 1);
    }
    if (word.startsWith('--')) {
      const [longName, ...value] = word.slice(2).split('=');
      if (name === 'fish' && longName === 'command') {
        if (value.length > 0) return { script: { value: value.join('='), index: i }, readsStdin: false };
        return argv[i + 1] === undefined
          ? { readsStdin: false }
          : { script: { value: argv[i + 1] as string, index: i + 1 }, readsStdin: false };
      }
      if (value.length === 0 && ['rcfile', 'init-file', 'init-command'].includes(longName as string)) i++;
      continue;
    }
    if ((word.startsWith('-') || word.startsWith('+')) && word.length > 1) {
      const letters = word.slice(1);
      if (word.startsWith('-') && letters.includes('c')) hasC = true;
      if (word.startsWith('-') && letters.includes('s')) fromStdin = true;
      // -o NAME / -O NAME take the next word; fish's -C takes one too.
      if (/[oO]/.test(letters) || (name === 'fish' && letters.includes('C'))) i++;
      continue;
    }
    return operand(i);
  }
  return { readsStdin: true };

  function operand(i: number): ShellInvocation {
    if (hasC && i < argv.length) return { script: { value: argv[i] as string, index: i }, readsStdin: false };
    if (fromStdin || i >= argv.length) return { readsStdin: true };
    return { readsStdin: false, file: i };
  }
}

function shellHops(view: ArgvView, name: string): ScriptHop[] {
  const { script } = readShellInvocation(view, name);
  if (!script) return [];
  const positional = view.argv
    .slice(script.index + 1)
    .map((word, k) => (view.dynamic.has(script.index + 1 + k) ? undefined : word));
  const source = name === 'fish' ? fishAsPosix(script.value) : script.value;
  return [{ kind: 'script', via: 'bash-c', script: source, positional }];
}

function sshHops(view: ArgvView): ScriptHop[] {
  const hostIndex = skipOptions(view, 1, SSH_SPEC);
  const options = view.argv.slice(1, hostIndex);
  // -N: no remote command; -W: a forwarded stream, not a command.
  if (options.some((w) => /^-[a-zA-Z]*[NW]/.test(w))) return [];
  const command = view.argv.slice(hostIndex + 1);
  if (command.length === 0) {
    const fromOption = sshRemoteCommandOption(options);
    return fromOption ? [{ kind: 'script', via: 'ssh', script: fromOption }] : [];
  }
  // ssh joins its remaining arguments with spaces and the remote shell parses the result.
  return [{ kind: 'script', via: 'ssh', script: command.join(' ') }];
}

/**
 * Whether the remote side of `ssh` runs what ssh reads on its input: a login shell given no command
 * (`ssh host <<EOF`), or a remote command that is a shell reading its script from there (`bash -s`,
 * `sudo sh`). A forward (-N, -W) or a subsystem (-s) runs nothing.
 */
export function sshRunsItsInput(view: ArgvView): boolean {
  const hostIndex = skipOptions(view, 1, SSH_SPEC);
  if (hostIndex >= view.argv.length) return false;
  if (view.argv.slice(1, hostIndex).some((w) => /^-[a-zA-Z]*[NWs]/.test(w))) return false;
  const command = view.argv.slice(hostIndex + 1);
  if (command.length === 0) return sshRemoteCommandOption(view.argv.slice(1, hostIndex)) === undefined;
  let words = command.join(' ').trim().split(/\s+/);
  // `sudo sh`, `sudo -u app bash -s`: the shell under the root wrapper reads it.
  while (words[0] === 'sudo' || words[0] === 'doas') {
    if (readsScriptFromStdin(words[0], { argv: words, dynamic: new Set() }, false)) return true;
    let at = 1;
    while (at < words.length && (words[at] ?? '').startsWith('-')) at += /^-[ugCD]$/.test(words[at] ?? '') ? 2 : 1;
    words = words.slice(at);
  }
  return readsScriptFromStdin(words[0] ?? '', { argv: words, dynamic: new Set() }, false);
}

function suHops(view: ArgvView, wrapper: string): ScriptHop[] {
  const found = findOptionValue(view, 1, view.argv.length, 'c', ['command', 'session-command'], SU_SPEC);
  if (!found) return [];
  return [{ kind: 'script', via: 'bash-c', wrapper, script: found.value }];
}

/**
 * Whether a command runs a shell that reads its script from stdin: sh with no -c and no script
 * file, and the wrappers that start an interactive shell when given no command (sudo -s, sudo -i,
 * su, doas -s).
 */
export function readsScriptFromStdin(name: string, view: ArgvView, hasInnerCommand: boolean): boolean {
  if (SHELLS.has(name)) return readShellInvocation(view, name).readsStdin;
  if (hasInnerCommand) return false;
  // `source /dev/stdin <<< TEXT`: the current shell runs what it reads.
  if (name === 'source' || name === '.')
    return /^(\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(view.argv[1] ?? '');
  const options = view.argv.slice(1).filter((word) => word.startsWith('-'));
  if (name === 'sudo') return options.some((o) => /^-[a-zA-Z]*[si]$/.test(o) || o === '--shell' || o === '--login');
  if (name === 'doas') return options.some((o) => /^-[a-zA-Z]*s$/.test(o));
  if (name === 'su' || name === 'runuser')
    return !findOptionValue(view, 1, view.argv.length, 'c', ['command', 'session-command'], SU_SPEC);
  return false;
}

/** The index of the script file a shell or `source` runs (`bash FILE`, `. FILE`), if it runs one. */
export function scriptFileIndex(name: string, view: ArgvView): number | undefined {
  if (SHELLS.has(name)) return readShellInvocation(view, name).file;
  if ((name === 'source' || name === '.') && view.argv.length > 1) return 1;
  return undefined;
}

// wsl's own options that take a value; its command is what follows them (after `--` or `-e`).
const WSL_VALUES = new Set(['-d', '--distribution', '-u', '--user', '--cd', '--distribution-id']);

/** `wsl [-d DISTRO] [-u USER] [--] CMD…`: the command, run in the Linux distribution (as root with -u root). */
function wslHops(view: ArgvView): ScriptHop[] {
  const { argv } = view;
  let user: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '-u' || word === '--user') user = argv[i + 1];
    if (WSL_VALUES.has(word)) {
      i++;
      continue;
    }
    if (word === '--' || word === '-e' || word === '--exec' || !word.startsWith('-')) {
      const words = argv.slice(word.startsWith('-') ? i + 1 : i);
      if (words.length === 0 || words.some((_, at) => view.dynamic.has(i + at + 1))) return [];
      const script = words.length === 1 ? (words[0] ?? '') : words.map(shellQuote).join(' ');
      return [{ kind: 'script', via: 'ssh', wrapper: user === 'root' ? 'sudo' : 'wsl', script }];
    }
    if (word.startsWith('--')) return [];
  }
  return [];
}

/** Hops of the commands that re-parse shell source from their arguments. */
export function scriptHopsOf(name: string, view: ArgvView): ScriptHop[] {
  if (SHELLS.has(name)) return shellHops(view, name);
  switch (name) {
    case 'eval':
      return view.argv.length > 1 ? [{ kind: 'script', via: 'eval', script: view.argv.slice(1).join(' ') }] : [];
    case 'ssh':
      return sshHops(view);
    case 'su':
      return suHops(view, 'su');
    case 'runuser':
      return suHops(view, 'runuser');
    case 'wsl':
    case 'wsl.exe':
      return wslHops(view);
    case 'cmd':
    case 'cmd.exe': {
      // cmd's line is the rest of its words, read as the POSIX line it amounts to (cmd-script).
      const line = cmdCommandLine(view.argv);
      return line === undefined ? [] : [{ kind: 'script', via: 'bash-c', wrapper: 'cmd', script: cmdAsShell(line) }];
    }
    default:
      return remoteHops(name, view);
  }
}
