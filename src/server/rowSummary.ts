import { adapterFor } from '../core/agents';
import { builtInFace } from '../core/config/faces';
import type { VerdictRecord } from '../core/verdict/record';
import {
  finalOutcome,
  isPromptEvent,
  orgDecided,
  type AnswerSource,
  type RowAnswer,
  type RowOutcome,
  type RowSummary,
} from '../protocol';

// A record as the list shows it. The host computes the one-line summary (it
// knows the tool faces), who answered an ask, and what the agent was told, so
// the webview holds no core code and no full records.

const SUMMARY_MAX = 160;
const TOOL_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'BeforeTool', 'preToolUse', 'beforeShellExecution']);

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function clip(text: string, max = SUMMARY_MAX): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/**
 * The argument summary of a row: the tool face's summary parameters (the
 * command, the path, the URL) when it has them, else the first string argument.
 */
export function summarizeArgs(toolName: string | null, toolInput: unknown): string {
  if (typeof toolInput !== 'object' || toolInput === null || Array.isArray(toolInput)) return '';
  const input = toolInput as Record<string, unknown>;
  const params = toolName ? (builtInFace(toolName)?.summary ?? []) : [];
  const parts = params.filter((p) => input[p] !== undefined).map((p) => asText(input[p]));
  if (parts.length) return clip(parts.join(' · '));
  const firstString = Object.values(input).find((v) => typeof v === 'string');
  return clip(firstString !== undefined ? asText(firstString) : asText(input));
}

/** Who gave an answer, from the ledger's answeredBy and the approval's state. */
export function answerSource(approval: VerdictRecord['approval']): AnswerSource | null {
  switch (approval.state) {
    case 'none':
    case 'pending':
      return null;
    case 'licensed':
      return 'licence';
    case 'expired':
      return approval.note === 'agent-prompt' ? "agent's prompt" : 'expiry';
    case 'withdrawn':
      return approval.note === 'agent-prompt' ? "agent's prompt" : 'withdrawn';
  }
  switch (approval.answeredBy) {
    case 'vscode-panel':
      return 'panel';
    case 'vscode-notification':
      return 'notification';
    case 'web-panel':
      return 'web panel';
    default:
      return 'someone else';
  }
}

function rowAnswer(record: VerdictRecord): RowAnswer | null {
  const a = record.approval;
  if (a.state === 'none') return null;
  return { state: a.state, source: answerSource(a), scope: a.scope, at: a.answeredAt, edited: a.edited === true };
}

/** What happened to the call in the end, as the row's badge says it. */
export function rowOutcome(record: VerdictRecord, kind: RowSummary['kind']): RowOutcome {
  return kind === 'event' ? 'event' : finalOutcome(record);
}

/** Tool calls are rows; prompts, tool results and turn ends are session events. */
export function rowKind(record: VerdictRecord): RowSummary['kind'] {
  return record.toolName !== null && TOOL_EVENTS.has(record.event) ? 'call' : 'event';
}

/** Ties a call's other events to it: PostToolUse by its tool use id, PermissionRequest (which has none) by its arguments. */
function callKeys(record: VerdictRecord): string[] {
  const keys: string[] = [];
  if (record.toolUseId) keys.push(`use:${record.toolUseId}`);
  if (record.toolName && record.argsDigest)
    keys.push(`args:${record.sessionId}:${record.toolName}:${record.argsDigest}`);
  return keys;
}

/** The person's words of a prompt event, as the record kept them (the envelope's latest, redacted). */
function promptText(record: VerdictRecord, kind: RowSummary['kind']): string | undefined {
  if (!isPromptEvent({ kind, event: record.event })) return undefined;
  const said = record.envelope?.userSaid;
  const last = said?.[said.length - 1];
  return last ? clip(last) : undefined;
}

export function toRowSummary(record: VerdictRecord): RowSummary {
  const kind = rowKind(record);
  const prompt = promptText(record, kind);
  const summary =
    record.toolName !== null
      ? summarizeArgs(record.toolName, record.toolInput)
      : summarizeArgs(null, record.toolInput) || record.reason;
  const policies = [...new Set(record.outcomes.filter((o) => o.verdict !== 'allow').map((o) => o.policy))];
  const semanticSkipped = record.semantic.status === 'off' && (record.semantic.reason ?? '').startsWith('not asked');
  return {
    id: record.id,
    ts: record.ts,
    agent: record.agent,
    agentName: adapterFor(record.agent)?.displayName ?? record.agent,
    sessionId: record.sessionId,
    kind,
    event: record.event,
    toolName: record.toolName,
    callKeys: callKeys(record),
    summary,
    ...(prompt ? { prompt } : {}),
    decision: record.decision,
    outcome: rowOutcome(record, kind),
    answer: rowAnswer(record),
    policies,
    redactedInCall: record.redactions.inArguments ?? record.redactions.count,
    cut: record.cut.request || record.cut.userSaid || record.cut.truncated,
    semantic: {
      status: semanticSkipped ? 'skipped' : record.semantic.status,
      reason: record.semantic.reason,
      wouldDecide: record.semantic.wouldDecide ?? null,
    },
    paused: record.paused === true,
    orgDecided: orgDecided(record),
    failed: record.failure !== undefined,
    latencyMs: record.latencyMs,
    searchText:
      `${record.toolName ?? record.event} ${summary} ${prompt ?? ''} ${record.reason} ${policies.join(' ')}`.toLowerCase(),
  };
}
