// Hook inputs in the exact shapes each agent sends (from its source or
// documentation; see the README's testing section for which and how).

export type AgentId = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';

/** A shell call as the agent's pre-tool hook receives it. */
export function shellCall(agent: AgentId, command: string, cwd: string, session = `${agent}-session`): object {
  switch (agent) {
    case 'claude':
      return {
        session_id: session,
        transcript_path: '',
        cwd,
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: 'toolu_1',
      };
    case 'codex':
      // codex-rs/hooks PreToolUseCommandInput
      return {
        session_id: session,
        turn_id: 'turn-1',
        transcript_path: null,
        cwd,
        hook_event_name: 'PreToolUse',
        model: 'gpt-5',
        permission_mode: 'default',
        tool_name: 'Bash',
        tool_input: { command },
        tool_use_id: 'call_1',
      };
    case 'gemini':
      // gemini-cli HookEventHandler.fireBeforeToolEvent + createBaseInput
      return {
        session_id: session,
        transcript_path: '',
        cwd,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-12-01T12:00:00.000Z',
        tool_name: 'run_shell_command',
        tool_input: { command, description: 'runs it' },
      };
    case 'cursor':
      return {
        conversation_id: session,
        generation_id: 'gen-1',
        model: 'auto',
        hook_event_name: 'preToolUse',
        cursor_version: '2.1.0',
        workspace_roots: [cwd],
        user_email: null,
        tool_name: 'Shell',
        tool_input: { command, cwd },
        tool_use_id: 'tool-1',
        cwd,
      };
    case 'copilot':
      // Copilot CLI command hooks: toolArgs is the arguments' JSON text.
      return { timestamp: 1764590400000, cwd, toolName: 'bash', toolArgs: JSON.stringify({ command }) };
  }
}

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
