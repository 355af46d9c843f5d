// Cursor's hook payloads exactly as its hooks documentation lays them out
// (cursor.com/docs/agent/hooks: the common fields every hook receives, then
// each event's own), and the replies it documents for them. Cursor's agent is
// not on the npm registry, so these shapes are what the adapter is held to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCursorInput, writeCursorReply } from '../../../src/core/agents/cursor';
import type { HookEvent } from '../../../src/core/types';

const ROOT = '/home/dev/project';
/** The documented common input: every hook receives these. */
const COMMON = {
  conversation_id: 'conv-7f3a',
  generation_id: 'gen-91c2',
  model: 'some-model',
  cursor_version: '1.7.2',
  workspace_roots: [ROOT],
  user_email: null,
};

function parsed(body: object): HookEvent {
  const result = parseCursorInput(body);
  assert.ok(result.ok, result.ok ? '' : result.problem);
  return result.event;
}

test('beforeShellExecution {command, cwd} is the shell call, in its own folder', () => {
  const event = parsed({
    ...COMMON,
    hook_event_name: 'beforeShellExecution',
    command: 'git push -f',
    cwd: `${ROOT}/sub`,
  });
  assert.deepEqual(
    [event.event, event.toolName, event.toolInput, event.cwd, event.sessionId],
    ['PreToolUse', 'Shell', { command: 'git push -f' }, `${ROOT}/sub`, 'conv-7f3a'],
  );
});

test('beforeMCPExecution: tool_input is JSON text, with the server named by url or by command', () => {
  const byUrl = parsed({
    ...COMMON,
    hook_event_name: 'beforeMCPExecution',
    tool_name: 'database_query',
    tool_input: '{"query":"DROP TABLE users"}',
    url: 'http://127.0.0.1:3000/mcp',
  });
  assert.deepEqual([byUrl.toolName, byUrl.toolInput], ['database_query', { query: 'DROP TABLE users' }]);
  assert.equal(byUrl.cwd, ROOT, 'no cwd: the first workspace root');
  const byCommand = parsed({
    ...COMMON,
    hook_event_name: 'beforeMCPExecution',
    tool_name: 'database_query',
    tool_input: '{"query":"SELECT 1"}',
    command: 'npx some-mcp-server',
  });
  // The server's start command names the server; it is not the call being judged.
  assert.deepEqual([byCommand.toolName, byCommand.toolInput], ['database_query', { query: 'SELECT 1' }]);
});

test('beforeSubmitPrompt {prompt, attachments} is the prompt; its reply is {continue, user_message}', () => {
  const event = parsed({
    ...COMMON,
    hook_event_name: 'beforeSubmitPrompt',
    prompt: 'fix the bug',
    attachments: [{ type: 'file', filePath: `${ROOT}/main.ts` }],
  });
  assert.deepEqual([event.event, event.prompt], ['UserPromptSubmit', 'fix the bug']);
  const reason = 'the prompt holds a credential';
  assert.deepEqual(writeCursorReply({ event: 'beforeSubmitPrompt', decision: 'deny', reason }), {
    continue: false,
    user_message: reason,
  });
  assert.deepEqual(writeCursorReply({ event: 'beforeSubmitPrompt', decision: 'allow', reason: '' }), {
    continue: true,
  });
});

test('the gates answer {permission, user_message, agent_message}; events that take no answer get {}', () => {
  const reason = 'rm -rf / deletes the machine';
  for (const gate of ['beforeShellExecution', 'beforeMCPExecution', 'preToolUse'])
    assert.deepEqual(writeCursorReply({ event: gate, decision: 'deny', reason }), {
      permission: 'deny',
      user_message: reason,
      agent_message: reason,
    });
  for (const observer of ['afterShellExecution', 'afterMCPExecution', 'afterFileEdit', 'afterAgentResponse', 'stop']) {
    assert.deepEqual(writeCursorReply({ event: observer, decision: 'deny', reason }), {}, observer);
    const event = parsed({ ...COMMON, hook_event_name: observer, status: 'completed', loop_count: 0 });
    assert.equal(event.event, 'Other', `${observer} is observed, not judged`);
  }
});
