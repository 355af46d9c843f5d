// The `cloud` block of a review request: the call's metadata, so Cloud decides its checks on the
// evidence the machine decides its own on. Everything in it passes the redactor first, and every
// change redaction or a cap makes goes in the stricter direction: Cloud may then be stricter than
// the machine, never laxer.
import type { HookEvent } from '../types';
import type { ToolCall } from '../policies/types';
import { capText, widenSeams } from '../semantic/caps';
import type { BuiltEnvelope } from '../semantic/envelope';
import { MAX_NAMED_TARGETS } from '../semantic/naming';
import { scrubParts, type ScrubOptions } from '../semantic/scrub';
import {
  CLOUD_BLOCK_VERSION_WITH_AGENT,
  MAX_CLOUD_BLOCK_BYTES,
  REDACTED_SAID,
  WARDEN_INTENT_MODE,
  type CloudBlock,
} from './contract';
import { cloudFactsFor } from './facts';
import { capTargetScan, hideSecretWords, namingReading, targetGroups } from './target-scan';

export interface CloudBlockInput {
  event: HookEvent;
  call: ToolCall;
  projectRoot: string;
  built: BuiltEnvelope;
  /** The machine's own semantic policies asked about this call, in order. */
  localPolicies: string[];
  machineId: string;
  /** The envelope's cap on each of the person's turns. */
  humanTurnCap: number;
  redaction: ScrubOptions;
}

const REDACTION_MARKER = /<redacted:[^<>]*>/g;

/** Markers name what they hid ("github-token"); in the block they become a letterless placeholder. */
export function withoutMarkerLabels(text: string): string {
  return text.replace(REDACTION_MARKER, REDACTED_SAID);
}

export function blockBytes(block: CloudBlock): number {
  return Buffer.byteLength(JSON.stringify(block), 'utf8');
}

/** The person's turns as the block carries them: blunt redaction, then cut like the envelope's. */
function personTurns(input: CloudBlockInput): string[] {
  const { sources } = input.built;
  if (sources.userTurns.length === 0) return [];
  const [turns] = scrubParts([{ name: 'userSaid', mode: 'blunt', value: sources.userTurns }], {
    ...input.redaction,
    knownSecrets: [...(input.redaction.knownSecrets ?? []), ...sources.secrets],
    onSecrets: () => undefined,
  }).values as [string[]];
  return turns.map((turn) => withoutMarkerLabels(capText(widenSeams(turn), input.humanTurnCap).text));
}

/**
 * Brings the block under MAX_CLOUD_BLOCK_BYTES: first the person's turns go (`[""]` still says a
 * person spoke; with no words no consent can be read), then the target groups; each step marks
 * the scan incomplete.
 */
export function fitBlock(block: CloudBlock, cap = MAX_CLOUD_BLOCK_BYTES): CloudBlock {
  let fitted = block;
  if (blockBytes(fitted) > cap) {
    fitted = {
      ...fitted,
      userSaid: fitted.userSaid.length > 0 ? [''] : [],
      userSaidCut: false,
      targetScan: { ...fitted.targetScan, complete: false },
    };
  }
  if (blockBytes(fitted) > cap) fitted = { ...fitted, targetScan: { groups: [], complete: false } };
  return fitted;
}

export function buildCloudBlock(input: CloudBlockInput): CloudBlock {
  const { built, call } = input;
  const ctx = { projectRoot: call.projectRoot, cwd: call.cwd, home: call.home };
  const rawGroups = targetGroups(built.scan, ctx);
  const hidden = hideSecretWords(rawGroups, [...(input.redaction.knownSecrets ?? []), ...built.sources.secrets]);
  const scan = capTargetScan(hidden, built.scan.complete && rawGroups.length <= MAX_NAMED_TARGETS);
  const agentMessage = built.envelope.agentLastMessage;
  let block: CloudBlock = fitBlock({
    v: CLOUD_BLOCK_VERSION_WITH_AGENT,
    machineId: input.machineId,
    agent: { name: input.event.agent },
    intentMode: WARDEN_INTENT_MODE,
    facts: cloudFactsFor({
      event: input.event,
      call,
      projectRoot: input.projectRoot,
      redaction: {
        ...input.redaction,
        knownSecrets: [...(input.redaction.knownSecrets ?? []), ...built.sources.secrets],
      },
    }),
    targetScan: scan,
    userSaid: personTurns(input),
    agentLastMessage: agentMessage === null ? null : withoutMarkerLabels(agentMessage),
    userSaidCut: built.cut.userSaid,
    localPolicies: input.localPolicies,
  });
  if (block.targetScan.complete) {
    // Redaction changes the words Cloud compares, and a hidden word can flip a naming check
    // either way; where the block reads differently from the raw data, it clears nothing.
    const spoke = built.sources.userTurns.length > 0;
    const rawSaid = [
      ...built.sources.userTurns,
      ...(built.sources.agentLastMessage ? [built.sources.agentLastMessage] : []),
    ];
    const sentSaid = [...block.userSaid, ...(block.agentLastMessage ? [block.agentLastMessage] : [])];
    if (namingReading(rawGroups, spoke, rawSaid) !== namingReading(block.targetScan.groups, spoke, sentSaid))
      block = { ...block, targetScan: { ...block.targetScan, complete: false } };
  }
  return block;
}
