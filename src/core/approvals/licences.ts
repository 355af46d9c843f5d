// What a person's answer leaves behind once the ask itself is over.
// - Standing licences (scope 'session'): this tool with these exact bytes, in this session,
//   until the session is forgotten.
// - Unclaimed answers: an answer to an ask that was handed to the agent's own prompt, waiting for
//   that call's PermissionRequest. An approve-once among them is also a once-licence that the
//   next identical call may use instead. "Once" means the call that was waiting, so an unclaimed
//   answer lapses after one approval timeout rather than approving the same bytes hours later.
// Cross-boundary taint (personOnly) is answered only through its own pending ask: no licence
// of either kind retires it, and its PermissionRequest claims only answers given to a personOnly
// ask, i.e. given while the panel showed why a person must decide.

import type { AnsweredResolution, Licence } from './approvalTypes';

interface UnclaimedAnswer {
  resolution: AnsweredResolution;
  shownDigest: string;
  personOnly: boolean;
  expiresAtMs: number;
  onceLicence: Licence | null;
}

const DEFAULT_MAX_UNCLAIMED = 1000;

export class LicenceBook {
  private readonly standing = new Map<string, Licence>();
  private unclaimed: UnclaimedAnswer[] = [];

  constructor(
    private readonly now: () => number,
    private readonly maxUnclaimed = DEFAULT_MAX_UNCLAIMED,
  ) {}

  grantStanding(resolution: AnsweredResolution & { digest: string }): Licence {
    const licence = licenceFrom(resolution, resolution.digest, 'session', null);
    this.standing.set(standingKey(licence.sessionId, licence.toolName, licence.digest), licence);
    return licence;
  }

  keepUnclaimed(resolution: AnsweredResolution, shownDigest: string, personOnly: boolean, lifetimeMs: number): void {
    const expiresAtMs = this.now() + lifetimeMs;
    const onceLicence: Licence | null =
      resolution.decision === 'allow' && resolution.scope === 'once' && resolution.digest !== null
        ? licenceFrom(resolution, resolution.digest, 'once', new Date(expiresAtMs).toISOString())
        : null;
    this.prune();
    this.unclaimed.push({ resolution, shownDigest, personOnly, expiresAtMs, onceLicence });
    if (this.unclaimed.length > this.maxUnclaimed) this.unclaimed.shift();
  }

  /** A licence covering exactly this call, or null. A once-licence stays until `consume`. */
  find(sessionId: string, toolName: string, digest: string, personOnly: boolean): Licence | null {
    if (personOnly) return null;
    const standing = this.standing.get(standingKey(sessionId, toolName, digest));
    if (standing !== undefined) return standing;
    this.prune();
    for (const entry of this.unclaimed) {
      const licence = entry.onceLicence;
      if (
        licence !== null &&
        licence.sessionId === sessionId &&
        licence.toolName === toolName &&
        licence.digest === digest
      ) {
        return licence;
      }
    }
    return null;
  }

  /** Uses a licence: a once-licence is gone afterwards. False when it no longer exists. */
  consume(licence: Licence): boolean {
    if (licence.kind === 'session') {
      return this.standing.get(standingKey(licence.sessionId, licence.toolName, licence.digest))?.id === licence.id;
    }
    this.prune();
    const index = this.unclaimed.findIndex((entry) => entry.onceLicence?.id === licence.id);
    if (index < 0) return false;
    this.unclaimed.splice(index, 1);
    return true;
  }

  /** Takes the oldest unclaimed answer to an ask about exactly this call, or null. */
  claimAnswer(
    sessionId: string,
    toolName: string,
    shownDigest: string,
    personOnly: boolean,
  ): AnsweredResolution | null {
    this.prune();
    const index = this.unclaimed.findIndex(
      (entry) =>
        entry.resolution.sessionId === sessionId &&
        entry.resolution.toolName === toolName &&
        entry.shownDigest === shownDigest &&
        (entry.personOnly || !personOnly),
    );
    if (index < 0) return null;
    const [entry] = this.unclaimed.splice(index, 1);
    return entry === undefined ? null : entry.resolution;
  }

  /** The standing (session) licences, oldest first, so a person can see and revoke them. */
  listStanding(): Licence[] {
    return [...this.standing.values()];
  }

  /** Revokes a standing licence; false when there is none with this id. */
  revoke(licenceId: string): boolean {
    for (const [key, licence] of this.standing) if (licence.id === licenceId) return this.standing.delete(key);
    return false;
  }

  forgetSession(sessionId: string): void {
    for (const [key, licence] of this.standing) if (licence.sessionId === sessionId) this.standing.delete(key);
    this.unclaimed = this.unclaimed.filter((entry) => entry.resolution.sessionId !== sessionId);
  }

  clear(): void {
    this.standing.clear();
    this.unclaimed = [];
  }

  private prune(): void {
    const now = this.now();
    if (this.unclaimed.some((entry) => entry.expiresAtMs <= now)) {
      this.unclaimed = this.unclaimed.filter((entry) => entry.expiresAtMs > now);
    }
  }
}

function standingKey(sessionId: string, toolName: string, digest: string): string {
  return JSON.stringify([sessionId, toolName, digest]);
}

/** The licence a person's answer grants for exactly `digest`. */
function licenceFrom(
  resolution: AnsweredResolution,
  digest: string,
  kind: Licence['kind'],
  expiresAt: string | null,
): Licence {
  return {
    id: `${resolution.approvalId}:${kind}`,
    kind,
    sessionId: resolution.sessionId,
    toolName: resolution.toolName,
    digest,
    approvalId: resolution.approvalId,
    recordId: resolution.recordId,
    grantedBy: resolution.answeredBy,
    grantedAt: resolution.answeredAt,
    expiresAt,
  };
}
