import type { HostMessage, HostState, PendingView, ResolutionView, RowSummary } from '../../src/protocol';
import { outcomeTone, SummaryTally } from '../../src/protocol';

// The panel's state: row summaries newest first, pending asks, filters,
// selection. Plain data with no DOM, so tests drive it with host messages.
// Tool calls are rows; other events are attached to their call (by callKey)
// or kept as session events, so the counts match what the agent saw.

export interface Filters {
  decision: string;
  agent: string;
  tool: string;
  session: string;
  policy: string;
  text: string;
}

export const NO_FILTERS: Filters = { decision: '', agent: '', tool: '', session: '', policy: '', text: '' };

export const DEFAULT_ROW_LIMIT = 10_000;

/** What a batch of host messages changed, so the view redraws only that. */
export interface Changes {
  /** Rows added or dropped: the list's length, the counts and the filter choices change. */
  structure: boolean;
  /** Rows whose content changed in place. */
  rows: Set<string>;
  pending: boolean;
  state: boolean;
  toasts: string[];
}

export function noChanges(): Changes {
  return { structure: false, rows: new Set(), pending: false, state: false, toasts: [] };
}

export interface Counts {
  calls: number;
  asks: number;
  denies: number;
  redacted: number;
  pending: number;
}

export class PanelStore {
  /** Tool calls and unattached events, oldest first; views read newest first through visibleRows(). */
  private rows: RowSummary[] = [];
  private readonly byId = new Map<string, RowSummary>();
  /** Events attached to a call, by the call's row id. */
  private readonly attached = new Map<string, RowSummary[]>();
  private readonly callByKey = new Map<string, string>();
  pending: PendingView[] = [];
  readonly resolutions: ResolutionView[] = [];
  filters: Filters = { ...NO_FILTERS };
  selectedId: string | null = null;
  host: HostState | null = null;
  /** Whether session events (prompts, turn ends) are listed as rows. */
  showEvents = true;
  private filtered: RowSummary[] | null = null;
  private choices: { agent: string[]; tool: string[]; session: string[]; policy: string[] } | null = null;
  /** Counts, series and breakdowns of the rows held, updated one row at a time. */
  tally = new SummaryTally();
  /** Each session's rows (calls and unattached events), oldest first, for its timeline. */
  private readonly bySession = new Map<string, RowSummary[]>();

  constructor(private readonly limit = DEFAULT_ROW_LIMIT) {}

  /** Applies one host message and records what changed in `changes`. */
  apply(message: HostMessage, changes: Changes = noChanges()): Changes {
    switch (message.type) {
      case 'snapshot':
        this.rows = [];
        this.byId.clear();
        this.attached.clear();
        this.callByKey.clear();
        this.bySession.clear();
        this.tally = new SummaryTally();
        for (const row of message.rows) this.addRow(row, changes);
        this.pending = [...message.pending];
        changes.structure = true;
        changes.pending = true;
        break;
      case 'rows':
        for (const row of message.rows) this.addRow(row, changes);
        break;
      case 'pending':
        this.pending = [message.pending, ...this.pending.filter((p) => p.id !== message.pending.id)];
        changes.pending = true;
        break;
      case 'resolved':
        this.pending = this.pending.filter((p) => p.id !== message.resolution.id);
        this.resolutions.unshift(message.resolution);
        if (this.resolutions.length > 50) this.resolutions.length = 50;
        changes.pending = true;
        break;
      case 'state':
        this.host = message.state;
        changes.state = true;
        break;
      case 'toast':
        changes.toasts.push(message.text);
        break;
    }
    if (changes.structure || changes.rows.size) this.invalidate();
    return changes;
  }

  private invalidate(): void {
    this.filtered = null;
    this.choices = null;
  }

