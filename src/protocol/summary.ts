import { deniedInTheEnd, type RowSummary } from './rows';

// The picture before the details, kept up to date one row at a time: totals,
// counts per minute, policies that fired, and a line per agent and per
// session. A row that comes again (its ask was answered) is taken out and put
// back in, so nothing is ever recounted from the whole list: the cost of a
// row is the same at 100 rows as at 100,000.

export interface Tally {
  /** Tool calls (session events are not calls). */
  calls: number;
  /** Calls that needed a person (answered, pending, licensed or expired). */
  asks: number;
  /** Calls denied or refused in the end. */
  denies: number;
  /** Calls that needed a person and were not denied in the end (approved, licensed, pending, expired). */
  askedNotDenied: number;
  /** Calls whose own arguments held a secret. */
  redacted: number;
  /** Secret markers in calls' own arguments. */
  markers: number;
}

export interface AgentLine extends Tally {
  agent: string;
  /** How a person names the agent (Claude Code, Codex CLI…). */
  name: string;
  /** Rows of this agent held (calls and session events). */
  rows: number;
}

export interface SessionLine extends Tally {
  sessionId: string;
  agent: string;
  /** Prompts the person submitted in this session (UserPromptSubmit events). */
  prompts: number;
  /** Rows of this session held (calls and session events). */
  rows: number;
  firstTs: string;
  lastTs: string;
}

/** One bar of the over-time picture. */
export interface Bar extends Tally {
  /** The bar's start, in ms since the epoch. */
  start: number;
}

export interface Series {
  /** Minutes per bar. */
  minutes: number;
  bars: Bar[];
}

const MINUTE = 60_000;
/** Bar widths, in minutes, from the finest: the first that fits the span in the bars wanted. */
const WIDTHS = [1, 5, 15, 60, 180, 720, 1440, 10_080];

function emptyTally(): Tally {
  return { calls: 0, asks: 0, denies: 0, askedNotDenied: 0, redacted: 0, markers: 0 };
}

/** What one row adds to a tally (all zero for a session event). */
function contribution(row: RowSummary): Tally {
  if (row.kind !== 'call') return emptyTally();
  const denied = deniedInTheEnd(row);
  return {
    calls: 1,
    asks: row.answer !== null ? 1 : 0,
    denies: denied ? 1 : 0,
    askedNotDenied: row.answer !== null && !denied ? 1 : 0,
    redacted: row.redactedInCall > 0 ? 1 : 0,
    markers: row.redactedInCall,
  };
}

function addTo(target: Tally, part: Tally, sign: 1 | -1): void {
  target.calls += sign * part.calls;
  target.asks += sign * part.asks;
  target.denies += sign * part.denies;
  target.askedNotDenied += sign * part.askedNotDenied;
  target.redacted += sign * part.redacted;
  target.markers += sign * part.markers;
}

export function isPromptEvent(row: Pick<RowSummary, 'kind' | 'event'>): boolean {
  return (
    row.kind === 'event' && /^(UserPromptSubmit|userPromptSubmitted|beforeSubmitPrompt|BeforeAgent)$/.test(row.event)
  );
}

export class SummaryTally {
  readonly total: Tally = emptyTally();
  private readonly minutes = new Map<number, Bar>();
  private readonly policyCounts = new Map<string, number>();
  private readonly agentLines = new Map<string, AgentLine>();
  private readonly sessionLines = new Map<string, SessionLine>();
  private readonly toolCounts = new Map<string, number>();

  /** Counts a row in. */
  add(row: RowSummary): void {
    this.apply(row, 1);
  }

  /** Takes a row out again (it was replaced or dropped). */
  remove(row: RowSummary): void {
    this.apply(row, -1);
  }

