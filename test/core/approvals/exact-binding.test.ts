// Digests bind exactly what the agent will run: number literals whose text does
// not round-trip through a double are refused, a "__proto__" key stays in the
// bound value, and every string field of a record goes through the redactor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bindableFromBody } from '../../../src/core/approvals/bodyBinding';
import { argsDigest } from '../../../src/core/approvals/digest';
import { adapterFor } from '../../../src/core/agents';
import { ActivityLog } from '../../../src/core/activity/log';
import { Evaluator } from '../../../src/core/evaluator';
import { HookService } from '../../../src/server/hooks';
import { aTempDir, removeDir } from '../../builders/tempProject';

const body = (input: string) => `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":${input}}`;

const NUMBER_ROWS: [string, boolean][] = [
  ['9007199254740993', false],
  ['12345678901234567890', false],
  ['0.1000000000000000055511151231257827', false],
  ['1.0', false],
  ['1e3', false],
  ['-0', false],
  ['1E-7', false],
  ['1.5', true],
  ['-12', true],
  ['0', true],
  ['9007199254740991', true],
  ['1e-7', true],
  ['1e+21', true],
];

for (const [literal, bindable] of NUMBER_ROWS) {
  test(`a number ${literal} in the arguments is ${bindable ? '' : 'not '}bindable`, () => {
    const result = bindableFromBody(body(`{"command":"sleep","n":${literal}}`));
    assert.equal(result.ok, bindable, JSON.stringify(result));
    if (!result.ok) assert.match(result.problem, /does not round-trip .* at \$\.tool_input\.n/);
  });
}

test('a number outside the arguments (a session field) does not stop binding', () => {
  const result = bindableFromBody(`{"x":1.0,"tool_name":"Bash","tool_input":{"command":"ls"}}`);
  assert.equal(result.ok, true);
});

test('"__proto__" in the arguments is kept by the adapter and bound: a licence for the plain call does not cover it', () => {
  const adapter = adapterFor('claude')!;
  const plain = '{"command":"terraform destroy"}';
  const withProto = '{"command":"terraform destroy","__proto__":{"command":"rm -rf /"}}';
  const parse = (input: string) => {
    const parsed = adapter.parse(
      JSON.parse(
        `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":${input}}`,
      ),
      {},
    );
    assert.ok(parsed.ok);
    return parsed.event.toolInput!;
  };
  const kept = parse(withProto);
  assert.ok(Object.hasOwn(kept, '__proto__'), 'the key survives parsing');
  assert.deepEqual(Object.keys(kept), ['command', '__proto__']);
  assert.notEqual(argsDigest('Bash', kept), argsDigest('Bash', parse(plain)));
});

test('session_id, cwd and every other string field of a record go through the redactor before the log', async (t) => {
  await Evaluator.ready({ warmUp: false });
  const dir = aTempDir('exact-binding');
  t.after(() => removeDir(dir));
  const secret = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
  const log = new ActivityLog({
    path: join(dir, 'activity.jsonl'),
    key: Buffer.alloc(32, 1),
    maxBytes: 1 << 20,
    keep: 2,
  });
  const evaluator = new Evaluator({ stateDir: join(dir, 'state'), log, home: dir });
  const hooks = new HookService({ evaluator, failureDecision: () => 'deny' });
  const event = {
    session_id: `session-${secret}`,
    transcript_path: join(dir, 't.jsonl'),
    cwd: join(dir, `work-${secret}`),
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
  };
  await hooks.handle('claude', JSON.stringify(event), new AbortController().signal, true);
  await hooks.handle(
    'claude',
    JSON.stringify({ ...event, tool_input: 'not an object' }),
    new AbortController().signal,
    true,
  );
  log.close();
  const text = readFileSync(join(dir, 'activity.jsonl'), 'utf8');
  assert.equal(text.trim().split('\n').length, 2, 'a record and a failure record');
  assert.ok(!text.includes(secret), 'no field carries the secret');
  assert.match(text, /<redacted:/);
});
