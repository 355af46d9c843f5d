import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInFace, builtInToolNames, FaceBook, parseToolFaces } from '../../../src/core/config/faces';
import { toolCallOf } from '../../../src/core/policies/call';
import { loadConfig } from '../../../src/core/config/load';
import { initShellParser } from '../../../src/core/shell';
import type { HookEvent } from '../../../src/core/types';
import { aTempDir } from '../../builders/tempProject';

const event = (tool: string, input: Record<string, unknown>): HookEvent => ({
  agent: 'claude',
  event: 'PreToolUse',
  rawEventName: 'PreToolUse',
  sessionId: 's',
  cwd: '/home/dev/proj',
  raw: {},
  toolName: tool,
  toolInput: input,
});
const ctx = (faces = new FaceBook(new Map())) => ({ projectRoot: '/home/dev/proj', home: '/home/dev', faces });

test('malformed faces are refused whole, with a message naming the tool, the member and what was expected', () => {
  const cases: [unknown, string][] = [
    [{ family: 'write', pathTarget: { access: 'write' } }, 'toolFaces["mcp__db__query"]: pathTarget.param is missing'],
    [{ family: 'read', foo: 1 }, 'toolFaces["mcp__db__query"]: unknown member "foo"'],
    [
      { family: 'read', pathTarget: { param: 'p', access: 'read', mode: 'x' } },
      'toolFaces["mcp__db__query"]: pathTarget: unknown member "mode"',
    ],
    [
      { family: 'database' },
      'toolFaces["mcp__db__query"]: family must be one of "shell", "read", "write", "edit", "network", "search", "other"',
    ],
    [{ pathTarget: { param: 'p', access: 'read' } }, 'toolFaces["mcp__db__query"]: family is missing'],
    [
      { family: 'read', pathTarget: { param: 'p', access: 'delete' } },
      'toolFaces["mcp__db__query"]: pathTarget.access must be one of "read", "list", "write"',
    ],
  ];
  for (const [face, message] of cases) {
    const parsed = parseToolFaces({
      mcp__db__query: face,
      mcp__ok__read: { family: 'read', pathTarget: { param: 'path', access: 'read' } },
    });
    assert.deepEqual(
      parsed.errors.map((e) => e.message),
      [message],
    );
    assert.equal(parsed.faces.has('mcp__db__query'), false, 'refused whole');
    assert.equal(parsed.faces.has('mcp__ok__read'), true, 'other faces still apply');
  }
});

test('a configured MCP face is read like a built-in one, and its errors name the file', async (t) => {
  await initShellParser();
  const dir = aTempDir('faces', t);
  const state = join(dir, 'state');
  mkdirSync(state);
  writeFileSync(
    join(state, 'config.json'),
    JSON.stringify({
      toolFaces: {
        mcp__fs__write_file: {
          family: 'write',
          pathTarget: { param: 'path', aliases: ['file'], access: 'write' },
          contentParams: ['content'],
          summary: ['path'],
        },
        mcp__shell__run: { family: 'shell', commandParam: 'cmd' },
        mcp__db__query: { family: 'other', pathTarget: { access: 'read' } },
      },
    }),
  );
  const config = loadConfig({ stateDir: state, projectRoot: dir });
  assert.deepEqual(config.errors, [
    `${join(state, 'config.json')}: toolFaces["mcp__db__query"]: pathTarget.param is missing`,
  ]);
  const write = toolCallOf(event('mcp__fs__write_file', { file: '/etc/hosts', content: 'x' }), ctx(config.faces));
  assert.equal(write?.face.family, 'write');
  assert.deepEqual(
    write?.paths.map((p) => [p.absolute, p.access, p.relation, p.source]),
    [['/etc/hosts', 'write', 'system', 'file']],
  );
  assert.equal(write?.content, 'x');
  const shell = toolCallOf(event('mcp__shell__run', { cmd: 'rm -rf ~' }), ctx(config.faces));
  assert.deepEqual(
    shell?.shell?.commands.map((c) => c.argv),
    [['rm', '-rf', '/home/dev']],
  );
  assert.equal(config.faces.faceFor('mcp__db__query').family, 'other', 'the refused face falls back to "other"');
});

test('built-in faces cover the five agents', async () => {
  await initShellParser();
  for (const tool of [
    'Bash',
    'Read',
    'Write',
    'Edit',
    'MultiEdit',
    'Grep',
    'Glob',
    'WebFetch',
    'shell',
    'apply_patch',
    'run_shell_command',
    'read_file',
    'write_file',
    'replace',
    'read_many_files',
    'Shell',
    'StrReplace',
    'Delete',
    'bash',
    'powershell',
    'view',
    'create',
    'edit',
  ]) {
    assert.ok(builtInFace(tool), tool);
  }
  assert.ok(builtInToolNames().length >= 40);
  const codex = toolCallOf(event('shell', { command: ['bash', '-lc', 'git push --force'] }), ctx());
  assert.equal(codex?.command, "bash -lc 'git push --force'");
  assert.deepEqual(
    codex?.shell?.commands.map((c) => c.name),
    ['bash', 'git'],
  );
  const patch = toolCallOf(
    event('apply_patch', {
      command:
        '*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: /tmp/b.ts\n*** Delete File: old.ts\n*** End Patch',
    }),
    ctx(),
  );
  assert.deepEqual(
    patch?.paths.map((p) => [p.raw, p.access, p.relation]),
    [
      ['src/a.ts', 'write', 'inside-project'],
      ['/tmp/b.ts', 'write', 'system'],
      ['old.ts', 'delete', 'inside-project'],
    ],
  );
  const many = toolCallOf(event('read_many_files', { paths: ['a.ts', '/home/dev/.netrc'] }), ctx());
  assert.deepEqual(
    many?.paths.map((p) => p.relation),
    ['inside-project', 'outside-project-in-home'],
  );
  const gemini = toolCallOf(event('read_file', { absolute_path: '/home/dev/proj/x.ts' }), ctx());
  assert.equal(gemini?.paths[0]?.source, 'absolute_path');
  const multi = toolCallOf(
    event('MultiEdit', {
      file_path: 'a.ts',
      edits: [
        { old_string: 'a', new_string: 'first' },
        { old_string: 'b', new_string: 'second' },
      ],
    }),
    ctx(),
  );
  assert.equal(multi?.content, 'first\nsecond');
  assert.equal(builtInFace('constructor'), undefined, 'no inherited member counts as a face');
  assert.equal(builtInFace('toString'), undefined);
  const pwsh = toolCallOf(
    event('powershell', { command: 'Remove-Item -Recurse -Force C:\\Users\\dev\\proj\\dist' }),
    ctx(),
  );
  assert.deepEqual(
    pwsh?.shell?.commands[0]?.argv,
    ['Remove-Item', '-Recurse', '-Force', 'C:/Users/dev/proj/dist'],
    'PowerShell backslashes stay path separators',
  );
  const unknown = toolCallOf(event('UnknownTool', { path: '/etc/passwd' }), ctx());
  assert.equal(unknown?.face.family, 'other', 'a tool of no agent and no MCP server has no face');
  assert.deepEqual(unknown?.paths, []);
  const mcp = toolCallOf(event('mcp__unknown__tool', { path: '/etc/passwd' }), ctx());
  assert.equal(mcp?.face.family, 'read', 'an MCP tool is read by the path its arguments name');
  assert.deepEqual(
    mcp?.paths.map((p) => p.absolute),
    ['/etc/passwd'],
  );
});
