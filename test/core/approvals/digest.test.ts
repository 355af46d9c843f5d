import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { argsDigest, bindArgs, NotBindableError } from '../../../src/core/approvals/digest';
import { bindableFromBody } from '../../../src/core/approvals/bodyBinding';
import { runDigest } from '../../../src/core/approvals/digestCommand';

// A real Claude Code 2.1.197 PreToolUse body (paths as in test/fixtures).
const PRE_TOOL_USE_BODY = `{
  "session_id": "adbfcfd3-f3a6-4983-8479-ccb85df951f6",
  "transcript_path": "/home/dev/.claude/projects/-home-dev-proj/adbfcfd3-f3a6-4983-8479-ccb85df951f6.jsonl",
  "cwd": "/home/dev/proj",
  "prompt_id": "c93dd734-84db-46d5-b0dd-65e3269b1944",
  "permission_mode": "default",
  "effort": { "level": "high" },
  "hook_event_name": "PreToolUse",
  "tool_name": "Bash",
  "tool_input": { "command": "ls", "description": "List files" },
  "tool_use_id": "toolu_010"
}`;
// sha256 of the canonical bytes {"tool_input":{"command":"ls","description":"List files"},"tool_name":"Bash"},
// computed outside this code base (sha256sum): it pins the digest format that licences and the CLI depend on.
const LS_DIGEST = 'sha256:3f6b81f85634f546e09971d90e8aada53f4f726ffe4d142f1092bdbcc412a0e2';

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

test('argsDigest is sha256: + hex SHA-256 of the canonical {"tool_name","tool_input"} object', () => {
  assert.equal(argsDigest('Bash', { description: 'List files', command: 'ls' }), LS_DIGEST);
  assert.equal(argsDigest('X', { s: '€', n: 1e21 }), sha256('{"tool_input":{"n":1e+21,"s":"€"},"tool_name":"X"}'));
  assert.match(argsDigest('Read', {}), /^sha256:[0-9a-f]{64}$/);
});

test('the digest binds the tool name and every byte of the arguments', () => {
  const base = argsDigest('Bash', { command: 'ls' });
  assert.notEqual(argsDigest('Shell', { command: 'ls' }), base);
  assert.notEqual(argsDigest('Bash', { command: 'ls ' }), base);
  assert.notEqual(argsDigest('Bash', { command: 'ls', extra: null }), base);
  assert.notEqual(argsDigest('Bash', { command: ['ls'] }), base);
  assert.equal(argsDigest('Bash', JSON.parse('{ "command" : "l\\u0073" }')), base);
});

test('argsDigest refuses arguments that are not bindable; bindArgs names the problem', () => {
  assert.throws(
    () => argsDigest('Bash', { command: 'ls\ud800' }),
    (error: unknown) => {
      assert.ok(error instanceof NotBindableError);
      assert.equal(error.problem, 'a lone surrogate \\ud800 in a string at $.tool_input.command');
      return true;
    },
  );
  assert.deepEqual(bindArgs('Bash\udc00', {}), {
    ok: false,
    problem: 'a lone surrogate \\udc00 in a string at $.tool_name',
  });
});

test('bindableFromBody: a real hook body binds to the same digest as its parsed arguments', () => {
  const binding = bindableFromBody(PRE_TOOL_USE_BODY);
  assert.deepEqual(binding, {
    ok: true,
    toolName: 'Bash',
    toolInput: { command: 'ls', description: 'List files' },
    digest: LS_DIGEST,
  });
});

test('bindableFromBody: a duplicate key inside tool_input is not bindable, named with its path', () => {
  const body = '{"session_id":"s","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}';
  assert.deepEqual(bindableFromBody(body), { ok: false, problem: 'a duplicate key "command" at $.tool_input' });
  const deep = '{"tool_name":"W","tool_input":{"items":[{},{},{"a":1,"\\u0061":2}]}}';
  assert.deepEqual(bindableFromBody(deep), { ok: false, problem: 'a duplicate key "a" at $.tool_input.items[2]' });
});

test('bindableFromBody: a repeated tool_input or tool_name at the top matters, a repeated cwd does not', () => {
  const twoInputs = '{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf ~"}}';
  assert.deepEqual(bindableFromBody(twoInputs), { ok: false, problem: 'a duplicate key "tool_input" at $' });
  const twoNames = '{"tool_name":"Read","tool_name":"Bash","tool_input":{}}';
  assert.deepEqual(bindableFromBody(twoNames), { ok: false, problem: 'a duplicate key "tool_name" at $' });
  const twoCwds = '{"cwd":"/a","cwd":"/b","tool_name":"Read","tool_input":{},"x":{"k":1,"k":2}}';
  assert.equal(bindableFromBody(twoCwds).ok, true);
});

