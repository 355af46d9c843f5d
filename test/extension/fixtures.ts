import type { VerdictRecord } from '../../src/core/verdict/record';
import type { PendingView, RowSummary } from '../../src/protocol';
import { toRowSummary } from '../../src/server/rowSummary';

let counter = 0;

export function makeRecord(over: Partial<VerdictRecord> = {}): VerdictRecord {
  counter++;
  return {
    type: 'record',
    schemaVersion: 1,
    id: `rec-${counter}`,
    ts: new Date(Date.UTC(2026, 0, 1, 12, 0, counter % 60)).toISOString(),
    agent: 'claude',
    event: 'PreToolUse',
    sessionId: 'session-a',
    toolName: 'Bash',
    toolInput: { command: `echo ${counter}`, description: 'x' },
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
    ...over,
  };
}

export function makePending(over: Partial<PendingView> = {}): PendingView {
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
    ...over,
  };
}

/** The list's summary of a record made with makeRecord. */
export function makeRow(over: Partial<VerdictRecord> = {}): RowSummary {
  return toRowSummary(makeRecord(over));
}
