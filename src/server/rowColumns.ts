import { bytes, floats, type NumberColumn } from '../core/activity/slots';
import { ANSWER_SOURCES, OUTCOME_LABELS, type RowOutcome, type RowSummary } from '../protocol';

// Row summaries kept as columns, one entry per slot: the small closed sets (kind, decision, outcome,
// the answer's state) as bytes, the numbers as floats, the strings in arrays of the pool's copies.
// Written as objects, a row was about 18 small objects (the summary, its semantic and answer parts,
// two lists) that died in the order they came; V8 then kept its old generation about twice as large
// as what was live. Here a row adds to the heap only the strings no other row shares.

const KINDS: readonly RowSummary['kind'][] = ['call', 'event'];
const DECISIONS: readonly RowSummary['decision'][] = ['allow', 'instruct', 'ask', 'deny'];
const OUTCOMES = Object.keys(OUTCOME_LABELS) as RowOutcome[];
const SEMANTIC: readonly RowSummary['semantic']['status'][] = ['off', 'ok', 'degraded', 'observe', 'skipped'];
const ANSWER_STATES: readonly NonNullable<RowSummary['answer']>['state'][] = [
  'pending',
  'approved',
  'refused',
  'expired',
  'withdrawn',
  'licensed',
];
const SCOPES: readonly ('once' | 'session')[] = ['once', 'session'];

const CUT = 1;
const PAUSED = 2;
const ORG_DECIDED = 4;
const FAILED = 8;
const ANSWERED = 16;
const EDITED = 32;

/** Lists are kept as one string, each item after a character no policy name or call key holds. */
const JOIN = '\u0000';

type Pool = (text: string) => string;

/** A closed set's value as its place (0 for null), or -1 when it is not in the set. */
function codeOf<T>(values: readonly T[], value: T | null): number {
  return value === null ? 0 : values.indexOf(value) + 1 || -1;
}

function valueOf<T>(values: readonly T[], code: number): T | null {
  return code === 0 ? null : values[code - 1]!;
}

/** An ISO time kept as its number when it reads back the same; else its text is kept. */
function timeCode(ts: string): number {
  const at = Date.parse(ts);
  return Number.isFinite(at) && new Date(at).toISOString() === ts ? at : NaN;
}

export class RowColumns {
  private readonly texts = {
    id: [] as string[],
    agent: [] as string[],
    agentName: [] as string[],
    sessionId: [] as string[],
    event: [] as string[],
    toolName: [] as (string | null)[],
    callKeys: [] as string[],
    summary: [] as string[],
    prompt: [] as (string | undefined)[],
    policies: [] as string[],
    semanticReason: [] as (string | null)[],
    searchText: [] as string[],
    /** Set only for a time that is not an ISO time (its number is NaN). */
    ts: [] as (string | undefined)[],
    answerAt: [] as (string | null)[],
  };
  private readonly at: NumberColumn;
  private readonly latency: NumberColumn;
  private readonly markers: NumberColumn;
  private readonly kind: NumberColumn<Uint8Array>;
  private readonly decision: NumberColumn<Uint8Array>;
  private readonly outcome: NumberColumn<Uint8Array>;
  private readonly semantic: NumberColumn<Uint8Array>;
  private readonly wouldDecide: NumberColumn<Uint8Array>;
  private readonly answerState: NumberColumn<Uint8Array>;
  private readonly answerSource: NumberColumn<Uint8Array>;
  private readonly answerScope: NumberColumn<Uint8Array>;
  private readonly flags: NumberColumn<Uint8Array>;
  /** A row some part of which the columns cannot hold (a value outside its set, a list holding JOIN) is kept whole. */
  private readonly whole = new Map<number, RowSummary>();

  constructor(
    capacity: number,
    private readonly pool: Pool,
  ) {
    this.at = floats(capacity);
    this.latency = floats(capacity);
    this.markers = floats(capacity);
    this.kind = bytes(capacity);
    this.decision = bytes(capacity);
    this.outcome = bytes(capacity);
    this.semantic = bytes(capacity);
    this.wouldDecide = bytes(capacity);
    this.answerState = bytes(capacity);
    this.answerSource = bytes(capacity);
    this.answerScope = bytes(capacity);
    this.flags = bytes(capacity);
  }