test('bindableFromBody: a 1e400 literal in tool_input is named with its literal text', () => {
  const body = '{"tool_name":"Calc","tool_input":{"n":1e400}}';
  assert.deepEqual(bindableFromBody(body), {
    ok: false,
    problem: 'a number that is not finite (1e400) at $.tool_input.n',
  });
  // Outside the bound part it does not matter.
  assert.equal(bindableFromBody('{"duration_ms":1e400,"tool_name":"Calc","tool_input":{"n":1}}').ok, true);
});

test('bindableFromBody: depth 256 inside tool_input binds, 257 does not', () => {
  const body = (levels: number) => `{"tool_name":"T","tool_input":${'['.repeat(levels)}${']'.repeat(levels)}}`;
  assert.equal(bindableFromBody(body(256)).ok, true);
  const deeper = bindableFromBody(body(257));
  assert.equal(deeper.ok, false);
  assert.match(
    deeper.ok ? '' : deeper.problem,
    /^nesting deeper than 256 levels at \$\.tool_input\[0\]\[0\]\[0\]\[0\]\[0\]\.…\[0\]\[0\]$/,
  );
});

test('bindableFromBody: a lone surrogate written as an escape in the body', () => {
  const body = '{"tool_name":"Write","tool_input":{"text":"x\\udc00"}}';
  assert.deepEqual(bindableFromBody(body), {
    ok: false,
    problem: 'a lone surrogate \\udc00 in a string at $.tool_input.text',
  });
});

test('bindableFromBody: missing fields and bad text are problems, not throws', () => {
  assert.deepEqual(bindableFromBody('{"tool_input":{}}'), { ok: false, problem: 'no tool name string at $.tool_name' });
  assert.deepEqual(bindableFromBody('{"tool_name":"X"}'), { ok: false, problem: 'no tool input at $.tool_input' });
  const bad = bindableFromBody('{"tool_name":');
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : bad.problem, /^text that is not valid JSON \(.+\) at \$$/);
});

test('bindableFromBody: other agents name the fields elsewhere', () => {
  const body = '{"call":{"name":"shell","args":{"cmd":"ls","cmd":"rm"}}}';
  const where = { toolName: ['call', 'name'], toolInput: ['call', 'args'] };
  assert.deepEqual(bindableFromBody(body, where), { ok: false, problem: 'a duplicate key "cmd" at $.call.args' });
  const clean = bindableFromBody('{"call":{"name":"shell","args":{"cmd":"ls"}}}', where);
  assert.deepEqual(clean, {
    ok: true,
    toolName: 'shell',
    toolInput: { cmd: 'ls' },
    digest: argsDigest('shell', { cmd: 'ls' }),
  });
});

test('runDigest: {tool_name, tool_input} on stdin, or a whole hook body', () => {
  assert.deepEqual(runDigest('{"tool_name":"Bash","tool_input":{"command":"ls","description":"List files"}}'), {
    ok: true,
    digest: LS_DIGEST,
  });
  assert.deepEqual(runDigest(PRE_TOOL_USE_BODY), { ok: true, digest: LS_DIGEST });
});

test('runDigest --tool: stdin holds the bare arguments', () => {
  assert.deepEqual(runDigest('{"description":"List files","command":"ls"}\n', 'Bash'), { ok: true, digest: LS_DIGEST });
  assert.deepEqual(runDigest('{"command":"ls","command":"x"}', 'Bash'), {
    ok: false,
    problem: 'a duplicate key "command" at $',
  });
  assert.deepEqual(runDigest('{"n":[1e400]}', 'Calc'), {
    ok: false,
    problem: 'a number that is not finite (1e400) at $.n[0]',
  });
  assert.deepEqual(runDigest('"\\ud800"', 'Echo'), { ok: false, problem: 'a lone surrogate \\ud800 in a string at $' });
  assert.deepEqual(runDigest('{}', ''), { ok: false, problem: 'an empty tool name in --tool' });
});

test('runDigest: problems for input that is not a call', () => {
  const empty = runDigest('  \n');
  assert.deepEqual(empty, {
    ok: false,
    problem: 'stdin is empty where a {"tool_name", "tool_input"} object was expected',
  });
  const notJson = runDigest('{nope');
  assert.equal(notJson.ok, false);
  assert.match(notJson.ok ? '' : notJson.problem, /^stdin is not valid JSON \(.+\) where/);
  const noName = runDigest('{"tool_input":{}}');
  assert.deepEqual(noName, {
    ok: false,
    problem: 'stdin has no "tool_name" string and "tool_input" member at $ (for bare arguments use --tool NAME)',
  });
  assert.equal(runDigest('{"tool_name":"X"}').ok, false);
  assert.deepEqual(runDigest('{"tool_name":"X","tool_input":{"a":1,"a":2}}'), {
    ok: false,
    problem: 'a duplicate key "a" at $.tool_input',
  });
});
