import { z } from 'zod';
import { definePolicy } from '../types';
import { mcpToolOf } from './shared/mcp';
import { evidenceOf } from '../../facts/commands';

// An MCP server's tool that deletes on the service it fronts (a repository, a namespace, a collection,
// a cache, a table) does what `gh repo delete` or `kubectl delete namespace` does, with no command line
// to read: the verb in the tool's name is what says so. A person decides. Tools that work on this
// machine's files are read as reads and writes of their paths, and judged by the file policies.

const DELETING_VERB = /^(delete|drop|destroy|purge|flush|truncate|wipe|erase|terminate|uninstall)(?=$|[_-]|[A-Z])/;

export const mcpDeletingTool = definePolicy({
  name: 'mcp-deleting-tool',
  category: 'dangerous-commands',
  description:
    "Asks before an MCP server's tool that deletes on the service it fronts (delete_repository, drop_collection, delete_resource, flush…).",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const mcp = mcpToolOf(call.toolName);
    if (!mcp) return null;
    const { server, tool: verb } = mcp;
    if (call.face.family === 'read' || call.face.family === 'write' || call.face.family === 'edit') return null;
    const deleting = DELETING_VERB.exec(verb)?.[1];
    if (!deleting) return null;
    const target = Object.values(call.input)
      .filter((v): v is string => typeof v === 'string')
      .join(' ');
    return {
      reason: `Calls ${server}'s ${verb}${target ? ` (${evidenceOf(target, 60)})` : ''}: a ${deleting.toLowerCase()} on that service that nothing on this machine brings back. A person decides.`,
      evidence: evidenceOf(`${call.toolName} ${target}`),
    };
  },
});
