// MCP tools that wrap a CLI are read as the command line they stand for; other tools stand for none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrappedCommandLine } from '../../../src/core/facts/mcp-command-lines';

const CASES: [tool: string, input: Record<string, unknown>, line: string | undefined][] = [
  [
    'mcp__cargo-helper__build',
    { manifest_path: '/w/p/Cargo.toml', env: { RUSTC_WRAPPER: '/tmp/.w.sh' } },
    'RUSTC_WRAPPER=/tmp/.w.sh cargo build',
  ],
  [
    'mcp__dotnet-sdk__build',
    { project: 'src/Api.csproj', environment: { DOTNET_STARTUP_HOOKS: '/tmp/h/Hook.dll' } },
    'DOTNET_STARTUP_HOOKS=/tmp/h/Hook.dll dotnet build',
  ],
  ['mcp__cargo-helper__build', { manifest_path: '/w/p/Cargo.toml', release: true }, undefined],
  ['mcp__weather__forecast', { city: 'Oslo', env: { UNITS: 'metric' } }, undefined],
  ['mcp__git__git_log', { repo_path: '/w/p', max_count: 5 }, 'git -C /w/p log'],
  [
    'mcp__git__git_log',
    { repo_path: '/w/p', extra_args: ['-c', "core.pager=sh -c 'id'", '--paginate'] },
    `git -C /w/p -c 'core.pager=sh -c '\\''id'\\''' --paginate log`,
  ],
  ['mcp__git__git_diff', { repo_path: '.', args: ['--stat'] }, 'git -C . diff --stat'],
  [
    'mcp__git__git_config_set',
    { repo_path: '/w/p', key: 'core.fsmonitor', value: 'sh x', scope: 'global' },
    `git -C /w/p config --global core.fsmonitor 'sh x'`,
  ],
  [
    'mcp__git__set_config',
    { repo_path: '/w/p', key: 'core.fsmonitor', value: 'sh x' },
    `git -C /w/p config core.fsmonitor 'sh x'`,
  ],
  [
    'mcp__kubernetes__helm_install',
    { name: 'web', chart: './chart', namespace: 'prod', postRenderer: '/bin/sh', postRendererArgs: ['-c', 'id'] },
    'helm install web ./chart -n prod --post-renderer /bin/sh --post-renderer-args -c --post-renderer-args id',
  ],
  ['mcp__kubernetes__pods_list', { namespace: 'prod' }, undefined],
  [
    'mcp__ssh__exec',
    { host: 'web1', user: 'deploy', command: 'uptime', options: ['ProxyCommand=nc %h %p'], port: 2222 },
    `ssh -o 'ProxyCommand=nc %h %p' -p 2222 deploy@web1 uptime`,
  ],
  [
    'mcp__terraform__apply',
    { directory: 'infra', destroy: true, auto_approve: true },
    'terraform -chdir=infra apply -destroy -auto-approve',
  ],
  [
    'mcp__npm__install',
    { packages: ['left-pad', 'https://x.test/a.tgz'], dev: true },
    'npm install --save-dev left-pad https://x.test/a.tgz',
  ],
  ['mcp__pip__install', { package: 'requests==2.32.3' }, 'pip install requests==2.32.3'],
  [
    'mcp__ssh__connect',
    { host: 'bastion', options: { ProxyCommand: 'nc %h %p', ServerAliveInterval: '30' } },
    `ssh -o 'ProxyCommand=nc %h %p' -o ServerAliveInterval=30 bastion`,
  ],
  ['mcp__aws__cli', { service: 's3', args: ['rm', 's3://b/', '--recursive'] }, 'aws s3 rm s3://b/ --recursive'],
  // The API's own form: operation and parameters in the API's names.
  [
    'mcp__aws__call',
    {
      service: 'rds',
      operation: 'DeleteDBCluster',
      parameters: { DBClusterIdentifier: 'prod', SkipFinalSnapshot: true },
    },
    'aws rds delete-db-cluster --db-cluster-identifier prod --skip-final-snapshot',
  ],
  [
    'mcp__aws__call',
    { service: 's3', operation: 'PutBucketPolicy', parameters: { Bucket: 'b', Policy: '{"Statement":[]}' } },
    `aws s3api put-bucket-policy --bucket b --policy '{"Statement":[]}'`,
  ],
  [
    'mcp__gcloud__run',
    { args: ['sql', 'instances', 'delete', 'db-1', '--quiet'], project: 'p' },
    'gcloud sql instances delete db-1 --quiet --project p',
  ],
  // A config tool given a key only git's configuration has is setting git's.
  [
    'mcp__repo_tools__set_config',
    { scope: 'global', name: 'url.https://x.test/.insteadOf', value: 'https://github.com/' },
    'git config --global url.https://x.test/.insteadOf https://github.com/',
  ],
  // An exec tool's program, argument list and environment.
  [
    'mcp__exec__spawn',
    { program: 'less', args: ['docs/RUNBOOK.md'], env: { LESSOPEN: '|sh -c "id" %s' }, cwd: '/p' },
    `LESSOPEN='|sh -c "id" %s' less docs/RUNBOOK.md`,
  ],
  ['mcp__terminal__run', { cmd: 'npx', args: ['-y', '@scope/cli', 'doctor'] }, 'npx -y @scope/cli doctor'],
  ['mcp__terminal__run', { command: 'npm test -- --ci' }, undefined],
  // A data store's `command` is its own verb, not a program.
  ['mcp__redis__execute', { command: 'GET', args: ['session:42'] }, undefined],
  ['mcp__app__set_config', { name: 'theme.dark', value: 'true' }, undefined],
  ['mcp__npm__search', { query: 'left-pad' }, undefined],
  ['mcp__github__get_file_contents', { owner: 'o', repo: 'r', path: 'a' }, undefined],
  ['mcp__ssh__list_hosts', {}, undefined],
  ['Bash', { command: 'ls' }, undefined],
];

test('MCP tools that wrap git, ssh, terraform and package managers, and tools that wrap none', () => {
  for (const [tool, input, line] of CASES) assert.equal(wrappedCommandLine(tool, input), line, tool);
});
