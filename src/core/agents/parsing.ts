import type { z } from 'zod';

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
