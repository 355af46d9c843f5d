// A call and its result cross to and from the evaluation worker as JSON text rather than a structured
// clone: for every call of the corpora, both reach the other side exactly as a clone would have.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { defaultConfig } from '../../../src/core/config/load';
import { runDeterministic, type DeterministicInput } from '../../../src/core/deterministic/run';
import { inputFromWire, inputToWire, resultFromWire, resultToWire } from '../../../src/core/deterministic/wire';
import { NO_FACT_SOURCE } from '../../../src/core/facts/io';
import { fixedSessionWrites } from '../../../src/core/facts/session-writes';
import { ALL_POLICIES } from '../../../src/core/policies/registry';
import { resolvePolicyStates } from '../../../src/core/policies/run';
import { aHookEvent } from '../../builders/hookEvent';
import { HOME, ready, ROOT, STATE_DIR } from '../policies/harness';

const CORPUS = join(process.cwd(), 'test', 'fixtures', 'corpus');

function corpusCalls(): { tool_name: string; tool_input: Record<string, unknown> }[] {
  const files = [
    ...readdirSync(CORPUS).map((name) => join(CORPUS, name)),
    ...readdirSync(join(CORPUS, 'independent')).map((name) => join(CORPUS, 'independent', name)),
  ].filter((file) => file.endsWith('.jsonl'));
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { tool_name: string; tool_input: Record<string, unknown> }),
  );
}

const cloned = <T>(value: T): T => deserialize(serialize(value)) as T;

before(ready);

test('every corpus call and its result cross the thread boundary as JSON exactly as a clone', () => {
  const config = defaultConfig();
  const states = resolvePolicyStates(ALL_POLICIES, config);
  const calls = corpusCalls();
  assert.ok(calls.length > 1000, `${calls.length} corpus calls`);
  let withCall = 0;
  const written = fixedSessionWrites([`${ROOT}/run.sh`]);
  for (const [index, c] of calls.entries()) {
    const event = aHookEvent().tool(c.tool_name, c.tool_input).inCwd(ROOT).session(`wire-${index}`).build();
    const input: DeterministicInput = {
      event,
      projectRoot: ROOT,
      home: HOME,
      stateDir: STATE_DIR,
      session: [['taint\u0000sources', [{ what: 'a read of ~/.ssh/id_rsa', at: 1 }]]],
      sessionKey: `claude:wire-${index}`,
      wholeCall: true,
    };
    assert.deepEqual(inputFromWire(inputToWire(input)), cloned(input), `input of ${JSON.stringify(c)}`);
    const result = runDeterministic(inputFromWire(inputToWire(input)), config, states, NO_FACT_SOURCE, written);
    const viaJson = resultFromWire(resultToWire(result));
    const { call, ...rest } = result;
    const { call: jsonCall, ...jsonRest } = viaJson;
    assert.deepEqual(jsonRest, cloned(rest), `result of ${JSON.stringify(c)}`);
    if (call) {
      withCall++;
      const { io, ...plain } = call;
      assert.deepEqual(jsonCall?.io.records, io.records);
      const { io: _io, ...jsonPlain } = jsonCall!;
      void _io;
      assert.deepEqual(jsonPlain, cloned(plain), `call of ${JSON.stringify(c)}`);
    }
  }
  assert.ok(withCall > 1000);
});

test('without the whole call, only the files a call writes and what stayed unread come back, as the whole call has them', () => {
  const config = defaultConfig();
  const states = resolvePolicyStates(ALL_POLICIES, config);
  const cases: [string, Record<string, unknown>, { written: string[]; unread: boolean }][] = [
    [
      'Bash',
      { command: 'echo hi > out.txt && cp a.txt /tmp/b.txt' },
      { written: [`${ROOT}/out.txt`, '/tmp/b.txt'], unread: false },
    ],
    ['Bash', { command: 'eval "$PAYLOAD"' }, { written: [], unread: true }],
    [
      'Write',
      { file_path: `${ROOT}/src/a.ts`, content: 'export {};\n' },
      { written: [`${ROOT}/src/a.ts`], unread: false },
    ],
    ['Read', { file_path: `${ROOT}/README.md` }, { written: [], unread: false }],
  ];
  for (const [tool, toolInput, expected] of cases) {
    const event = aHookEvent().tool(tool, toolInput).inCwd(ROOT).build();
    const base = { event, projectRoot: ROOT, home: HOME, stateDir: STATE_DIR, session: [], sessionKey: 'claude:read' };
    const whole = runDeterministic(
      { ...base, wholeCall: true },
      config,
      states,
      NO_FACT_SOURCE,
      fixedSessionWrites([]),
    );
    const slim = resultFromWire(
      resultToWire(
        runDeterministic({ ...base, wholeCall: false }, config, states, NO_FACT_SOURCE, fixedSessionWrites([])),
      ),
    );
    assert.equal(slim.call, undefined, `${tool} ${JSON.stringify(toolInput)}: no whole call crosses`);
    assert.deepEqual(slim.read, whole.read, `${tool} ${JSON.stringify(toolInput)}: the same read`);
    assert.deepEqual(slim.outcomes, whole.outcomes);
    assert.deepEqual(slim.read?.written, expected.written, `${tool} ${JSON.stringify(toolInput)}: written`);
    assert.equal((slim.read?.unread.length ?? 0) > 0, expected.unread, `${tool} ${JSON.stringify(toolInput)}: unread`);
    assert.deepEqual(
      slim.read?.unread,
      whole.call?.facts.unread.map(({ reason, detail }) => ({ reason, detail })),
    );
  }
});
