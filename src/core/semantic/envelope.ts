// Builds what the judge sees for one call: the human's last turns, the agent's last message, the
// call (comments apart), and facts. Every part is bounded, redacted, then cut to its cap; the cut
// flags say what did not fit.
import type { HookEvent } from '../types';
import type { ToolCall } from '../policies/types';
import { currentGitBranch } from '../project';
import { isSecretEnvName, MIN_EXTRA_SECRET_LENGTH } from '../redaction/literals';
import type { Envelope, VerdictRecord } from '../verdict/record';
import { bound, boundFor, capText, DEFAULT_CAPS, sanitize, widenSeams, type Caps } from './caps';
import { checkNaming, type NamingResult } from './naming';
import { boundValue, viewCall } from './request';
import { scrubParts, type ScrubOptions } from './scrub';
import { scanTargets, type CallTarget, type TargetScan } from './targets';
import { readTranscriptTail, type TranscriptReadOptions, type TranscriptTail } from './transcript';

export interface EnvelopeInput {
  event: HookEvent;
  call: ToolCall;
  projectRoot: string;
  /** Already read; otherwise read from event.transcriptPath. */
  transcript?: TranscriptTail;
  transcriptOptions?: TranscriptReadOptions;
  redaction?: ScrubOptions;
  caps?: Partial<Caps>;
}

export interface BuiltEnvelope {
  envelope: Envelope;
  redactions: VerdictRecord['redactions'];
  cut: VerdictRecord['cut'];
  scan: TargetScan;
  /** Checked against the human's own words (before redaction; they never leave the process); `unnamed` is redacted. */
  naming: NamingResult;
  hasHumanTurn: boolean;
  transcriptBytesRead: number;
  /**
   * What the parts were built from, for the Cloud review's block (built with other redaction
   * rules): the bounded, unredacted turns and agent message, and every secret value found. Held in
   * memory for this call only; never serialized.
   */
  sources: { userTurns: string[]; agentLastMessage: string | null; secrets: string[] };
}

/** Targets listed in the facts; the naming check always uses all of them. */
export const MAX_FACT_TARGETS = 64;
const MAX_FACT_STRING = 1024;

function factString(text: string): string {
  return text.length > MAX_FACT_STRING ? `[… ${text.length} characters omitted …]` : sanitize(text);
}

function factTarget(target: CallTarget): Record<string, unknown> {
  const fact: Record<string, unknown> = { text: factString(target.text), kind: target.kind };
  if (target.absolute !== undefined) fact.absolute = factString(target.absolute);
  if (target.relation !== undefined) fact.relation = target.relation;
  if (target.access !== undefined) fact.access = target.access;
  fact.source = factString(target.source);
  return fact;
}

function buildFacts(input: EnvelopeInput, scan: TargetScan): Record<string, unknown> {
  const { call, event, projectRoot } = input;
  const branch = currentGitBranch(projectRoot);
  const facts: Record<string, unknown> = {
    tool: call.toolName,
    family: call.face.family,
    cwd: factString(call.cwd),
    projectRoot: factString(projectRoot),
    gitBranch: branch === null ? null : factString(branch),
    permissionMode: event.permissionMode ?? null,
    targets: scan.targets.slice(0, MAX_FACT_TARGETS).map(factTarget),
    targetScanComplete: scan.complete,
  };
  if (scan.targets.length > MAX_FACT_TARGETS) facts.targetsOmitted = scan.targets.length - MAX_FACT_TARGETS;
  if (!scan.complete) facts.targetScanGaps = scan.gaps;
  return facts;
}

/** Redacted parts with their seams widened, ready to be cut to any cap. */
interface Prepared {
  userSaid: string[];
  agentLastMessage: string | null;
  request: string;
  requestBounded: boolean;
  comments: string[];
  facts: Record<string, unknown>;
}

function widenDeep(value: unknown): unknown {
  if (typeof value === 'string') return widenSeams(value);
  if (Array.isArray(value)) return value.map(widenDeep);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, widenDeep(v)]));
  return value;
}

function cutFacts(facts: Record<string, unknown>, cap: number): { facts: Record<string, unknown>; cut: boolean } {
  if (JSON.stringify(facts).length <= cap) return { facts, cut: false };
  const targets = Array.isArray(facts.targets) ? [...(facts.targets as unknown[])] : [];
  const already = typeof facts.targetsOmitted === 'number' ? facts.targetsOmitted : 0;
  let kept = targets.length;
  let out: Record<string, unknown>;
  do {
    kept = Math.floor(kept / 2);
    out = { ...facts, targets: targets.slice(0, kept), targetsOmitted: already + targets.length - kept };
  } while (kept > 0 && JSON.stringify(out).length > cap);
  return { facts: out, cut: true };
}

function scaleCaps(caps: Caps, factor: number): Caps {
  const scale = (n: number): number => Math.max(64, Math.floor(n * factor));
  return {
    humanTurn: scale(caps.humanTurn),
    agentMessage: scale(caps.agentMessage),
    request: scale(caps.request),
    comments: scale(caps.comments),
    facts: scale(caps.facts),
    whole: caps.whole,
  };
}

