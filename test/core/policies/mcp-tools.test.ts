import { policyTable } from './table';

const mcp = (tool: string, input: Record<string, unknown>) => ({ tool, input });

policyTable('mcp-deleting-tool', [
  {
    note: 'a repository deleted',
    spec: mcp('mcp__github__delete_repository', { owner: 'acme', repo: 'api' }),
    expect: 'ask',
  },
  {
    note: 'a collection dropped',
    spec: mcp('mcp__mongodb__drop_collection', { database: 'app', collection: 'orders' }),
    expect: 'ask',
  },
  {
    note: 'a namespace deleted',
    spec: mcp('mcp__kubernetes__delete_resource', { kind: 'Namespace', name: 'production' }),
    expect: 'ask',
  },
  { note: 'camel case', spec: mcp('mcp__vercel__deleteProject', { name: 'site' }), expect: 'ask' },
  { note: 'near miss: a listing', spec: mcp('mcp__docker__list_containers', { all: true }), expect: null },
  {
    note: 'near miss: a verb that only starts like one',
    spec: mcp('mcp__github__dropdown_options', { repo: 'acme/api' }),
    expect: null,
  },
  {
    note: "near miss: a file tool's delete is a write of its path, for the file policies",
    spec: mcp('mcp__filesystem__delete_file', { path: '/home/dev/project/tmp.txt' }),
    expect: null,
  },
  {
    note: 'near miss: a built-in tool',
    spec: { tool: 'Bash', input: { command: 'echo delete_repository' } },
    expect: null,
  },
]);
