import type { ToolCall } from '../../types';
import { evidenceOf } from '../../../facts/commands';
import {
  graphqlMutationFields,
  nameWords,
  operationArguments,
  serviceOperationOf,
} from '../../../text/service-operations';

// An MCP tool's name says which server it belongs to and what it does: `mcp__<server>__<tool>`. The
// policies that judge a server's tools like the command line they stand for read the name here.

export interface McpTool {
  server: string;
  tool: string;
}

/** The server and tool of an MCP tool's name, or undefined for a tool that is not an MCP server's. */
export function mcpToolOf(toolName: string): McpTool | undefined {
  // Most calls are built-in tools: many policies ask, so the name is split only when it can be an MCP tool's.
  if (!toolName.startsWith('mcp__')) return undefined;
  const [prefix, server, ...rest] = toolName.split('__');
  const tool = rest.join('__');
  return prefix === 'mcp' && server && tool ? { server, tool } : undefined;
}

/** What a Redis server's MCP tool is told (`mcp__redis__execute {"command": "CONFIG SET dir …"}`), as redis-cli would send it. */
export function redisToolCommand(call: ToolCall): { server: string; statement: string } | undefined {
  const mcp = mcpToolOf(call.toolName);
  if (!mcp?.server.toLowerCase().includes('redis')) return undefined;
  for (const key of ['command', 'cmd', 'query']) {
    const value = call.input[key];
    const words = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    // `{"command": "CONFIG", "args": ["SET", "dir", …]}`: the arguments follow the command.
    const args = Array.isArray(call.input.args) ? call.input.args : [];
    const statement = [...words, ...args].filter((w) => typeof w === 'string' || typeof w === 'number').join(' ');
    if (statement.trim() !== '') return { server: mcp.server, statement: statement.trim() };
  }
  return undefined;
}

export interface ServiceTool {
  server: string;
  tool: string;
  /** The words of the tool's name, and of the operation a dispatching tool is told to perform. */
  words: string[];
  /** The words of what the call does: the operation a dispatching tool is told to perform, else the tool's name. */
  doing: string[];
  /** Its arguments, with a dispatching tool's argument object lifted beside them. */
  args: Record<string, unknown>;
  call: ToolCall;
}

/** Five checks read the same call's service tool: it is worked out once per call. */
const serviceToolOf = new WeakMap<ToolCall, ServiceTool | null>();

/** The MCP tool of a call and its words, unless the call is read as a file read or write. */
export function serviceTool(call: ToolCall | undefined): ServiceTool | null {
  if (!call) return null;
  let found = serviceToolOf.get(call);
  if (found === undefined) {
    found = readServiceTool(call);
    serviceToolOf.set(call, found);
  }
  return found;
}

function readServiceTool(call: ToolCall): ServiceTool | null {
  const mcp = mcpToolOf(call.toolName);
  if (!mcp) return null;
  if (call.face.family === 'read' || call.face.family === 'write' || call.face.family === 'edit') return null;
  const operation = serviceOperationOf(call.input);
  // A tool that runs any GraphQL document (`run_admin_graphql`) does what its mutation's fields say
  // (`metafieldDefinitionDelete`), and only that: the tool's own name says nothing of it.
  const mutations = Object.values(call.input).flatMap((v) => (typeof v === 'string' ? graphqlMutationFields(v) : []));
  const doing = mutations.length ? mutations.flatMap(nameWords) : nameWords(operation?.name ?? mcp.tool);
  const words = operation && !mutations.length ? [...nameWords(mcp.tool), ...doing] : doing;
  return { ...mcp, words, doing, args: operationArguments(call.input), call };
}

/** The finding for a service tool: what it is called with, and what that does there. */
export function serviceFinding(found: ServiceTool, does: string) {
  const { call } = found;
  const target = Object.values(found.args)
    .filter((v): v is string => typeof v === 'string')
    .join(' ');
  return {
    reason: `Calls ${found.server}'s ${found.tool}${target ? ` (${evidenceOf(target, 80)})` : ''}: ${does}`,
    evidence: evidenceOf(`${call.toolName} ${target}`),
  };
}
