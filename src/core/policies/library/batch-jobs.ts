// Other people's batch jobs cancelled: a cluster's scheduler lets an account coordinator or an
// operator cancel jobs that are not theirs (`scancel -A lab`, `bkill -u all`), and a week of a
// colleague's compute goes with them. One's own jobs, by id or with `--me`, are ordinary work.
import { posix } from 'node:path';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { argsOf, evidenceOf, optionValues, shellCommands } from '../../facts/commands';
import { mcpToolOf } from './shared/mcp';

/** Ways a command names the person running it. */
const SELF_WORDS = new Set(['$USER', '${USER}', '$LOGNAME', '${LOGNAME}', '$(whoami)', '`whoami`', '$(id -un)']);

function isSelf(user: string, home: string): boolean {
  return SELF_WORDS.has(user) || user === posix.basename(home);
}

/** The users and accounts whose jobs a cancel reaches beyond the caller's own, as words for the reason. */
function othersReached(cmd: SimpleCommand, home: string): string | undefined {
  const args = argsOf(cmd);
  const others = (users: string[]) => users.find((user) => !isSelf(user, home));
  if (cmd.name === 'scancel') {
    const account = optionValues(args, ['A'], ['account'])[0];
    if (account !== undefined) return `every job of account ${account}`;
    const user = others(optionValues(args, ['u'], ['user']).flatMap((list) => list.split(',')));
    return user !== undefined ? `${user}'s jobs` : undefined;
  }
  if (cmd.name === 'qdel' || cmd.name === 'bkill') {
    const user = others(optionValues(args, ['u'], []).flatMap((list) => list.split(',')));
    if (user !== undefined) return user === 'all' ? "every user's jobs" : `${user}'s jobs`;
    if (cmd.name === 'qdel' && args.includes('all')) return 'every job it may cancel';
  }
  return undefined;
}

const SCHEDULER_SERVER = /slurm|pbs|torque|lsf|sge|hpc|scheduler|batch/i;

/** A scheduler's MCP tool told to cancel the jobs of another user or a whole account. */
function toolReachesOthers(call: ToolCall): string | undefined {
  const mcp = mcpToolOf(call.toolName);
  if (!mcp || !SCHEDULER_SERVER.test(mcp.server) || !/cancel|kill|delete/i.test(mcp.tool)) return undefined;
  const { user, account } = call.input as { user?: unknown; account?: unknown };
  if (typeof account === 'string' && account !== '') return `every job of account ${account}`;
  if (typeof user === 'string' && user !== '' && !isSelf(user, call.home)) return `${user}'s jobs`;
  return undefined;
}

export const othersBatchJobsCancelled = definePolicy({
  name: 'others-batch-jobs-cancelled',
  category: 'dangerous-commands',
  description:
    "Asks before cancelling batch jobs that are not the caller's own: scancel -A ACCOUNT or -u OTHER, qdel and bkill -u OTHER or all, a scheduler tool told another user or an account.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const byTool = toolReachesOthers(call);
    if (byTool)
      return {
        reason: `Cancels ${byTool} through ${call.toolName}: other people's running work is lost with them. Cancel your own jobs by id, or approve this exact call.`,
        evidence: evidenceOf(JSON.stringify(call.input)),
      };
    for (const cmd of shellCommands(call)) {
      const reached = othersReached(cmd, call.home);
      if (reached)
        return {
          reason: `Cancels ${reached} (${evidenceOf(cmd.text, 80)}): other people's running work is lost with them. Cancel your own jobs by id or with --me, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});
