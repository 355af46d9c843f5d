import type { VerdictRecord } from '../core/verdict/record';
import { answerSource, rowOutcome, rowKind, summarizeArgs } from '../server/rowSummary';

// Activity export: JSONL (every field) or CSV (one row per call, the columns a
// spreadsheet needs). Records in the log are already redacted.

export const CSV_COLUMNS = [
  'ts',
  'agent',
  'event',
  'sessionId',
  'toolName',
  'command',
  'decision',
  'outcome',
  'reason',
  'policies',
  'redactions',
  'cut',
  'semantic',
  'approval',
  'answeredBy',
  'answeredAt',
  'message',
  'ranCommand',
  'latencyMs',
  'id',
] as const;

function csvCell(value: string): string {
  // Cells that a spreadsheet would run as a formula are prefixed, so an agent's text cannot execute there.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(records: VerdictRecord[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of records) {
    const cut = r.cut.request || r.cut.userSaid || r.cut.truncated;
    const cells = [
      r.ts,
      r.agent,
      r.event,
      r.sessionId,
      r.toolName ?? '',
      summarizeArgs(r.toolName, r.toolInput),
      r.decision,
      rowOutcome(r, rowKind(r)),
      r.reason,
      r.outcomes
        .filter((o) => o.verdict !== 'allow')
        .map((o) => o.policy)
        .join(' '),
      String(r.redactions.count),
      cut ? 'yes' : 'no',
      r.semantic.status,
      r.approval.state,
      r.approval.answeredBy ?? answerSource(r.approval) ?? '',
      r.approval.answeredAt ?? '',
      r.approval.message ?? '',
      ranCommand(r),
      String(r.latencyMs),
      r.id,
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** What ran after a person edited the arguments, summarised like the command column; empty when nothing was edited. */
function ranCommand(r: VerdictRecord): string {
  return r.approval.ranInput === undefined ? '' : summarizeArgs(r.toolName, r.approval.ranInput);
}

export function toJsonl(records: VerdictRecord[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
}

export { recordsWithAnswers } from '../core/activity/answers';
