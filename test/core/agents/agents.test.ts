// The Codex, Gemini, Cursor and Copilot adapters: each agent's input in the
// shape it really sends becomes the one HookEvent (its own tool names, read by
// the tool faces), and each reply is exactly what that agent enforces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapterFor, knownAgents } from '../../../src/core/agents';
import { parseCodexInput, writeCodexReply } from '../../../src/core/agents/codex';
import { parseGeminiInput, writeGeminiReply } from '../../../src/core/agents/gemini';
import { parseCursorInput, writeCursorReply } from '../../../src/core/agents/cursor';
import { parseCopilotInput, writeCopilotReply } from '../../../src/core/agents/copilot';
import { lastResortDeny } from '../../../src/core/agents/lastResort';
import type { ParseResult } from '../../../src/core/agents';
import type { HookEvent } from '../../../src/core/types';
import { aHookEvent } from '../../builders/hookEvent';

const CWD = '/home/dev/project';
const REASON = 'a reason a person can act on';

function ok(result: ParseResult): HookEvent {
  assert.ok(result.ok, result.ok ? '' : result.problem);
  return result.event;
}
function problem(result: ParseResult): string {
  assert.equal(result.ok, false, 'expected a parse problem');
  return (result as { problem: string }).problem;
}

test('every agent has an adapter; only Claude Code, Gemini and Cursor enforce an ask', () => {
  assert.deepEqual(knownAgents().sort(), ['claude', 'codex', 'copilot', 'cursor', 'gemini']);
  const asks = knownAgents().filter((a) => adapterFor(a)!.canAsk(adapterFor(a)!.eventNameOf({})));
  assert.deepEqual(asks.sort(), ['claude', 'cursor', 'gemini']);
  // Cursor's beforeReadFile reply is allow or deny: there an ask is held or refused, as for Codex.
  assert.equal(adapterFor('cursor')!.canAsk('beforeReadFile'), false);
  assert.equal(adapterFor('cursor')!.canAsk('beforeShellExecution'), true);
});

// --- Codex ---------------------------------------------------------------

test('codex: a Bash PreToolUse becomes a PreToolUse event with its command', () => {
  const event = ok(parseCodexInput(aHookEvent().bash('ls -la').inCwd(CWD).session('codex-session').body('codex')));
  assert.equal(event.agent, 'codex');
  assert.equal(event.event, 'PreToolUse');
  assert.equal(event.sessionId, 'codex-session');
  assert.equal(event.cwd, CWD);
  assert.equal(event.toolName, 'Bash');
  assert.deepEqual(event.toolInput, { command: 'ls -la' });
  assert.equal(event.toolUseId, 'call_1');
  assert.equal(event.transcriptPath, undefined, 'a null transcript_path is no path');
});

test('codex: a shell argv array and an apply_patch body parse as sent (the faces read them)', () => {
  const argv = {
    ...(aHookEvent().bash('x').inCwd(CWD).body('codex') as object),
    tool_name: 'shell',
    tool_input: { command: ['rm', '-rf', '/'] },
  };
  assert.deepEqual(ok(parseCodexInput(argv)).toolInput, { command: ['rm', '-rf', '/'] });
  const patch = '*** Begin Patch\n*** Add File: /etc/cron.d/x\n+* * * * * root sh\n*** End Patch\n';
  const apply = {
    ...(aHookEvent().bash('x').inCwd(CWD).body('codex') as object),
    tool_name: 'apply_patch',
    tool_input: { command: patch },
  };
  const event = ok(parseCodexInput(apply));
  assert.equal(event.toolName, 'apply_patch');
  assert.equal(event.toolInput?.command, patch);
});

test('codex: malformed input names what is wrong', () => {
  assert.match(problem(parseCodexInput({ hook_event_name: 'PreToolUse', cwd: CWD })), /missing session_id/);
  assert.match(problem(parseCodexInput([1])), /not a JSON object/);
  const noInput = { ...(aHookEvent().bash('x').inCwd(CWD).body('codex') as object), tool_input: 'ls' };
  assert.match(problem(parseCodexInput(noInput)), /tool_input/);
});

