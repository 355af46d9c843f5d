// Posts a review request to the org's Cloud endpoint over a pooled connection, with the machine
// key as a bearer credential and its own timeout (outside the deterministic tier's budget).
import type { ResolvedConfig } from '../config/load';
import { JsonPoster } from '../semantic/judges/http';
import { JudgeError } from '../semantic/judges/types';
import { CLOUD_REVIEW_PATH, DEFAULT_CLOUD_TIMEOUT_MS } from './contract';
import { trimEndChars } from '../text/scan';

/** A reply may carry up to 4,096 outcomes in each of two verdicts; far past that it is not a reply. */
export const MAX_CLOUD_REPLY_BYTES = 8 * 1024 * 1024;

export type CloudConfig = ResolvedConfig['cloud'];

/** The review endpoint under `cloud.url` (a base URL, with or without a path of its own). */
export function reviewUrl(base: string): string {
  return `${trimEndChars(base, '/')}${CLOUD_REVIEW_PATH}`;
}

export class CloudClient {
  private readonly poster: JsonPoster;

  constructor(
    url: string,
    readonly timeoutMs: number,
  ) {
    this.poster = new JsonPoster(
      reviewUrl(url),
      timeoutMs,
      {
        name: 'Cloud',
        setting: 'cloud.url',
        call: 'the Cloud review',
      },
      MAX_CLOUD_REPLY_BYTES,
    );
  }

  post(body: unknown, key: string | undefined, signal: AbortSignal): Promise<unknown> {
    return this.poster.post(body, key ? { authorization: `Bearer ${key}` } : {}, signal);
  }

  close(): Promise<void> {
    return this.poster.close();
  }
}

/** The machine key, or a no-transport failure naming the variable that should hold it. */
export function machineKey(config: CloudConfig, env: Record<string, string | undefined>): string | undefined {
  if (!config.keyEnv) return undefined;
  const key = env[config.keyEnv];
  if (!key)
    throw new JudgeError('no-transport', `the environment variable ${config.keyEnv} named by cloud.keyEnv is not set`);
  return key;
}

/** Keeps one client per endpoint and timeout, so connections are reused across calls. */
export class CloudClients {
  private readonly clients = new Map<string, CloudClient>();

  for(config: CloudConfig): CloudClient {
    if (!config.url) throw new JudgeError('no-transport', 'cloud.url is not set');
    // Without its machine id a review cannot be told apart at the org: nothing is sent.
    if (!config.machineId) throw new JudgeError('no-transport', 'cloud.machineId is not set');
    const timeoutMs = config.timeoutMs ?? DEFAULT_CLOUD_TIMEOUT_MS;
    const id = `${config.url}\u0000${timeoutMs}`;
    let client = this.clients.get(id);
    if (!client) {
      client = new CloudClient(config.url, timeoutMs);
      this.clients.set(id, client);
      while (this.clients.size > 4) {
        const [oldest, evicted] = this.clients.entries().next().value as [string, CloudClient];
        this.clients.delete(oldest);
        void evicted.close();
      }
    }
    return client;
  }

  async close(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
