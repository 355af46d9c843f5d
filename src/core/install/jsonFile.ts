import { existsSync, readFileSync } from 'node:fs';

/** An agent's settings or hook file as a JSON object. */
export type JsonObject = Record<string, unknown>;

/**
 * Reads an agent's settings file for an installer: its text (null when absent) and its object
 * (empty when absent or blank). A file that is not a JSON object is an error naming it: an
 * installer must never overwrite what it could not read.
 */
export function readJsonObject(path: string): { text: string | null; json: JsonObject } {
  if (!existsSync(path)) return { text: null, json: {} };
  const text = readFileSync(path, 'utf8');
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON (${(err as Error).message}); fix it by hand before installing`, {
      cause: err,
    });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error(`${path} does not hold a JSON object`);
  return { text, json: json as JsonObject };
}
