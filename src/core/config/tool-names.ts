import type { AgentName } from '../types';

// Each agent names an MCP server's tools its own way; the policies read one form, Claude Code's and Codex's
// `mcp__<server>__<tool>`:
// - Gemini CLI: `mcp_<server>_<tool>`, with the server and tool in `mcp_context` when the hook sends it;
// - Cursor: `MCP:<tool>`, which names no server;
// - Copilot CLI: `<server>-<tool>`, of which only its own GitHub server's prefix can be told apart.

/** Stands for the server when the agent does not name it (Cursor). */
export const UNNAMED_SERVER = 'unnamed';

const COPILOT_SERVERS: Record<string, string> = { 'github-mcp-server-': 'github' };

/** The tool's name in the form the policies read: MCP tools as `mcp__<server>__<tool>`, others as sent. */
export function canonicalToolName(agent: AgentName | undefined, tool: string, raw?: Record<string, unknown>): string {
  if (tool.startsWith('mcp__')) return tool;
  if (agent === 'gemini') return geminiMcpName(tool, raw?.['mcp_context']) ?? tool;
  if (agent === 'cursor' && tool.startsWith('MCP:') && tool.length > 4)
    return `mcp__${UNNAMED_SERVER}__${tool.slice(4)}`;
  if (agent === 'copilot')
    for (const [prefix, server] of Object.entries(COPILOT_SERVERS))
      if (tool.startsWith(prefix) && tool.length > prefix.length) return `mcp__${server}__${tool.slice(prefix.length)}`;
  return tool;
}

function geminiMcpName(tool: string, context: unknown): string | undefined {
  if (context !== null && typeof context === 'object') {
    const { server_name: server, tool_name: name } = context as Record<string, unknown>;
    if (typeof server === 'string' && server !== '' && typeof name === 'string' && name !== '')
      return `mcp__${server}__${name}`;
  }
  const split = tool.startsWith('mcp_') ? tool.indexOf('_', 'mcp_'.length) : -1;
  if (split <= 'mcp_'.length || split === tool.length - 1) return undefined;
  return `mcp__${tool.slice('mcp_'.length, split)}__${tool.slice(split + 1)}`;
}

/**
 * The agents' own memory tools (Gemini CLI's save_memory, Copilot CLI's store_memory, Cursor's update_memory):
 * what they keep, later sessions read as fact and as instructions.
 */
const AGENT_MEMORY_TOOLS = new Set(['save_memory', 'store_memory', 'update_memory']);

export function isAgentMemoryTool(tool: string): boolean {
  return AGENT_MEMORY_TOOLS.has(tool);
}

/** Tools that hand a prompt to a sub-agent (Claude Code's Task, Copilot CLI's task): what it is told to run. */
const SUB_AGENT_TOOLS = new Set(['Task', 'task']);

export function isSubAgentTool(tool: string): boolean {
  return SUB_AGENT_TOOLS.has(tool);
}
