import { z } from 'zod';
import type { HookEvent } from '../types';
import type { ParseResult, ReplyInput } from './claude';
import { isJsonObject, parseByEventName, type AgentEventSchema } from './parsing';

// Gemini CLI command hooks (settings.json `hooks`). Input: session_id,
// transcript_path, cwd, hook_event_name, timestamp, and per event tool_name /
// tool_input (its own tool names: run_shell_command, write_file, replace...,
// which the tool faces read), tool_response or prompt. Its reply is top-level:
// decision "deny"/"block" refuses, "ask" makes the CLI confirm with the person,
// hookSpecificOutput.tool_input rewrites the call. JSON on stdout counts on
// any exit code.

const base = z
  .object({
    session_id: z.string().min(1),
    transcript_path: z.string().optional(),
    cwd: z.string().min(1),
    hook_event_name: z.string(),
    timestamp: z.string().optional(),
  })
  .passthrough();

const toolCall = base.extend({
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()),
  mcp_context: z.unknown().optional(),
  original_request_name: z.string().optional(),
});

const EVENTS: Record<string, AgentEventSchema> = {
  BeforeTool: { name: 'PreToolUse', schema: toolCall },
  AfterTool: { name: 'PostToolUse', schema: toolCall.extend({ tool_response: z.unknown().optional() }) },
  BeforeAgent: { name: 'UserPromptSubmit', schema: base.extend({ prompt: z.string() }) },
  SessionStart: { name: 'SessionStart', schema: base.extend({ source: z.string().optional() }) },
};

export const GEMINI_EVENTS: readonly string[] = Object.keys(EVENTS);
export function parseGeminiInput(body: unknown, opts: { headless?: boolean } = {}): ParseResult {
  const parsed = parseByEventName(body, EVENTS, base);
  if (!parsed.ok) return parsed;
  const { raw } = parsed;
  const event: HookEvent = {
    agent: 'gemini',
    event: parsed.event,
    rawEventName: raw.hook_event_name,
    sessionId: raw.session_id,
    cwd: raw.cwd,
    raw,
  };
  if (raw.transcript_path) event.transcriptPath = raw.transcript_path;
  if (typeof raw.tool_name === 'string') event.toolName = raw.tool_name;
  if (isJsonObject(raw.tool_input)) event.toolInput = raw.tool_input;
  if ('tool_response' in raw) event.toolResponse = raw.tool_response;
  if (typeof raw.prompt === 'string') event.prompt = raw.prompt;
  if (opts.headless !== undefined) event.headless = opts.headless;
  return { ok: true, event };
}

export function writeGeminiReply(input: ReplyInput): Record<string, unknown> {
  const hookEventName = input.event;
  const context = input.additionalContext ?? (input.decision === 'instruct' ? input.reason : undefined);
  const withContext = (reply: Record<string, unknown>): Record<string, unknown> =>
    context ? { ...reply, hookSpecificOutput: { hookEventName, additionalContext: context } } : reply;
  switch (input.event) {
    case 'BeforeTool':
      if (input.decision === 'deny') return { decision: 'deny', reason: input.reason };
      if (input.decision === 'ask') return { decision: 'ask', reason: input.reason, systemMessage: input.reason };
      if (input.decision === 'allow' && input.consented && input.updatedInput)
        return { hookSpecificOutput: { hookEventName, tool_input: input.updatedInput } };
      return withContext({});
    case 'AfterTool':
    case 'BeforeAgent':
      if (input.decision === 'deny') return withContext({ decision: 'deny', reason: input.reason });
      return withContext({});
    case 'SessionStart':
      return withContext({});
    default:
      return {};
  }
}
