// POSTs JSON to a judge over a pooled keep-alive connection, with a per-call timeout and an abort.
import { Pool, request } from 'undici';
import { JudgeError } from './types';

export const DEFAULT_TIMEOUT_MS = 3_000;
/** A judge's reply is a few hundred bytes; anything past this is not a reply. */
export const MAX_REPLY_BYTES = 1024 * 1024;

export class JsonPoster {
  private readonly pool: Pool;
  private readonly path: string;
  readonly url: string;

  constructor(
    url: string,
    private readonly timeoutMs: number = DEFAULT_TIMEOUT_MS,
    /** Who answers and which setting names it, for the messages of failures. */
    private readonly who: { name: string; setting: string; call: string } = {
      name: 'the judge',
      setting: 'semantic.url',
      call: 'the judge call',
    },
    private readonly maxReplyBytes: number = MAX_REPLY_BYTES,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new JudgeError('no-transport', `${who.setting} is not a valid URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new JudgeError('no-transport', `${who.setting} must be http or https, not ${parsed.protocol}`);
    this.url = url;
    this.path = `${parsed.pathname}${parsed.search}`;
    this.pool = new Pool(parsed.origin, { connections: 8, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
  }

  /** Sends the body, returns the parsed JSON of a 2xx reply; every failure is a JudgeError. */
  async post(body: unknown, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = AbortSignal.any([signal, timeout]);
    const why = (): JudgeError | undefined => {
      if (signal.aborted)
        return new JudgeError(
          'aborted',
          `${this.who.call} was aborted${signal.reason instanceof Error ? `: ${signal.reason.message}` : typeof signal.reason === 'string' ? `: ${signal.reason}` : ''}`,
        );
      if (timeout.aborted)
        return new JudgeError('timeout', `${this.who.name} did not answer within ${this.timeoutMs} ms`);
      return undefined;
    };
    if (combined.aborted) throw why() ?? new JudgeError('aborted', `${this.who.call} was aborted`);
    let text: string;
    let status: number;
    try {
      const response = await request(this.url, {
        dispatcher: this.pool,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: combined,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = response.statusCode;
      if (status < 200 || status >= 300) {
        await response.body.dump().catch(() => undefined);
        throw new JudgeError('http', `${this.who.name} answered HTTP ${status}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += piece.length;
        if (size > this.maxReplyBytes) {
          response.body.destroy();
          throw new JudgeError('malformed', `${this.who.name}'s reply is larger than ${this.maxReplyBytes} bytes`);
        }
        chunks.push(piece);
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch (err) {
      if (err instanceof JudgeError) throw err;
      throw why() ?? new JudgeError('network', `${this.who.name} could not be reached: ${(err as Error).message}`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new JudgeError('malformed', `${this.who.name}'s reply is not valid JSON`);
    }
  }

  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }
}

/** Turns a zod failure into the message of a malformed reply, naming the first bad member. */
export function describeShapeError(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const first = issues[0];
  if (!first) return "the judge's reply has an unexpected shape";
  const where = first.path.length ? first.path.map(String).join('.') : 'the reply';
  return `the judge's reply has an unexpected shape at ${where}: ${first.message}`;
}