  private addRow(row: RowSummary, changes: Changes): void {
    const existing = this.byId.get(row.id);
    if (existing) {
      // A row comes again when its ask is answered: replace it in place.
      const at = this.rows.lastIndexOf(existing);
      if (at >= 0) {
        this.rows[at] = row;
        this.tally.remove(existing);
        this.tally.add(row);
        const session = this.bySession.get(existing.sessionId);
        const inSession = session?.lastIndexOf(existing) ?? -1;
        if (session && inSession >= 0) session[inSession] = row;
      } else this.replaceAttached(existing, row);
      this.byId.set(row.id, row);
      changes.rows.add(at >= 0 ? row.id : (this.ownerOf(row) ?? row.id));
      return;
    }
    this.byId.set(row.id, row);
    const owner = row.kind === 'event' || row.event === 'PermissionRequest' ? this.ownerOf(row) : undefined;
    if (owner) {
      const list = this.attached.get(owner) ?? [];
      list.push(row);
      this.attached.set(owner, list);
      changes.rows.add(owner);
      return;
    }
    // The newest call with these keys owns the events that follow (the same command run twice is two calls).
    if (row.kind === 'call') for (const key of row.callKeys) this.callByKey.set(key, row.id);
    this.rows.push(row);
    this.tally.add(row);
    const session = this.bySession.get(row.sessionId);
    if (session) session.push(row);
    else this.bySession.set(row.sessionId, [row]);
    changes.structure = true;
    if (this.rows.length > this.limit) {
      const dropped = this.rows.splice(0, this.rows.length - this.limit);
      for (const old of dropped) this.forget(old);
    }
  }

  private ownerOf(row: RowSummary): string | undefined {
    for (const key of row.callKeys) {
      const owner = this.callByKey.get(key);
      if (owner) return owner;
    }
    return undefined;
  }

  private replaceAttached(old: RowSummary, row: RowSummary): void {
    const owner = this.ownerOf(old);
    const list = owner ? this.attached.get(owner) : undefined;
    const at = list?.indexOf(old) ?? -1;
    if (list && at >= 0) list[at] = row;
  }

  private forget(row: RowSummary): void {
    this.tally.remove(row);
    // The oldest rows go first, so a session's oldest is at the front of its list.
    const session = this.bySession.get(row.sessionId);
    if (session?.[0] === row) session.shift();
    else if (session) session.splice(session.indexOf(row), 1);
    if (session?.length === 0) this.bySession.delete(row.sessionId);
    this.byId.delete(row.id);
    for (const event of this.attached.get(row.id) ?? []) this.byId.delete(event.id);
    this.attached.delete(row.id);
    for (const key of row.callKeys) if (this.callByKey.get(key) === row.id) this.callByKey.delete(key);
  }

  row(id: string): RowSummary | undefined {
    return this.byId.get(id);
  }

  /** The events attached to a call (its PermissionRequest, its result). */
  eventsOf(id: string): RowSummary[] {
    return this.attached.get(id) ?? [];
  }

  get count(): number {
    return this.rows.length;
  }

  setFilters(next: Partial<Filters>): void {
    this.filters = { ...this.filters, ...next };
    this.filtered = null;
  }

  setShowEvents(show: boolean): void {
    this.showEvents = show;
    this.filtered = null;
  }

  /** The rows the list shows, newest first, filtered; cached until something changes. */
  visibleRows(): RowSummary[] {
    if (this.filtered) return this.filtered;
    const out: RowSummary[] = [];
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const row = this.rows[i]!;
      if (!this.showEvents && row.kind === 'event') continue;
      if (matches(row, this.filters)) out.push(row);
    }
    this.filtered = out;
    return out;
  }

  /** The rows of one session, oldest first: its calls and its prompts, for the timeline. */
  sessionRows(sessionId: string): readonly RowSummary[] {
    return this.bySession.get(sessionId) ?? [];
  }

  /** The values each filter can take, from the rows held. */
  filterChoices(): { agent: string[]; tool: string[]; session: string[]; policy: string[] } {
    this.choices ??= this.tally.choices();
    return this.choices;
  }

  /** Counted as the agent saw them: tool calls only; a call is denied when it was denied or refused in the end. */
  counts(): Counts {
    const { calls, asks, denies, redacted } = this.tally.total;
    return { calls, asks, denies, redacted, pending: this.pending.length };
  }

  /** Top policies that fired, most first. */
  topPolicies(limit = 5): { policy: string; count: number }[] {
    return this.tally.topPolicies(limit);
  }
}

export function matches(row: RowSummary, f: Filters): boolean {
  if (f.decision && row.outcome !== f.decision && outcomeTone(row.outcome) !== f.decision) return false;
  if (f.agent && row.agent !== f.agent) return false;
  if (f.tool && row.toolName !== f.tool) return false;
  if (f.session && row.sessionId !== f.session) return false;
  if (f.policy && !row.policies.includes(f.policy)) return false;
  if (f.text && !row.searchText.includes(f.text.toLowerCase())) return false;
  return true;
}
