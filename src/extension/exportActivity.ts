import { z } from 'zod';
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
      String(r.latencyMs),
      r.id,
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

export function toJsonl(records: VerdictRecord[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
}

/** An approval line of the log, as far as the export needs it. */
const approvalLineSchema = z.object({
  type: z.literal('approval'),
  recordId: z.string(),
  approvalId: z.string().optional(),
  answer: z.string(),
  decision: z.string(),
  scope: z.enum(['once', 'session']).nullable().optional(),
  digest: z.string().nullable().optional(),
  answeredBy: z.string().nullable().optional(),
  answeredAt: z.string().nullable().optional(),
  edited: z.boolean().optional(),
  reason: z.string().optional(),
});
type ApprovalLogLine = z.infer<typeof approvalLineSchema>;

/**
 * The log keeps a call's record and, later, its approval line: the export
 * joins them, so every asked call says how it ended and who answered.
 */
export function recordsWithAnswers(
  entries: Record<string, unknown>[],
  parse: (e: unknown) => VerdictRecord | null,
): VerdictRecord[] {
  const records = new Map<string, VerdictRecord>();
  for (const entry of entries) {
    if (entry.type === 'record') {
      const record = parse(entry);
      if (record) records.set(record.id, record);
      continue;
    }
    const line = approvalLineSchema.safeParse(entry);
    if (!line.success) continue;
    const record = records.get(line.data.recordId);
    if (record) record.approval = approvalFromLine(line.data, record.approval);
  }
  return [...records.values()];
}

function approvalFromLine(line: ApprovalLogLine, was: VerdictRecord['approval']): VerdictRecord['approval'] {
  const base = {
    scope: line.scope ?? null,
    digest: line.digest ?? null,
    answeredBy: line.answeredBy ?? null,
    answeredAt: line.answeredAt ?? null,
    ...(line.approvalId ? { approvalId: line.approvalId } : {}),
  };
  switch (line.answer) {
    case 'licence':
      return { ...base, state: 'licensed' };
    case 'expired':
    case 'withdrawn':
      return { ...base, state: line.answer, note: line.reason ?? line.answer };
    case 'approve':
    case 'refuse':
      return {
        ...base,
        state: line.decision === 'allow' ? 'approved' : 'refused',
        ...(line.edited === true && line.decision === 'allow' ? { edited: true } : {}),
      };
    default:
      return was;
  }
}
