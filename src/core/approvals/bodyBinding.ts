// Binding a hook call from the bytes it arrived as. The body is the whole hook JSON; the bound
// part is the tool name and the tool input. A duplicate key matters inside the tool input, and
// on the way to either bound field when the repeated key is the one that leads there (two
// "tool_input" members at $): those change what the tool would run. A repeated "cwd" beside them
// does not touch the bound bytes and is left to the hook's own schema. Paths are relative to the
// whole body, e.g. `a duplicate key "command" at $.tool_input`.
//
// The digest is taken over the values JSON.parse gives for these bytes, not over a copy that a
// schema rebuilt (a rebuilt object may drop or reorder what the tool will see), so the server
// should keep `toolInput` from this result for the pending approval.

import { abbreviate, formatPath, type PathSegment } from './jsonPath';
import { bindArgs, HOOK_BODY_LOCATIONS, type BoundLocations } from './digest';
import { scanJsonText } from './rawJsonScan';

export type BodyBinding =
  { ok: true; toolName: string; toolInput: unknown; digest: string } | { ok: false; problem: string };

const MAX_LITERAL_CHARS = 24;

export function bindableFromBody(bodyText: string, where: BoundLocations = HOOK_BODY_LOCATIONS): BodyBinding {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `text that is not valid JSON (${abbreviate(detail, 120)}) at $` };
  }
  const rawProblem = findRawProblem(bodyText, where);
  if (rawProblem !== null) return { ok: false, problem: rawProblem };

  const toolName = valueAt(body, where.toolName);
  if (typeof toolName !== 'string')
    return { ok: false, problem: `no tool name string at ${formatPath(where.toolName)}` };
  const toolInput = valueAt(body, where.toolInput);
  if (toolInput === undefined) return { ok: false, problem: `no tool input at ${formatPath(where.toolInput)}` };
  const binding = bindArgs(toolName, toolInput, where);
  return binding.ok ? { ok: true, toolName, toolInput, digest: binding.digest } : binding;
}

/** The first duplicate key or overflowing literal, in text order, that reaches the bound part. */
export function findRawProblem(jsonText: string, where: BoundLocations): string | null {
  let problem: string | null = null;
  try {
    scanJsonText(jsonText, {
      onDuplicateKey(key, objectPath) {
        if (!duplicateMatters(key, objectPath, where)) return false;
        problem = `a duplicate key ${JSON.stringify(abbreviate(key, 40))} at ${formatPath(objectPath)}`;
        return true;
      },
      onNonFiniteNumber(literal, path) {
        if (!startsWith(path, where.toolInput)) return false;
        problem = `a number that is not finite (${abbreviate(literal, MAX_LITERAL_CHARS)}) at ${formatPath(path)}`;
        return true;
      },
      onInexactNumber(literal, path) {
        if (!startsWith(path, where.toolInput)) return false;
        problem = `a number whose text does not round-trip (${abbreviate(literal, MAX_LITERAL_CHARS)} reads as ${abbreviate(String(Number(literal)), MAX_LITERAL_CHARS)}) at ${formatPath(path)}`;
        return true;
      },
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `text that is not valid JSON (${detail}) at $`;
  }
  return problem;
}

function duplicateMatters(key: string, objectPath: readonly PathSegment[], where: BoundLocations): boolean {
  if (startsWith(objectPath, where.toolInput)) return true;
  return leadsTo(key, objectPath, where.toolInput) || leadsTo(key, objectPath, where.toolName);
}

/** Whether `key` in the object at `objectPath` is the next step on the way to `target`. */
function leadsTo(key: string, objectPath: readonly PathSegment[], target: readonly PathSegment[]): boolean {
  return objectPath.length < target.length && startsWith(target, objectPath) && target[objectPath.length] === key;
}

function startsWith(path: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  if (path.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) if (path[index] !== prefix[index]) return false;
  return true;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(current) || segment >= current.length) return undefined;
      current = current[segment];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
      if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}
