import type { SessionMemory } from './types';

const MAX_SESSIONS = 500;

/** Keeps per-session policy memory, forgetting the least recently used sessions past a bound. */
export class SessionStore {
  private readonly sessions = new Map<string, Map<string, unknown>>();

  memoryFor(sessionId: string): SessionMemory {
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
    const bucket = store;
    return {
      get: <T>(policy: string, key: string) => bucket.get(`${policy}\u0000${key}`) as T | undefined,
      set: <T>(policy: string, key: string, value: T) => {
        bucket.set(`${policy}\u0000${key}`, value);
      },
    };
  }
}
