import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalToolName, isAgentMemoryTool, UNNAMED_SERVER } from '../../../src/core/config/tool-names';

test("each agent's MCP tool name reads as mcp__<server>__<tool>", () => {
  const cases: [Parameters<typeof canonicalToolName>, string][] = [
    [['claude', 'mcp__github__create_gist'], 'mcp__github__create_gist'],
    [['codex', 'mcp__postgres__query'], 'mcp__postgres__query'],
    [['gemini', 'mcp_postgres_query'], 'mcp__postgres__query'],
    [['gemini', 'mcp_github_create_gist'], 'mcp__github__create_gist'],
    // The hook's mcp_context names the server and tool, underscores and all.
    [
      ['gemini', 'mcp_my_db_run_sql', { mcp_context: { server_name: 'my_db', tool_name: 'run_sql' } }],
      'mcp__my_db__run_sql',
    ],
    [['cursor', 'MCP:query'], `mcp__${UNNAMED_SERVER}__query`],
    [['copilot', 'github-mcp-server-create_gist'], 'mcp__github__create_gist'],
  ];
  for (const [args, expected] of cases) assert.equal(canonicalToolName(...args), expected, JSON.stringify(args));
});

test('names that are not MCP tools, or not in that agent’s form, stay as sent', () => {
  const cases: Parameters<typeof canonicalToolName>[] = [
    ['gemini', 'run_shell_command'],
    ['gemini', 'mcp_'],
    ['gemini', 'mcp_server_'],
    ['claude', 'mcp_postgres_query'],
    ['cursor', 'MCP:'],
    ['copilot', 'github-mcp-server-'],
    ['copilot', 'bash'],
    [undefined, 'Bash'],
  ];
  for (const args of cases) assert.equal(canonicalToolName(...args), args[1], JSON.stringify(args));
});

test("the agents' memory tools are known as such", () => {
  for (const tool of ['save_memory', 'store_memory', 'update_memory']) assert.ok(isAgentMemoryTool(tool), tool);
  for (const tool of ['write_todos', 'mcp__memory__create_entities', 'Write'])
    assert.ok(!isAgentMemoryTool(tool), tool);
});
