// A company's own MCP server often fronts its API with one dispatching tool: `send_command` with
// `{"command": "restart_service", "args": {...}}`, `run_action` with `{"action": "factory_reset"}`.
// The operation is named in an argument, not in the tool's name, and what it is done with sits one
// level down. Read so, the call says what the API will do (restart with LD_PRELOAD, reset every robot,
// upload logs to a host) instead of being a command line made of one unknown word.

type Input = Record<string, unknown>;

/** Arguments that name the operation a dispatching tool performs. */
const OPERATION_KEYS = ['command', 'action', 'operation', 'op'] as const;
/** Objects under which such a tool takes the operation's own arguments. */
const ARGUMENT_CONTAINERS = ['args', 'arguments', 'params', 'parameters', 'options', 'payload'] as const;
// `restart_service`, `factoryReset`: an API's operation. A program is one word or kebab-case (`git-lfs`),
// and takes its arguments as a list, not an object.
const OPERATION_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$|^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+$/;

export interface ServiceOperation {
  /** The argument that names it (`command`, `action`, …). */
  key: string;
  name: string;
}

function isPlainObject(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The operation a dispatching tool is told to perform. A `command` counts only when it reads as an
 * API's operation name and its arguments come as an object beside it; `action`, `operation` and `op`
 * name one whenever they hold such a name or one lower-case word. (A cloud API's own `DescribeSecret`
 * is read as that cloud's command line instead: see facts/mcp-command-lines.)
 */
export function serviceOperationOf(input: Input): ServiceOperation | undefined {
  for (const key of OPERATION_KEYS) {
    const value = input[key];
    if (typeof value !== 'string') continue;
    if (key === 'command') {
      if (OPERATION_NAME.test(value) && ARGUMENT_CONTAINERS.some((name) => isPlainObject(input[name])))
        return { key, name: value };
    } else if (OPERATION_NAME.test(value) || /^[a-z]+$/.test(value)) return { key, name: value };
  }
  return undefined;
}

/**
 * A tool's arguments with those of its argument object lifted beside them (`{"robot_id": …, "args":
 * {"env": …}}` → `{"robot_id": …, "env": …}`). The tool's own top-level argument wins a clash.
 */
export function operationArguments(input: Input): Input {
  const lifted: Input = {};
  for (const name of ARGUMENT_CONTAINERS) {
    const inner = input[name];
    if (isPlainObject(inner)) Object.assign(lifted, inner);
  }
  if (Object.keys(lifted).length === 0) return input;
  const own = Object.fromEntries(
    Object.entries(input).filter(([key]) => !(ARGUMENT_CONTAINERS as readonly string[]).includes(key)),
  );
  return { ...lifted, ...own };
}

/** The words of an operation's or a tool's name: `kubectl_delete`, `deleteBucket` → delete, …. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\-.]+/)
    .filter((w) => w !== '');
}

/** Past this, a GraphQL document is not read further for its mutation's fields. */
const MAX_GRAPHQL_CHARS = 16_384;

/**
 * The top-level fields of a GraphQL mutation (`mutation { urlRedirectBulkDeleteAll { … } }` →
 * urlRedirectBulkDeleteAll): what a tool that runs any GraphQL document against an API is told to do.
 * A query, a subscription or text that is not GraphQL has none.
 */
export function graphqlMutationFields(text: string): string[] {
  const start = /^\s*(?:#[^\n]*\n\s*)*mutation\b[^{]*\{/.exec(text);
  if (!start) return [];
  const fields: string[] = [];
  let depth = 1;
  let inString = false;
  const end = Math.min(text.length, MAX_GRAPHQL_CHARS);
  for (let at = start[0].length; at < end && depth > 0; at++) {
    const ch = text[at]!;
    if (inString) {
      if (ch === '\\') at++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '(') depth++;
    else if (ch === '}' || ch === ')') depth--;
    else if (depth === 1 && /[A-Za-z_]/.test(ch) && !/[\w:]/.test(text[at - 1] ?? '')) {
      const name = /^[A-Za-z_]\w*(\s*:\s*[A-Za-z_]\w*)?/.exec(text.slice(at, at + 200))![0];
      // `alias: field`: the field is what runs.
      fields.push(name.split(':').pop()!.trim());
      at += name.length - 1;
    }
  }
  return fields;
}
