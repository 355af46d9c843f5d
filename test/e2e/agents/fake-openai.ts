// A fake OpenAI-style model API on loopback for the real Codex CLI (a custom
// model provider, Responses API) and Copilot CLI (COPILOT_PROVIDER_BASE_URL,
// Chat Completions). Both are streamed as server-sent events. While the
// conversation holds fewer tool results than scripted calls it answers with
// the next call; then it ends the turn with text. Every request is kept.
import { createServer, type Server } from 'node:http';

export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

export interface FakeOpenAi {
  /** Base URL including /v1. */
  url: string;
  requests: { path: string; body: Record<string, any> }[];
  /** The tool results the CLI sent back in its latest request. */
  toolResults(): string[];
  close(): Promise<void>;
}

function resultsOf(body: Record<string, any>): string[] {
  if (Array.isArray(body.input))
    return body.input
      .filter((i: any) => i?.type === 'function_call_output')
      .map((i: any) => (typeof i.output === 'string' ? i.output : JSON.stringify(i.output)));
  if (Array.isArray(body.messages))
    return body.messages
      .filter((m: any) => m?.role === 'tool')
      .map((m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
  return [];
}

function responsesStream(n: number, call: ScriptedCall | undefined): string {
  const events: string[] = [];
  const ev = (type: string, data: object) =>
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev('response.created', { response: { id: `resp_${n}` } });
  const item = call
    ? {
        type: 'function_call',
        id: `fc_${n}`,
        call_id: `call_${n}`,
        name: call.name,
        arguments: JSON.stringify(call.args),
      }
    : {
        type: 'message',
        id: `msg_${n}`,
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Finished the scripted calls.' }],
      };
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', {
    response: { id: `resp_${n}`, usage: { input_tokens: 5, output_tokens: 5, total_tokens: 10 } },
  });
  return events.join('');
}

function chatStream(n: number, call: ScriptedCall | undefined, model: string): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: `chatcmpl_${n}`, object: 'chat.completion.chunk', created: 1764590400, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const parts = call
    ? [
        chunk(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                index: 0,
                id: `call_${n}`,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.args) },
              },
            ],
          },
          null,
        ),
        chunk({}, 'tool_calls'),
      ]
    : [chunk({ role: 'assistant', content: 'Finished the scripted calls.' }, null), chunk({}, 'stop')];
  const usage = `data: ${JSON.stringify({ id: `chatcmpl_${n}`, object: 'chat.completion.chunk', created: 1764590400, model, choices: [], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } })}\n\n`;
  return parts.join('') + usage + 'data: [DONE]\n\n';
}

export async function startFakeOpenAi(calls: ScriptedCall[]): Promise<FakeOpenAi> {
  const requests: FakeOpenAi['requests'] = [];
  let counter = 0;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(text) as Record<string, any>;
      } catch {
        // GETs and probes carry no body
      }
      requests.push({ path, body });
      const n = ++counter;
      if (req.method === 'GET' && path.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ object: 'list', data: [{ id: 'gpt-5', object: 'model', created: 0, owned_by: 'fake' }] }),
        );
        return;
      }
      const next = calls[resultsOf(body).length];
      if (path.endsWith('/responses')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(responsesStream(n, next));
        return;
      }
      if (path.endsWith('/chat/completions')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(chatStream(n, next, String(body.model ?? 'gpt-5')));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"no such route in the fake model"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    toolResults: () => {
      const last = [...requests].reverse().find((r) => resultsOf(r.body).length > 0);
      return last ? resultsOf(last.body) : [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
