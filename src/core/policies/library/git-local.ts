import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { PolicyHit, ToolCall } from '../types';
import { evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { gitCommands } from '../../facts/git-invocation';
import type { GitInvocation } from '../../facts/git-invocation';
import { trailingRun } from '../../text/scan';
import { textBefore, writtenOverReplaced } from './shared/edited-file';

// Local git operations that lose work or rewrite history.

function firstGit(
  call: ToolCall | undefined,
  test: (git: GitInvocation, cmd: SimpleCommand) => string | null,
): PolicyHit | null {
  if (!call?.shell) return null;
  for (const { cmd, git } of gitCommands(shellCommands(call))) {
    const reason = test(git, cmd);
    if (reason) return { reason, evidence: evidenceOf(cmd.text) };
  }
  return null;
}

/** `bfg*.jar` as the last word of a path (what `/bfg[\w.-]*\.jar$/` asked). */
function isBfgJar(arg: string): boolean {
  const tail = trailingRun(arg, /[\w.-]/);
  return tail.endsWith('.jar') && tail.slice(0, -4).includes('bfg');
}

export const gitHistoryRewrite = definePolicy({
  name: 'git-history-rewrite',
  category: 'git',
  description:
    'Asks before rewriting history: filter-branch, filter-repo, interactive or --root rebases, reflog expiry, update-ref -d, BFG.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const bfg = shellCommands(call).find(
      (c) => c.name === 'bfg' || (c.name === 'java' && c.argv.some((a) => isBfgJar(a))),
    );
    if (bfg)
      return {
        reason:
          'BFG rewrites every commit in the repository; a person should confirm, and every clone must be re-cloned afterwards.',
        evidence: evidenceOf(bfg.text),
      };
    return firstGit(call, (git) => {
      const flags = parseFlags(git.args, ['x', 's', 'X'], ['onto', 'exec', 'strategy', 'strategy-option']);
      if (git.sub === 'filter-branch' || git.sub === 'filter-repo')
        return `git ${git.sub} rewrites the whole history; every clone diverges. A person should confirm and coordinate it.`;
      if (git.sub === 'rebase' && (flags.short.has('i') || flags.long.has('interactive')))
        return 'git rebase -i opens an editor the agent cannot drive and rewrites commits; rebase non-interactively, or let the person do it.';
      if (git.sub === 'rebase' && flags.long.has('root'))
        return 'git rebase --root rewrites every commit back to the first one; a person should confirm.';
      if (git.sub === 'reflog' && (git.args[0] === 'expire' || git.args[0] === 'delete'))
        return `git reflog ${git.args[0]} removes the safety net for recovering lost commits; leave the reflog alone.`;
      if (git.sub === 'update-ref' && (flags.short.has('d') || git.args.includes('--stdin')))
        return "git update-ref rewrites refs behind git's back; use git branch or git tag.";
      if (git.sub === 'gc' && git.args.some((a) => /^--prune=(now|all)$/.test(a)))
        return 'git gc --prune=now deletes unreachable commits for good; a person should confirm.';
      if (git.sub === 'replace') return 'git replace swaps commits in every history view; a person should confirm.';
      return null;
    });
  },
});

export const gitAmend = definePolicy({
  name: 'git-amend',
  category: 'git',
  description:
    'Asks before git commit --amend, which rewrites the last commit (possibly one the person made or already pushed).',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    return firstGit(call, (git) =>
      git.sub === 'commit' && git.args.includes('--amend')
        ? "git commit --amend rewrites the last commit, which may be the person's or already pushed; make a new commit instead unless asked to amend."
        : null,
    );
  },
});

export const gitStashDrop = definePolicy({
  name: 'git-stash-drop',
  category: 'git',
  description: 'Asks before git stash drop / clear, which delete stashed work.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    return firstGit(call, (git) =>
      git.sub === 'stash' && (git.args[0] === 'drop' || git.args[0] === 'clear')
        ? `git stash ${git.args[0]} deletes stashed changes that may be the person's work; list them with git stash list and ask first.`
        : null,
    );
  },
});

export const gitAddAll = definePolicy({
  name: 'git-add-all',
  category: 'git',
  description:
    'Reminds the agent to review what it stages when it runs git add -A / --all / . (stray files, build output, secrets).',
  defaultEnabled: true,
  decision: 'instruct',
  params: z.object({}),
  evaluate({ call }) {
    return firstGit(call, (git) => {
      if (git.sub !== 'add') return null;
      const flags = parseFlags(git.args, [], ['chmod', 'pathspec-from-file']);
      const wide =
        flags.short.has('A') ||
        flags.long.has('all') ||
        flags.positionals.some((p) => p === '.' || p === ':/' || p === '*' || p === '-A');
      return wide
        ? 'git add of everything stages stray files, build output or secrets too: check git status and stage the files you changed by name.'
        : null;
    });
  },
});

