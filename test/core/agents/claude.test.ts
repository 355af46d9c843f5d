// The Claude Code adapter: the real 2.1.197 inputs parse, unknown things pass,
// broken bodies become a sentence naming the field, and every reply has
// Claude Code's exact shape (an allow without consent is no objection: {}).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseClaudeInput, writeClaudeReply, type ReplyInput } from '../../../src/core/agents/claude';
import { adapterFor, knownAgents } from '../../../src/core/agents';
import type { Decision } from '../../../src/core/types';
import { claudeFixturesDir } from '../../builders/process';

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(claudeFixturesDir(), `${name}.input.json`), 'utf8')) as Record<string, unknown>;
}

function parseOk(body: unknown) {
  const result = parseClaudeInput(body);
  if (!result.ok) assert.fail(`expected the body to parse, got: ${result.problem}`);
  return result.event;
}

function problemOf(body: unknown): string {
  const result = parseClaudeInput(body);
  assert.equal(result.ok, false, 'expected a problem');
  return (result as { problem: string }).problem;
}

const EVENTS = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart'] as const;
const DECISIONS: Decision[] = ['allow', 'instruct', 'ask', 'deny'];

test('every real 2.1.197 input in test/fixtures parses', () => {
  const files = readdirSync(claudeFixturesDir()).filter((f) => f.endsWith('.input.json'));
  const names = files.map((f) => f.replace('.input.json', '')).sort();
  assert.deepEqual(names, [...EVENTS].sort(), 'one fixture per event the adapter knows');
  for (const name of names) {
    const body = fixture(name);
    const event = parseOk(body);
    assert.equal(event.agent, 'claude');
    assert.equal(event.event, name);
    assert.equal(event.rawEventName, name);
    assert.equal(event.sessionId, body.session_id);
    assert.equal(event.cwd, body.cwd);
    assert.equal(event.transcriptPath, body.transcript_path);
    assert.deepEqual(event.raw, body, `${name}: the raw body is kept whole, unknown fields included`);
  }
});

test('tool events carry their tool name, input and use id', () => {
  const pre = parseOk(fixture('PreToolUse'));
  assert.equal(pre.toolName, 'Bash');
  assert.deepEqual(pre.toolInput, { command: 'ls', description: 'List files' });
  assert.equal(pre.toolUseId, 'toolu_010');
  assert.equal(pre.permissionMode, 'default');

  const permission = parseOk(fixture('PermissionRequest'));
  assert.equal(permission.toolName, 'Bash');
  assert.deepEqual(permission.toolInput, { command: "python3 -c 'print(42)'", description: 'Print hi' });
  assert.equal(permission.toolUseId, undefined, 'a PermissionRequest has no tool_use_id');

  const post = parseOk(fixture('PostToolUse'));
  assert.equal(post.toolName, 'Bash');
  assert.deepEqual(post.toolResponse, {
    stdout: '',
    stderr: '',
    interrupted: false,
    isImage: false,
    noOutputExpected: false,
  });

  const prompt = parseOk(fixture('UserPromptSubmit'));
  assert.equal(prompt.prompt, 'list the files in this folder');
  assert.equal(prompt.toolName, undefined);

  assert.equal(parseOk(fixture('Stop')).toolName, undefined);
});

test('the headless flag is carried when the host knows it', () => {
  const result = parseClaudeInput(fixture('PreToolUse'), { headless: true });
  assert.ok(result.ok);
  assert.equal(result.event.headless, true);
  assert.equal(parseOk(fixture('PreToolUse')).headless, undefined);
});

test('unknown events pass as Other, keeping their own name and fields', () => {
  const body = {
    session_id: 's1',
    cwd: '/tmp/p',
    hook_event_name: 'Notification',
    message: 'Claude needs your permission',
    extra: { nested: [1, 2] },
  };
  const event = parseOk(body);
  assert.equal(event.event, 'Other');
  assert.equal(event.rawEventName, 'Notification');
  assert.deepEqual(event.raw, body);
});

