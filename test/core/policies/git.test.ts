import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyTable } from './table';
import { ready, verdictOf } from './harness';
import { aTempDir } from '../../builders/tempProject';

policyTable('git-force-push', [
  { spec: 'git push --force origin feature', expect: 'deny' },
  { note: 'short', spec: 'git push -f', expect: 'deny' },
  { note: 'combined flags', spec: 'git push -uf origin feature', expect: 'deny' },
  { note: 'plus refspec', spec: 'git push origin +feature', expect: 'deny' },
  { note: 'plus refspec with dst', spec: 'git push origin +HEAD:main', expect: 'deny' },
  { note: 'mirror', spec: 'git push --mirror backup', expect: 'deny' },
  { note: 'global options first', spec: 'git -C /home/dev/proj -c core.editor=true push --force', expect: 'deny' },
  { note: 'in bash -c', spec: 'bash -c "git push -f origin main"', expect: 'deny' },
  { note: 'absolute binary', spec: '/usr/bin/git push --force', expect: 'deny' },
  { note: 'with lease (ask)', spec: 'git push --force-with-lease origin feature', expect: 'ask' },
  { note: 'with lease value', spec: 'git push --force-with-lease=feature:abc123 origin feature', expect: 'ask' },
  { note: 'near miss: plain push', spec: 'git push origin feature/login', expect: null },
  { note: 'near miss: -u', spec: 'git push -u origin HEAD', expect: null },
  { note: 'near miss: fetch --force', spec: 'git fetch --force origin', expect: null },
  { note: 'near miss: the words in a message', spec: 'git commit -m "do not push --force"', expect: null },
]);

policyTable('git-push-protected-branch', [
  { spec: 'git push origin main', expect: 'ask' },
  { note: 'HEAD:main', spec: 'git push origin HEAD:main', expect: 'ask' },
  { note: 'refs/heads', spec: 'git push origin feature:refs/heads/master', expect: 'ask' },
  { note: 'glob release*', spec: 'git push upstream release/2.0', expect: 'ask' },
  { note: 'production', spec: 'git push origin production', expect: 'ask' },
  { note: '--all', spec: 'git push --all origin', expect: 'ask' },
  { note: 'in sh -c', spec: "sh -c 'git push origin master'", expect: 'ask' },
  { note: 'near miss: feature branch', spec: 'git push origin feature/main-menu', expect: null },
  { note: 'near miss: pulling main', spec: 'git pull origin main', expect: null },
  { note: 'near miss: tags', spec: 'git push origin --tags', expect: null },
  { note: 'custom list', spec: 'git push origin develop', params: { protectedBranches: ['develop'] }, expect: 'ask' },
]);

policyTable('git-remote-branch-delete', [
  { spec: 'git push origin --delete feature', expect: 'ask' },
  { note: '-d', spec: 'git push -d origin old', expect: 'ask' },
  { note: 'colon refspec', spec: 'git push origin :old-branch', expect: 'ask' },
  { note: 'prune', spec: 'git push --prune origin', expect: 'ask' },
  { note: 'near miss: local delete', spec: 'git branch -d old', expect: null },
  { note: 'near miss: push', spec: 'git push origin feature', expect: null },
  {
    note: 'refs xargs reads',
    spec: "git for-each-ref --format='%(refname:short)' refs/tags | xargs -r -n 20 git push origin --delete",
    expect: 'ask',
  },
  {
    note: 'near miss: xargs pushing branches',
    spec: 'git branch --format="%(refname:short)" | xargs git push origin',
    expect: null,
  },
]);

policyTable('git-history-rewrite', [
  { spec: 'git filter-branch --tree-filter "rm -f secrets.txt" HEAD', expect: 'ask' },
  { note: 'filter-repo', spec: 'git filter-repo --path secrets.txt --invert-paths', expect: 'ask' },
  { note: 'interactive rebase', spec: 'git rebase -i HEAD~3', expect: 'ask' },
  { note: 'root rebase', spec: 'git rebase --root', expect: 'ask' },
  { note: 'reflog expire', spec: 'git reflog expire --expire=now --all', expect: 'ask' },
  { note: 'gc prune now', spec: 'git gc --prune=now', expect: 'ask' },
  { note: 'update-ref -d', spec: 'git update-ref -d refs/heads/x', expect: 'ask' },
  { note: 'bfg', spec: 'java -jar bfg-1.14.0.jar --delete-files id_rsa', expect: 'ask' },
  { note: 'near miss: rebase onto main', spec: 'git rebase origin/main', expect: null },
  { note: 'near miss: git log', spec: 'git log --oneline -20', expect: null },
  { note: 'near miss: gc', spec: 'git gc', expect: null },
]);

