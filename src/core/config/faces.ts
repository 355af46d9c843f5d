import { z } from 'zod';
import { inferredFace, isMcpTool } from './inferred-faces';
import { toolFaceSchema } from './schema';

// A face tells the policies how to read a tool's arguments, so one policy
// ("writing outside the project") covers every agent's write tool.

export type ToolFamily = z.infer<typeof toolFaceSchema>['family'];
export type { ToolFace } from './schema';
import type { ToolFace } from './schema';

type FaceSpec = z.infer<typeof toolFaceSchema>;

const shell = (commandParam = 'command'): FaceSpec => ({ family: 'shell', commandParam, summary: [commandParam] });
const read = (param: string, aliases?: string[]): FaceSpec => ({
  family: 'read',
  pathTarget: { param, access: 'read', ...(aliases ? { aliases } : {}) },
  summary: [param],
});
const write = (param: string, contentParams: string[], aliases?: string[]): FaceSpec => ({
  family: 'write',
  pathTarget: { param, access: 'write', ...(aliases ? { aliases } : {}) },
  contentParams,
  summary: [param],
});
const edit = (param: string, contentParams: string[], aliases?: string[]): FaceSpec => ({
  family: 'edit',
  pathTarget: { param, access: 'write', ...(aliases ? { aliases } : {}) },
  contentParams,
  summary: [param],
});
/** A folder listing: the entries' names, never what the files hold. */
const list = (param: string, aliases?: string[]): FaceSpec => ({
  family: 'read',
  pathTarget: { param, access: 'list', ...(aliases ? { aliases } : {}) },
  summary: [param],
});
const search = (param: string, aliases?: string[]): FaceSpec => ({
  family: 'search',
  pathTarget: { param, access: 'read', ...(aliases ? { aliases } : {}) },
  summary: ['pattern', param],
});
const network = (urlParam: string): FaceSpec => ({ family: 'network', urlParam, summary: [urlParam] });

// Tool names and parameters as each agent sends them in its hook input. Where
// agents share a name (read_file), the aliases cover every agent's parameter.
/** Built-in faces for the tools of Claude Code, Codex, Gemini CLI, Cursor and Copilot CLI. */
const BUILT_IN: Record<string, FaceSpec> = {
  // Claude Code (Cursor's preToolUse uses the same names for Read, Write, Edit, Grep, Glob)
  Bash: shell(),
  BashOutput: { family: 'other', summary: ['bash_id'] },
  KillShell: { family: 'other', summary: ['shell_id'] },
  Read: read('file_path', ['path', 'target_file']),
  Write: write('file_path', ['content', 'contents'], ['path', 'target_file']),
  Edit: edit('file_path', ['new_string'], ['path', 'target_file']),
  MultiEdit: edit('file_path', ['edits']),
  NotebookEdit: edit('notebook_path', ['new_source']),
  NotebookRead: read('notebook_path'),
  // Glob lists the names under its folder; its pattern is judged as a search's (secret-reads).
  Glob: { ...search('path'), pathTarget: { param: 'path', access: 'list' } },
  Grep: search('path'),
  LS: list('path'),
  WebFetch: network('url'),
  WebSearch: { family: 'network', summary: ['query'] },
  Task: { family: 'other', summary: ['description'] },
  TodoWrite: { family: 'other', summary: [] },
  // Codex CLI: `shell` takes an argv array; its hooks send shell calls as Bash and
  // apply_patch with the patch text in `command`.
  shell: shell('command'),
  local_shell: shell('command'),
  exec_command: shell('cmd'),
  apply_patch: { family: 'edit', contentParams: ['input', 'patch', 'command'], summary: ['input', 'command'] },
  // Gemini CLI (parameter names changed between versions: absolute_path/path/file_path, path/dir_path)
  run_shell_command: shell('command'),
  read_file: read('file_path', ['absolute_path', 'path', 'target_file']),
  read_many_files: {
    family: 'read',
    pathTarget: { param: 'paths', aliases: ['include'], access: 'read' },
    summary: ['paths'],
  },
  write_file: write('file_path', ['content'], ['absolute_path', 'path']),
  replace: edit('file_path', ['new_string'], ['absolute_path', 'path']),
  glob: { ...search('path', ['dir_path']), pathTarget: { param: 'path', aliases: ['dir_path'], access: 'list' } },
  search_file_content: search('path', ['dir_path']),
  grep_search: search('path', ['dir_path']),
  list_directory: list('dir_path', ['path']),
  web_fetch: { family: 'network', urlParam: 'url', urlText: 'prompt', summary: ['prompt', 'url'] },
  google_web_search: { family: 'network', summary: ['query'] },
  // The agents' memory tools: notes later sessions read (config/tool-names isAgentMemoryTool).
  save_memory: { family: 'other', summary: ['fact'] },
  store_memory: { family: 'other', summary: ['subject', 'fact'] },
  update_memory: { family: 'other', summary: ['title', 'knowledge_to_store'] },
  // Cursor
  Shell: shell('command'),
  run_terminal_cmd: shell('command'),
  StrReplace: edit('file_path', ['new_string'], ['path']),
  Delete: {
    family: 'write',
    pathTarget: { param: 'file_path', aliases: ['path', 'target_file'], access: 'write' },
    summary: ['file_path'],
  },
  edit_file: edit('target_file', ['code_edit', 'contents']),
  delete_file: { family: 'write', pathTarget: { param: 'target_file', access: 'write' }, summary: ['target_file'] },
  list_dir: list('relative_workspace_path', ['path']),
  // Copilot CLI
  bash: shell('command'),
  powershell: shell('command'),
  view: read('path'),
  create: write('path', ['file_text']),
  edit: edit('path', ['new_str']),
  str_replace_editor: edit('path', ['new_str', 'file_text']),
  grep: search('path'),
  fetch: network('url'),
};

