import type { VerdictRecord } from '../core/verdict/record';

/** The newest records in memory, for panels that connect later; bounded, oldest dropped first. */
export class RecordBuffer {
  private readonly byId = new Map<string, VerdictRecord>();

  constructor(private readonly limit = 10_000) {}

  add(record: VerdictRecord): void {
    this.byId.set(record.id, record);
    if (this.byId.size > this.limit) {
      const oldest = this.byId.keys().next().value;
      if (oldest !== undefined) this.byId.delete(oldest);
    }
  }

  get(id: string): VerdictRecord | undefined {
    return this.byId.get(id);
  }

  update(id: string, change: (record: VerdictRecord) => VerdictRecord): VerdictRecord | undefined {
    const record = this.byId.get(id);
    if (!record) return undefined;
    const next = change(record);
    this.byId.set(id, next);
    return next;
  }

  /** Oldest first. */
  all(): VerdictRecord[] {
    return [...this.byId.values()];
  }
}