test('codex: PreToolUse replies carry only what Codex enforces', () => {
  const r = (decision: any, extra = {}) => writeCodexReply({ event: 'PreToolUse', decision, reason: REASON, ...extra });
  assert.deepEqual(r('deny'), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: REASON },
  });
  assert.equal((r('ask') as any).hookSpecificOutput.permissionDecision, 'deny', 'Codex rejects ask: never sent');
  assert.deepEqual(r('allow'), {}, 'no objection is no decision');
  assert.deepEqual(r('allow', { consented: true }), {}, 'a bare allow is refused by Codex: a consent is no objection');
  assert.deepEqual(r('allow', { consented: true, updatedInput: { command: 'ls' } }), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls' } },
  });
  assert.deepEqual(r('instruct'), { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: REASON } });
  const empty = writeCodexReply({ event: 'PreToolUse', decision: 'deny', reason: '  ' }) as any;
  assert.ok(empty.hookSpecificOutput.permissionDecisionReason.trim(), 'a deny always has a non-empty reason');
  for (const reply of [r('deny'), r('instruct')])
    for (const key of ['continue', 'stopReason', 'suppressOutput']) assert.ok(!(key in reply), key);
});

test('codex: PermissionRequest and the other events', () => {
  const pr = (decision: any, extra = {}) =>
    writeCodexReply({ event: 'PermissionRequest', decision, reason: REASON, ...extra }) as any;
  assert.deepEqual(pr('deny').hookSpecificOutput.decision, { behavior: 'deny', message: REASON });
  assert.deepEqual(pr('allow', { consented: true }).hookSpecificOutput.decision, { behavior: 'allow' });
  assert.equal(
    pr('allow', { consented: true, updatedInput: { command: 'x' } }).hookSpecificOutput.decision.behavior,
    'deny',
  );
  assert.deepEqual(pr('allow'), {});
  assert.deepEqual(writeCodexReply({ event: 'Stop', decision: 'deny', reason: REASON }), {
    decision: 'block',
    reason: REASON,
  });
  assert.deepEqual(writeCodexReply({ event: 'UserPromptSubmit', decision: 'deny', reason: REASON }), {
    decision: 'block',
    reason: REASON,
  });
});

// --- Gemini --------------------------------------------------------------

test("gemini: BeforeTool becomes a PreToolUse with Gemini's own tool name", () => {
  const event = ok(parseGeminiInput(aHookEvent().bash('rm -rf /').inCwd(CWD).body('gemini')));
  assert.equal(event.agent, 'gemini');
  assert.equal(event.event, 'PreToolUse');
  assert.equal(event.rawEventName, 'BeforeTool');
  assert.equal(event.toolName, 'run_shell_command');
  assert.equal(event.toolInput?.command, 'rm -rf /');
  const write = {
    ...(aHookEvent().bash('x').inCwd(CWD).body('gemini') as object),
    tool_name: 'write_file',
    tool_input: { file_path: '/etc/passwd', content: 'x' },
  };
  assert.equal(ok(parseGeminiInput(write)).toolInput?.file_path, '/etc/passwd');
  const after = {
    ...(aHookEvent().bash('x').inCwd(CWD).body('gemini') as object),
    hook_event_name: 'AfterTool',
    tool_response: { llmContent: 'ok' },
  };
  assert.equal(ok(parseGeminiInput(after)).event, 'PostToolUse');
  assert.match(
    problem(parseGeminiInput({ hook_event_name: 'BeforeTool', session_id: 's', cwd: CWD })),
    /missing tool_name/,
  );
});

