import type { z } from 'zod';

/** Formats a zod error as lines that name the key and the file. */
export function describeConfigIssues(file: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const key = issue.path.map(String).join('.') || '(top level)';
    if (issue.code === 'unrecognized_keys') {
      const at = issue.path.length ? `${issue.path.map(String).join('.')}: ` : '';
      return `${file}: ${at}unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) return `${file}: ${key} is missing`;
    return `${file}: ${key}: ${issue.message}`;
  });
}
