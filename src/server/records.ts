import { recordsWithAnswers } from '../core/activity/answers';
import type { LogEntries, LogReadBack } from '../core/activity/logIndex';
import { verdictRecordSchema, type ApprovalInfo, type VerdictRecord } from '../core/verdict/record';
import type { RowSummary } from '../protocol';
import { Slots } from '../core/activity/slots';
import { RowColumns } from './rowColumns';
import { toRowSummary } from './rowSummary';
import { StringPool } from './stringPool';

// The newest rows in memory, for panels that connect later; bounded, oldest dropped first. With an
// activity log behind it, a row keeps only its summary (and the little an ask changes later): its
// whole record, envelope and outcomes included, is read back from the log by id when a person opens
// it. A record the log has not located (no log, or the log could not be written) is kept whole.

/** Reads record lines back by id (the activity log's index). */
export interface RecordLog {
  has(id: string): boolean;
  read(id: string): LogReadBack;
}

export type RecordDetail = { found: true; record: VerdictRecord } | { found: false; why: string };

export const DEFAULT_ROW_LIMIT = 10_000;
/**
 * The newest records are also kept whole for a moment: an ask changes its row's approval right after
 * the row is added, and reading the record back from the log for that (a read and a schema parse)
 * cost more than the rest of the row's handling.
 */
const RECENT_WHOLE = 64;

export class RecordBuffer {
  private readonly slots: Slots;
  private readonly rows: RowColumns;
  /** The plain digest (the log keeps a keyed one); PermissionRequests are tied to their call by it. */
  private readonly argsDigests: (string | null | undefined)[] = [];
  private readonly projectRoots: (string | undefined)[] = [];
  /** Set once an ask changed a row: the record line in the log still says how it stood when logged. */
  private readonly approvals = new Map<number, ApprovalInfo>();
  /** Whole records, for rows the log cannot give back. */
  private readonly wholes = new Map<number, VerdictRecord>();
  private readonly recent = new Map<string, VerdictRecord>();
  private readonly log: RecordLog | undefined;
  private readonly strings: StringPool;

  constructor(opts: { limit?: number; log?: RecordLog; strings?: StringPool } = {}) {
    const limit = opts.limit ?? DEFAULT_ROW_LIMIT;
    this.log = opts.log;
    this.strings = opts.strings ?? new StringPool();
    this.rows = new RowColumns(limit, (text) => this.strings.intern(text));
    this.slots = new Slots(limit, (slot) => {
      this.rows.release(slot);
      this.argsDigests[slot] = undefined;
      this.projectRoots[slot] = undefined;
      this.approvals.delete(slot);
      this.wholes.delete(slot);
    });
  }

  add(record: VerdictRecord): RowSummary {
    const summary = toRowSummary(record);
    this.keep(record, summary, record.argsDigest);
    this.recent.delete(record.id);
    this.recent.set(record.id, record);
    if (this.recent.size > RECENT_WHOLE) this.recent.delete(this.recent.keys().next().value as string);
    return summary;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** A call's whole record, or why it cannot be had. */
  detail(id: string): RecordDetail {
    const slot = this.slots.get(id);
    if (slot === undefined)
      return { found: false, why: 'this call is no longer among the rows held in memory; the activity log keeps it' };
    const whole = this.wholes.get(slot);
    if (whole) return { found: true, record: whole };
    const read = this.log!.read(id);
    if (!read.found) return read;
    const parsed = verdictRecordSchema.safeParse(read.entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        found: false,
        why: `this call's line in the activity log no longer reads as a record (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`,
      };
    }
    return {
      found: true,
      record: {
        ...parsed.data,
        argsDigest: this.argsDigests[slot] ?? null,
        approval: this.approvals.get(slot) ?? parsed.data.approval,
      },
    };
  }

  get(id: string): VerdictRecord | undefined {
    const detail = this.detail(id);
    return detail.found ? detail.record : undefined;
  }

  summaryOf(id: string): RowSummary | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.rows.read(slot);
  }

  projectRootOf(id: string): string | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.projectRoots[slot];
  }

  /** Changes a row's approval (the only part of a record that changes after it is logged). */
  updateApproval(id: string, change: (approval: ApprovalInfo) => ApprovalInfo): RowSummary | undefined {
    const slot = this.slots.get(id);
    if (slot === undefined) return undefined;
    const recent = this.recent.get(id);
    const detail: RecordDetail = recent
      ? {
          found: true,
          record: {
            ...recent,
            argsDigest: this.argsDigests[slot] ?? null,
            approval: this.approvals.get(slot) ?? recent.approval,
          },
        }
      : this.detail(id);
    if (!detail.found) return undefined;
    const approval = change(detail.record.approval);
    const next = { ...detail.record, approval };
    this.approvals.set(slot, approval);
    if (recent) this.recent.set(id, next);
    if (this.wholes.has(slot)) this.wholes.set(slot, next);
    const summary = toRowSummary(next);
    this.rows.write(slot, summary);
    return summary;
  }

  /** Oldest first. */
  summaries(): RowSummary[] {
    const found: RowSummary[] = [];
    for (const [, slot] of this.slots.entries()) found.push(this.rows.read(slot));
    return found;
  }

  /** The newest rows' plain digests, newest first, for picking one to copy. */
  recentDigests(max: number): { summary: RowSummary; argsDigest: string }[] {
    const found: { summary: RowSummary; argsDigest: string }[] = [];
    for (const [, slot] of [...this.slots.entries()].reverse()) {
      if (found.length >= max) break;
      const argsDigest = this.argsDigests[slot];
      if (argsDigest) found.push({ summary: this.rows.read(slot), argsDigest });
    }
    return found;
  }

  /**
   * Lists again the rows the log's index was rebuilt from (a restarted host), with their answers
   * joined. A line that no longer parses as a record is left out of the list.
   */
  restore(entries: LogEntries): void {
    const records = recordsWithAnswers(entries, (entry) => {
      const parsed = verdictRecordSchema.safeParse(entry);
      return parsed.success ? parsed.data : null;
    });
    for (const record of records) {
      // The log keeps only a keyed digest; the plain one left with the old
      // process, so a restored row offers no digest to copy or tie a
      // PermissionRequest to (a keyed value there would never match anything).
      const slot = this.keep(record, toRowSummary({ ...record, argsDigest: null }), null);
      this.approvals.set(slot, record.approval);
    }
  }

  /** Places a row as the newest, in its columns; the record is kept whole only when the log cannot give it back. */
  private keep(record: VerdictRecord, summary: RowSummary, argsDigest: string | null): number {
    const slot = this.slots.place(record.id);
    this.rows.write(slot, summary);
    this.argsDigests[slot] = this.strings.internOrNull(argsDigest);
    this.projectRoots[slot] = record.projectRoot === undefined ? undefined : this.strings.intern(record.projectRoot);
    if (!this.log?.has(record.id)) this.wholes.set(slot, record);
    return slot;
  }
}