test("gemini: replies are top-level decisions; ask is Gemini's own confirmation", () => {
  const r = (decision: any, extra = {}) =>
    writeGeminiReply({ event: 'BeforeTool', decision, reason: REASON, ...extra });
  assert.deepEqual(r('deny'), { decision: 'deny', reason: REASON });
  assert.deepEqual(r('ask'), { decision: 'ask', reason: REASON, systemMessage: REASON });
  assert.deepEqual(r('allow'), {});
  assert.deepEqual(r('allow', { consented: true, updatedInput: { command: 'ls' } }), {
    hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls' } },
  });
  assert.deepEqual(r('instruct'), { hookSpecificOutput: { hookEventName: 'BeforeTool', additionalContext: REASON } });
  assert.deepEqual(writeGeminiReply({ event: 'BeforeAgent', decision: 'deny', reason: REASON }), {
    decision: 'deny',
    reason: REASON,
  });
});

// --- Cursor --------------------------------------------------------------

test('cursor: preToolUse and the per-kind gates become PreToolUse events', () => {
  const pre = ok(parseCursorInput(aHookEvent().bash('ls').inCwd(CWD).session('cursor-session').body('cursor')));
  assert.equal(pre.agent, 'cursor');
  assert.equal(pre.sessionId, 'cursor-session', 'the conversation is the session');
  assert.equal(pre.toolName, 'Shell');
  assert.equal(pre.toolInput?.command, 'ls');
  const common = { conversation_id: 'c', generation_id: 'g', workspace_roots: [CWD] };
  const shell = ok(
    parseCursorInput({ ...common, hook_event_name: 'beforeShellExecution', command: 'rm -rf /', cwd: CWD }),
  );
  assert.deepEqual([shell.event, shell.toolName, shell.toolInput], ['PreToolUse', 'Shell', { command: 'rm -rf /' }]);
  const read = ok(
    parseCursorInput({ ...common, hook_event_name: 'beforeReadFile', file_path: '/x/.env', content: 'K=V' }),
  );
  assert.deepEqual(
    [read.toolName, read.toolInput],
    ['Read', { file_path: '/x/.env' }],
    'the content is not an argument',
  );
  assert.equal(read.cwd, CWD, 'workspace_roots stands in for a missing cwd');
  const mcp = ok(
    parseCursorInput({
      ...common,
      hook_event_name: 'beforeMCPExecution',
      tool_name: 'q',
      tool_input: '{"sql":"drop"}',
    }),
  );
  assert.deepEqual(mcp.toolInput, { sql: 'drop' }, 'a JSON text tool_input is read as its object');
  assert.match(
    problem(
      parseCursorInput({ hook_event_name: 'preToolUse', conversation_id: 'c', tool_name: 'Shell', tool_input: {} }),
    ),
    /cwd/,
  );
  assert.match(
    problem(parseCursorInput({ ...common, hook_event_name: 'beforeMCPExecution', tool_name: 'q', tool_input: 'nope' })),
    /JSON object/,
  );
});

test('cursor: replies use permission / user_message / agent_message only', () => {
  const r = (decision: any, extra = {}) =>
    writeCursorReply({ event: 'preToolUse', decision, reason: REASON, ...extra });
  assert.deepEqual(r('deny'), { permission: 'deny', user_message: REASON, agent_message: REASON });
  assert.deepEqual(r('ask'), { permission: 'ask', user_message: REASON, agent_message: REASON });
  assert.deepEqual(r('allow'), {});
  assert.deepEqual(r('allow', { consented: true }), { permission: 'allow', user_message: REASON });
  assert.equal(
    (r('allow', { consented: true, updatedInput: { command: 'ls' } }) as any).permission,
    'deny',
    'an edit Cursor cannot run is refused',
  );
  assert.deepEqual(r('instruct'), { agent_message: REASON });
  const allowed = new Set(['permission', 'user_message', 'agent_message']);
  for (const d of ['deny', 'ask', 'allow', 'instruct'])
    for (const key of Object.keys(r(d, { consented: true }))) assert.ok(allowed.has(key), key);
});

