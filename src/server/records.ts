import { recordsWithAnswers } from '../core/activity/answers';
import type { LogEntries, LogReadBack } from '../core/activity/logIndex';
import { verdictRecordSchema, type ApprovalInfo, type VerdictRecord } from '../core/verdict/record';
import type { RowSummary } from '../protocol';
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

interface Row {
  summary: RowSummary;
  /** The plain digest (the log keeps a keyed one); PermissionRequests are tied to their call by it. */
  argsDigest: string | null;
  projectRoot: string | undefined;
  /** Set once an ask changed it: the record line in the log still says how it stood when logged. */
  approval?: ApprovalInfo;
  /** The whole record, when the log cannot give it back. */
  whole?: VerdictRecord;
}

export const DEFAULT_ROW_LIMIT = 10_000;
/**
 * The newest records are also kept whole for a moment: an ask changes its row's approval right after
 * the row is added, and reading the record back from the log for that (a read and a schema parse)
 * cost more than the rest of the row's handling.
 */
const RECENT_WHOLE = 64;

export class RecordBuffer {
  private readonly byId = new Map<string, Row>();
  private readonly recent = new Map<string, VerdictRecord>();
  private readonly limit: number;
  private readonly log: RecordLog | undefined;
  private readonly strings: StringPool;

  constructor(opts: { limit?: number; log?: RecordLog; strings?: StringPool } = {}) {
    this.limit = opts.limit ?? DEFAULT_ROW_LIMIT;
    this.log = opts.log;
    this.strings = opts.strings ?? new StringPool();
  }

  add(record: VerdictRecord): RowSummary {
    const summary = this.summaryOfRecord(record);
    const row: Row = {
      summary,
      argsDigest: this.strings.internOrNull(record.argsDigest),
      projectRoot: this.projectRoot(record.projectRoot),
    };
    if (!this.log?.has(record.id)) row.whole = record;
    this.byId.delete(record.id);
    this.byId.set(record.id, row);
    if (this.byId.size > this.limit) {
      const oldest = this.byId.keys().next().value;
      if (oldest !== undefined) this.byId.delete(oldest);
    }
    this.recent.delete(record.id);
    this.recent.set(record.id, record);
    if (this.recent.size > RECENT_WHOLE) this.recent.delete(this.recent.keys().next().value as string);
    return summary;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** A call's whole record, or why it cannot be had. */
  detail(id: string): RecordDetail {
    const row = this.byId.get(id);
    if (!row)
      return { found: false, why: 'this call is no longer among the rows held in memory; the activity log keeps it' };
    if (row.whole) return { found: true, record: row.whole };
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
      record: { ...parsed.data, argsDigest: row.argsDigest, approval: row.approval ?? parsed.data.approval },
    };
  }

  get(id: string): VerdictRecord | undefined {
    const detail = this.detail(id);
    return detail.found ? detail.record : undefined;
  }

  summaryOf(id: string): RowSummary | undefined {
    return this.byId.get(id)?.summary;
  }

  projectRootOf(id: string): string | undefined {
    return this.byId.get(id)?.projectRoot;
  }

  /** Changes a row's approval (the only part of a record that changes after it is logged). */
  updateApproval(id: string, change: (approval: ApprovalInfo) => ApprovalInfo): RowSummary | undefined {
    const row = this.byId.get(id);
    if (!row) return undefined;
    const recent = this.recent.get(id);
    const detail: RecordDetail = recent
      ? { found: true, record: { ...recent, argsDigest: row.argsDigest, approval: row.approval ?? recent.approval } }
      : this.detail(id);
    if (!detail.found) return undefined;
    const approval = change(detail.record.approval);
    const next = { ...detail.record, approval };
    row.approval = approval;
    if (recent) this.recent.set(id, next);
    if (row.whole) row.whole = next;
    row.summary = this.summaryOfRecord(next);
    return row.summary;
  }

  /** Oldest first. */
  summaries(): RowSummary[] {
    return [...this.byId.values()].map((row) => row.summary);
  }

  /** The newest rows' plain digests, newest first, for picking one to copy. */
  recentDigests(max: number): { summary: RowSummary; argsDigest: string }[] {
    const found: { summary: RowSummary; argsDigest: string }[] = [];
    for (const row of [...this.byId.values()].reverse()) {
      if (found.length >= max) break;
      if (row.argsDigest) found.push({ summary: row.summary, argsDigest: row.argsDigest });
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
      const row: Row = {
        summary: this.summaryOfRecord({ ...record, argsDigest: null }),
        argsDigest: null,
        projectRoot: this.projectRoot(record.projectRoot),
      };
      row.approval = record.approval;
      if (!this.log?.has(record.id)) row.whole = record;
      this.byId.set(record.id, row);
    }
    while (this.byId.size > this.limit) {
      const oldest = this.byId.keys().next().value;
      if (oldest === undefined) break;
      this.byId.delete(oldest);
    }
  }

  /** A row's summary holding the pool's copy of each string rows repeat (not the id or the time). */
  private summaryOfRecord(record: VerdictRecord): RowSummary {
    const summary = toRowSummary(record);
    const pool = this.strings;
    summary.agent = pool.intern(summary.agent);
    summary.sessionId = pool.intern(summary.sessionId);
    summary.event = pool.intern(summary.event);
    summary.toolName = pool.internOrNull(summary.toolName);
    summary.callKeys = summary.callKeys.map((key) => pool.intern(key));
    summary.summary = pool.intern(summary.summary);
    summary.policies = summary.policies.map((policy) => pool.intern(policy));
    summary.semantic.reason = pool.internOrNull(summary.semantic.reason);
    summary.searchText = pool.intern(summary.searchText);
    return summary;
  }

  private projectRoot(root: string | undefined): string | undefined {
    return root === undefined ? undefined : this.strings.intern(root);
  }
}
