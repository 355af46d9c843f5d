import { z } from 'zod';
import { currentGitBranch } from '../../project';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { gitCommands } from '../../facts/git-invocation';
import { branchMatches } from './shared/patterns';

// `git push [options] [remote [refspec…]]`, read into what it would do to the remote.

const PUSH_VALUE_SHORT = ['o'];
const PUSH_VALUE_LONG = ['repo', 'push-option', 'receive-pack', 'exec', 'signed'];

export interface PushPlan {
  text: string;
  remote?: string;
  /** Remote branch names the push updates ('' when it cannot be told). */
  destinations: string[];
  deletes: string[];
  force: 'none' | 'lease' | 'force';
  forceHow: string;
  all: boolean;
  mirror: boolean;
  prune: boolean;
}

function strip(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

export function pushPlans(call: ToolCall): PushPlan[] {
  const plans: PushPlan[] = [];
  const current = () => currentGitBranch(call.projectRoot) ?? '';
  for (const { cmd, git } of gitCommands(shellCommands(call))) {
    if (git.sub !== 'push') continue;
    const flags = parseFlags(git.args, PUSH_VALUE_SHORT, PUSH_VALUE_LONG);
    const [remote, ...refspecs] = flags.positionals;
    const plan: PushPlan = {
      text: cmd.text,
      destinations: [],
      deletes: [],
      force: 'none',
      forceHow: '',
      all: flags.long.has('all') || flags.long.has('branches'),
      mirror: flags.long.has('mirror'),
      prune: flags.long.has('prune'),
    };
    if (remote !== undefined) plan.remote = remote;
    if (flags.short.has('f') || flags.long.has('force')) {
      plan.force = 'force';
      plan.forceHow = flags.long.has('force') ? '--force' : '-f';
    } else if (flags.long.has('force-with-lease') || flags.long.has('force-if-includes')) {
      plan.force = 'lease';
      plan.forceHow = '--force-with-lease';
    }
    const deleting = flags.short.has('d') || flags.long.has('delete');
    for (const spec of refspecs) {
      if (spec.startsWith('+')) {
        plan.force = 'force';
        plan.forceHow = `+${spec.slice(1)}`;
      }
      const body = spec.replace(/^\+/, '');
      const colon = body.indexOf(':');
      if (deleting) plan.deletes.push(strip(body));
      else if (colon === 0) plan.deletes.push(strip(body.slice(1)));
      else if (colon > 0) {
        const src = body.slice(0, colon);
        const dst = body.slice(colon + 1);
        plan.destinations.push(strip(dst || (src === 'HEAD' ? current() : src)));
      } else plan.destinations.push(strip(body === 'HEAD' || body === '@' ? current() : body));
    }
    // `… | xargs git push origin --delete`: the refs come from its input, known only at run time.
    if (deleting && cmd.via.includes('xargs')) plan.deletes.push('(refs xargs reads at run time)');
    if (!refspecs.length && !plan.all && !plan.mirror && !deleting && !flags.long.has('tags'))
      plan.destinations.push(current());
    plans.push(plan);
  }
  return plans;
}

export const gitForcePush = definePolicy({
  name: 'git-force-push',
  category: 'git',
  description: 'Refuses force pushes (--force, -f, +refspec, --mirror); asks for --force-with-lease.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    for (const plan of pushPlans(call)) {
      if (plan.mirror)
        return {
          reason:
            'git push --mirror overwrites and deletes every ref on the remote to match this clone; push the branch you changed instead.',
          evidence: evidenceOf(plan.text),
        };
      if (plan.force === 'force') {
        return {
          reason: `Force push (${plan.forceHow}) rewrites the remote branch and can destroy others' commits; push normally, or use --force-with-lease on your own branch with the person's consent.`,
          evidence: evidenceOf(plan.text),
        };
      }
      if (plan.force === 'lease') {
        return {
          decision: 'ask',
          reason:
            'git push --force-with-lease still rewrites the remote branch history; a person should confirm the branch is theirs alone.',
          evidence: evidenceOf(plan.text),
        };
      }
    }
    return null;
  },
});

export const gitPushProtectedBranch = definePolicy({
  name: 'git-push-protected-branch',
  category: 'git',
  description:
    'Asks before pushing to a protected branch (main, master, production, release*), including a bare `git push` while on one.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    protectedBranches: z.array(z.string()).default(['main', 'master', 'production', 'release*']),
  }),
  evaluate({ call, params }) {
    if (!call?.shell) return null;
    for (const plan of pushPlans(call)) {
      const hit = plan.destinations.map((d) => ({ d, p: branchMatches(d, params.protectedBranches) })).find((x) => x.p);
      if (hit) {
        return {
          reason: `Pushes to the protected branch ${hit.d}: changes there ship without review; push a feature branch and open a pull request, or approve this exact push.`,
          evidence: evidenceOf(plan.text),
        };
      }
      if (plan.all)
        return {
          reason:
            'git push --all pushes every local branch, protected ones included; push the one feature branch you mean.',
          evidence: evidenceOf(plan.text),
        };
    }
    return null;
  },
});

export const gitRemoteBranchDelete = definePolicy({
  name: 'git-remote-branch-delete',
  category: 'git',
  description: 'Asks before deleting branches on a remote (push --delete, push origin :branch, push --prune).',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    for (const plan of pushPlans(call)) {
      if (plan.deletes.length) {
        return {
          reason: `Deletes the remote branch ${plan.deletes.join(', ')} on ${plan.remote ?? 'the remote'}: others may still use it and unmerged commits there are lost; a person should confirm.`,
          evidence: evidenceOf(plan.text),
        };
      }
      if (plan.prune)
        return {
          reason:
            'git push --prune deletes every remote branch that has no local counterpart; a person should confirm.',
          evidence: evidenceOf(plan.text),
        };
    }
    return null;
  },
});
