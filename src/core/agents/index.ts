import type { AgentName } from '../types';
import { parseClaudeInput, writeClaudeReply, type ParseResult, type ReplyInput } from './claude';
import { CODEX_EVENTS, parseCodexInput, writeCodexReply } from './codex';
import { copilotEventName, parseCopilotInput, writeCopilotReply } from './copilot';
import { CURSOR_EVENTS, parseCursorInput, writeCursorReply } from './cursor';
import { GEMINI_EVENTS, parseGeminiInput, writeGeminiReply } from './gemini';
import { isJsonObject } from './parsing';

export type { ParseResult, ReplyInput } from './claude';

export interface AgentAdapter {
  name: AgentName;
  /** How the panel and messages name the agent. */
  displayName: string;
  /**
   * Whether the agent enforces an "ask" (prompts its person) on this event of
   * its own. Where it does not, an ask is held for the panel or refused, never
   * passed on.
   */
  canAsk(rawEventName: string): boolean;
  /** The agent's own event name for a body, also for one that fails its schema. */
  eventNameOf(body: unknown): string;
  parse(body: unknown, opts?: { headless?: boolean }): ParseResult;
  reply(input: ReplyInput): Record<string, unknown>;
}

/**
 * The hook_event_name a body carries when the agent has such an event (all
 * names, when no list is given), else the agent's gate on a tool call: a body
 * that cannot be read is answered with a refusal the agent enforces.
 */
const namedEvent =
  (gate: string, known?: readonly string[]) =>
  (body: unknown): string => {
    const name = isJsonObject(body) ? body.hook_event_name : undefined;
    if (typeof name !== 'string' || name === '') return gate;
    return !known || known.includes(name) ? name : gate;
  };

const ADAPTERS: Record<AgentName, AgentAdapter> = {
  claude: {
    name: 'claude',
    displayName: 'Claude Code',
    canAsk: () => true,
    eventNameOf: namedEvent('PreToolUse'),
    parse: parseClaudeInput,
    reply: writeClaudeReply,
  },
  codex: {
    name: 'codex',
    displayName: 'Codex CLI',
    canAsk: () => false,
    eventNameOf: namedEvent('PreToolUse', CODEX_EVENTS),
    parse: parseCodexInput,
    reply: writeCodexReply,
  },
  gemini: {
    name: 'gemini',
    displayName: 'Gemini CLI',
    canAsk: () => true,
    eventNameOf: namedEvent('BeforeTool', GEMINI_EVENTS),
    parse: parseGeminiInput,
    reply: writeGeminiReply,
  },
  cursor: {
    name: 'cursor',
    displayName: 'Cursor',
    // Cursor's documented beforeReadFile reply takes allow or deny only.
    canAsk: (event) => event !== 'beforeReadFile',
    eventNameOf: namedEvent('preToolUse', CURSOR_EVENTS),
    parse: parseCursorInput,
    reply: writeCursorReply,
  },
  copilot: {
    name: 'copilot',
    displayName: 'Copilot CLI',
    canAsk: () => false,
    eventNameOf: copilotEventName,
    parse: parseCopilotInput,
    reply: writeCopilotReply,
  },
};

export function adapterFor(agent: string): AgentAdapter | undefined {
  // Own keys only: a name like "constructor" must not reach Object.prototype.
  return Object.hasOwn(ADAPTERS, agent) ? ADAPTERS[agent as AgentName] : undefined;
}

export function knownAgents(): AgentName[] {
  return Object.keys(ADAPTERS) as AgentName[];
}
