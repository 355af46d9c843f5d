// A fake Gemini API on loopback for the real Gemini CLI (GOOGLE_GEMINI_BASE_URL):
// POST /v1beta/models/M:streamGenerateContent?alt=sse answers with server-sent
// events of GenerateContentResponse chunks. While the conversation holds fewer
// function responses than scripted calls it answers with the next call;
// then it ends the turn with text. It keeps every request for the test to read.
import { createServer, type Server } from 'node:http';

export interface FakeGemini {
  url: string;
  /** Every generate request body, parsed. */
  requests: Record<string, any>[];
  close(): Promise<void>;
}

function functionResponses(body: Record<string, any>): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  for (const content of body.contents ?? [])
    for (const part of content.parts ?? []) if (part.functionResponse) out.push(part.functionResponse);
  return out;
}

/** The function responses the CLI sent back (what each tool call gave the model). */
export function toolResults(model: FakeGemini): Record<string, any>[] {
  const last = model.requests.at(-1);
  return last ? functionResponses(last) : [];
}

export async function startFakeGemini(calls: { name: string; args: Record<string, unknown> }[]): Promise<FakeGemini> {
  const requests: Record<string, any>[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      if (req.url?.includes(':countTokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"totalTokens":10}');
        return;
      }
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(text) as Record<string, any>;
      } catch {
        // an empty or odd request still gets an answer
      }
      requests.push(body);
      const done = functionResponses(body).length;
      const next = calls[done];
      const part = next
        ? { functionCall: { name: next.name, args: next.args } }
        : { text: 'Finished the scripted calls.' };
      const chunk = {
        candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 },
      };
      if (req.url?.includes('alt=sse')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(chunk)}\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(chunk));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
