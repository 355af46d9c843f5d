import type { z } from 'zod';
import type { HookEvent, HookEventName } from '../types';

// What every adapter's parse shares: turning a zod error into one line that
// names what was wrong, and the result type.

function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

// zod v4 leaves the offending input out of its issues, so "missing" is decided
// by looking the path up in the body itself.
export function describeInputError(error: z.ZodError, body: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'the hook input does not match its schema';
  const where = issue.path.map(String).join('.') || 'the body';
  if (issue.code === 'invalid_type' && valueAt(body, issue.path) === undefined)
    return `the hook input is missing ${where}`;
  return `the hook input's ${where} is invalid: ${issue.message}`;
}

export function isJsonObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

export const NOT_AN_OBJECT = 'the hook input is not a JSON object';

/** One of an agent's own event names: the HookEvent it becomes and the schema its input must meet. */
export interface AgentEventSchema {
  name: HookEventName;
  schema: z.ZodType<Record<string, unknown>>;
}

/**
 * Reads an agent's hook input by its `hook_event_name`: a known event's schema, else the agent's
 * base schema as an 'Other' event. Own keys only, so an event named `constructor` is just unknown.
 */
export function parseByEventName<Base extends z.ZodType<Record<string, unknown>>>(
  body: unknown,
  events: Record<string, AgentEventSchema>,
  base: Base,
):
  | { ok: true; event: HookEvent['event']; raw: z.infer<Base> & Record<string, unknown> }
  | { ok: false; problem: string } {
  if (!isJsonObject(body)) return { ok: false, problem: NOT_AN_OBJECT };
  const name = body.hook_event_name;
  const known = typeof name === 'string' && Object.hasOwn(events, name) ? events[name] : undefined;
  const parsed = (known?.schema ?? base).safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeInputError(parsed.error, body) };
  return { ok: true, event: known?.name ?? 'Other', raw: parsed.data as z.infer<Base> & Record<string, unknown> };
}
