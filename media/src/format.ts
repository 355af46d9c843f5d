import { builtInFace } from '../../src/shared/protocol';

// Short, plain-text renderings of a call for its row.

const SUMMARY_MAX = 160;

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
