import { z } from 'zod';
import type { HookEvent, HookEventName } from '../types';
import type { ParseResult, ReplyInput } from './claude';
import { describeInputError, isJsonObject, NOT_AN_OBJECT } from './parsing';

// GitHub Copilot CLI command hooks (.github/hooks/*.json, ~/.copilot/hooks).
// preToolUse input: {timestamp, cwd, toolName, toolArgs} where toolArgs is the
// arguments as a JSON text (an object in some builds); postToolUse adds
// toolResult, userPromptSubmitted has prompt. No event name is sent, so the
// shape says which event it is. Reply: {permissionDecision, permissionDecisionReason}
// (a deny needs its reason). Warden does not rely on "ask" here: an ask is held
// in the panel or refused, never passed on as something the CLI may ignore.

const argsSchema = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.record(z.string(), z.unknown(), { error: 'toolArgs must be a JSON object, or the JSON text of one' }),
);

const base = z
  .object({
    cwd: z.string().min(1),
    timestamp: z.union([z.number(), z.string()]).optional(),
    sessionId: z.string().optional(),
    session_id: z.string().optional(),
  })
  .passthrough();

const toolCall = base.extend({ toolName: z.string().min(1), toolArgs: argsSchema });

const EVENTS: Record<string, { name: HookEventName; schema: z.ZodType<Record<string, unknown>> }> = {
  preToolUse: { name: 'PreToolUse', schema: toolCall },
  postToolUse: { name: 'PostToolUse', schema: toolCall.extend({ toolResult: z.unknown().optional() }) },
  userPromptSubmitted: { name: 'UserPromptSubmit', schema: base.extend({ prompt: z.string() }) },
};

/** Copilot's event, from the name when a build sends one, else from the input's shape. */
export function copilotEventName(body: unknown): string {
  if (!isJsonObject(body)) return 'preToolUse';
  for (const key of ['hookEventName', 'hook_event_name']) {
    const named = body[key];
    if (typeof named === 'string' && named) return named.charAt(0).toLowerCase() + named.slice(1);
  }
  if ('toolResult' in body) return 'postToolUse';
  if ('toolName' in body || 'toolArgs' in body) return 'preToolUse';
  if (typeof body.prompt === 'string') return 'userPromptSubmitted';
  // Whatever it is, a body that cannot be read is answered as a gate, so the deny counts.
  return 'preToolUse';
}

export function parseCopilotInput(body: unknown, opts: { headless?: boolean } = {}): ParseResult {
  if (!isJsonObject(body)) return { ok: false, problem: NOT_AN_OBJECT };
  const name = copilotEventName(body);
  const known = Object.hasOwn(EVENTS, name) ? EVENTS[name] : undefined;
  const parsed = (known?.schema ?? base).safeParse(body);
  if (!parsed.success) return { ok: false, problem: describeInputError(parsed.error, body) };
  const raw = parsed.data as z.infer<typeof base> & Record<string, unknown>;
  const event: HookEvent = {
    agent: 'copilot',
    event: known?.name ?? 'Other',
    rawEventName: name,
    // Copilot's hook input names no session; one working folder stands for one session.
    sessionId: raw.sessionId ?? raw.session_id ?? `copilot:${raw.cwd}`,
    cwd: raw.cwd,
    raw,
  };
  if (typeof raw.toolName === 'string') event.toolName = raw.toolName;
  if (isJsonObject(raw.toolArgs)) event.toolInput = raw.toolArgs;
  if ('toolResult' in raw) event.toolResponse = raw.toolResult;
  if (typeof raw.prompt === 'string') event.prompt = raw.prompt;
  if (opts.headless !== undefined) event.headless = opts.headless;
  return { ok: true, event };
}

export function writeCopilotReply(input: ReplyInput): Record<string, unknown> {
  if (input.event !== 'preToolUse') return {};
  switch (input.decision) {
    case 'deny':
    case 'ask':
      return { permissionDecision: 'deny', permissionDecisionReason: input.reason.trim() || 'refused by Agent Warden' };
    case 'allow':
      if (input.consented && input.updatedInput)
        return {
          permissionDecision: 'deny',
          permissionDecisionReason:
            'The person approved an edited version of this call; Copilot cannot run the edit itself, so run the edited call instead.',
        };
      return input.consented ? { permissionDecision: 'allow', permissionDecisionReason: input.reason } : {};
    case 'instruct':
      return {};
  }
}