export function builtInFace(tool: string): ToolFace | undefined {
  // Own keys only: a tool called "constructor" must not find Object's.
  const spec = Object.hasOwn(BUILT_IN, tool) ? BUILT_IN[tool] : undefined;
  return spec ? { ...spec, tool, builtIn: true } : undefined;
}

export function builtInToolNames(): string[] {
  return Object.keys(BUILT_IN);
}

/** A tool with no face is read as family "other": no path or command is inferred from it. */
export function unknownFace(tool: string): ToolFace {
  return { family: 'other', summary: [], tool, builtIn: false };
}

export interface FaceError {
  tool: string;
  message: string;
}

/**
 * Parses the config's toolFaces. A malformed face is refused whole (never half
 * applied), with a message naming the tool, the member and what was expected.
 */
export function parseToolFaces(raw: Record<string, unknown> | undefined): {
  faces: Map<string, ToolFace>;
  errors: FaceError[];
} {
  const faces = new Map<string, ToolFace>();
  const errors: FaceError[] = [];
  for (const [tool, value] of Object.entries(raw ?? {})) {
    const parsed = toolFaceSchema.safeParse(value);
    if (parsed.success) {
      faces.set(tool, { ...parsed.data, tool, builtIn: false });
      continue;
    }
    for (const issue of parsed.error.issues) {
      errors.push({ tool, message: `toolFaces[${JSON.stringify(tool)}]: ${describeIssue(issue, value)}` });
    }
  }
  return { faces, errors };
}

/** Whether the member an issue points at is absent from the raw value (rather than present and wrong). */
function isAbsent(value: unknown, path: PropertyKey[]): boolean {
  let current: unknown = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key))
      return true;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current === undefined;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const where = issue.path.map(String).join('.');
  if (
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
    issue.path.length > 0 &&
    isAbsent(value, issue.path)
  )
    return `${where} is missing`;
  if (issue.code === 'unrecognized_keys') {
    const prefix = where ? `${where}: ` : '';
    return `${prefix}unknown member${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  }
  if (issue.code === 'invalid_value')
    return `${where || 'value'} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${where || 'value'}: ${issue.message}`;
}

export class FaceBook {
  constructor(private readonly configured: Map<string, ToolFace>) {}

  /**
   * The declared face, else the built-in one, else (for an MCP tool) the one its arguments imply. `canonical`
   * is the name in the policies' form (canonicalToolName), looked up after the name the agent sent.
   */
  faceFor(tool: string, input: Record<string, unknown> = {}, canonical = tool): ToolFace {
    const known = this.configured.get(tool) ?? this.configured.get(canonical) ?? builtInFace(tool);
    if (known) return known;
    return (isMcpTool(canonical) ? inferredFace(canonical, input) : undefined) ?? unknownFace(tool);
  }

  /** The faces the config declared, to rebuild this book on another thread. */
  configuredEntries(): [string, ToolFace][] {
    return [...this.configured];
  }
}
