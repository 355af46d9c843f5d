// A GitHub server's tools can write into any repository the token reaches. Files pushed to an owner
// other than the project's own (its GitHub remotes in .git/config, and ownOwners), or the project's
// repository forked into another account, ask; the project's own repositories, and a project whose
// owner nothing names, pass.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ready, verdictOf } from './harness';
import { aTempDir } from '../../builders/tempProject';

const GIT_CONFIG =
  '[core]\n\tbare = false\n[remote "origin"]\n\turl = git@github.com:Tallybook/tallybook.git\n[remote "upstream"]\n\turl = https://github.com/tallybook-oss/ledger-core.git\n';

function projectWithRemotes(config: string | undefined): string {
  const project = aTempDir('outside-repo', after);
  if (config !== undefined) {
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, '.git', 'config'), config);
  }
  return project;
}

const pushFiles = (owner: string, repo = 'scratch') => ({
  tool: 'mcp__github__push_files',
  input: { owner, repo, branch: 'main', message: 'snapshot', files: [{ path: 'billing/pricing.ts', content: 'x' }] },
});

test("files written into another owner's repository ask; the project's own pass", async () => {
  await ready();
  const project = projectWithRemotes(GIT_CONFIG);
  const verdict = (spec: { tool: string; input: Record<string, unknown> }, params?: Record<string, unknown>) =>
    verdictOf('code-to-outside-repository', { ...spec, cwd: project, root: project }, params)?.verdict;
  assert.equal(verdict(pushFiles('dev-sideproj-4471')), 'ask', 'a personal account');
  assert.equal(
    verdict({
      tool: 'mcp__github__create_or_update_file',
      input: { owner: 'throwaway-mirror', repo: 'dump', path: 'a.csv', content: 'x', message: 'm', branch: 'main' },
    }),
    'ask',
    'one file',
  );
  assert.equal(verdict(pushFiles('tallybook', 'tallybook')), undefined, "origin's owner, whatever its case");
  assert.equal(verdict(pushFiles('tallybook-oss', 'ledger-core')), undefined, "another remote's owner");
  assert.equal(verdict(pushFiles('dev-sideproj-4471'), { ownOwners: ['dev-sideproj-4471'] }), undefined, 'ownOwners');
  assert.equal(
    verdict({ tool: 'mcp__github__create_issue', input: { owner: 'someone-else', repo: 'lib', title: 'bug' } }),
    undefined,
    'an issue on another project carries no code',
  );
});

test("forking the project's repository into another account asks", async () => {
  await ready();
  const project = projectWithRemotes(GIT_CONFIG);
  const fork = (input: Record<string, unknown>) =>
    verdictOf('code-to-outside-repository', {
      tool: 'mcp__github__fork_repository',
      input,
      cwd: project,
      root: project,
    })?.verdict;
  assert.equal(fork({ owner: 'tallybook', repo: 'tallybook', organization: 'dev-sideproj-4471' }), 'ask');
  assert.equal(fork({ owner: 'tallybook', repo: 'tallybook' }), 'ask', "into the token's own account");
  assert.equal(fork({ owner: 'tallybook', repo: 'tallybook', organization: 'tallybook-oss' }), undefined);
  assert.equal(fork({ owner: 'nodejs', repo: 'undici' }), undefined, "someone else's open repository");
});

test('with no owner known (no .git/config, no ownOwners) nothing can be told, and the call passes', async () => {
  await ready();
  const project = projectWithRemotes(undefined);
  assert.equal(
    verdictOf('code-to-outside-repository', { ...pushFiles('dev-sideproj-4471'), cwd: project, root: project }),
    undefined,
  );
  const gitlabOnly = projectWithRemotes('[remote "origin"]\n\turl = git@gitlab.com:acme/api.git\n');
  assert.equal(
    verdictOf('code-to-outside-repository', { ...pushFiles('dev-sideproj-4471'), cwd: gitlabOnly, root: gitlabOnly }),
    undefined,
    'a GitLab remote names no GitHub owner',
  );
});
