// Records and pending asks as the log and the panel see them, each different from the last
// (its own id, second and command) so that lists of them sort and key as real ones do:
//   aVerdictRecord().decision('deny', 'rm -rf / wipes the disk').build()
//   aVerdictRecord().bash('ls').with({ sessionId: 'session-b' }).row()
import type { Decision } from '../../src/core/types';
import type { VerdictRecord } from '../../src/core/verdict/record';
import type { PendingView, RowSummary } from '../../src/protocol';
import { toRowSummary } from '../../src/server/rowSummary';

let made = 0;

export class VerdictRecordBuilder {
  private readonly record: VerdictRecord;

  constructor() {
    made++;
    this.record = {
      type: 'record',
      schemaVersion: 1,
      id: `rec-${made}`,
      ts: new Date(Date.UTC(2026, 0, 1, 12, 0, made % 60)).toISOString(),
      agent: 'claude',
      event: 'PreToolUse',
      sessionId: 'session-a',
      toolName: 'Bash',
      toolInput: { command: `echo ${made}`, description: 'x' },
      argsDigest: `sha256:${'a'.repeat(64)}`,
      decision: 'allow',
      reason: 'no policy objected',
      outcomes: [],
      envelope: null,
      redactions: { count: 0, byLabel: {} },
      cut: { request: false, userSaid: false, truncated: false },
      semantic: { status: 'off', reason: null, latencyMs: null, model: null },
      approval: { state: 'none', scope: null, digest: null, answeredBy: null, answeredAt: null },
      latencyMs: 3.2,
    };
  }

  bash(command: string): this {
    this.record.toolName = 'Bash';
    this.record.toolInput = { command };
    return this;
  }

  decision(decision: Decision, reason = this.record.reason): this {
    this.record.decision = decision;
    this.record.reason = reason;
    return this;
  }

  /** Any other field, set as is. */
  with(fields: Partial<VerdictRecord>): this {
    Object.assign(this.record, fields);
    return this;
  }

  build(): VerdictRecord {
    return this.record;
  }

  /** The list's summary of the record. */
  row(): RowSummary {
    return toRowSummary(this.record);
  }
}

export function aVerdictRecord(): VerdictRecordBuilder {
  return new VerdictRecordBuilder();
}

/** An ask waiting for a person, as the panel lists it. */
export function aPendingAsk(fields: Partial<PendingView> = {}): PendingView {
  return {
    id: 'ap-1',
    recordId: 'rec-x',
    agent: 'claude',
    sessionId: 'session-a',
    toolName: 'Bash',
    toolInput: { command: 'sudo apt-get install foo' },
    digest: `sha256:${'b'.repeat(64)}`,
    reason: 'sudo runs a command as root',
    personOnly: false,
    createdAt: '2026-01-01T12:00:00.000Z',
    deadline: '2026-01-01T12:02:00.000Z',
    ...fields,
  };
}
