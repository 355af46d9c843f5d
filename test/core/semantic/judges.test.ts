// The judge clients against a fake judge on loopback: the exact bytes each protocol sends, how each
// reply is read, keep-alive reuse, and aborts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SystemoneJudge } from '../../../src/core/semantic/judges/systemone';
import { OpenAiJudge } from '../../../src/core/semantic/judges/openai';
import { AnthropicJudge, ANTHROPIC_VERSION } from '../../../src/core/semantic/judges/anthropic';
import { REVIEWER_INSTRUCTIONS } from '../../../src/core/semantic/judges/prompt';
import { JudgeError, type JudgeRequest } from '../../../src/core/semantic/judges/types';
import { INJECTION_QUESTION, TASK_QUESTIONS } from '../../../src/core/semantic/questions';
import { FakeJudgeServer, sendJson } from './helpers';

let fake: FakeJudgeServer;
before(async () => {
  fake = await FakeJudgeServer.start();
});
after(async () => {
  await fake.close();
});

const request: JudgeRequest = {
  envelope: {
    userSaid: ['delete the build folder'],
    agentLastMessage: 'Deleting it.',
    facts: { tool: 'Bash', family: 'shell', targetScanComplete: true },
    request: '{"tool":"Bash","input":{"command":"rm -rf build"}}',
    comments: [],
  },
  questions: [INJECTION_QUESTION, TASK_QUESTIONS[0]!],
};

const expectedQuestionsDoc = {
  injection: { instructions: INJECTION_QUESTION.instructions, criteria: INJECTION_QUESTION.criteria },
  'task-step': { instructions: TASK_QUESTIONS[0]!.instructions, criteria: TASK_QUESTIONS[0]!.criteria },
};

test('systemone: POST with a bearer key, the envelope as state, each question a noul; the reply read per id', async () => {
  fake.behaviour = (_req, res) =>
    sendJson(res, {
      model: 'jev-1.13.0',
      answers: { injection: { noul: 0.03 }, 'task-step': { noul: 0.91 } },
      usage: { input_tokens: 812 },
    });
  const judge = new SystemoneJudge({ url: fake.url('/v1/judge?x=1'), apiKey: 'judge-key-1' });
  try {
    const reply = await judge.ask(request, new AbortController().signal);
    assert.deepEqual(reply, {
      answers: { injection: 0.03, 'task-step': 0.91 },
      model: 'jev-1.13.0',
      usage: { inputTokens: 812 },
    });
    const captured = fake.requests.at(-1)!;
    assert.equal(captured.path, '/v1/judge?x=1');
    assert.equal(captured.headers.authorization, 'Bearer judge-key-1');
    assert.equal(captured.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(captured.body.toString('utf8')), {
      model: 'jev-1.13.0',
      state: request.envelope,
      questions: {
        injection: {
          type: 'noul',
          instructions: INJECTION_QUESTION.instructions,
          criteria: INJECTION_QUESTION.criteria,
        },
        'task-step': {
          type: 'noul',
          instructions: TASK_QUESTIONS[0]!.instructions,
          criteria: TASK_QUESTIONS[0]!.criteria,
        },
      },
    });
  } finally {
    await judge.close();
  }
});

test('openai-compatible: chat completions with a strict json_schema of one number per question', async () => {
  fake.behaviour = (_req, res) =>
    sendJson(res, {
      id: 'c1',
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content: '{"injection":0.1,"task-step":0.8}' } }],
      usage: { prompt_tokens: 900, completion_tokens: 12 },
    });
  const judge = new OpenAiJudge({ url: fake.url('/v1/chat/completions'), model: 'gpt-test', apiKey: 'judge-key-2' });
  try {
    const reply = await judge.ask(request, new AbortController().signal);
    assert.deepEqual(reply, {
      answers: { injection: 0.1, 'task-step': 0.8 },
      model: 'gpt-test',
      usage: { inputTokens: 900, outputTokens: 12 },
    });
    const captured = fake.requests.at(-1)!;
    assert.equal(captured.headers.authorization, 'Bearer judge-key-2');
    assert.deepEqual(JSON.parse(captured.body.toString('utf8')), {
      model: 'gpt-test',
      temperature: 0,
      messages: [
        { role: 'system', content: REVIEWER_INSTRUCTIONS },
        { role: 'user', content: JSON.stringify({ envelope: request.envelope, questions: expectedQuestionsDoc }) },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'probabilities',
          strict: true,
          schema: {
            type: 'object',
            properties: {
              injection: { type: 'number', description: 'probability (0 to 1) for question injection' },
              'task-step': { type: 'number', description: 'probability (0 to 1) for question task-step' },
            },
            required: ['injection', 'task-step'],
            additionalProperties: false,
          },
        },
      },
    });
  } finally {
    await judge.close();
  }
});

