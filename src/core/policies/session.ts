import type { SessionMemory } from './types';

const MAX_SESSIONS = 500;

/** Keeps per-session policy memory, forgetting the least recently used sessions past a bound. */
export class SessionStore {
  private readonly sessions = new Map<string, Map<string, unknown>>();

  /** The session's memory as entries (`policy\0key`), for a call evaluated on another thread. */
  entriesOf(sessionId: string): [string, unknown][] {
    return [...this.bucket(sessionId)];
  }

  /** What a call evaluated elsewhere remembered, applied in order. */
  apply(sessionId: string, writes: [string, unknown][]): void {
    const bucket = this.bucket(sessionId);
    for (const [key, value] of writes) bucket.set(key, value);
  }

  memoryFor(sessionId: string): SessionMemory {
    const bucket = this.bucket(sessionId);
    return {
      get: <T>(policy: string, key: string) => bucket.get(`${policy}\u0000${key}`) as T | undefined,
      set: <T>(policy: string, key: string, value: T) => {
        bucket.set(`${policy}\u0000${key}`, value);
      },
    };
  }

  private bucket(sessionId: string): Map<string, unknown> {
    let store = this.sessions.get(sessionId);
    if (store) {
      this.sessions.delete(sessionId);
    } else {
      store = new Map();
      if (this.sessions.size >= MAX_SESSIONS) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined) this.sessions.delete(oldest);
      }
    }
    this.sessions.set(sessionId, store);
    return store;
  }
}