  write(slot: number, row: RowSummary): void {
    this.release(slot);
    const answer = row.answer;
    const codes = [
      codeOf(KINDS, row.kind),
      codeOf(DECISIONS, row.decision),
      codeOf(OUTCOMES, row.outcome),
      codeOf(SEMANTIC, row.semantic.status),
      codeOf(DECISIONS, row.semantic.wouldDecide),
      codeOf(ANSWER_STATES, answer?.state ?? null),
      codeOf(ANSWER_SOURCES, answer?.source ?? null),
      codeOf(SCOPES, answer?.scope ?? null),
    ];
    const lists = [row.callKeys, row.policies];
    if (codes.includes(-1) || lists.some((list) => list.some((item) => item.includes(JOIN)))) {
      this.whole.set(slot, row);
      this.texts.id[slot] = row.id;
      return;
    }
    const [kind, decision, outcome, semantic, wouldDecide, answerState, answerSource, answerScope] = codes as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    this.kind.set(slot, kind);
    this.decision.set(slot, decision);
    this.outcome.set(slot, outcome);
    this.semantic.set(slot, semantic);
    this.wouldDecide.set(slot, wouldDecide);
    this.answerState.set(slot, answerState);
    this.answerSource.set(slot, answerSource);
    this.answerScope.set(slot, answerScope);
    this.flags.set(
      slot,
      (row.cut ? CUT : 0) |
        (row.paused ? PAUSED : 0) |
        (row.orgDecided ? ORG_DECIDED : 0) |
        (row.failed ? FAILED : 0) |
        (answer ? ANSWERED : 0) |
        (answer?.edited ? EDITED : 0),
    );
    const at = timeCode(row.ts);
    this.at.set(slot, at);
    this.latency.set(slot, row.latencyMs);
    this.markers.set(slot, row.redactedInCall);
    const texts = this.texts;
    const pool = this.pool;
    texts.id[slot] = row.id;
    texts.ts[slot] = Number.isNaN(at) ? row.ts : undefined;
    texts.agent[slot] = pool(row.agent);
    texts.agentName[slot] = pool(row.agentName);
    texts.sessionId[slot] = pool(row.sessionId);
    texts.event[slot] = pool(row.event);
    texts.toolName[slot] = row.toolName === null ? null : pool(row.toolName);
    texts.callKeys[slot] = pool(joined(row.callKeys));
    texts.summary[slot] = pool(row.summary);
    texts.prompt[slot] = row.prompt;
    texts.policies[slot] = pool(joined(row.policies));
    texts.semanticReason[slot] = row.semantic.reason === null ? null : pool(row.semantic.reason);
    texts.searchText[slot] = pool(row.searchText);
    texts.answerAt[slot] = answer?.at ?? null;
  }

  read(slot: number): RowSummary {
    const kept = this.whole.get(slot);
    if (kept) return kept;
    const texts = this.texts;
    const flags = this.flags.get(slot);
    const prompt = texts.prompt[slot];
    return {
      id: texts.id[slot]!,
      ts: texts.ts[slot] ?? new Date(this.at.get(slot)).toISOString(),
      agent: texts.agent[slot]!,
      agentName: texts.agentName[slot]!,
      sessionId: texts.sessionId[slot]!,
      kind: valueOf(KINDS, this.kind.get(slot))!,
      event: texts.event[slot]!,
      toolName: texts.toolName[slot] ?? null,
      callKeys: listOf(texts.callKeys[slot]!),
      summary: texts.summary[slot]!,
      ...(prompt !== undefined ? { prompt } : {}),
      decision: valueOf(DECISIONS, this.decision.get(slot))!,
      outcome: valueOf(OUTCOMES, this.outcome.get(slot))!,
      answer:
        flags & ANSWERED
          ? {
              state: valueOf(ANSWER_STATES, this.answerState.get(slot))!,
              source: valueOf(ANSWER_SOURCES, this.answerSource.get(slot)),
              scope: valueOf(SCOPES, this.answerScope.get(slot)),
              at: texts.answerAt[slot] ?? null,
              edited: (flags & EDITED) !== 0,
            }
          : null,
      policies: listOf(texts.policies[slot]!),
      redactedInCall: this.markers.get(slot),
      cut: (flags & CUT) !== 0,
      semantic: {
        status: valueOf(SEMANTIC, this.semantic.get(slot))!,
        reason: texts.semanticReason[slot] ?? null,
        wouldDecide: valueOf(DECISIONS, this.wouldDecide.get(slot)),
      },
      paused: (flags & PAUSED) !== 0,
      orgDecided: (flags & ORG_DECIDED) !== 0,
      failed: (flags & FAILED) !== 0,
      latencyMs: this.latency.get(slot),
      searchText: texts.searchText[slot]!,
    };
  }

  /** Lets go of a slot's strings (its id gave it up), so they do not outlive the row. */
  release(slot: number): void {
    this.whole.delete(slot);
    for (const column of Object.values(this.texts)) if (slot < column.length) column[slot] = undefined as never;
  }
}

/** `[]` is '', `['']` is JOIN: every item, empty ones too, reads back. */
function joined(list: readonly string[]): string {
  // join() builds one flat string; `+=` would keep a tree of its parts alive for every row.
  return list.length ? JOIN + list.join(JOIN) : '';
}

function listOf(text: string): string[] {
  return text === '' ? [] : text.slice(1).split(JOIN);
}
