import type { AgentName } from '../types';
import { parseClaudeInput, writeClaudeReply, type ParseResult, type ReplyInput } from './claude';
import { parseCodexInput, writeCodexReply } from './codex';
import { copilotEventName, parseCopilotInput, writeCopilotReply } from './copilot';
import { parseCursorInput, writeCursorReply } from './cursor';
import { parseGeminiInput, writeGeminiReply } from './gemini';
import { isJsonObject } from './parsing';

export type { ParseResult, ReplyInput } from './claude';

export interface AgentAdapter {
  name: AgentName;
  /** How the panel and messages name the agent. */
  displayName: string;
  /**
   * Whether the agent enforces an "ask" (prompts its person). Where it does
   * not, an ask is held for the panel or refused, never passed on.
   */
  canAsk: boolean;
  /** The agent's own event name for a body, also for one that fails its schema. */
  eventNameOf(body: unknown): string;
  parse(body: unknown, opts?: { headless?: boolean }): ParseResult;
  reply(input: ReplyInput): Record<string, unknown>;
}

/** The hook_event_name a body carries, else the agent's gate on a tool call. */
const namedEvent =
  (gate: string) =>
  (body: unknown): string => {
    const name = isJsonObject(body) ? body.hook_event_name : undefined;
    return typeof name === 'string' && name !== '' ? name : gate;
  };

const ADAPTERS: Record<AgentName, AgentAdapter> = {
  claude: {
    name: 'claude',
    displayName: 'Claude Code',
    canAsk: true,
    eventNameOf: namedEvent('PreToolUse'),
    parse: parseClaudeInput,
    reply: writeClaudeReply,
  },
  codex: {
    name: 'codex',
    displayName: 'Codex CLI',
    canAsk: false,
    eventNameOf: namedEvent('PreToolUse'),
    parse: parseCodexInput,
    reply: writeCodexReply,
  },
  gemini: {
    name: 'gemini',
    displayName: 'Gemini CLI',
    canAsk: true,
    eventNameOf: namedEvent('BeforeTool'),
    parse: parseGeminiInput,
    reply: writeGeminiReply,
  },
  cursor: {
    name: 'cursor',
    displayName: 'Cursor',
    canAsk: true,
    eventNameOf: namedEvent('preToolUse'),
    parse: parseCursorInput,
    reply: writeCursorReply,
  },
  copilot: {
    name: 'copilot',
    displayName: 'Copilot CLI',
    canAsk: false,
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