policyTable('git-amend', [
  { spec: 'git commit --amend --no-edit', expect: 'ask' },
  { note: 'with message', spec: 'git commit -a --amend -m "fix"', expect: 'ask' },
  { note: 'near miss: commit', spec: 'git commit -m "add login form"', expect: null },
  { note: 'near miss: message mentions amend', spec: 'git commit -m "--amend later"', expect: null },
]);

policyTable('git-stash-drop', [
  { spec: 'git stash drop', expect: 'ask' },
  { note: 'clear', spec: 'git stash clear', expect: 'ask' },
  { note: 'near miss: stash', spec: 'git stash', expect: null },
  { note: 'near miss: pop', spec: 'git stash pop', expect: null },
]);

policyTable('git-add-all', [
  { spec: 'git add -A', expect: 'instruct' },
  { note: 'dot', spec: 'git add .', expect: 'instruct' },
  { note: '--all', spec: 'git add --all && git commit -m x', expect: 'instruct' },
  { note: 'near miss: named files', spec: 'git add src/a.ts src/b.ts', expect: null },
  { note: 'near miss: -p', spec: 'git add -p src/a.ts', expect: null },
]);

policyTable('git-discard-work', [
  {
    note: "every west project's changes thrown away",
    spec: "west forall -c 'git reset --hard && git clean -fdx'",
    expect: 'ask',
  },
  { note: "near miss: every west project's status", spec: 'west forall -c "git status -s"', expect: null },
  { note: 'force-deleting a branch', spec: 'git branch -D feature/x', expect: 'ask' },
  {
    note: 'force-deleting every other branch',
    spec: "git branch | grep -v '^\\*' | xargs git branch -D",
    expect: 'ask',
  },
  { note: 'delete with force, spelled long', spec: 'git branch --delete --force feature/x', expect: 'ask' },
  { note: 'near miss: deleting a merged branch', spec: 'git branch -d feature/x', expect: null },
  { note: 'near miss: renaming a branch', spec: 'git branch -m old new', expect: null },
  { spec: 'git reset --hard', expect: 'ask' },
  { note: 'to origin', spec: 'git reset --hard origin/main', expect: 'ask' },
  { note: 'clean -fdx', spec: 'git clean -fdx', expect: 'ask' },
  { note: 'clean -f', spec: 'git clean -f', expect: 'ask' },
  { note: 'checkout -- .', spec: 'git checkout -- .', expect: 'ask' },
  { note: 'checkout .', spec: 'git checkout .', expect: 'ask' },
  { note: 'restore .', spec: 'git restore .', expect: 'ask' },
  { note: 'checkout -f', spec: 'git checkout -f main', expect: 'ask' },
  { note: 'switch discard', spec: 'git switch --discard-changes main', expect: 'ask' },
  { note: 'near miss: soft reset', spec: 'git reset --soft HEAD~1', expect: null },
  { note: 'near miss: unstage', spec: 'git reset HEAD src/a.ts', expect: null },
  { note: 'near miss: clean dry run', spec: 'git clean -n -d', expect: null },
  { note: 'near miss: checkout a branch', spec: 'git checkout -b feature/x', expect: null },
  { note: 'near miss: restore one file', spec: 'git restore src/a.ts', expect: null },
  { note: 'near miss: restore --staged .', spec: 'git restore --staged .', expect: null },
]);

policyTable('git-skip-hooks', [
  { spec: 'git commit --no-verify -m "wip"', expect: 'ask' },
  { note: '-n on commit', spec: 'git commit -nm "wip"', expect: 'ask' },
  { note: 'push --no-verify', spec: 'git push --no-verify origin feature', expect: 'ask' },
  { note: 'hooksPath', spec: 'git -c core.hooksPath=/dev/null commit -m x', expect: 'ask' },
  { note: 'HUSKY=0', spec: 'HUSKY=0 git commit -m x', expect: 'ask' },
  { note: 'near miss: commit', spec: 'git commit -m "verify later"', expect: null },
  { note: 'near miss: log -n', spec: 'git log -n 5', expect: null },
]);

test('git-push-protected-branch: a bare push reads the current branch from .git/HEAD', async (t) => {
  await ready();
  const dir = aTempDir('git', t);
  mkdirSync(join(dir, '.git'));
  const spec = (bash: string) => ({ bash, root: dir, cwd: dir, home: '/home/nobody' });
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  assert.equal(verdictOf('git-push-protected-branch', spec('git push'))?.verdict, 'ask');
  assert.equal(verdictOf('git-push-protected-branch', spec('git push origin HEAD'))?.verdict, 'ask');
  assert.equal(verdictOf('git-push-protected-branch', spec('git push origin'))?.verdict, 'ask');
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/feature/login\n');
  assert.equal(verdictOf('git-push-protected-branch', spec('git push')), undefined);
  assert.equal(verdictOf('git-push-protected-branch', spec('git push -u origin HEAD')), undefined);
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/release-3.1\n');
  assert.equal(verdictOf('git-push-protected-branch', spec('git push'))?.verdict, 'ask');
});
