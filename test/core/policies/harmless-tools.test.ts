// The same command through another agent's shell tool gets the same verdict: Codex's `shell` (an argv
// array) and `exec_command`, Gemini CLI's `run_shell_command`, Cursor's `run_terminal_cmd` and `Shell`,
// Copilot CLI's `bash`, and an MCP server that runs commands. Every blocked dangerous Bash line of the
// independent sets is sent through each; a call Warden cannot read as a shell command passes unseen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, type CallSpec } from './harness';
import { passedVariants } from './blocked-lines';

const TOOLS: Record<string, (line: string) => Partial<CallSpec>> = {
  'codex shell': (line) => ({ agent: 'codex', tool: 'shell', input: { command: ['bash', '-lc', line] } }),
  'codex exec_command': (line) => ({ agent: 'codex', tool: 'exec_command', input: { cmd: line } }),
  'gemini run_shell_command': (line) => ({ agent: 'gemini', tool: 'run_shell_command', input: { command: line } }),
  'cursor run_terminal_cmd': (line) => ({ agent: 'cursor', tool: 'run_terminal_cmd', input: { command: line } }),
  'cursor Shell': (line) => ({ agent: 'cursor', tool: 'Shell', input: { command: line } }),
  'copilot bash': (line) => ({ agent: 'copilot', tool: 'bash', input: { command: line } }),
  'mcp start_process': (line) => ({
    tool: 'mcp__desktop-commander__start_process',
    input: { command: line, timeout_ms: 30000 },
  }),
};

test("another agent's shell tool never turns a blocked dangerous line into a pass", async () => {
  await ready();
  const { tried, misses } = passedVariants('calls through other tools', (command) =>
    Object.entries(TOOLS).map(([kind, call]) => ({ kind, command, call: call(command) })),
  );
  assert.ok(tried > 1000, `enough calls tried (${tried})`);
  assert.deepEqual(misses, []);
});
