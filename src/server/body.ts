import type { IncomingMessage } from 'node:http';

export const DEFAULT_BODY_CAP = 16 * 1024 * 1024;

export type BodyResult =
  { ok: true; text: string } | { ok: false; problem: string; tooLarge?: boolean; stalled?: boolean };

/**
 * Reads a request body up to a cap; past the cap it stops buffering and says so.
 * With a timeout, a body that has not fully arrived in time is given up on: the
 * server's own request timeout is off so held asks can wait for a person, and a
 * sender that stalls mid-body must not hold a connection open forever.
 */
export function readBody(req: IncomingMessage, cap: number, timeoutMs?: number): Promise<BodyResult> {
  return new Promise((outerResolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const resolve = (result: BodyResult) => {
      if (timer) clearTimeout(timer);
      outerResolve(result);
    };
    if (timeoutMs !== undefined)
      timer = setTimeout(() => {
        if (done) return;
        done = true;
        chunks.length = 0;
        req.pause();
        resolve({ ok: false, stalled: true, problem: `the request body did not arrive within ${timeoutMs / 1000} s` });
      }, timeoutMs);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) {
      req.resume();
      resolve({
        ok: false,
        tooLarge: true,
        problem: `the request body (${declared} bytes) is over the ${cap}-byte limit`,
      });
      return;
    }
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > cap) {
        done = true;
        chunks.length = 0;
        resolve({ ok: false, tooLarge: true, problem: `the request body is over the ${cap}-byte limit` });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const buffer = Buffer.concat(chunks);
      const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
      try {
        resolve({ ok: true, text: text.decode(buffer) });
      } catch {
        resolve({ ok: false, problem: 'the request body is not valid UTF-8' });
      }
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      resolve({ ok: false, problem: `the request body could not be read (${err.message})` });
    });
  });
}
