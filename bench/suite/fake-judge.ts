import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake judge in a process of its own (its work must not count as Warden's): it answers every
// question "not likely" after a fixed delay and counts the requests it got.

export const FAKE_JUDGE_FLAG = '--fake-judge';

/** The child's side: `node bundle --fake-judge <delayMs>`. */
export function serveFakeJudge(delayMs: number): void {
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { questions?: Record<string, unknown> };
      const text = JSON.stringify({
        model: 'bench-fake-judge',
        answers: Object.fromEntries(Object.keys(body.questions ?? {}).map((id) => [id, { noul: 0.05 }])),
      });
      setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
            .end(text),
        delayMs,
      );
    });
  });
  process.on('message', (message) => {
    if (message === 'count') process.send?.({ requests });
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}

export interface FakeJudge {
  url: string;
  requests(): Promise<number>;
  stop(): void;
}

export function startFakeJudge(delayMs: number): Promise<FakeJudge> {
  const child = fork(__filename, [FAKE_JUDGE_FLAG, String(delayMs)], { stdio: 'inherit' });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('message', (message) => {
      const { port } = message as { port: number };
      done({
        url: `http://127.0.0.1:${port}/judge`,
        requests: () =>
          new Promise((answer) => {
            child.once('message', (reply) => answer((reply as { requests: number }).requests));
            child.send('count');
          }),
        stop: () => child.kill(),
      });
    });
  });
}
