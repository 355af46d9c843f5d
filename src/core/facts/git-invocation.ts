import type { SimpleCommand } from '../shell';
import { argsOf } from './commands';

// `git [global options] <subcommand> [args]`, with the global options that take a value.

const GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--config-env',
  '--super-prefix',
]);

/** A git global option whose value is the next word (`-C dir`, `--git-dir dir`). */
export function gitGlobalTakesValue(word: string): boolean {
  return GLOBAL_WITH_VALUE.has(word);
}

export interface GitInvocation {
  sub: string;
  args: string[];
  /** `-c key=value` settings given for this one run. */
  config: string[];
  /** The folder given with -C, if any. */
  dir?: string;
}

export function gitInvocation(cmd: SimpleCommand): GitInvocation | null {
  if (cmd.name !== 'git') return null;
  const args = argsOf(cmd);
  const config: string[] = [];
  let dir: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (GLOBAL_WITH_VALUE.has(word)) {
      if (word === '-c') config.push(args[i + 1] ?? '');
      if (word === '-C') dir = args[i + 1];
      i++;
      continue;
    }
    if (word.startsWith('-')) continue;
    const out: GitInvocation = { sub: word, args: args.slice(i + 1), config };
    if (dir !== undefined) out.dir = dir;
    return out;
  }
  return null;
}

export function gitCommands(commands: SimpleCommand[]): { cmd: SimpleCommand; git: GitInvocation }[] {
  const out: { cmd: SimpleCommand; git: GitInvocation }[] = [];
  for (const cmd of commands) {
    const git = gitInvocation(cmd);
    if (git) out.push({ cmd, git });
  }
  return out;
}
