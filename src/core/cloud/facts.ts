// The block's `facts`, from the call's facts (the paths it reads, writes and deletes) and the git
// branch. Every string passes the narrow redactor, with the secrets found anywhere in the envelope.
import type { HookEvent } from '../types';
import type { ToolCall } from '../policies/types';
import { currentGitBranch } from '../project';
import { scrubParts, type ScrubOptions } from '../semantic/scrub';
import type { PathFact } from '../facts';
import type { CloudFacts } from './contract';

/** Paths listed at most, as the envelope's facts list them. */
export const MAX_CLOUD_FACT_PATHS = 64;
/** A longer string is replaced by a note of its length, as in the envelope's facts. */
const MAX_FACT_STRING = 1024;

export interface CloudFactsInput {
  event: HookEvent;
  call: ToolCall;
  projectRoot: string;
  redaction: ScrubOptions;
}

function clip(text: string): string {
  return text.length > MAX_FACT_STRING ? `[… ${text.length} characters omitted …]` : text;
}

/** Every path the call touches, once each (a path both read and written is one path). */
function touchedPaths(call: ToolCall): PathFact[] {
  const byPath = new Map<string, PathFact>();
  for (const fact of [...call.facts.deletes, ...call.facts.writes, ...call.facts.reads])
    if (!byPath.has(fact.absolute)) byPath.set(fact.absolute, fact);
  return [...byPath.values()];
}

export function cloudFactsFor(input: CloudFactsInput): CloudFacts {
  const { call, event, projectRoot } = input;
  const branch = currentGitBranch(projectRoot);
  const paths = touchedPaths(call)
    .slice(0, MAX_CLOUD_FACT_PATHS)
    .map((p) => ({ asWritten: clip(p.raw), resolved: clip(p.real ?? p.absolute), relation: p.relation }));
  const raw = {
    toolName: call.toolName,
    permissionMode: event.permissionMode ?? null,
    cwd: clip(call.cwd),
    projectRoot: clip(projectRoot),
    currentGitBranch: branch === null ? null : clip(branch),
    paths,
  };
  const [scrubbed] = scrubParts([{ name: 'facts', mode: 'narrow', value: raw }], {
    ...input.redaction,
    onSecrets: () => undefined,
  }).values as [typeof raw];
  return {
    toolName: scrubbed.toolName,
    toolClass: call.face.family,
    toolIsKnown: call.face.builtIn,
    cwd: scrubbed.cwd,
    projectRoot: scrubbed.projectRoot,
    currentGitBranch: scrubbed.currentGitBranch,
    paths: scrubbed.paths,
    permissionMode: scrubbed.permissionMode,
  };
}
