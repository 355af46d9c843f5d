// The exact-args digest: what an approval licenses. It covers the tool's name and its whole
// input, so an approval of `Write` with these bytes says nothing about `Edit` with the same bytes.

import { createHash } from 'node:crypto';
import { checkBindable, MAX_NESTING_DEPTH } from './bindable';
import { canonicalJson, writeIfBindable } from './canonical';
import { escapeCodeUnit, findLoneSurrogate } from './surrogates';
import { formatPath, type PathSegment } from './jsonPath';

export const DIGEST_PREFIX = 'sha256:';

export type ArgsBinding = { ok: true; digest: string } | { ok: false; problem: string };

export class NotBindableError extends Error {
  override name = 'NotBindableError';
  constructor(readonly problem: string) {
    super(`the arguments are not bindable: ${problem}`);
  }
}

/** Where the two bound fields sit, for problem sentences (the hook body's own names by default). */
export interface BoundLocations {
  toolName: readonly PathSegment[];
  toolInput: readonly PathSegment[];
}

export const HOOK_BODY_LOCATIONS: BoundLocations = { toolName: ['tool_name'], toolInput: ['tool_input'] };

/**
 * The digest of the call, or the sentence saying why these arguments cannot be bound.
 * This sees the parsed value only; for raw bytes use bindableFromBody, which also finds
 * duplicate keys and overflowing literals.
 */
export function bindArgs(
  toolName: string,
  toolInput: unknown,
  where: BoundLocations = HOOK_BODY_LOCATIONS,
): ArgsBinding {
  const lone = findLoneSurrogate(toolName);
  if (lone !== null) {
    return {
      ok: false,
      problem: `a lone surrogate ${escapeCodeUnit(lone)} in a string at ${formatPath(where.toolName)}`,
    };
  }
  // The common case in one walk: bindable input written straight to its canonical form.
  const hash = createHash('sha256').update('{"tool_input":');
  if (writeIfBindable(toolInput, MAX_NESTING_DEPTH, (chunk) => hash.update(chunk, 'utf8')))
    return { ok: true, digest: DIGEST_PREFIX + hash.update(`,"tool_name":${JSON.stringify(toolName)}}`).digest('hex') };
  const bindable = checkBindable(toolInput, where.toolInput);
  if (!bindable.ok) return bindable;
  return { ok: true, digest: digestOfCanonical(canonicalJson({ tool_name: toolName, tool_input: toolInput })) };
}

/** `sha256:` + hex SHA-256 of the UTF-8 canonical JSON of {"tool_name": N, "tool_input": A}; throws NotBindableError. */
export function argsDigest(toolName: string, toolInput: unknown): string {
  const binding = bindArgs(toolName, toolInput);
  if (!binding.ok) throw new NotBindableError(binding.problem);
  return binding.digest;
}

function digestOfCanonical(canonical: string): string {
  return DIGEST_PREFIX + createHash('sha256').update(canonical, 'utf8').digest('hex');
}
