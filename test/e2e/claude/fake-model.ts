// A scripted stand-in for the Anthropic API that the real Claude Code CLI talks
// to in end-to-end tests: it asks for the script's tool calls one per turn, then
// ends the turn with text, and keeps every request so tests can read what the
// agent sent back (tool results, denial reasons).
import { listenOnLoopback } from './loopback';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  messagesRequestSchema,
  streamedMessageEvents,
  toolResultsOf,
  wholeMessageBody,
  type AssistantMessage,
  type MessagesRequest,
} from './anthropic-wire';

export interface FakeToolCall {
  name: string;
  input: Record<string, unknown>;
}

export interface FakeModelScript {
  /** Asked for in order, one per turn. */
  toolCalls: readonly FakeToolCall[];
  /** The text that ends the conversation once every tool call has a result. */
  finalText: string;
}

/**
 * agent-turn: a main-loop call (it offers tools); side: a call without tools,
 * such as title generation; count-tokens; probe: the CLI's reachability check.
 */
export type RequestKind = 'agent-turn' | 'side' | 'count-tokens' | 'probe' | 'unknown';

export interface CapturedRequest {
  kind: RequestKind;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed Messages request, for agent-turn and side calls. */
  body: MessagesRequest | null;
}

export interface FakeModel {
  url: string;
  requests: CapturedRequest[];
  close(): Promise<void>;
}

const maxBodyBytes = 32 * 1024 * 1024;

export function toolUseIdFor(callIndex: number): string {
  return `toolu_e2e_${String(callIndex).padStart(3, '0')}`;
}

/** The reply a script gives to one main-loop request. */
export function nextAssistantMessage(
  script: FakeModelScript,
  request: MessagesRequest,
  messageId: string,
): AssistantMessage {
  const model = request.model ?? 'claude-fake';
  const done = toolResultsOf(request).length;
  const call = script.toolCalls[done];
  if (call === undefined) {
    return { id: messageId, model, blocks: [{ type: 'text', text: script.finalText }], stopReason: 'end_turn' };
  }
  return {
    id: messageId,
    model,
    blocks: [{ type: 'tool_use', id: toolUseIdFor(done), name: call.name, input: call.input }],
    stopReason: 'tool_use',
  };
}

function classify(method: string, path: string, body: MessagesRequest | null): RequestKind {
  if (method === 'HEAD') return 'probe';
  if (method !== 'POST') return 'unknown';
  if (path === '/v1/messages/count_tokens') return 'count-tokens';
  if (path !== '/v1/messages' || body === null) return 'unknown';
  return (body.tools?.length ?? 0) > 0 ? 'agent-turn' : 'side';
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new Error('request body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseMessagesRequest(rawBody: string): MessagesRequest | null {
  try {
    const parsed = messagesRequestSchema.safeParse(JSON.parse(rawBody));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function sendMessage(response: ServerResponse, message: AssistantMessage, stream: boolean): void {
  if (!stream) {
    sendJson(response, 200, wholeMessageBody(message));
    return;
  }
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const event of streamedMessageEvents(message)) response.write(event);
  response.end();
}

export async function startFakeModel(script: FakeModelScript): Promise<FakeModel> {
  const requests: CapturedRequest[] = [];
  let messageCount = 0;

  const server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://fake-model').pathname;
    readBody(request).then(
      (rawBody) => {
        const body = path.startsWith('/v1/messages') ? parseMessagesRequest(rawBody) : null;
        const kind = classify(method, path, body);
        requests.push({ kind, method, path, headers: request.headers, rawBody, body });
        messageCount += 1;
        const messageId = `msg_e2e_${messageCount}`;
        switch (kind) {
          case 'probe':
            response.writeHead(200).end();
            return;
          case 'count-tokens':
            sendJson(response, 200, { input_tokens: Math.max(1, Math.ceil(rawBody.length / 4)) });
            return;
          case 'agent-turn':
            if (body === null) break;
            sendMessage(response, nextAssistantMessage(script, body, messageId), body.stream === true);
            return;
          case 'side':
            if (body === null) break;
            sendMessage(
              response,
              {
                id: messageId,
                model: body.model ?? 'claude-fake',
                blocks: [{ type: 'text', text: script.finalText }],
                stopReason: 'end_turn',
              },
              body.stream === true,
            );
            return;
          case 'unknown':
            break;
        }
        sendJson(response, 404, {
          type: 'error',
          error: { type: 'not_found_error', message: `no fake for ${method} ${path}` },
        });
      },
      () => {
        if (!response.headersSent)
          sendJson(response, 400, {
            type: 'error',
            error: { type: 'invalid_request_error', message: 'unreadable body' },
          });
      },
    );
  });

  return { ...(await listenOnLoopback(server)), requests };
}

/** The main-loop requests, in the order the CLI sent them. */
export function agentTurns(model: Pick<FakeModel, 'requests'>): MessagesRequest[] {
  return model.requests.flatMap((request) => (request.kind === 'agent-turn' && request.body ? [request.body] : []));
}
