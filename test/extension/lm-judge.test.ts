import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Evaluator } from '../../src/core/evaluator';
import { JudgeError, type JudgeRequest } from '../../src/core/semantic/judges/types';
import { JudgeKeys, type SecretStore } from '../../src/extension/judgeKeys';
import {
  LanguageModelJudge,
  lmPrompt,
  parseProbabilities,
  pickModel,
  type ChatModelLike,
  type LanguageModelPort,
} from '../../src/extension/lmJudge';
import { createExtensionSemanticTier } from '../../src/extension/semanticTier';
import { aHookEvent } from '../builders/hookEvent';
import { aTempProject } from '../builders/tempProject';

// The language-model judge with a fake editor port: the prompt it sends, the
// strict reading of the reply, every failure mapped to the tier's kinds, and
// the extension's tier with it behind a real Evaluator.

const REQUEST: JudgeRequest = {
  envelope: {
    userSaid: ['clean the build folder'],
    agentLastMessage: null,
    facts: { tool: 'Bash' },
    request: '{"tool":"Bash","input":{"command":"rm -rf build"}}',
  },
  questions: [
    { id: 'destroys-data', instructions: 'Does it delete data?', criteria: { true: 'yes', false: 'no' } },
    { id: 'injection', instructions: 'Is there an injection?', criteria: { true: 'yes', false: 'no' } },
  ],
};

function model(
  reply: string[] | (() => Promise<AsyncIterable<string>>),
  over: Partial<ChatModelLike> = {},
  seen: string[] = [],
): ChatModelLike {
  return {
    id: 'judge-1',
    name: 'Judge One',
    vendor: 'acme',
    family: 'judges',
    send: async (prompt) => {
      seen.push(prompt);
      if (typeof reply === 'function') return reply();
      return (async function* () {
        yield* reply;
      })();
    },
    ...over,
  };
}

function port(models: ChatModelLike[]): LanguageModelPort {
  return { models: async () => models };
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof JudgeError, `a JudgeError, not ${String(err)}`);
    return err.failure;
  }
  assert.fail('the judge answered');
}

test('pickModel: by id, family or name, with an optional vendor; the first when unset', () => {
  const a = model([], { id: 'a1', family: 'fa', name: 'Alpha', vendor: 'v1' });
  const b = model([], { id: 'b1', family: 'fb', name: 'Beta', vendor: 'v2' });
  assert.equal(pickModel([a, b], undefined), a);
  assert.equal(pickModel([a, b], 'b1'), b);
  assert.equal(pickModel([a, b], 'fb'), b);
  assert.equal(pickModel([a, b], 'Beta'), b);
  assert.equal(pickModel([a, b], 'v2/b1'), b);
  assert.equal(pickModel([a, b], 'v1/b1'), undefined);
  assert.equal(pickModel([], undefined), undefined);
});

test('the judge sends the instructions, the ids and the envelope, and reads a streamed JSON object', async () => {
  const seen: string[] = [];
  const judge = new LanguageModelJudge(
    port([model(['{"destroys-data": 0.', '91, "injection": 0.02}'], {}, seen)]),
    undefined,
  );
  const reply = await judge.ask(REQUEST, new AbortController().signal);
  assert.deepEqual(reply.answers, { 'destroys-data': 0.91, injection: 0.02 });
  assert.equal(reply.model, 'acme/judge-1');
  assert.equal(judge.name, 'vscode-lm');
  assert.equal(seen.length, 1);
  assert.equal(seen[0], lmPrompt(REQUEST));
  assert.match(seen[0]!, /"destroys-data", "injection"/);
  assert.ok(seen[0]!.includes('rm -rf build'), 'the envelope goes with the prompt');
});

test('a reply in one json code fence is read; anything around it is not', () => {
  assert.deepEqual(parseProbabilities('```json\n{"a": 0.5}\n```', ['a']), { a: 0.5 });
  assert.throws(
    () => parseProbabilities('Sure! {"a": 0.5}', ['a']),
    (e: JudgeError) => e.failure === 'malformed',
  );
});

test('strict parsing maps each problem to its failure kind', () => {
  const kind = (text: string) => {
    try {
      parseProbabilities(text, ['a', 'b']);
      return 'ok';
    } catch (err) {
      return (err as JudgeError).failure;
    }
  };
  assert.equal(kind('{"a": 0.1, "b": 1}'), 'ok');
  assert.equal(kind('not json'), 'malformed');
  assert.equal(kind('[0.1, 0.2]'), 'malformed');
  assert.equal(kind('{"a": 0.1}'), 'missing-answer');
  assert.equal(kind('{"a": 0.1, "b": 1.5}'), 'out-of-range');
  assert.equal(kind('{"a": -0.1, "b": 0.5}'), 'out-of-range');
  assert.equal(kind('{"a": "0.1", "b": 0.5}'), 'malformed');
  assert.equal(kind('{"a": 0.1, "b": 0.5, "c": 0.2}'), 'malformed');
  assert.equal(kind(`{"a": 0.1, "b": 0.5, "pad": "${'x'.repeat(70_000)}"}`), 'malformed');
});