export const gitDiscardWork = definePolicy({
  name: 'git-discard-work',
  category: 'git',
  description:
    'Asks before discarding uncommitted work: reset --hard, clean -f, checkout -- ., restore ., switch --discard-changes, and unmerged commits: branch -D.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    return firstGit(call, (git) => {
      const flags = parseFlags(git.args, ['e'], ['exclude', 'source']);
      const everything = (paths: string[]) => paths.some((p) => p === '.' || p === ':/' || p === '*' || p === ':(top)');
      if (git.sub === 'reset' && flags.long.has('hard'))
        return "git reset --hard throws away every uncommitted change, which may include the person's work; commit or stash first, or ask.";
      if (
        git.sub === 'clean' &&
        (flags.short.has('f') || flags.long.has('force')) &&
        !flags.short.has('n') &&
        !flags.long.has('dry-run')
      ) {
        return `git clean ${git.args.join(' ')} deletes untracked files for good${flags.short.has('x') ? ', ignored ones (like .env) too' : ''}; run it with -n first and ask.`;
      }
      if (
        git.sub === 'checkout' &&
        (flags.short.has('f') ||
          flags.long.has('force') ||
          (git.args.includes('--') && everything(flags.positionals)) ||
          everything(flags.positionals))
      ) {
        return 'git checkout over the whole tree discards every uncommitted change; restore only the files you changed yourself, or ask.';
      }
      if (
        git.sub === 'restore' &&
        !flags.short.has('S') &&
        !(flags.long.has('staged') && !flags.long.has('worktree')) &&
        everything(flags.positionals)
      ) {
        return 'git restore over the whole tree discards every uncommitted change; restore only the files you changed yourself, or ask.';
      }
      if (
        git.sub === 'switch' &&
        (flags.long.has('discard-changes') || flags.short.has('f') || flags.long.has('force'))
      )
        return 'git switch --discard-changes throws away uncommitted work; commit or stash first.';
      // `git branch -D`, `--delete --force`, `-df`: deletes a branch merged or not, and its reflog with it.
      if (
        git.sub === 'branch' &&
        (flags.short.has('D') ||
          ((flags.short.has('d') || flags.long.has('delete')) && (flags.short.has('f') || flags.long.has('force'))))
      )
        return 'git branch -D deletes a branch even when its commits are on no other branch, and its reflog with it; use -d, which refuses an unmerged branch, or ask.';
      return null;
    });
  },
});

// The hooks that keep secrets out of commits, by their ids in pre-commit's config (and lefthook's commands).
const SECRET_SCAN_HOOKS = [
  'detect-private-key',
  'detect-aws-credentials',
  'detect-secrets',
  'gitleaks',
  'trufflehog',
  'ggshield',
  'talisman',
];
const HOOK_CONFIG = /(^|\/)(\.pre-commit-config\.ya?ml|lefthook\.ya?ml|\.lefthook\.ya?ml)$/;

/** The secret-scanning hook a hook config had and the call's text for it no longer has. */
function secretScanRemoved(call: ToolCall): { file: string; hook: string } | undefined {
  for (const { file, content } of writtenOverReplaced(call)) {
    if (!HOOK_CONFIG.test(file)) continue;
    const before = textBefore(call, file);
    const hook = SECRET_SCAN_HOOKS.find((id) => before.includes(id) && !content.includes(id));
    if (hook) return { file, hook };
  }
  return undefined;
}

export const gitSkipHooks = definePolicy({
  name: 'git-skip-hooks',
  category: 'git',
  description:
    "Asks before skipping the project's git hooks (--no-verify, -n on commit, core.hooksPath=/dev/null, HUSKY=0) or removing a secret-scanning hook (detect-private-key, gitleaks) from the hook config.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const removed = call ? secretScanRemoved(call) : undefined;
    if (removed)
      return {
        reason: `${removed.file} loses its ${removed.hook} hook: the project's own check that keeps secrets out of commits stops running. Fix what the hook reports instead, or approve this exact call.`,
        evidence: evidenceOf(removed.hook),
      };
    return firstGit(call, (git, cmd) => {
      const hooksOff = git.config.some((c) => /^core\.hookspath=/i.test(c));
      const envOff = cmd.assignments.HUSKY === '0' || cmd.assignments.SKIP_HOOKS !== undefined;
      const flags = parseFlags(
        git.args,
        ['m', 'F', 'C', 'c', 't'],
        ['message', 'file', 'author', 'date', 'template', 'reuse-message', 'fixup', 'squash'],
      );
      const noVerify = flags.long.has('no-verify') || (git.sub === 'commit' && flags.short.has('n'));
      if (
        !['commit', 'push', 'merge', 'rebase', 'am', 'cherry-pick'].includes(git.sub) ||
        !(noVerify || hooksOff || envOff)
      )
        return null;
      return `git ${git.sub} with its hooks switched off skips the project's own checks (lint, tests, secret scans); fix what the hook reports instead.`;
    });
  },
});
