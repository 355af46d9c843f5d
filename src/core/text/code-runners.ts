// MCP servers that run the code handed to them: a code runner (`language` and `code`), a notebook
// kernel (Jupyter's execute-cell tools), a REPL. Their code is read as code of its language, as a
// `python3 -c` or `node -e` script is, so what it runs, fetches, or decodes and runs is judged like any
// other code's; taken for a command line, it was only ever asked about as unreadable, or not at all.

const RUNNER_TOOL = /run|exec|eval|cell|repl|kernel|notebook/i;
const CODE_KEYS = ['code', 'source', 'cell', 'snippet', 'script', 'program'];
const LANGUAGE_KEYS = ['language', 'lang', 'runtime', 'kernel', 'kernel_name'];
/** A language as code runners name it (and as servers are named after it), to Warden's name for it. */
const LANGUAGES: [RegExp, string][] = [
  // A notebook kernel runs IPython: `!cmd` lines and `%pip` magics as well as Python.
  [/^(ipython|jupyter|ipykernel|notebook)\b/i, 'ipython'],
  [/^(python[\d.]*|py)\b/i, 'python'],
  [/^(javascript|js|node(js)?)\b/i, 'javascript'],
  [/^(typescript|ts|deno|bun)\b/i, 'typescript'],
  [/^(ruby|rb|irb)\b/i, 'ruby'],
  [/^perl\b/i, 'perl'],
  [/^php\b/i, 'php'],
  [/^lua\b/i, 'lua'],
  [/^(powershell|pwsh)\b/i, 'powershell'],
  [/^(bash|sh|zsh|shell)\b/i, 'shell'],
  // No reader for these: their code is judged as a one-liner of theirs is (facts/inline-unread-languages).
  [/^(r|rscript)$/i, 'r'],
  [/^julia\b/i, 'julia'],
  [/^scala\b/i, 'scala'],
  [/^groovy\b/i, 'groovy'],
];

export interface RunnerCode {
  /** The argument the code came in. */
  key: string;
  /** Warden's name for its language ('shell' for a shell, 'ipython' for a notebook kernel's cell). */
  language: string;
  code: string;
}

function languageNamed(name: string): string | undefined {
  return LANGUAGES.find(([pattern]) => pattern.test(name.trim()))?.[1];
}

/** The code an MCP tool would run, and its language, when the tool runs code and says (or its server names) which. */
export function runnerCodeOf(toolName: string, input: Record<string, unknown>): RunnerCode | undefined {
  const [prefix, server, ...rest] = toolName.split('__');
  if (prefix !== 'mcp' || !server || !RUNNER_TOOL.test(rest.join('__'))) return undefined;
  const named = LANGUAGE_KEYS.map((k) => input[k]).find((v): v is string => typeof v === 'string');
  // A `command` is code only where a language key says which (Databricks' execute_command); alone it is a command line.
  const keys = named !== undefined && languageNamed(named) !== undefined ? [...CODE_KEYS, 'command'] : CODE_KEYS;
  const key = keys.find((k) => typeof input[k] === 'string' && (input[k] as string).trim() !== '');
  if (!key) return undefined;
  const language = named !== undefined ? languageNamed(named) : languageNamed(server.replace(/[-_]/g, ' '));
  return language ? { key, language, code: input[key] as string } : undefined;
}

/** A tool handed SQL under a language key (`{"language": "sql", "command": …}`): its text is SQL, not a command line. */
export function declaredSql(input: Record<string, unknown>): boolean {
  return LANGUAGE_KEYS.some(
    (k) => typeof input[k] === 'string' && /^\s*(sql|spark-?sql|hql)\s*$/i.test(input[k] as string),
  );
}