test('event names that are Object.prototype members are unknown events, not a crash', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
    const event = parseOk({ session_id: 's1', cwd: '/tmp/p', hook_event_name: name });
    assert.equal(event.event, 'Other', name);
    assert.equal(event.rawEventName, name);
  }
});

test('unknown fields on known events pass', () => {
  const body = { ...fixture('PreToolUse'), a_field_from_the_future: { x: 1 }, another: 'y' };
  const event = parseOk(body);
  assert.equal(event.event, 'PreToolUse');
  assert.deepEqual(event.raw.a_field_from_the_future, { x: 1 });
});

test('a missing session_id is a problem sentence naming it', () => {
  for (const name of EVENTS) {
    const body = fixture(name);
    delete body.session_id;
    const problem = problemOf(body);
    assert.match(problem, /session_id/, name);
    assert.match(problem, /missing/, name);
  }
});

test('a missing tool_name is a problem sentence naming it, on every tool event', () => {
  for (const name of ['PreToolUse', 'PermissionRequest', 'PostToolUse']) {
    const body = fixture(name);
    delete body.tool_name;
    const problem = problemOf(body);
    assert.match(problem, /tool_name/, name);
    assert.match(problem, /missing/, name);
  }
});

test('a field of the wrong type is named, and not called missing', () => {
  const problem = problemOf({ ...fixture('PreToolUse'), session_id: 42 });
  assert.match(problem, /session_id/);
  assert.doesNotMatch(problem, /missing/);
  const inputProblem = problemOf({ ...fixture('PreToolUse'), tool_input: 'ls' });
  assert.match(inputProblem, /tool_input/);
  assert.doesNotMatch(inputProblem, /missing/);
});

test('a body that is not a JSON object is a problem', () => {
  for (const body of [null, 42, 'text', [fixture('PreToolUse')]]) assert.match(problemOf(body), /not a JSON object/);
});

test('the adapter registry serves claude', () => {
  assert.ok(knownAgents().includes('claude'));
  const adapter = adapterFor('claude');
  assert.ok(adapter);
  assert.equal(adapter.parse(fixture('Stop')).ok, true);
  assert.equal(adapterFor('nobody'), undefined);
  assert.equal(adapterFor('constructor'), undefined, 'a prototype member is not an adapter');
});

// --- replies -------------------------------------------------------------

const REASON = 'the reason a person can act on';

function reply(event: string, decision: Decision, extra: Partial<ReplyInput> = {}): Record<string, unknown> {
  return writeClaudeReply({ event, decision, reason: REASON, ...extra });
}

test('an allow without consent is exactly {} on every event', () => {
  for (const event of [...EVENTS, 'Notification']) assert.deepEqual(reply(event, 'allow'), {}, event);
});

test('PreToolUse replies for each decision', () => {
  assert.deepEqual(reply('PreToolUse', 'deny'), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: REASON },
  });
  assert.deepEqual(reply('PreToolUse', 'ask'), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: REASON },
  });
  assert.deepEqual(reply('PreToolUse', 'instruct'), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: REASON },
  });
  assert.deepEqual(reply('PreToolUse', 'instruct', { additionalContext: 'read this first' }), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'read this first' },
  });
  assert.deepEqual(
    reply('PreToolUse', 'allow', { additionalContext: 'note' }),
    { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'note' } },
    'context without a decision',
  );
  assert.deepEqual(reply('PreToolUse', 'deny', { additionalContext: 'more' }), {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: REASON,
      additionalContext: 'more',
    },
  });
});

test('PreToolUse: only a consented allow is an explicit allow, with its updatedInput', () => {
  assert.deepEqual(reply('PreToolUse', 'allow', { consented: true }), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: REASON },
  });
  assert.deepEqual(reply('PreToolUse', 'allow', { consented: true, updatedInput: { command: 'ls -la' } }), {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: REASON,
      updatedInput: { command: 'ls -la' },
    },
  });
  assert.deepEqual(
    reply('PreToolUse', 'allow', { consented: false, updatedInput: { command: 'ls -la' } }),
    {},
    'no consent, no rewrite',
  );
});

