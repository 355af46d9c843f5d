// Each agent's pre-tool reply, read in its own terms (the inputs it sends: aHookEvent().body(agent)).

export type AgentId = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';

/** The verdict a pre-tool reply carries, read in the agent's own terms. */
export function verdictOf(agent: AgentId, reply: Record<string, any>): 'deny' | 'ask' | 'allow' | 'none' {
  switch (agent) {
    case 'claude':
    case 'codex':
      return reply.hookSpecificOutput?.permissionDecision ?? 'none';
    case 'gemini':
      return reply.decision === 'block' ? 'deny' : (reply.decision ?? 'none');
    case 'cursor':
      return reply.permission ?? 'none';
    case 'copilot':
      return reply.permissionDecision ?? 'none';
  }
}

/** The reason a refusal gives, in the agent's own terms. */
export function reasonOf(agent: AgentId, reply: Record<string, any>): string {
  switch (agent) {
    case 'claude':
    case 'codex':
      return reply.hookSpecificOutput?.permissionDecisionReason ?? '';
    case 'gemini':
      return reply.reason ?? '';
    case 'cursor':
      return reply.agent_message ?? '';
    case 'copilot':
      return reply.permissionDecisionReason ?? '';
  }
}
