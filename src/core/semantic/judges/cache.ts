// Identical requests within the time to live are answered from memory: an agent that retries the
// same call gets the same answer without another round trip. Bounded, least recently used first out.
import { createHash } from 'node:crypto';
import type { JudgeReply, JudgeRequest } from './types';

export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;
export const DEFAULT_CACHE_ENTRIES = 256;

interface Entry {
  reply: JudgeReply;
  storedAt: number;
}

export class ReplyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries = DEFAULT_CACHE_ENTRIES,
    private readonly ttlMs = DEFAULT_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): JudgeReply | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() - entry.storedAt >= this.ttlMs) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.entries.set(key, entry);
    return entry.reply;
  }

  set(key: string, reply: JudgeReply): void {
    this.entries.delete(key);
    this.entries.set(key, { reply, storedAt: this.now() });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/** The request's identity: who is asked (judge and its settings) and exactly what. */
export function requestKey(judgeIdentity: string, request: JudgeRequest): string {
  return createHash('sha256').update(judgeIdentity).update('\u0000').update(JSON.stringify(request)).digest('hex');
}
