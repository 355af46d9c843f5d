import { z } from 'zod';
import type { VerdictRecord } from '../verdict/record';

// A call's record is one log line and its answer a later one: readers of the log (the export, a host
// listing its rows again after a restart) join them, so every asked call says how it ended.

/** An approval line of the log, as far as its readers need it. */
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
  ranInput: z.record(z.string(), z.unknown()).optional(),
  message: z.string().optional(),
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
        ...(line.ranInput !== undefined && line.decision === 'allow' ? { ranInput: line.ranInput } : {}),
        ...(line.message !== undefined ? { message: line.message } : {}),
      };
    default:
      return was;
  }
}
