// The fixed values of the Cloud review contract (org-managed checks), and the shapes Warden sends.
// Names and numbers follow the contract; docs/cloud.md maps its names onto Warden's.
import type { PathRelation } from '../shell/paths';
import type { ToolFamily } from '../config/faces';

/** Where the review is posted, under `cloud.url`. */
export const CLOUD_REVIEW_PATH = '/enforcement/v1/jev/systemone';

/** The `cloud` block without an agent; with one it is version 2. */
export const CLOUD_BLOCK_VERSION = 1;
export const CLOUD_BLOCK_VERSION_WITH_AGENT = 2;

/** Serialized characters of `targetScan.groups` sent at most; past it a prefix goes, marked incomplete. */
export const MAX_TARGET_SCAN_CHARS = 64_000;

/** Serialized UTF-8 bytes of the whole block at most (Cloud refuses larger ones). */
export const MAX_CLOUD_BLOCK_BYTES = 240_000;

/** A target word that is (part of) a secret: no person's words can contain it. */
export const REDACTED_TARGET_WORD = '\u0000redacted';

/** What a redaction marker in the person's words becomes: no letters, so it names no target. */
export const REDACTED_SAID = '\u0000';

/** Longest reason kept from a reply; longer ones are cut, not refused. */
export const MAX_CLOUD_REASON_CHARS = 8_192;
/** Longest check name accepted in a reply. */
export const MAX_CLOUD_NAME_CHARS = 256;
/** Most outcomes or names accepted in one list of a reply. */
export const MAX_CLOUD_LIST = 4_096;

export const DEFAULT_CLOUD_TIMEOUT_MS = 5_000;

/**
 * Warden's intent mode. Warden always asks the three task probes when a person spoke and reads the
 * agent's last message beside the person's words, which is the contract's `v1` reading.
 */
export const WARDEN_INTENT_MODE = 'v1';
export type IntentMode = typeof WARDEN_INTENT_MODE;

/**
 * Built-in tools with no side effects: no semantic policy of Warden's or Cloud's can object to
 * them, so they are not sent (the contract's short-circuit). Each only records a plan, starts a
 * sub-agent whose own calls are each reviewed, or reads a background shell's output.
 */
export const NO_SIDE_EFFECT_TOOLS: readonly string[] = ['TodoWrite', 'Task', 'BashOutput'];

/** The `facts` of the block (the contract's field names). */
export interface CloudFacts {
  toolName: string;
  toolClass: ToolFamily;
  toolIsKnown: boolean;
  cwd: string | null;
  projectRoot: string | null;
  currentGitBranch: string | null;
  paths: Array<{ asWritten: string; resolved: string; relation: PathRelation | null }>;
  permissionMode: string | null;
}

/** Which agent made the call (Warden's definition: the contract names the field, not its shape). */
export interface CloudAgentIdentity {
  name: string;
}

/** The `cloud` block of a request. */
export interface CloudBlock {
  v: typeof CLOUD_BLOCK_VERSION | typeof CLOUD_BLOCK_VERSION_WITH_AGENT;
  machineId: string;
  agent?: CloudAgentIdentity;
  intentMode: IntentMode;
  facts: CloudFacts;
  targetScan: { groups: string[][]; complete: boolean };
  userSaid: string[];
  agentLastMessage: string | null;
  userSaidCut: boolean;
  /** The machine's own per-policy question groups; Cloud drops from the last one first. */
  localPolicies: string[];
}

/** The contract's decision set (no `ask`: only the machine asks a person). */
export type CloudDecision = 'allow' | 'instruct' | 'deny';
/** The contract's outcome verdicts. */
export type CloudVerdictWord = 'deny' | 'instruct' | 'overridden' | 'none';