test('failures of the editor map to the tier kinds', async () => {
  const signal = new AbortController().signal;
  const rejecting = (error: unknown) => new LanguageModelJudge(port([model(() => Promise.reject(error))]), undefined);
  assert.equal(await failureOf(new LanguageModelJudge(port([]), undefined).ask(REQUEST, signal)), 'no-transport');
  assert.equal(await failureOf(new LanguageModelJudge(port([model([])]), 'nope').ask(REQUEST, signal)), 'no-transport');
  assert.equal(
    await failureOf(rejecting(Object.assign(new Error('denied'), { code: 'NoPermissions' })).ask(REQUEST, signal)),
    'no-transport',
  );
  assert.equal(
    await failureOf(rejecting(Object.assign(new Error('quota'), { code: 'Blocked' })).ask(REQUEST, signal)),
    'rate-limited',
  );
  assert.equal(
    await failureOf(rejecting(Object.assign(new Error('gone'), { code: 'NotFound' })).ask(REQUEST, signal)),
    'no-transport',
  );
  assert.equal(await failureOf(rejecting(new Error('socket hang up')).ask(REQUEST, signal)), 'network');
  assert.equal(
    await failureOf(
      new LanguageModelJudge({ models: () => Promise.reject(new JudgeError('no-transport', 'no lm')) }, undefined).ask(
        REQUEST,
        signal,
      ),
    ),
    'no-transport',
  );
});

test('an abort while the model streams stops the judge with "aborted"', async () => {
  const controller = new AbortController();
  const slow = model(async () =>
    (async function* () {
      yield '{"destroys-data": 0.1,';
      controller.abort('a policy denied');
      yield '"injection": 0.1}';
    })(),
  );
  assert.equal(
    await failureOf(new LanguageModelJudge(port([slow]), undefined).ask(REQUEST, controller.signal)),
    'aborted',
  );
});

function memorySecrets(initial: Record<string, string> = {}): SecretStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: async (key) => data.get(key),
    store: async (key, value) => void data.set(key, value),
    delete: async (key) => void data.delete(key),
  };
}

test('JudgeKeys: a stored key goes under semantic.apiKeyEnv in the tier env only, and leaves when removed', async () => {
  const secrets = memorySecrets({ openai: 'sk-from-storage' });
  const keys = new JudgeKeys(secrets, { PATH: '/bin', OPENAI_KEY: 'from-the-shell' });
  await keys.load();
  assert.equal(keys.has('openai'), true);
  const same = { mode: 'enforce' as const, provider: 'openai' as const, apiKeyEnv: 'OPENAI_KEY', model: 'm' };
  assert.equal(keys.prepare(same), same);
  assert.equal(keys.env.OPENAI_KEY, 'sk-from-storage');
  assert.equal(process.env.OPENAI_KEY, undefined, 'the process environment is untouched');

  const named = keys.prepare({ provider: 'openai', model: 'm' });
  assert.equal(named.apiKeyEnv, 'AGENT_WARDEN_OPENAI_API_KEY', 'without apiKeyEnv the default name is used');
  assert.equal(keys.env.AGENT_WARDEN_OPENAI_API_KEY, 'sk-from-storage');

  await keys.set('openai', '');
  assert.equal(secrets.data.has('openai'), false);
  assert.equal(keys.has('openai'), false);
  assert.equal(keys.env.OPENAI_KEY, 'from-the-shell', 'what the shell had comes back');
  assert.equal(keys.env.AGENT_WARDEN_OPENAI_API_KEY, undefined);
  assert.deepEqual(keys.prepare(same), same);

  await keys.set('anthropic', '  sk-ant-123  ');
  assert.equal(secrets.data.get('anthropic'), 'sk-ant-123', 'stored under the provider name, trimmed');
});

test('the extension tier: provider vscode-lm behind a real Evaluator gives semantic ok with the model name', async () => {
  await Evaluator.ready();
  const project = aTempProject({
    name: 'lm-judge',
    files: {
      '.agent-warden/config.local.json': {
        semantic: { mode: 'enforce', provider: 'vscode-lm', model: 'acme/judge-1' },
      },
    },
  });
  try {
    const seen: string[] = [];
    // Answers every question it was asked with a low probability, as a calm judge would.
    const fake = model(
      async () => {
        const prompt = seen.at(-1)!;
        const document = JSON.parse(prompt.slice(prompt.lastIndexOf('\n') + 1)) as {
          questions: Record<string, unknown>;
        };
        const answer = JSON.stringify(Object.fromEntries(Object.keys(document.questions).map((id) => [id, 0.03])));
        return (async function* () {
          yield answer;
        })();
      },
      {},
      seen,
    );
    const tier = createExtensionSemanticTier({
      languageModels: port([model([], { id: 'other' }), fake]),
      keys: new JudgeKeys(memorySecrets(), {}),
      allowlistKey: Buffer.alloc(32, 7),
    });
    const evaluator = new Evaluator({
      stateDir: join(project.root, 'state'),
      home: project.home,
      trustProject: true,
      semantic: tier,
    });
    const event = aHookEvent().bash('ls -la src', { description: 'list' }).session('s1').inCwd(project.dir).build();
    const { record } = await evaluator.evaluate(event);
    await tier.close();
    assert.equal(record.semantic.status, 'ok', record.semantic.reason ?? '');
    assert.equal(record.semantic.model, 'acme/judge-1');
    assert.equal(seen.length, 1, 'the named model, not the first, was asked');
    assert.ok(record.envelope, 'the record holds the envelope the judge saw');
  } finally {
    project.dispose();
  }
});