// --- Copilot -------------------------------------------------------------

test('copilot: toolArgs as JSON text or object; the shape says the event', () => {
  const event = ok(parseCopilotInput(aHookEvent().bash('rm -rf /').inCwd(CWD).body('copilot')));
  assert.equal(event.agent, 'copilot');
  assert.equal(event.event, 'PreToolUse');
  assert.equal(event.toolName, 'bash');
  assert.deepEqual(event.toolInput, { command: 'rm -rf /' });
  assert.equal(event.sessionId, `copilot:${CWD}`, 'no session is sent: the folder stands for it');
  const obj = ok(
    parseCopilotInput({ cwd: CWD, toolName: 'edit', toolArgs: { path: 'a', new_str: 'b' }, sessionId: 's1' }),
  );
  assert.deepEqual([obj.sessionId, obj.toolInput?.path], ['s1', 'a']);
  const post = ok(
    parseCopilotInput({ cwd: CWD, toolName: 'bash', toolArgs: '{}', toolResult: { resultType: 'success' } }),
  );
  assert.equal(post.event, 'PostToolUse');
  assert.match(problem(parseCopilotInput({ cwd: CWD, toolName: 'bash', toolArgs: 'rm -rf /' })), /toolArgs/);
  assert.match(problem(parseCopilotInput({ toolName: 'bash', toolArgs: '{}' })), /missing cwd/);
});

test('copilot: deny with its reason; an ask is never passed on', () => {
  const r = (decision: any, extra = {}) =>
    writeCopilotReply({ event: 'preToolUse', decision, reason: REASON, ...extra });
  assert.deepEqual(r('deny'), { permissionDecision: 'deny', permissionDecisionReason: REASON });
  assert.equal((r('ask') as any).permissionDecision, 'deny');
  assert.deepEqual(r('allow'), {});
  assert.deepEqual(r('allow', { consented: true }), { permissionDecision: 'allow', permissionDecisionReason: REASON });
  assert.equal((r('allow', { consented: true, updatedInput: {} }) as any).permissionDecision, 'deny');
});

// --- when nothing can be evaluated ---------------------------------------

test("the last-resort refusal is in each agent's enforced form", () => {
  assert.deepEqual(lastResortDeny('claude', 'why'), { stdout: '', stderr: 'why\n', code: 2 });
  assert.deepEqual(lastResortDeny('codex', 'why'), { stdout: '', stderr: 'why\n', code: 2 });
  assert.deepEqual(JSON.parse(lastResortDeny('gemini', 'why').stdout), { decision: 'deny', reason: 'why' });
  assert.equal(JSON.parse(lastResortDeny('cursor', 'why').stdout).permission, 'deny');
  assert.equal(lastResortDeny('cursor', 'why').code, 0, 'Cursor wants JSON on every path');
  assert.equal(JSON.parse(lastResortDeny('copilot', 'why').stdout).permissionDecision, 'deny');
});

test("a body that fails the schema is answered as the agent's gate", () => {
  assert.equal(adapterFor('gemini')!.eventNameOf({}), 'BeforeTool');
  assert.equal(adapterFor('cursor')!.eventNameOf(null), 'preToolUse');
  assert.equal(adapterFor('copilot')!.eventNameOf({ cwd: 1 }), 'preToolUse');
  assert.equal(adapterFor('codex')!.eventNameOf({ hook_event_name: 'Stop' }), 'Stop');
});

test('a body naming an event the agent does not have is answered as its gate', () => {
  assert.equal(adapterFor('cursor')!.eventNameOf({ hook_event_name: 'PreToolUse' }), 'preToolUse');
  assert.equal(adapterFor('gemini')!.eventNameOf({ hook_event_name: 'PreToolUse' }), 'BeforeTool');
  assert.equal(adapterFor('codex')!.eventNameOf({ hook_event_name: 'BeforeTool' }), 'PreToolUse');
});
