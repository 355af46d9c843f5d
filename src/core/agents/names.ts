import type { AgentName } from '../types';

// The agents' names without their adapters: the command bridge checks its
// --agent against this list without loading a schema library.
export const AGENT_NAMES: readonly AgentName[] = ['claude', 'codex', 'gemini', 'cursor', 'copilot'];

export function isAgentName(name: string): name is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(name);
}
