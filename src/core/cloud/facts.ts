// The block's `facts`, from what the semantic tier already computed for the call (its target
// scan, the git branch). The one place that builds them, so the call-facts module can take its
// place; every string passes the narrow redactor, with the secrets found anywhere in the envelope.
import type { HookEvent } from '../types';
import type { ToolCall } from '../policies/types';
import { currentGitBranch } from '../project';
import { scrubParts, type ScrubOptions } from '../semantic/scrub';
import type { TargetScan } from '../semantic/targets';
import type { CloudFacts } from './contract';

/** Paths listed at most, as the envelope's facts list them. */
export const MAX_CLOUD_FACT_PATHS = 64;
/** A longer string is replaced by a note of its length, as in the envelope's facts. */
const MAX_FACT_STRING = 1024;

export interface CloudFactsInput {
  event: HookEvent;
  call: ToolCall;
  projectRoot: string;
  scan: TargetScan;
  redaction: ScrubOptions;
}

function clip(text: string): string {
  return text.length > MAX_FACT_STRING ? `[… ${text.length} characters omitted …]` : text;
}

export function cloudFactsFor(input: CloudFactsInput): CloudFacts {
  const { call, event, projectRoot, scan } = input;
  const branch = currentGitBranch(projectRoot);
  const paths = scan.targets
    .filter((t) => t.kind === 'path')
    .slice(0, MAX_CLOUD_FACT_PATHS)
    .map((t) => ({ asWritten: clip(t.text), resolved: clip(t.absolute ?? t.text), relation: t.relation ?? null }));
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