test('PermissionRequest replies: deny, consented allow, pass-through', () => {
  assert.deepEqual(reply('PermissionRequest', 'deny'), {
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: REASON } },
  });
  assert.deepEqual(reply('PermissionRequest', 'allow', { consented: true }), {
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  });
  assert.deepEqual(reply('PermissionRequest', 'allow', { consented: true, updatedInput: { command: 'ls' } }), {
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { command: 'ls' } },
    },
  });
  assert.deepEqual(
    reply('PermissionRequest', 'deny', { passThrough: true }),
    {},
    'pass-through hands the call to the agent prompt',
  );
  assert.deepEqual(reply('PermissionRequest', 'ask'), {}, 'an unanswered ask is left to the agent prompt');
  assert.deepEqual(reply('PermissionRequest', 'instruct'), {});
});

test('PostToolUse replies: context, replaced MCP output, block', () => {
  assert.deepEqual(reply('PostToolUse', 'instruct'), {
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: REASON },
  });
  assert.deepEqual(reply('PostToolUse', 'allow', { additionalContext: 'the output held an injected instruction' }), {
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'the output held an injected instruction' },
  });
  assert.deepEqual(
    reply('PostToolUse', 'instruct', {
      additionalContext: 'sanitized',
      updatedOutput: { content: [{ type: 'text', text: '[removed]' }] },
    }),
    {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: 'sanitized',
        updatedMCPToolOutput: { content: [{ type: 'text', text: '[removed]' }] },
      },
    },
  );
  assert.deepEqual(reply('PostToolUse', 'deny'), {
    decision: 'block',
    reason: REASON,
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: REASON },
  });
});

test('Stop replies: deny and ask block with the reason, others let it stop', () => {
  assert.deepEqual(reply('Stop', 'deny'), { decision: 'block', reason: REASON });
  assert.deepEqual(reply('Stop', 'ask'), { decision: 'block', reason: REASON });
  assert.deepEqual(reply('Stop', 'instruct'), {});
});

test('UserPromptSubmit and SessionStart replies', () => {
  assert.deepEqual(reply('UserPromptSubmit', 'deny'), { decision: 'block', reason: REASON });
  assert.deepEqual(reply('UserPromptSubmit', 'instruct'), {
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: REASON },
  });
  assert.deepEqual(reply('SessionStart', 'instruct'), {
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: REASON },
  });
  assert.deepEqual(reply('SessionStart', 'allow', { additionalContext: 'project notes' }), {
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'project notes' },
  });
});

test('unknown events get no objection whatever the decision', () => {
  for (const decision of DECISIONS) assert.deepEqual(reply('Notification', decision), {}, decision);
});

test('property: no reply ever grants an explicit allow without consent', () => {
  const replyInput = fc.record({
    event: fc.constantFrom<string>(...EVENTS, 'Notification'),
    decision: fc.constantFrom<Decision>(...DECISIONS),
    reason: fc.string(),
    consented: fc.constant(false),
    additionalContext: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
    updatedInput: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined }),
    passThrough: fc.option(fc.boolean(), { nil: undefined }),
  });
  fc.assert(
    fc.property(replyInput, (input) => {
      const clean = Object.fromEntries(
        Object.entries(input).filter(([, v]) => v !== undefined),
      ) as unknown as ReplyInput;
      const text = JSON.stringify(writeClaudeReply(clean));
      assert.ok(!text.includes('"permissionDecision":"allow"'), text);
      assert.ok(!text.includes('"behavior":"allow"'), text);
      assert.ok(!text.includes('"updatedInput"'), text);
    }),
  );
});

test('property: a deny on PreToolUse always carries the reason Claude Code shows', () => {
  fc.assert(
    fc.property(fc.string(), (reason) => {
      const out = writeClaudeReply({ event: 'PreToolUse', decision: 'deny', reason }) as {
        hookSpecificOutput: Record<string, unknown>;
      };
      assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
      assert.equal(out.hookSpecificOutput.permissionDecisionReason, reason);
    }),
  );
});
