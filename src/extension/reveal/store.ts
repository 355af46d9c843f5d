import type { MarkerOriginal } from './markers';

// The originals behind the markers of recent calls, in this process's memory
// only: never written, never posted to a panel except for one marker on an
// explicit reveal. Entries live as long as their record is in the endpoint's
// record buffer (what a panel can still show); older ones are dropped.

export type MarkerSource = 'envelope' | 'arguments';

export interface RecordOriginals {
  /** In the order of the markers in the logged arguments' JSON. */
  arguments: MarkerOriginal[] | { why: string };
  /** By index into record.redactions.spans. */
  envelope: Map<number, MarkerOriginal> | { why: string };
}

export type Lookup = { ok: true; original: MarkerOriginal } | { ok: false; why: string };

export const NOT_IN_MEMORY =
  'This call is no longer in memory (only the newest calls keep their originals, and never across a restart); the log holds the redacted text only.';

export class OriginalsStore {
  private readonly byRecord = new Map<string, RecordOriginals>();

  constructor(
    /** Whether the record is still in the endpoint's buffer. */
    private readonly isLive: (recordId: string) => boolean,
    private readonly limit = 10_000,
  ) {}

  add(recordId: string, originals: RecordOriginals): void {
    this.byRecord.set(recordId, originals);
    while (this.byRecord.size > this.limit) {
      const oldest = this.byRecord.keys().next().value;
      if (oldest === undefined) break;
      this.byRecord.delete(oldest);
    }
  }

  get size(): number {
    return this.byRecord.size;
  }

  lookup(recordId: string, source: MarkerSource, index: number): Lookup {
    const entry = this.byRecord.get(recordId);
    if (!entry || !this.isLive(recordId)) {
      this.byRecord.delete(recordId);
      return { ok: false, why: NOT_IN_MEMORY };
    }
    const markers = entry[source];
    if ('why' in markers) return { ok: false, why: `No original for this marker: ${markers.why}.` };
    const original = Array.isArray(markers) ? markers[index] : markers.get(index);
    if (!original)
      return {
        ok: false,
        why:
          source === 'envelope'
            ? 'No original for this marker: it sits in a part the host cannot rebuild (the facts, or a redacted member name).'
            : 'No such marker in these arguments.',
      };
    return { ok: true, original };
  }

  /** Drops every original (the endpoint stops). */
  clear(): void {
    this.byRecord.clear();
  }
}