  private apply(row: RowSummary, sign: 1 | -1): void {
    const part = contribution(row);
    addTo(this.total, part, sign);
    const at = Date.parse(row.ts);
    if (row.kind === 'call' && Number.isFinite(at)) {
      const minute = Math.floor(at / MINUTE) * MINUTE;
      let bar = this.minutes.get(minute);
      if (!bar) this.minutes.set(minute, (bar = { start: minute, ...emptyTally() }));
      addTo(bar, part, sign);
      if (bar.calls <= 0) this.minutes.delete(minute);
    }
    if (row.kind === 'call') {
      for (const policy of row.policies) bump(this.policyCounts, policy, sign);
      if (row.toolName) bump(this.toolCounts, row.toolName, sign);
    }
    let agent = this.agentLines.get(row.agent);
    if (!agent)
      this.agentLines.set(row.agent, (agent = { agent: row.agent, name: row.agentName, rows: 0, ...emptyTally() }));
    addTo(agent, part, sign);
    agent.rows += sign;
    let session = this.sessionLines.get(row.sessionId);
    if (!session) {
      const first = {
        sessionId: row.sessionId,
        agent: row.agent,
        prompts: 0,
        rows: 0,
        firstTs: row.ts,
        lastTs: row.ts,
      };
      session = { ...first, ...emptyTally() };
      this.sessionLines.set(row.sessionId, session);
    }
    addTo(session, part, sign);
    session.rows += sign;
    if (isPromptEvent(row)) session.prompts += sign;
    if (sign > 0) {
      if (row.ts < session.firstTs) session.firstTs = row.ts;
      if (row.ts > session.lastTs) session.lastTs = row.ts;
    }
    // A line with nothing left in it goes, so the breakdown lists only what the list holds.
    if (agent.rows <= 0) this.agentLines.delete(row.agent);
    if (session.rows <= 0) this.sessionLines.delete(row.sessionId);
  }

  /** The policies that fired most, most first. */
  topPolicies(limit = 5): { policy: string; count: number }[] {
    return top(this.policyCounts, limit).map(([policy, count]) => ({ policy, count }));
  }

  agents(): AgentLine[] {
    return [...this.agentLines.values()].sort((a, b) => b.calls - a.calls || a.agent.localeCompare(b.agent));
  }

  /** Sessions, the most recently active first. */
  sessions(limit = Infinity): SessionLine[] {
    return [...this.sessionLines.values()]
      .sort((a, b) => (a.lastTs < b.lastTs ? 1 : a.lastTs > b.lastTs ? -1 : 0))
      .slice(0, limit);
  }

  session(id: string): SessionLine | undefined {
    return this.sessionLines.get(id);
  }

  /** The values the filters can take, from what is counted. */
  choices(): { agent: string[]; tool: string[]; session: string[]; policy: string[] } {
    const sorted = (keys: Iterable<string>) => [...keys].sort();
    return {
      agent: sorted(this.agentLines.keys()),
      tool: sorted(this.toolCounts.keys()),
      session: sorted(this.sessionLines.keys()),
      policy: sorted(this.policyCounts.keys()),
    };
  }

  /**
   * Calls over time in at most `maxBars` bars, from the first call's bucket to
   * the last: the bar width is the finest of 1, 5, 15 minutes, 1, 3, 12 hours,
   * a day or a week that fits. Reads the per-minute counts, never the rows.
   */
  series(maxBars = 24): Series {
    if (this.minutes.size === 0) return { minutes: 1, bars: [] };
    let first = Infinity;
    let last = -Infinity;
    for (const minute of this.minutes.keys()) {
      if (minute < first) first = minute;
      if (minute > last) last = minute;
    }
    const span = (last - first) / MINUTE + 1;
    const minutes = WIDTHS.find((w) => Math.ceil(span / w) <= maxBars) ?? WIDTHS[WIDTHS.length - 1]!;
    const width = minutes * MINUTE;
    const origin = Math.floor(first / width) * width;
    const count = Math.floor((last - origin) / width) + 1;
    const bars: Bar[] = Array.from({ length: count }, (_, i) => ({ start: origin + i * width, ...emptyTally() }));
    for (const bar of this.minutes.values()) addTo(bars[Math.floor((bar.start - origin) / width)]!, bar, 1);
    return { minutes, bars };
  }
}

function bump(map: Map<string, number>, key: string, sign: 1 | -1): void {
  const next = (map.get(key) ?? 0) + sign;
  if (next > 0) map.set(key, next);
  else map.delete(key);
}

function top(map: Map<string, number>, limit: number): [string, number][] {
  return [...map.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit);
}

/**
 * A tally fed by a stream of row notifications, where a row comes again only
 * while its ask is open (it went pending, was answered, licensed or expired).
 * Only those open rows are remembered, so a host can count every call since it
 * started without keeping the rows themselves.
 */
export class RowStreamTally {
  readonly tally = new SummaryTally();
  private readonly open = new Map<string, RowSummary>();

  take(row: RowSummary): void {
    const before = this.open.get(row.id);
    if (before) this.tally.remove(before);
    this.tally.add(row);
    if (row.decision === 'ask' && (row.answer === null || row.answer.state === 'pending')) this.open.set(row.id, row);
    else this.open.delete(row.id);
  }
}
