import { browserScriptOf } from '../text/browser-scripts';
import { declaredSql, runnerCodeOf } from '../text/code-runners';
import { serviceOperationOf } from '../text/service-operations';
import { isRemoteUrl } from '../text/urls';
import type { ToolFace } from './schema';

// MCP servers name their tools and parameters freely, so a tool no face describes would be read as
// "other" and judged by no path, command or network policy. A tool whose arguments carry a command,
// a URL or a path is read by those arguments instead: a shell runner's `command` is parsed as shell,
// a fetcher's `url` is a network call, a file tool's `path` is read or written as its name says.
// A face the config declares always wins, and a tool with none of these parameters stays "other".

const COMMAND_PARAMS = ['command', 'cmd', 'shell_command', 'cli_command', 'script', 'commandLine', 'command_line'];
const URL_PARAMS = ['url', 'uri', 'href', 'endpoint', 'link'];
const PATH_PARAMS = [
  'file_path',
  'filePath',
  'filepath',
  'path',
  'file',
  'filename',
  'absolute_path',
  'target_file',
  'source',
  'destination',
  'dir',
  'directory',
  // A repository host's file tools name the file in the repository: it lands in every clone.
  'repo_path',
];
/** Names of secret stores (a server named for one fronts it): its `path` names a secret there, never a file on this machine. */
export const SECRET_STORE_NAME =
  /vault|1password|onepassword|bitwarden|lastpass|keeper|keychain|secrets?manager|doppler|infisical/i;
// Tools that read or change several files at once take them as a list.
const PATH_LIST_PARAMS = ['paths', 'file_paths', 'filePaths', 'files', 'filenames'];
const CONTENT_PARAMS = ['content', 'contents', 'text', 'data', 'body', 'new_string', 'newText', 'file_text'];
// Verbs in a tool's name that mean it changes the file it names. An upload reads the file it names
// (and sends it: see outbound-routes.ts).
const WRITING_VERB =
  /(write|create|edit|save|put|update|append|insert|replace|patch|delete|remove|move|rename|mkdir|copy)/i;
const UPLOADING_VERB = /upload/i;
/** Tools that show a path's entries or metadata, not what it holds (a filesystem server's list_directory). */
const LISTING_VERB =
  /^(list_(directory|directories|dir|files|allowed_directories)|directory_tree|get_file_info|file_info|stat)$/i;

function firstStringParam(
  input: Record<string, unknown>,
  names: readonly string[],
  accepts: (value: string) => boolean = () => true,
): string | undefined {
  return names.find((name) => {
    const value = Object.hasOwn(input, name) ? input[name] : undefined;
    return typeof value === 'string' && value !== '' && accepts(value);
  });
}

function firstStringListParam(input: Record<string, unknown>, names: readonly string[]): string | undefined {
  return names.find((name) => {
    const value = Object.hasOwn(input, name) ? input[name] : undefined;
    return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');
  });
}

/**
 * A command given as text, or as an argv array (`"command": ["cat", "/etc/…"]`, as exec tools take it).
 * A dispatching tool's `command` that names an API's operation (`restart_service`) is no command line.
 */
function firstCommandParam(input: Record<string, unknown>): string | undefined {
  const operationKey = serviceOperationOf(input)?.key;
  return COMMAND_PARAMS.find((name) => {
    if (name === operationKey) return false;
    const value = Object.hasOwn(input, name) ? input[name] : undefined;
    if (typeof value === 'string') return value !== '';
    return Array.isArray(value) && value.length > 0 && value.every((word) => typeof word === 'string');
  });
}

/** Whether a tool is an MCP server's tool (`mcp__server__tool`), whose face may be inferred. */
export function isMcpTool(tool: string): boolean {
  return /^mcp__[^_].*__./.test(tool);
}

// An object store's tools name the object by its key in a bucket (`{bucket, key: "prod/terraform.tfstate"}`):
// the key is the object's path, and a state file or a key file there holds what it holds on a disk.
const OBJECT_KEY_PARAMS = ['key', 'Key', 'object_key', 'objectKey', 'object'];

function objectKeyParam(verb: string, input: Record<string, unknown>): string | undefined {
  // Only a tool that moves the object itself (`get_object`, `put_object`); one that sets its ACL or tags is the service's.
  if (!/objects?$/i.test(verb)) return undefined;
  const inBucket = typeof input['bucket'] === 'string' || typeof input['Bucket'] === 'string';
  return inBucket ? firstStringParam(input, OBJECT_KEY_PARAMS) : undefined;
}

/** The face an MCP tool's own arguments give it, or undefined when none of them says what it touches. */
export function inferredFace(tool: string, input: Record<string, unknown>): ToolFace | undefined {
  const verb = tool.replace(/^mcp__.*?__/, '');
  // A browser tool's `script` is JavaScript for its page, a code runner's `code` code of its language
  // (policies/call reads each so), not a command line.
  if (browserScriptOf(tool, input) || runnerCodeOf(tool, input) || declaredSql(input)) return undefined;
  const commandParam = firstCommandParam(input);
  if (commandParam !== undefined)
    return { family: 'shell', commandParam, summary: [commandParam], tool, builtIn: false, inferred: true };
  const urlParam = firstStringParam(input, URL_PARAMS);
  if (urlParam !== undefined)
    return { family: 'network', urlParam, summary: [urlParam], tool, builtIn: false, inferred: true };
  if (SECRET_STORE_NAME.test(tool.split('__')[1] ?? '')) return undefined;
  // `destination: "https://…"` names a place on the network, not a file here: the service sends there.
  const pathParam =
    firstStringParam(input, PATH_PARAMS, (value) => !isRemoteUrl(value)) ??
    firstStringListParam(input, PATH_LIST_PARAMS) ??
    objectKeyParam(verb, input);
  if (pathParam === undefined) return undefined;
  // `//depot/main/...` is a path on a Perforce server, not a file here: the tool is the service's own.
  if (typeof input[pathParam] === 'string' && /^\/\/\w/.test(input[pathParam])) return undefined;
  const aliases = PATH_PARAMS.filter((name) => name !== pathParam && typeof input[name] === 'string');
  const writes = WRITING_VERB.test(verb) && !UPLOADING_VERB.test(verb);
  const access = writes ? 'write' : LISTING_VERB.test(verb) ? 'list' : 'read';
  return {
    family: writes ? 'write' : 'read',
    pathTarget: { param: pathParam, access, ...(aliases.length ? { aliases } : {}) },
    ...(writes ? { contentParams: CONTENT_PARAMS.filter((name) => typeof input[name] === 'string') } : {}),
    summary: [pathParam],
    tool,
    builtIn: false,
    inferred: true,
  };
}
