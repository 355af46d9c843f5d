// The fake model on its own: what it streams and answers, without the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeModel, toolUseIdFor, type FakeModel } from './fake-model';

const script = {
  toolCalls: [
    { name: 'Bash', input: { command: 'rm -rf /tmp/x', description: 'Remove x' } },
    { name: 'Read', input: { file_path: 'a.txt' } },
  ],
  finalText: 'Finished.',
};
const tools = [{ name: 'Bash' }, { name: 'Read' }];

function toolResult(id: string, content: string): Record<string, unknown> {
  return { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] };
}

async function withModel(body: (model: FakeModel) => Promise<void>): Promise<void> {
  const model = await startFakeModel(script);
  try {
    await body(model);
  } finally {
    await model.close();
  }
}

interface ServerSentEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseEvents(text: string): ServerSentEvent[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim().length > 0)
    .map((frame) => {
      const event = /^event: (.+)$/m.exec(frame)?.[1];
      const data = /^data: (.+)$/m.exec(frame)?.[1];
      assert.ok(event !== undefined && data !== undefined, `malformed frame: ${frame}`);
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

async function postMessages(model: FakeModel, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${model.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

test('the fake model answers the reachability probe', () =>
  withModel(async (model) => {
    const response = await fetch(`${model.url}/`, { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(model.requests[0]?.kind, 'probe');
  }));

test('the fake model streams the first tool call as one input_json_delta', () =>
  withModel(async (model) => {
    const response = await postMessages(model, {
      model: 'claude-test',
      stream: true,
      tools,
      messages: [{ role: 'user', content: 'go' }],
    });
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const events = parseEvents(await response.text());
    assert.deepEqual(
      events.map((entry) => entry.event),
      [
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
    for (const entry of events) assert.equal(entry.data['type'], entry.event);
    assert.deepEqual(events[1]?.data['content_block'], {
      type: 'tool_use',
      id: toolUseIdFor(0),
      name: 'Bash',
      input: {},
    });
    const delta = events[2]?.data['delta'] as { type: string; partial_json: string };
    assert.equal(delta.type, 'input_json_delta');
    assert.deepEqual(JSON.parse(delta.partial_json), script.toolCalls[0]?.input);
    assert.deepEqual(events[4]?.data['delta'], { stop_reason: 'tool_use', stop_sequence: null });
  }));

test('the fake model moves to the next call per tool result, then ends the turn with text', () =>
  withModel(async (model) => {
    const firstDone = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: toolUseIdFor(0), name: 'Bash', input: {} }] },
      toolResult(toolUseIdFor(0), 'Denied: blocked by test'),
    ];
    const second = parseEvents(await (await postMessages(model, { stream: true, tools, messages: firstDone })).text());
    assert.deepEqual(second[1]?.data['content_block'], {
      type: 'tool_use',
      id: toolUseIdFor(1),
      name: 'Read',
      input: {},
    });

    const bothDone = [
      ...firstDone,
      { role: 'assistant', content: [{ type: 'tool_use', id: toolUseIdFor(1), name: 'Read', input: {} }] },
      toolResult(toolUseIdFor(1), 'contents'),
    ];
    const last = parseEvents(await (await postMessages(model, { stream: true, tools, messages: bothDone })).text());
    assert.deepEqual(last[2]?.data['delta'], { type: 'text_delta', text: 'Finished.' });
    assert.deepEqual(last[4]?.data['delta'], { stop_reason: 'end_turn', stop_sequence: null });

    assert.deepEqual(
      model.requests.map((request) => request.kind),
      ['agent-turn', 'agent-turn'],
    );
    assert.equal(model.requests[0]?.body?.messages.length, 3);
  }));

test('the fake model answers non-streaming and tool-less calls with a whole message', () =>
  withModel(async (model) => {
    const response = await postMessages(model, {
      model: 'claude-test',
      messages: [{ role: 'user', content: 'title?' }],
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body['type'], 'message');
    assert.equal(body['model'], 'claude-test');
    assert.equal(body['stop_reason'], 'end_turn');
    assert.deepEqual(body['content'], [{ type: 'text', text: 'Finished.' }]);
    assert.equal(model.requests[0]?.kind, 'side');

    const withTools = (await (
      await postMessages(model, { tools, messages: [{ role: 'user', content: 'go' }] })
    ).json()) as Record<string, unknown>;
    assert.equal(withTools['stop_reason'], 'tool_use');
  }));

test('the fake model counts tokens and refuses unknown routes', () =>
  withModel(async (model) => {
    const counted = await fetch(`${model.url}/v1/messages/count_tokens?beta=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-test', messages: [{ role: 'user', content: 'hello there' }] }),
    });
    assert.equal(counted.status, 200);
    const { input_tokens: inputTokens } = (await counted.json()) as { input_tokens: number };
    assert.ok(Number.isInteger(inputTokens) && inputTokens > 0);

    const unknown = await fetch(`${model.url}/v1/other`, { method: 'POST', body: '{}' });
    assert.equal(unknown.status, 404);
    assert.deepEqual(
      model.requests.map((request) => request.kind),
      ['count-tokens', 'unknown'],
    );
  }));
