import type { CallRecord, RowSummary } from '../../src/protocol';

// Short, plain-text renderings for rows and details.

export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1) return '<1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(11, 19);
}

/** Seconds left before a deadline, never negative. */
export function secondsLeft(deadlineIso: string, now: number): number {
  const at = Date.parse(deadlineIso);
  if (Number.isNaN(at)) return 0;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

export function formatCountdown(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** Who answered an ask, and how, in a few words for the row ("by you in the panel", "licence"). */
export function answerText(row: Pick<RowSummary, 'answer'>): string {
  const a = row.answer;
  if (!a) return '';
  const scope = a.scope === 'session' ? ' for the session' : '';
  switch (a.state) {
    case 'pending':
      return 'waiting for a person';
    case 'licensed':
      return `session licence`;
    case 'expired':
      return a.source === "agent's prompt" ? "sent to the agent's prompt" : "no answer in time: agent's prompt";
    case 'withdrawn':
      return a.source === "agent's prompt" ? "answered at the agent's prompt" : 'withdrawn';
    default:
      return `${a.edited ? 'edited, ' : ''}by ${a.source === 'someone else' || !a.source ? 'someone else' : `the ${a.source}`}${scope}`;
  }
}

/** The semantic tier's state as a chip, or nothing when it has nothing to say. */
export function semanticChip(row: Pick<RowSummary, 'semantic'>): { text: string; cls: string; title: string } | null {
  const s = row.semantic;
  if (s.status === 'degraded')
    return { text: 'judge degraded', cls: 'degraded', title: s.reason ?? 'the semantic tier could not answer' };
  if (s.status === 'observe' && s.wouldDecide && s.wouldDecide !== 'allow')
    return {
      text: `judge: would ${s.wouldDecide}`,
      cls: 'observe',
      title: `observe mode: enforcing would have answered ${s.wouldDecide}. ${s.reason ?? ''}`.trim(),
    };
  return null;
}

/** The approval line of a call's detail: what became of its ask, and who answered. */
export function approvalLine(approval: CallRecord['approval']): string | null {
  if (approval.state === 'none') return null;
  const by = approval.answeredBy ? ` by ${approval.answeredBy}` : '';
  const at = approval.answeredAt ? ` at ${formatTime(approval.answeredAt)}` : '';
  const scope = approval.scope === 'session' ? ' for the session' : approval.scope === 'once' ? ' once' : '';
  switch (approval.state) {
    case 'pending':
      return 'Approval: waiting for a person.';
    case 'approved':
      return `Approval: approved${scope}${approval.edited ? ' with edited arguments' : ''}${by}${at}.`;
    case 'refused':
      return `Approval: refused${by}${at}.`;
    case 'licensed':
      return `Approval: allowed by a session licence granted${by}${at}.`;
    case 'expired':
      return `Approval: nobody answered in time${at}; the call went to the agent's own prompt.`;
    case 'withdrawn':
      return `Approval: withdrawn${at}${approval.note ? ` (${approval.note === 'agent-prompt' ? "answered at the agent's prompt" : approval.note})` : ''}.`;
  }
}

/** The cut flags in words, for the detail view. */
export function explainCut(cut: { request: boolean; userSaid: boolean; truncated: boolean }): string[] {
  const words: string[] = [];
  if (cut.request)
    words.push('The request was cut to fit the judge’s budget: the judge did not see all of the arguments.');
  if (cut.userSaid) words.push('Older things the person said were left out: the judge saw only the most recent ones.');
  if (cut.truncated) words.push('Some text was truncated inside the envelope (long values end with an ellipsis).');
  return words;
}

export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
