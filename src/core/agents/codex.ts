import { z } from 'zod';
import type { HookEvent } from '../types';
import type { ParseResult, ReplyInput } from './claude';
import { isJsonObject, parseByEventName, type AgentEventSchema } from './parsing';

// Codex CLI command hooks: Claude Code's event names and input fields, with
// `turn_id` and `model` added. Shell calls come as tool "Bash" with a command
// string (older builds: "shell" with an argv array), file edits as
// "apply_patch" with the patch text in `command`; the tool faces read both.
// Codex enforces little of Claude's reply: on PreToolUse only a deny with a
// non-empty reason (or an allow that carries updatedInput); it rejects "ask",
// a bare "allow", continue:false, stopReason and suppressOutput.

const base = z
  .object({
    session_id: z.string().min(1),
    transcript_path: z.string().nullable().optional(),
    cwd: z.string().min(1),
    hook_event_name: z.string(),
    permission_mode: z.string().optional(),
    turn_id: z.string().optional(),
    model: z.string().optional(),
  })
  .passthrough();

const toolCall = base.extend({
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  tool_use_id: z.string().optional(),
});

const EVENTS: Record<string, AgentEventSchema> = {
  PreToolUse: { name: 'PreToolUse', schema: toolCall },
  PermissionRequest: { name: 'PermissionRequest', schema: toolCall },
  PostToolUse: { name: 'PostToolUse', schema: toolCall.extend({ tool_response: z.unknown().optional() }) },
  UserPromptSubmit: { name: 'UserPromptSubmit', schema: base.extend({ prompt: z.string() }) },
  Stop: { name: 'Stop', schema: base },
  SessionStart: { name: 'SessionStart', schema: base.extend({ source: z.string().optional() }) },
};

export const CODEX_EVENTS: readonly string[] = Object.keys(EVENTS);
export function parseCodexInput(body: unknown, opts: { headless?: boolean } = {}): ParseResult {
  const parsed = parseByEventName(body, EVENTS, base);
  if (!parsed.ok) return parsed;
  const { raw } = parsed;
  const event: HookEvent = {
    agent: 'codex',
    event: parsed.event,
    rawEventName: raw.hook_event_name,
    sessionId: raw.session_id,
    cwd: raw.cwd,
    raw,
  };
  if (typeof raw.transcript_path === 'string' && raw.transcript_path) event.transcriptPath = raw.transcript_path;
  if (raw.permission_mode) event.permissionMode = raw.permission_mode;
  if (typeof raw.tool_name === 'string') event.toolName = raw.tool_name;
  if (isJsonObject(raw.tool_input)) event.toolInput = raw.tool_input;
  if (typeof raw.tool_use_id === 'string') event.toolUseId = raw.tool_use_id;
  if ('tool_response' in raw) event.toolResponse = raw.tool_response;
  if (typeof raw.prompt === 'string') event.prompt = raw.prompt;
  if (opts.headless !== undefined) event.headless = opts.headless;
  return { ok: true, event };
}

/** Codex's reply: only what it enforces, never a key it rejects. */
export function writeCodexReply(input: ReplyInput): Record<string, unknown> {
  switch (input.event) {
    case 'PreToolUse':
      return preToolUse(input);
    case 'PermissionRequest':
      return permissionRequest(input);
    case 'PostToolUse': {
      const reply: Record<string, unknown> = {};
      const context = input.additionalContext ?? (input.decision !== 'allow' ? input.reason : undefined);
      if (context) reply.hookSpecificOutput = { hookEventName: 'PostToolUse', additionalContext: context };
      if (input.decision === 'deny') Object.assign(reply, { decision: 'block', reason: input.reason });
      return reply;
    }
    case 'UserPromptSubmit':
      if (input.decision === 'deny') return { decision: 'block', reason: input.reason };
      return contextOnly('UserPromptSubmit', input);
    case 'Stop':
      return input.decision === 'deny' || input.decision === 'ask' ? { decision: 'block', reason: input.reason } : {};
    case 'SessionStart':
      return contextOnly('SessionStart', input);
    default:
      return {};
  }
}

function contextOnly(hookEventName: string, input: ReplyInput): Record<string, unknown> {
  const text = input.additionalContext ?? (input.decision === 'instruct' ? input.reason : undefined);
  return text ? { hookSpecificOutput: { hookEventName, additionalContext: text } } : {};
}

function preToolUse(input: ReplyInput): Record<string, unknown> {
  const out: Record<string, unknown> = { hookEventName: 'PreToolUse' };
  // Codex cannot ask: the hook service turns an ask into a held approval or a
  // deny before it gets here, so an ask reaching this point is refused too.
  if (input.decision === 'deny' || input.decision === 'ask') {
    out.permissionDecision = 'deny';
    out.permissionDecisionReason = input.reason.trim() || 'refused by Agent Warden';
    return { hookSpecificOutput: out };
  }
  // Codex accepts an explicit allow only as a rewrite; a consented allow of the
  // original input is "no objection", which lets the call run as approved.
  if (input.decision === 'allow' && input.consented && input.updatedInput) {
    out.permissionDecision = 'allow';
    out.updatedInput = input.updatedInput;
  }
  const context = input.additionalContext ?? (input.decision === 'instruct' ? input.reason : undefined);
  if (context) out.additionalContext = context;
  return Object.keys(out).length > 1 ? { hookSpecificOutput: out } : {};
}

function permissionRequest(input: ReplyInput): Record<string, unknown> {
  if (input.passThrough) return {};
  if (input.decision === 'deny')
    return {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: input.reason } },
    };
  // Codex refuses updatedInput here: an approved edit is not the call it asked about.
  if (input.decision === 'allow' && input.consented && !input.updatedInput)
    return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };
  if (input.decision === 'allow' && input.consented && input.updatedInput)
    return {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'deny',
          message: 'The person approved an edited version of this call; run the edited call instead.',
        },
      },
    };
  return {};
}
