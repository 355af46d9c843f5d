// Per-session memory of the secrets the envelope redaction found.

const MAX_SESSIONS = 64;
const MAX_SECRETS_PER_SESSION = 256;

/**
 * Secrets found in a session's earlier calls, kept in memory only: the agent may repeat a password
 * from an earlier command in a later message, where no detector would know it for one.
 */
export class SessionSecrets {
  private readonly sessions = new Map<string, string[]>();

  known(session: string): string[] {
    const values = this.sessions.get(session);
    if (!values) return [];
    this.sessions.delete(session);
    this.sessions.set(session, values);
    return values;
  }

  remember(session: string, found: string[]): void {
    const values = [...new Set([...found, ...(this.sessions.get(session) ?? [])])].slice(0, MAX_SECRETS_PER_SESSION);
    this.sessions.delete(session);
    this.sessions.set(session, values);
    while (this.sessions.size > MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
  }
}
