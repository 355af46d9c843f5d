// The files git runs as hooks: those in `.git/hooks`, husky's, and a file named for a hook in a
// folder named for hooks (`.githooks/pre-push`, `scripts/git-hooks/pre-commit`), which a repository
// shares through `core.hooksPath`; every clone that sets it runs them on commit, push or checkout.

const HOOK_NAMES = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'post-index-change',
];

export const GIT_HOOK_FILE = new RegExp(
  `(^|/)(\\.husky/[^/_][^/]*|\\.git/hooks/[^/]+|[^/]*hooks/(${HOOK_NAMES.join('|')}))$`,
);
