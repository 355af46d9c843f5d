import type { IncomingMessage } from 'node:http';

export const DEFAULT_BODY_CAP = 16 * 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; problem: string; tooLarge?: boolean };

/** Reads a request body up to a cap; past the cap it stops buffering and says so. */
export function readBody(req: IncomingMessage, cap: number): Promise<BodyResult> {
  return new Promise((resolve) => {
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
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
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