function assemble(
  prepared: Prepared,
  caps: Caps,
  readerCut: boolean,
): { envelope: Envelope; cut: VerdictRecord['cut'] } {
  const turns = prepared.userSaid.map((turn) => capText(turn, caps.humanTurn));
  const agent = prepared.agentLastMessage === null ? null : capText(prepared.agentLastMessage, caps.agentMessage);
  const request = capText(prepared.request, caps.request);
  const perComment = Math.max(64, Math.floor(caps.comments / Math.max(1, prepared.comments.length)));
  const comments = prepared.comments.map((comment) => capText(comment, perComment));
  const facts = cutFacts(prepared.facts, caps.facts);
  const envelope: Envelope = {
    userSaid: turns.map((t) => t.text),
    agentLastMessage: agent ? agent.text : null,
    facts: facts.facts,
    request: request.text,
    comments: comments.map((c) => c.text),
  };
  const requestCut = request.cut || prepared.requestBounded;
  const userSaidCut = readerCut || turns.some((t) => t.cut);
  const truncated = requestCut || userSaidCut || (agent?.cut ?? false) || comments.some((c) => c.cut) || facts.cut;
  return { envelope, cut: { request: requestCut, userSaid: userSaidCut, truncated } };
}

/**
 * Values the call's shell assigns to secret-named variables (`PGPASSWORD=… pg_dump`, `env API_TOKEN=…`):
 * the parsed command knows them for what they are, whatever the text detectors make of them.
 */
function assignedSecrets(call: ToolCall): string[] {
  const values: string[] = [];
  for (const cmd of call.shell?.commands ?? []) {
    for (const [name, value] of Object.entries(cmd.assignments)) {
      if (isSecretEnvName(name) && value.length >= MIN_EXTRA_SECRET_LENGTH && !/[$`]/.test(value)) values.push(value);
    }
  }
  return values;
}

export function buildEnvelope(input: EnvelopeInput): BuiltEnvelope {
  const caps: Caps = { ...DEFAULT_CAPS, ...input.caps };
  const tail = input.transcript ?? readTranscriptTail(input.event.transcriptPath, input.transcriptOptions);
  const scan = scanTargets(input.call);
  const view = viewCall(input.call);
  const rawTurns = tail.userTurns.map((turn) => bound(turn, boundFor(caps.humanTurn)));
  const rawAgentMessage =
    tail.agentLastMessage === null ? null : bound(tail.agentLastMessage, boundFor(caps.agentMessage));
  const boundedRequest = boundValue(view.request, boundFor(caps.request));
  const known = [...(input.redaction?.knownSecrets ?? []), ...assignedSecrets(input.call)];
  const found: string[] = [];
  const scrubbed = scrubParts(
    [
      { name: 'userSaid', mode: 'narrow', value: rawTurns },
      {
        name: 'agentLastMessage',
        mode: 'narrow',
        value: rawAgentMessage,
      },
      { name: 'request', mode: 'blunt', value: boundedRequest.value },
      { name: 'comments', mode: 'narrow', value: view.comments.map((c) => bound(c, boundFor(caps.comments))) },
      { name: 'facts', mode: 'narrow', value: buildFacts(input, scan) },
    ],
    {
      ...input.redaction,
      knownSecrets: [...known],
      onSecrets: (values) => {
        found.push(...values);
        input.redaction?.onSecrets?.(values);
      },
    },
  );
  const [userSaid, agentLastMessage, request, comments, facts] = scrubbed.values.map(widenDeep) as [
    string[],
    string | null,
    unknown,
    string[],
    Record<string, unknown>,
  ];
  const prepared: Prepared = {
    userSaid,
    agentLastMessage,
    request: JSON.stringify(request),
    requestBounded: boundedRequest.cut,
    comments,
    facts,
  };
  // A turn the reader could not finish may be the human's; naming checks are then inconclusive.
  let assembled = assemble(prepared, caps, tail.budgetExhausted);
  let current = caps;
  for (let attempt = 0; attempt < 8; attempt++) {
    const size = JSON.stringify(assembled.envelope).length;
    if (size <= caps.whole) break;
    current = scaleCaps(current, (caps.whole / size) * 0.97);
    assembled = assemble(prepared, current, tail.budgetExhausted);
  }
  const checked = checkNaming(scan.targets, rawTurns, {
    projectRoot: input.projectRoot,
    cwd: input.call.cwd,
    home: input.call.home,
  });
  // The unnamed targets go into reasons the log and the agent see: redacted like the call.
  const unnamed = checked.unnamed.length
    ? (scrubParts([{ name: 'unnamed', mode: 'blunt', value: checked.unnamed }], {
        ...input.redaction,
        knownSecrets: [...known, ...found],
        onSecrets: () => undefined,
      }).values[0] as string[])
    : [];
  const naming: NamingResult = { named: checked.named, unnamed };
  return {
    envelope: assembled.envelope,
    redactions: { count: scrubbed.count, byLabel: scrubbed.byLabel, spans: scrubbed.spans },
    cut: assembled.cut,
    scan,
    naming,
    hasHumanTurn: tail.userTurns.length > 0,
    transcriptBytesRead: tail.bytesRead,
    sources: { userTurns: rawTurns, agentLastMessage: rawAgentMessage, secrets: [...new Set([...known, ...found])] },
  };
}
