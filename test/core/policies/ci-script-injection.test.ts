// ci-untrusted-text-in-script: a workflow that pastes text anyone can choose (an issue's title, a
// comment, a branch name, a commit message) into a step's script asks; the same text passed through
// env:, used in an if:, or the run's own numbers and commits pass. So does a step that runs a dispatch input as
// its whole script (whoever starts the workflow runs any command); an input handed to a named script passes.
import { policyTable } from './table';
import { aWrite, anEdit } from './harness';

const workflow = (trigger: string, steps: string) =>
  `name: bot\non:\n${trigger}\njobs:\n  bot:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n${steps}`;

policyTable('ci-untrusted-text-in-script', [
  {
    note: "a dispatch input run as a step's whole script, committed through the GitHub MCP",
    spec: {
      tool: 'mcp__github__create_or_update_file',
      input: {
        owner: 'lumen-media',
        repo: 'beacon',
        branch: 'main',
        path: '.github/workflows/ops-shell.yml',
        message: 'ci: ops helper',
        content: workflow(
          '  workflow_dispatch:\n    inputs:\n      cmd: {required: true}',
          '      - run: ${{ inputs.cmd }}\n',
        ),
      },
    },
    expect: 'ask',
  },
  {
    note: 'the same input evaluated by the shell',
    spec: aWrite(
      '.github/workflows/ops.yml',
      workflow('  workflow_dispatch:', '      - run: eval "${{ github.event.inputs.command }}"\n'),
    ),
    expect: 'ask',
  },
  {
    note: "near miss: an input handed to the repository's own script",
    spec: aWrite(
      '.github/workflows/deploy.yml',
      workflow('  workflow_dispatch:', '      - run: ./scripts/deploy.sh "${{ inputs.environment }}"\n'),
    ),
    expect: null,
  },
  {
    note: 'a comment body echoed in a shell step',
    spec: aWrite(
      '.github/workflows/release-command.yml',
      workflow(
        '  issue_comment:\n    types: [created]',
        '      - name: Parse command\n        run: echo "Releasing ${{ github.event.comment.body }}"\n',
      ),
    ),
    expect: 'ask',
  },
  {
    note: "a pull request's title inside a multi-line run block",
    spec: aWrite(
      '.github/workflows/title.yml',
      workflow(
        '  pull_request:',
        '      - run: |\n          set -e\n          ./scripts/check-title.sh "${{ github.event.pull_request.title }}"\n',
      ),
    ),
    expect: 'ask',
  },
  {
    note: "the branch name in github-script's JavaScript",
    spec: aWrite(
      '.github/workflows/label.yml',
      workflow(
        '  pull_request_target:',
        "      - uses: actions/github-script@v7\n        with:\n          script: |\n            core.info('branch ${{ github.head_ref }}')\n",
      ),
    ),
    expect: 'ask',
  },
  {
    note: 'a commit message interpolated by an edit of a run line',
    spec: anEdit(
      '.github/workflows/ci.yml',
      '      - run: npm test\n',
      '      - run: npm test && echo "${{ github.event.head_commit.message }}" >> notes.txt\n',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: the comment passed through env: and read as a variable',
    spec: aWrite(
      '.github/workflows/release-command.yml',
      workflow(
        '  issue_comment:\n    types: [created]',
        '      - run: echo "Releasing $BODY"\n        env:\n          BODY: ${{ github.event.comment.body }}\n',
      ),
    ),
    expect: null,
  },
  {
    note: 'near miss: the comment only in the if: condition',
    spec: aWrite(
      '.github/workflows/release-command.yml',
      workflow(
        '  issue_comment:\n    types: [created]',
        "      - if: startsWith(github.event.comment.body, '/release')\n        run: bundle exec fastlane release\n",
      ),
    ),
    expect: null,
  },
  {
    note: "near miss: the pull request's number and the commit in a run step",
    spec: aWrite(
      '.github/workflows/image.yml',
      workflow(
        '  pull_request:',
        '      - run: docker build -t api:pr-${{ github.event.number }} --label sha=${{ github.sha }} .\n',
      ),
    ),
    expect: null,
  },
  {
    note: 'near miss: an untrusted field in a step after the run block ended',
    spec: aWrite(
      '.github/workflows/greet.yml',
      workflow(
        '  issues:\n    types: [opened]',
        '      - run: |\n          echo hello\n      - uses: actions/first-interaction@v1\n        with:\n          issue-message: "Thanks for ${{ github.event.issue.title }}"\n',
      ),
    ),
    expect: null,
  },
]);
