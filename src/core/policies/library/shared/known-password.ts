import type { ToolCall } from '../../types';
import { argsOf, optionValues, parseFlags, shellCommands, upstreamStage } from '../../../facts/commands';

/**
 * `echo 'root:secret' | chpasswd`, `usermod -p HASH root`: an account given a password written into the
 * command (or into an image's build), which anyone who reads it logs in with, from now on.
 */
export function knownPasswordSet(call: ToolCall): { account: string; text: string } | undefined {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    const args = argsOf(cmd);
    if (cmd.name === 'chpasswd' && !args.some((a) => a === '-e' || a === '--encrypted')) {
      const feeder = upstreamStage(commands, cmd);
      const line =
        feeder && ['echo', 'printf'].includes(feeder.name)
          ? argsOf(feeder).find((a) => /^[\w.-]+:\S/.test(a))
          : undefined;
      if (line !== undefined)
        return { account: line.slice(0, line.indexOf(':')), text: `${feeder!.text} | ${cmd.text}` };
    }
    if (cmd.name === 'usermod') {
      const words = parseFlags(args, ['p', 'g', 'G', 'd', 's', 'c', 'l', 'u', 'e', 'f'], ['password']);
      const account = words.positionals[words.positionals.length - 1];
      if (account !== undefined && optionValues(args, ['p'], ['password']).length) return { account, text: cmd.text };
    }
  }
  return undefined;
}