test('anthropic: Messages API with x-api-key and anthropic-version; the JSON object read from the text block', async () => {
  fake.behaviour = (_req, res) =>
    sendJson(res, {
      id: 'm1',
      type: 'message',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Here you go:\n```json\n{"injection": 0.05, "task-step": 0.7}\n```' }],
      usage: { input_tokens: 700, output_tokens: 20 },
    });
  const judge = new AnthropicJudge({ url: fake.url('/v1/messages'), model: 'claude-test', apiKey: 'judge-key-3' });
  try {
    const reply = await judge.ask(request, new AbortController().signal);
    assert.deepEqual(reply, {
      answers: { injection: 0.05, 'task-step': 0.7 },
      model: 'claude-test',
      usage: { inputTokens: 700, outputTokens: 20 },
    });
    const captured = fake.requests.at(-1)!;
    assert.equal(captured.headers['x-api-key'], 'judge-key-3');
    assert.equal(captured.headers['anthropic-version'], ANTHROPIC_VERSION);
    assert.equal(captured.headers.authorization, undefined);
    assert.deepEqual(JSON.parse(captured.body.toString('utf8')), {
      model: 'claude-test',
      max_tokens: 64 + 24 * 2,
      temperature: 0,
      system: REVIEWER_INSTRUCTIONS,
      messages: [
        { role: 'user', content: JSON.stringify({ envelope: request.envelope, questions: expectedQuestionsDoc }) },
      ],
    });
  } finally {
    await judge.close();
  }
});

test('replies of the wrong shape are malformed, naming what is wrong', async () => {
  const judge = new SystemoneJudge({ url: fake.url('/judge') });
  try {
    fake.behaviour = (_req, res) => sendJson(res, { model: 'jev', answers: { injection: 0.2 } });
    await assert.rejects(
      judge.ask(request, new AbortController().signal),
      (err: JudgeError) => err.failure === 'malformed' && /answers\.injection/.test(err.message),
    );
    fake.behaviour = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"model": "jev", "answers": ');
    };
    await assert.rejects(
      judge.ask(request, new AbortController().signal),
      (err: JudgeError) => err.failure === 'malformed' && /not valid JSON/.test(err.message),
    );
    fake.behaviour = (_req, res) => {
      res.writeHead(503).end('busy');
    };
    await assert.rejects(
      judge.ask(request, new AbortController().signal),
      (err: JudgeError) => err.failure === 'http' && /HTTP 503/.test(err.message),
    );
  } finally {
    await judge.close();
  }
  const chat = new OpenAiJudge({ url: fake.url('/chat'), model: 'm' });
  try {
    fake.behaviour = (_req, res) => sendJson(res, { choices: [{ message: { content: 'I think it is fine.' } }] });
    await assert.rejects(
      chat.ask(request, new AbortController().signal),
      (err: JudgeError) => err.failure === 'malformed',
    );
    fake.behaviour = (_req, res) =>
      sendJson(res, { choices: [{ message: { content: null, refusal: 'I cannot help' } }] });
    await assert.rejects(
      chat.ask(request, new AbortController().signal),
      (err: JudgeError) => err.failure === 'malformed' && /refused/.test(err.message),
    );
  } finally {
    await chat.close();
  }
});

test('calls reuse kept-alive pooled connections', async () => {
  fake.behaviour = (_req, res) => {
    sendJson(res, { model: 'jev', answers: { injection: { noul: 0 }, 'task-step': { noul: 1 } } });
  };
  const sockets = new Set<number>();
  const judge = new SystemoneJudge({ url: fake.url('/judge') });
  try {
    const before = fake.requests.length;
    for (let i = 0; i < 5; i++) await judge.ask(request, new AbortController().signal);
    assert.equal(fake.requests.length - before, 5);
    for (const r of fake.requests.slice(before)) sockets.add(r.socketId);
    // Sequential calls may alternate between two idle pooled sockets, but never open one per call.
    assert.ok(
      sockets.size <= 2,
      `sockets used: ${fake.requests
        .slice(before)
        .map((r) => r.socketId)
        .join(',')}`,
    );
  } finally {
    await judge.close();
  }
});

test('an abort stops the call at once; a slow judge times out', async () => {
  fake.behaviour = (_req, res) => {
    setTimeout(() => sendJson(res, { model: 'jev', answers: {} }), 2_000).unref();
  };
  const judge = new SystemoneJudge({ url: fake.url('/slow'), timeoutMs: 150 });
  try {
    const controller = new AbortController();
    const asked = judge.ask(request, controller.signal);
    setTimeout(() => controller.abort('a policy denied'), 20);
    await assert.rejects(asked, (err: JudgeError) => err.failure === 'aborted' && /a policy denied/.test(err.message));
    await assert.rejects(
      judge.ask(request, new AbortController().signal),
      (err: JudgeError) => err.failure === 'timeout' && /150 ms/.test(err.message),
    );
  } finally {
    await judge.close();
  }
});

test('an unusable URL is no transport', () => {
  assert.throws(
    () => new SystemoneJudge({ url: 'not a url' }),
    (err: JudgeError) => err.failure === 'no-transport',
  );
  assert.throws(
    () => new SystemoneJudge({ url: 'ftp://127.0.0.1/x' }),
    (err: JudgeError) => err.failure === 'no-transport',
  );
});
