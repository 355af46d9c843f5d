// Shared by the semantic suites: the call a policy sees, transcripts in Claude Code's own shape,
// and a fake judge server on loopback that records every request's exact bytes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyzeShell, initShellParser } from '../../../src/core/shell';
import { FaceBook } from '../../../src/core/config/faces';
import { toolCallOf } from '../../../src/core/policies/call';
import type { ToolCall } from '../../../src/core/policies/types';
import type { HookEvent } from '../../../src/core/types';

let warmed: Promise<void> | undefined;

/**
 * Loads the shell parser and warms it: V8 tiers up the bash grammar's WebAssembly after the first
 * parses, and the event loop stalls for seconds at its next turn while that compiles (measured:
 * 5 to 9 s on a 2-core machine). Paying it here keeps the judge timeouts in the tests meaningful.
 */
export function ready(): Promise<void> {
  warmed ??= (async () => {
    await initShellParser();
    for (let round = 0; round < 3; round++) {
      analyzeShell(
        'cd /tmp && export A=1 && git status --short | grep -v x > out.txt 2>&1; for f in *.log; do rm -f "$f"; done # done',
      );
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  return warmed;
}

export function callFor(event: HookEvent, projectRoot: string, home: string): ToolCall {
  const call = toolCallOf(event, { projectRoot, home, faces: new FaceBook(new Map()) });
  if (!call) throw new Error('not a tool event');
  return call;
}

// Transcript lines in the shape Claude Code 2.1.197 writes them (see test/fixtures).
const common = {
  userType: 'external',
  entrypoint: 'sdk-cli',
  cwd: '/home/dev/proj',
  sessionId: 's',
  version: '2.1.197',
  gitBranch: 'HEAD',
};
export const line = {
  human: (text: string): object => ({
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    uuid: 'u',
    ...common,
  }),
  humanBlocks: (...texts: string[]): object => ({
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: texts.map((text) => ({ type: 'text', text })) },
    ...common,
  }),
  toolResult: (content: string): object => ({
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content, is_error: false }] },
    ...common,
  }),
  meta: (text: string): object => ({
    isSidechain: false,
    isMeta: true,
    type: 'user',
    message: { role: 'user', content: text },
    ...common,
  }),
  sidechainHuman: (text: string): object => ({
    isSidechain: true,
    type: 'user',
    message: { role: 'user', content: text },
    ...common,
  }),
  assistantText: (id: string, text: string): object => ({
    isSidechain: false,
    type: 'assistant',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text }],
      stop_reason: 'tool_use',
    },
    ...common,
  }),
  toolUse: (id: string, name: string, input: object): object => ({
    isSidechain: false,
    type: 'assistant',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'tool_use', id: 'toolu_1', name, input }],
      stop_reason: 'tool_use',
    },
    ...common,
  }),
  queue: (content: string): object => ({ type: 'queue-operation', operation: 'enqueue', content }),
};

export function jsonl(lines: object[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

export interface CapturedRequest {
  path: string;
  /** Which connection it came over (1, 2, …), to see keep-alive reuse. */
  socketId: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type FakeBehaviour = (req: CapturedRequest, res: ServerResponse) => void | Promise<void>;

/** A judge on 127.0.0.1:0; each test sets what it answers. */
export class FakeJudgeServer {
  readonly requests: CapturedRequest[] = [];
  behaviour: FakeBehaviour = (_req, res) => {
    res.writeHead(500).end();
  };
  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeJudgeServer> {
    let fake: FakeJudgeServer | undefined;
    const socketIds = new WeakMap<object, number>();
    let sockets = 0;
    const server = createServer((req, res) => {
      if (!socketIds.has(req.socket)) socketIds.set(req.socket, ++sockets);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const captured = {
          path: req.url ?? '',
          socketId: socketIds.get(req.socket) ?? 0,
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        fake!.requests.push(captured);
        void Promise.resolve(fake!.behaviour(captured, res)).catch(() => res.destroy());
      });
    });
    fake = new FakeJudgeServer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  lastJson(): Record<string, unknown> {
    const last = this.requests[this.requests.length - 1];
    if (!last) throw new Error('the fake judge received no request');
    return JSON.parse(last.body.toString('utf8')) as Record<string, unknown>;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

/** Answers the systemone protocol: every asked question gets `answerFor(id)`. */
export function systemoneAnswers(answerFor: (id: string) => number | undefined, model = 'jev-1.13.0'): FakeBehaviour {
  return (req, res) => {
    const body = JSON.parse(req.body.toString('utf8')) as { questions: Record<string, unknown> };
    const answers: Record<string, { noul: number }> = {};
    for (const id of Object.keys(body.questions)) {
      const p = answerFor(id);
      if (p !== undefined) answers[id] = { noul: p };
    }
    sendJson(res, { model, answers, usage: { input_tokens: 812 } });
  };
}
