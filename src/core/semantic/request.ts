// The call as the judge sees it: the tool and its arguments, the shell command without its comments
// (they go to the envelope apart, labelled), bounded so that redacting it costs the same whatever
// the call's size.
import type { ToolCall } from '../policies/types';
import { bound, sanitize } from './caps';

/** Arrays and objects longer than this keep their first and last members. */
export const MAX_MEMBERS = 256;
/** Deeper values are replaced by a note; real tool inputs are a few levels deep. */
export const MAX_DEPTH = 24;

export const COMMENT_LABEL = 'shell comment (not executed):';

export interface CallView {
  request: { tool: string; input: Record<string, unknown> };
  comments: string[];
}

/** The tool call with the shell command's comments moved out. */
export function viewCall(call: ToolCall): CallView {
  const input: Record<string, unknown> = { ...call.input };
  const comments: string[] = [];
  if (call.shell) {
    const param = call.face.commandParam ?? 'command';
    input[param] = call.shell.withoutComments.trimEnd();
    for (const comment of call.shell.comments) comments.push(`${COMMENT_LABEL} ${comment.trim()}`);
  }
  return { request: { tool: call.toolName, input }, comments };
}

function totalStringLength(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length;
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return 0;
  let total = 0;
  for (const member of Array.isArray(value) ? value : Object.values(value))
    total += totalStringLength(member, depth + 1);
  return total;
}

interface BoundState {
  /** Characters each long string may keep, in proportion to its share of the total. */
  limitFor(length: number): number;
  cut: boolean;
}

function keepEnds<T>(items: T[], state: BoundState): { head: T[]; tail: T[]; dropped: number } {
  if (items.length <= MAX_MEMBERS) return { head: items, tail: [], dropped: 0 };
  state.cut = true;
  const half = MAX_MEMBERS / 2;
  return { head: items.slice(0, half), tail: items.slice(items.length - half), dropped: items.length - MAX_MEMBERS };
}

function boundMember(value: unknown, state: BoundState, depth: number): unknown {
  if (typeof value === 'string') {
    const limit = state.limitFor(value.length);
    if (value.length > limit) state.cut = true;
    return bound(value, limit);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) {
    state.cut = true;
    return '[… nested value omitted …]';
  }
  if (Array.isArray(value)) {
    const { head, tail, dropped } = keepEnds(value, state);
    const bounded = head.map((item) => boundMember(item, state, depth + 1));
    if (dropped)
      bounded.push(`[… ${dropped} more items …]`, ...tail.map((item) => boundMember(item, state, depth + 1)));
    return bounded;
  }
  const { head, tail, dropped } = keepEnds(Object.entries(value as Record<string, unknown>), state);
  const out: Record<string, unknown> = {};
  for (const [key, member] of head) out[sanitize(key)] = boundMember(member, state, depth + 1);
  if (dropped) out['…'] = `[… ${dropped} more members …]`;
  for (const [key, member] of tail) out[sanitize(key)] = boundMember(member, state, depth + 1);
  return out;
}

/**
 * Bounds every string so that all of them together hold about `limit` characters (each in
 * proportion to its length), and long arrays and objects to their ends. `cut` tells whether
 * anything was left out.
 */
export function boundValue<T>(value: T, limit: number): { value: T; cut: boolean } {
  const total = totalStringLength(value, 0);
  const state: BoundState = {
    cut: false,
    limitFor: (length) =>
      total <= limit ? Number.MAX_SAFE_INTEGER : Math.max(256, Math.floor((limit * length) / total)),
  };
  return { value: boundMember(value, state, 0) as T, cut: state.cut };
}
