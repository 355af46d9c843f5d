import type { AgentName } from '../types';
import { parseClaudeInput, writeClaudeReply, type ParseResult, type ReplyInput } from './claude';

export type { ParseResult, ReplyInput } from './claude';

export interface AgentAdapter {
  name: AgentName;
  parse(body: unknown, opts?: { headless?: boolean }): ParseResult;
  reply(input: ReplyInput): Record<string, unknown>;
}

const ADAPTERS: Partial<Record<AgentName, AgentAdapter>> = {
  claude: { name: 'claude', parse: parseClaudeInput, reply: writeClaudeReply },
};

export function adapterFor(agent: string): AgentAdapter | undefined {
  // Own keys only: a name like "constructor" must not reach Object.prototype.
  return Object.hasOwn(ADAPTERS, agent) ? ADAPTERS[agent as AgentName] : undefined;
}

export function knownAgents(): string[] {
  return Object.keys(ADAPTERS);
}
