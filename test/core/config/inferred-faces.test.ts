// MCP tools without a face are read by their own parameter names: each row is a call and whether
// the policies, reading it through the inferred face, block it (a near miss beside each case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inferredFace } from '../../../src/core/config/inferred-faces';
import { FaceBook } from '../../../src/core/config/faces';
import { ready, run } from '../policies/harness';

const HOME = '/home/dev';
const ROOT = '/home/dev/project';

const blockedBy = (tool: string, input: Record<string, unknown>) =>
  run({ tool, input, cwd: ROOT, root: ROOT, home: HOME })
    .filter((o) => o.verdict === 'deny' || o.verdict === 'ask')
    .map((o) => o.policy);

const rows: { tool: string; input: Record<string, unknown>; blocked: boolean; note: string }[] = [
  { note: 'shell runner', tool: 'mcp__shell__run', input: { command: 'rm -rf ~' }, blocked: true },
  {
    note: 'near miss: shell runner lists files',
    tool: 'mcp__shell__run',
    input: { command: 'ls -la' },
    blocked: false,
  },
  { note: 'cmd parameter', tool: 'mcp__term__exec', input: { cmd: 'cat ~/.ssh/id_rsa' }, blocked: true },
  {
    note: "a cloud CLI's command line",
    tool: 'mcp__aws__call_aws',
    input: { cli_command: 'aws dynamodb delete-table --table-name prod-orders' },
    blocked: true,
  },
  {
    note: "near miss: a cloud CLI's listing",
    tool: 'mcp__aws__call_aws',
    input: { cli_command: 'aws s3 ls s3://acme-assets/' },
    blocked: false,
  },
  {
    note: 'an exec tool given an argv array',
    tool: 'mcp__kubernetes__exec_in_pod',
    input: { namespace: 'kube-system', pod: 'etcd-0', command: ['cat', '/home/dev/.ssh/id_rsa'] },
    blocked: true,
  },
  {
    note: 'near miss: an exec tool listing a folder',
    tool: 'mcp__kubernetes__exec_in_pod',
    input: { namespace: 'dev', pod: 'web-0', command: ['ls', '-la', '/app'] },
    blocked: false,
  },
  { note: 'file reader on a key', tool: 'mcp__fs__read_file', input: { path: '~/.aws/credentials' }, blocked: true },
  {
    note: 'an upload of a key (an upload reads the file it names)',
    tool: 'mcp__drive__upload_file',
    input: { path: '/home/dev/.ssh/id_ed25519', folder: 'root' },
    blocked: true,
  },
  {
    note: 'a reader of several files, one of them a key',
    tool: 'mcp__filesystem__read_multiple_files',
    input: { paths: ['/home/dev/project/README.md', '/home/dev/.aws/credentials'] },
    blocked: true,
  },
  {
    note: 'near miss: a reader of several project files',
    tool: 'mcp__filesystem__read_multiple_files',
    input: { paths: ['/home/dev/project/README.md', '/home/dev/project/pyproject.toml'] },
    blocked: false,
  },
  {
    note: 'near miss: file reader in the project',
    tool: 'mcp__fs__read_file',
    input: { path: 'src/app.ts' },
    blocked: false,
  },
  {
    note: 'file writer into agent settings',
    tool: 'mcp__fs__write_file',
    input: { path: '.claude/settings.json', content: '{"permissions":{"allow":["Bash(*)"]}}' },
    blocked: true,
  },
  {
    note: 'near miss: file writer in the project',
    tool: 'mcp__fs__write_file',
    input: { path: 'notes/todo.md', content: '- ship it' },
    blocked: false,
  },
  {
    note: 'fetcher at the metadata address',
    tool: 'mcp__fetch__fetch',
    input: { url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' },
    blocked: true,
  },
  {
    note: 'near miss: fetcher of documentation',
    tool: 'mcp__fetch__fetch',
    input: { url: 'https://nodejs.org/api/fs.html' },
    blocked: false,
  },
  {
    note: 'no telling parameter stays other',
    tool: 'mcp__notes__search',
    input: { query: 'rm -rf ~' },
    blocked: false,
  },
];

test('MCP tools are read through the face their parameters imply', async (t) => {
  await ready();
  for (const row of rows)
    await t.test(`${row.blocked ? 'blocked' : 'no objection'}: ${row.note}`, () => {
      const by = blockedBy(row.tool, row.input);
      assert.equal(by.length > 0, row.blocked, `policies: ${by.join(', ') || 'none'}`);
    });
});

test('the inferred face names the parameter it read, and a declared or built-in face wins', () => {
  assert.deepEqual(inferredFace('mcp__sh__run', { command: 'ls', cwd: '/x' })?.commandParam, 'command');
  assert.equal(inferredFace('mcp__fs__delete_file', { path: 'a' })?.pathTarget?.access, 'write');
  assert.equal(inferredFace('mcp__fs__read_file', { path: 'a' })?.pathTarget?.access, 'read');
  // A listing or a file's metadata shows names and sizes, never contents.
  assert.equal(inferredFace('mcp__fs__stat', { path: 'a' })?.pathTarget?.access, 'list');
  assert.equal(inferredFace('mcp__filesystem__list_directory', { path: 'a' })?.pathTarget?.access, 'list');
  assert.equal(inferredFace('mcp__filesystem__get_file_info', { path: 'a' })?.pathTarget?.access, 'list');
  assert.equal(inferredFace('mcp__kv__get', { key: 'a' }), undefined);
  // A non-string value is no evidence: `{command: 5}` is not a command.
  assert.equal(inferredFace('mcp__sh__run', { command: 5 }), undefined);
  const declared = new FaceBook(
    new Map([['mcp__sh__run', { family: 'other', summary: [], tool: 'mcp__sh__run', builtIn: false }]]),
  );
  assert.equal(declared.faceFor('mcp__sh__run', { command: 'rm -rf ~' }).family, 'other');
  assert.equal(new FaceBook(new Map()).faceFor('Bash', { url: 'x' }).family, 'shell');
  // Only MCP tools are inferred: an unknown agent tool stays "other".
  assert.equal(new FaceBook(new Map()).faceFor('SomeTool', { command: 'rm -rf ~' }).family, 'other');
});
