import { z } from 'zod';
import type { Decision, HookEvent, HookEventName } from '../types';
import { describeInputError as describe } from './parsing';

// Claude Code hook inputs. Known events are checked field by field; unknown
// events and unknown fields pass (the CLI adds fields between versions).

const base = z
  .object({
    session_id: z.string(),
    transcript_path: z.string().optional(),
    cwd: z.string(),
    permission_mode: z.string().optional(),
    hook_event_name: z.string(),
  })
  .passthrough();

const toolInput = z.record(z.string(), z.unknown());

const preToolUse = base.extend({
  hook_event_name: z.literal('PreToolUse'),
  tool_name: z.string().min(1),
  tool_input: toolInput,
  tool_use_id: z.string().optional(),
});
const permissionRequest = base.extend({
  hook_event_name: z.literal('PermissionRequest'),
  tool_name: z.string().min(1),
  tool_input: toolInput,
  permission_suggestions: z.array(z.unknown()).optional(),
});
const postToolUse = base.extend({
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.string().min(1),
  tool_input: toolInput,
  tool_response: z.unknown().optional(),
  tool_use_id: z.string().optional(),
});
const userPromptSubmit = base.extend({ hook_event_name: z.literal('UserPromptSubmit'), prompt: z.string() });
const stop = base.extend({ hook_event_name: z.literal('Stop'), stop_hook_active: z.boolean().optional() });
const sessionStart = base.extend({ hook_event_name: z.literal('SessionStart'), source: z.string().optional() });

const KNOWN: Record<string, z.ZodType<Record<string, unknown>>> = {
  PreToolUse: preToolUse,
  PermissionRequest: permissionRequest,
  PostToolUse: postToolUse,
  UserPromptSubmit: userPromptSubmit,
  Stop: stop,
  SessionStart: sessionStart,
};

export type ParseResult = { ok: true; event: HookEvent } | { ok: false; problem: string };

/** The schema of a known event; prototype members such as "constructor" are unknown events. */
function knownSchema(name: unknown): z.ZodType<Record<string, unknown>> | undefined {
  return typeof name === 'string' && Object.hasOwn(KNOWN, name) ? KNOWN[name] : undefined;
}

export function parseClaudeInput(body: unknown, opts: { headless?: boolean } = {}): ParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, problem: 'the hook input is not a JSON object' };
  const name = (body as Record<string, unknown>).hook_event_name;
  const known = knownSchema(name);
  const parsed = (known ?? base).safeParse(body);
  if (!parsed.success) return { ok: false, problem: describe(parsed.error, body) };
  const raw = parsed.data as Record<string, unknown> & z.infer<typeof base>;
  const event: HookEvent = {
    agent: 'claude',
    event: known ? (name as HookEventName) : 'Other',
    rawEventName: raw.hook_event_name,
    sessionId: raw.session_id,
    cwd: raw.cwd,
    raw,
  };
  if (raw.transcript_path) event.transcriptPath = raw.transcript_path;
  if (raw.permission_mode) event.permissionMode = raw.permission_mode;
  if (typeof raw.tool_name === 'string') event.toolName = raw.tool_name;
  // The digest binds the arguments as JSON.parse gave them: the schema's copy drops a
  // "__proto__" key (assigning it sets a prototype), so the tool would see more than was bound.
  const toolInput = (body as Record<string, unknown>).tool_input;
  if (raw.tool_input && typeof toolInput === 'object' && toolInput !== null && !Array.isArray(toolInput))
    event.toolInput = toolInput as Record<string, unknown>;
  if (typeof raw.tool_use_id === 'string') event.toolUseId = raw.tool_use_id;
  if ('tool_response' in raw) event.toolResponse = raw.tool_response;
  if (typeof raw.prompt === 'string') event.prompt = raw.prompt;
  if (opts.headless !== undefined) event.headless = opts.headless;
  return { ok: true, event };
}

/** What Warden decided, in the terms a reply needs. */
export interface ReplyInput {
  event: HookEventName | string;
  decision: Decision;
  reason: string;
  /** Only a person's consent (or the user's own config) makes an explicit allow. */
  consented?: boolean;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  /** PostToolUse on MCP tools: output that replaces the tool's. */
  updatedOutput?: unknown;
  /** PermissionRequest: hand the decision to the agent's own prompt (no answer yet). */
  passThrough?: boolean;
}

export type ClaudeReply = Record<string, unknown>;

/**
 * Writes Claude Code's reply for each event. An allow without consent is no
 * objection ({}), so the agent's own permission prompts stay in force.
 */
export function writeClaudeReply(input: ReplyInput): ClaudeReply {
  switch (input.event) {
    case 'PreToolUse':
      return preToolUseReply(input);
    case 'PermissionRequest':
      return permissionRequestReply(input);
    case 'PostToolUse':
      return postToolUseReply(input);
    case 'UserPromptSubmit':
      if (input.decision === 'deny') return { decision: 'block', reason: input.reason };
      return contextOnly('UserPromptSubmit', input);
    case 'Stop':
      // Blocking a stop keeps the agent working, with the reason as its next instruction.
      if (input.decision === 'deny' || input.decision === 'ask') return { decision: 'block', reason: input.reason };
      return {};
    case 'SessionStart':
      return contextOnly('SessionStart', input);
    default:
      return {};
  }
}

function contextOnly(hookEventName: string, input: ReplyInput): ClaudeReply {
  const text = input.additionalContext ?? (input.decision === 'instruct' ? input.reason : undefined);
  return text ? { hookSpecificOutput: { hookEventName, additionalContext: text } } : {};
}

function preToolUseReply(input: ReplyInput): ClaudeReply {
  const out: Record<string, unknown> = { hookEventName: 'PreToolUse' };
  switch (input.decision) {
    case 'deny':
      out.permissionDecision = 'deny';
      out.permissionDecisionReason = input.reason;
      break;
    case 'ask':
      out.permissionDecision = 'ask';
      out.permissionDecisionReason = input.reason;
      break;
    case 'allow':
      if (!input.consented)
        return input.additionalContext
          ? { hookSpecificOutput: { ...out, additionalContext: input.additionalContext } }
          : {};
      out.permissionDecision = 'allow';
      out.permissionDecisionReason = input.reason;
      if (input.updatedInput) out.updatedInput = input.updatedInput;
      break;
    case 'instruct':
      out.additionalContext = input.additionalContext ?? input.reason;
      return { hookSpecificOutput: out };
  }
  if (input.additionalContext) out.additionalContext = input.additionalContext;
  return { hookSpecificOutput: out };
}

function permissionRequestReply(input: ReplyInput): ClaudeReply {
  if (input.passThrough) return {};
  if (input.decision === 'deny') {
    return {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: input.reason } },
    };
  }
  if (input.decision === 'allow' && input.consented) {
    const decision: Record<string, unknown> = { behavior: 'allow' };
    if (input.updatedInput) decision.updatedInput = input.updatedInput;
    return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } };
  }
  // No objection and no consent: the person answers at the agent's own prompt.
  return {};
}

function postToolUseReply(input: ReplyInput): ClaudeReply {
  const out: Record<string, unknown> = { hookEventName: 'PostToolUse' };
  const context = input.additionalContext ?? (input.decision !== 'allow' ? input.reason : undefined);
  if (context) out.additionalContext = context;
  if (input.updatedOutput !== undefined) out.updatedMCPToolOutput = input.updatedOutput;
  const reply: ClaudeReply = Object.keys(out).length > 1 ? { hookSpecificOutput: out } : {};
  if (input.decision === 'deny') {
    reply.decision = 'block';
    reply.reason = input.reason;
  }
  return reply;
}
