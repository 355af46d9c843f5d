import type { HostMessage, HostState, PendingView, ResolutionView, VerdictRecord } from '../../src/shared/protocol';

// The panel's state: records newest first, pending asks, filters, selection.
// Plain data with no DOM, so tests drive it with host messages.

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

export class PanelStore {
  /** Oldest first internally; views read newest first through visibleRecords(). */
  private records: VerdictRecord[] = [];
  private readonly byId = new Map<string, VerdictRecord>();
  pending: PendingView[] = [];
  readonly resolutions: ResolutionView[] = [];
  filters: Filters = { ...NO_FILTERS };
  selectedId: string | null = null;
  host: HostState | null = null;
  lastToast: string | null = null;
  private filtered: VerdictRecord[] | null = null;

  constructor(private readonly limit = DEFAULT_ROW_LIMIT) {}

  /** Applies one host message; returns what changed so the view redraws only that. */
  apply(message: HostMessage): 'records' | 'pending' | 'state' | 'toast' | 'none' {
    switch (message.type) {
      case 'snapshot':
        this.records = [];
        this.byId.clear();
        for (const record of message.records) this.addRecord(record);
        this.pending = [...message.pending];
        this.filtered = null;
        return 'records';
      case 'record':
        this.addRecord(message.record);
        this.filtered = null;
        return 'records';
      case 'pending':
        this.pending = [message.pending, ...this.pending.filter((p) => p.id !== message.pending.id)];
        return 'pending';
      case 'resolved':
        this.pending = this.pending.filter((p) => p.id !== message.resolution.id);
        this.resolutions.unshift(message.resolution);
        if (this.resolutions.length > 50) this.resolutions.length = 50;
        return 'pending';
      case 'state':
        this.host = message.state;
        return 'state';
      case 'toast':
        this.lastToast = message.text;
        return 'toast';
      default:
        return 'none';
    }
  }

  private addRecord(record: VerdictRecord): void {
    const existing = this.byId.get(record.id);
    if (existing) {
      // A record can come again with its approval filled in: replace it in place.
      const at = this.records.indexOf(existing);
      if (at >= 0) this.records[at] = record;
    } else {
      this.records.push(record);
      if (this.records.length > this.limit) {
        const dropped = this.records.splice(0, this.records.length - this.limit);
        for (const old of dropped) this.byId.delete(old.id);
      }
    }
    this.byId.set(record.id, record);
  }

  record(id: string): VerdictRecord | undefined {
    return this.byId.get(id);
  }

  get count(): number {
    return this.records.length;
  }

  setFilters(next: Partial<Filters>): void {
    this.filters = { ...this.filters, ...next };
    this.filtered = null;
  }

  /** The records the list shows, newest first, filtered; cached until something changes. */
  visibleRecords(): VerdictRecord[] {
    if (this.filtered) return this.filtered;
    const out: VerdictRecord[] = [];
    for (let i = this.records.length - 1; i >= 0; i--) {
      const record = this.records[i]!;
      if (matches(record, this.filters)) out.push(record);
    }
    this.filtered = out;
    return out;
  }

  /** The values each filter can take, from the records held. */
  filterChoices(): { agent: string[]; tool: string[]; session: string[]; policy: string[] } {
    const agent = new Set<string>();
    const tool = new Set<string>();
    const session = new Set<string>();
    const policy = new Set<string>();
    for (const r of this.records) {
      agent.add(r.agent);
      if (r.toolName) tool.add(r.toolName);
      session.add(r.sessionId);
      for (const o of r.outcomes) policy.add(o.policy);
    }
    const sorted = (s: Set<string>) => [...s].sort();
    return { agent: sorted(agent), tool: sorted(tool), session: sorted(session), policy: sorted(policy) };
  }

  counts(): { calls: number; denies: number; pending: number } {
    let denies = 0;
    for (const r of this.records) if (r.decision === 'deny') denies++;
    return { calls: this.records.length, denies, pending: this.pending.length };
  }
}

export function matches(record: VerdictRecord, f: Filters): boolean {
  if (f.decision && record.decision !== f.decision) return false;
  if (f.agent && record.agent !== f.agent) return false;
  if (f.tool && record.toolName !== f.tool) return false;
  if (f.session && record.sessionId !== f.session) return false;
  if (f.policy && !record.outcomes.some((o) => o.policy === f.policy && o.verdict !== 'allow')) return false;
  if (f.text) {
    const needle = f.text.toLowerCase();
    const hay =
      `${record.toolName ?? ''} ${record.reason} ${JSON.stringify(record.toolInput ?? '')} ${record.outcomes.map((o) => o.policy).join(' ')}`.toLowerCase();
    if (!hay.includes(needle)) return false;
  }
  return true;
}
