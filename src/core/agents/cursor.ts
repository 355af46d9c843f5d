import { z } from 'zod';
import type { HookEvent } from '../types';
import type { ParseResult, ReplyInput } from './claude';
import { parseByEventName, type AgentEventSchema } from './parsing';

// Cursor's agent hooks (.cursor/hooks.json). Every input carries
// conversation_id, generation_id, hook_event_name and workspace_roots.
// preToolUse gives tool_name / tool_input (Shell, Read, Write, StrReplace...,
// read by the tool faces); the older per-kind gates give the call itself:
// beforeShellExecution {command, cwd}, beforeReadFile {file_path, content},
// beforeMCPExecution {tool_name, tool_input}. The reply is
// {permission: allow|deny|ask, user_message, agent_message}; Cursor wants
// JSON on every path.

const base = z
  .object({
    hook_event_name: z.string(),
    conversation_id: z.string().min(1),
    generation_id: z.string().optional(),
    workspace_roots: z.array(z.string()).optional(),
    cwd: z.string().optional(),
  })
  .passthrough();

const toolInput = z.record(z.string(), z.unknown());
// beforeMCPExecution sends the arguments as a JSON text in some versions.
const mcpInput = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.record(z.string(), z.unknown(), { error: 'tool_input must be a JSON object, or the JSON text of one' }),
);

const EVENTS: Record<string, AgentEventSchema> = {
  preToolUse: {
    name: 'PreToolUse',
    schema: base.extend({ tool_name: z.string().min(1), tool_input: toolInput, tool_use_id: z.string().optional() }),
  },
  beforeShellExecution: { name: 'PreToolUse', schema: base.extend({ command: z.string() }) },
  beforeReadFile: { name: 'PreToolUse', schema: base.extend({ file_path: z.string().min(1) }) },
  beforeMCPExecution: {
    name: 'PreToolUse',
    schema: base.extend({ tool_name: z.string().min(1), tool_input: mcpInput }),
  },
  beforeSubmitPrompt: { name: 'UserPromptSubmit', schema: base.extend({ prompt: z.string() }) },
};

/** The call a gate describes, as tool name and arguments the faces know. */
function callOf(name: string, raw: Record<string, unknown>): { toolName: string; toolInput: Record<string, unknown> } {
  switch (name) {
    case 'beforeShellExecution':
      return { toolName: 'Shell', toolInput: { command: raw.command } };
    case 'beforeReadFile':
      // The file's content is in the input too: it is what would be read, not an argument.
      return { toolName: 'Read', toolInput: { file_path: raw.file_path } };
    default:
      return { toolName: raw.tool_name as string, toolInput: raw.tool_input as Record<string, unknown> };
  }
}

export const CURSOR_EVENTS: readonly string[] = Object.keys(EVENTS);
export function parseCursorInput(body: unknown, opts: { headless?: boolean } = {}): ParseResult {
  const parsed = parseByEventName(body, EVENTS, base);
  if (!parsed.ok) return parsed;
  const { raw } = parsed;
  const cwd = raw.cwd || raw.workspace_roots?.[0];
  if (!cwd) return { ok: false, problem: 'the hook input has neither cwd nor workspace_roots' };
  const event: HookEvent = {
    agent: 'cursor',
    event: parsed.event,
    rawEventName: raw.hook_event_name,
    sessionId: raw.conversation_id,
    cwd,
    raw,
  };
  if (parsed.event === 'PreToolUse') Object.assign(event, callOf(raw.hook_event_name, raw));
  if (typeof raw.tool_use_id === 'string') event.toolUseId = raw.tool_use_id;
  if (typeof raw.prompt === 'string') event.prompt = raw.prompt;
  if (opts.headless !== undefined) event.headless = opts.headless;
  return { ok: true, event };
}

const GATES = new Set(['preToolUse', 'beforeShellExecution', 'beforeReadFile', 'beforeMCPExecution']);

export function writeCursorReply(input: ReplyInput): Record<string, unknown> {
  if (input.event === 'beforeSubmitPrompt')
    return input.decision === 'deny' ? { continue: false, user_message: input.reason } : { continue: true };
  if (!GATES.has(input.event)) return {};
  switch (input.decision) {
    case 'deny':
      return { permission: 'deny', user_message: input.reason, agent_message: input.reason };
    case 'ask':
      return { permission: 'ask', user_message: input.reason, agent_message: input.reason };
    case 'instruct':
      return { agent_message: input.additionalContext ?? input.reason };
    case 'allow':
      // An approved edit cannot be handed to Cursor: refusing beats running the unedited call.
      if (input.consented && input.updatedInput)
        return {
          permission: 'deny',
          user_message: 'The person approved an edited version of this call; Cursor cannot run the edit itself.',
          agent_message: 'The person approved an edited version of this call; run the edited call instead.',
        };
      if (input.consented) return { permission: 'allow', user_message: input.reason };
      return input.additionalContext ? { agent_message: input.additionalContext } : {};
  }
}
