import { z } from 'zod';
import { Redactor } from '../../redaction';
import { definePolicy } from '../types';

// After a tool ran: if its output carries secrets, tell the model not to
// repeat them, and for MCP tools (whose output Claude Code lets a hook replace)
// hand back the output with the secrets masked.

let shared: Redactor | undefined;
function redactor(): Redactor {
  shared ??= new Redactor({ mode: 'narrow', env: {} });
  return shared;
}

export const secretsInToolOutput = definePolicy({
  name: 'secrets-in-tool-output',
  category: 'output-sanitizing',
  description:
    'After a tool runs, finds JWTs, API keys, connection strings, private keys and bearer tokens in its output; tells the model not to repeat them and masks them in MCP output.',
  defaultEnabled: true,
  decision: 'instruct',
  events: ['PostToolUse'],
  params: z.object({
    /** Replace MCP tool output with the masked copy (agents that support it). */
    replaceMcpOutput: z.boolean().default(true),
  }),
  evaluate({ event, params }) {
    if (event.toolResponse === undefined || event.toolResponse === null) return null;
    const result = redactor().redactJson(event.toolResponse);
    if (result.count === 0) return null;
    const labels = Object.entries(result.byLabel)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, n]) => (n > 1 ? `${label} ×${n}` : label))
      .join(', ');
    const tool = event.toolName ?? 'the tool';
    const hit = {
      reason: `The output of ${tool} contained ${result.count} secret${result.count > 1 ? 's' : ''} (${labels}); the model was told not to repeat them.`,
      evidence: labels,
      additionalContext:
        `Warden: the output of ${tool} contained ${result.count} secret value${result.count > 1 ? 's' : ''} (${labels}). ` +
        'Do not repeat, quote, summarise, log, commit or send these values anywhere; refer to them only by their variable or file name.',
    };
    if (params.replaceMcpOutput && tool.startsWith('mcp__')) return { ...hit, updatedOutput: result.value };
    return hit;
  },
});
