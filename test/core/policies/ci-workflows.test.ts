import { policyTable } from './table';

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
    note: 'near miss: the same text in a file no CI reads',
    spec: { tool: 'Write', input: { file_path: 'docs/pwn-request.md', content: PWN_REQUEST } },
    expect: null,
  },
]);
