import type { SimpleCommand } from '../shell';
import { argsOf } from './commands';
import type { SedEdit } from './sed-edits';

// `npm pkg set scripts.prepare="…"` writes a package script without a file tool: npm runs prepare,
// install and their kin by itself. What it sets is judged at write time like an Edit of package.json
// that adds the same entries; a hook `husky add` writes is judged like a Write of that hook, and a
// value `yq -i` sets in a YAML file (a compose service's command) like an Edit that sets that key.

const MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** The package managers' options that take a value, which is no operand (`pnpm --dir web pkg set …`). */
const MANAGER_VALUE_OPTIONS = new Set(['--dir', '-C', '--filter', '-F', '--prefix', '--workspace', '--cwd']);

/** A package manager's operands, past its options and their values. */
function managerOperands(args: readonly string[]): string[] {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (MANAGER_VALUE_OPTIONS.has(word)) i++;
    else if (!word.startsWith('-')) operands.push(word);
  }
  return operands;
}

/** The package.json entries a `pkg set scripts.*` or `set-script` command writes, as an Edit's fragment. */
export function scriptEdit(cmd: SimpleCommand): SedEdit | null {
  const hook = huskyHookEdit(cmd) ?? jqScriptEdit(cmd) ?? yqInPlaceEdit(cmd) ?? composerScriptEdit(cmd);
  if (hook) return hook;
  if (!MANAGERS.has(cmd.name)) return null;
  const args = managerOperands(argsOf(cmd));
  const entries: [string, string][] = [];
  if (args[0] === 'pkg' && args[1] === 'set') {
    for (const pair of args.slice(2)) {
      const at = pair.indexOf('=');
      if (pair.startsWith('scripts.') && at > 0) entries.push([pair.slice('scripts.'.length, at), pair.slice(at + 1)]);
    }
  } else if (args[0] === 'set-script' && args[1] !== undefined && args[2] !== undefined) {
    entries.push([args[1], args[2]]);
  }
  return scriptEntries(entries);
}

/** `composer config scripts.post-install-cmd "…"`: a script composer runs by itself at that event. */
function composerScriptEdit(cmd: SimpleCommand): SedEdit | null {
  if (cmd.name !== 'composer') return null;
  const args = argsOf(cmd).filter((a) => !a.startsWith('-'));
  const key = args[1];
  if (args[0] !== 'config' || !key?.startsWith('scripts.') || args.length < 3) return null;
  return {
    files: ['composer.json'],
    text: JSON.stringify({ scripts: { [key.slice('scripts.'.length)]: args.slice(2).join(' ') } }),
  };
}

function scriptEntries(entries: readonly (readonly [string, string])[], file = 'package.json'): SedEdit | null {
  if (!entries.length) return null;
  return {
    files: [file],
    text: entries.map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(',\n'),
  };
}

// `jq '.scripts.postinstall = "curl … | sh"' package.json > tmp && mv tmp package.json`: the filter
// assigns a script (`.scripts.x = "…"`, `.scripts["x"] = "…"`, `|=` too) to a package.json it reads.
const JQ_SCRIPT_ASSIGNMENT = /\.scripts(?:\.([\w:-]+)|\[\s*"([^"\\]+)"\s*\])\s*\|?=\s*"((?:[^"\\]|\\.)*)"/g;

// jq's options that take one value, and those that take two (`--arg name value`).
const JQ_ONE_VALUE = new Set(['--indent', '-L', '--seq-prefix']);
const JQ_TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);

/** jq's words split into its options (each without the value it takes) and its filter and files. */
export function jqWords(args: readonly string[]): { options: string[]; operands: string[] } {
  const options: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (JQ_TWO_VALUES.has(word)) i += 2;
    else if (JQ_ONE_VALUE.has(word)) i += 1;
    if (word.startsWith('-') && word !== '-') options.push(word);
    else operands.push(word);
  }
  return { options, operands };
}

/** The scripts a jq filter over a package.json sets. */
function jqScriptEdit(cmd: SimpleCommand): SedEdit | null {
  if (cmd.name !== 'jq') return null;
  const [filter, ...files] = jqWords(argsOf(cmd)).operands;
  const manifest = files.find((f) => /(^|\/)package\.json$/.test(f));
  if (filter === undefined || manifest === undefined) return null;
  const entries: [string, string][] = [];
  for (const match of filter.matchAll(JQ_SCRIPT_ASSIGNMENT)) {
    try {
      entries.push([(match[1] ?? match[2]) as string, JSON.parse(`"${match[3] ?? ''}"`) as string]);
    } catch {
      entries.push([(match[1] ?? match[2]) as string, match[3] ?? '']);
    }
  }
  return scriptEntries(entries, manifest);
}

// `husky add .husky/pre-push "cmd"` (and `husky set`) writes a git hook that runs the command; `npx`
// and the package managers' runners start husky.
const RUNNERS = new Set(['npx', 'pnpx', 'bunx']);

/** The hook file `husky add|set FILE CMD` writes, with the command as its text. */
function huskyHookEdit(cmd: SimpleCommand): SedEdit | null {
  const args = argsOf(cmd).filter((a) => !a.startsWith('-'));
  const words = cmd.name === 'husky' ? args : RUNNERS.has(cmd.name) && args[0] === 'husky' ? args.slice(1) : [];
  const [sub, file, command] = words;
  if ((sub !== 'add' && sub !== 'set') || file === undefined || command === undefined) return null;
  return { files: [file], text: command };
}

// `yq -i '.services.api.command = "sh -c …"' docker-compose.yml`: each string the expression assigns,
// as the `key: "value"` line it leaves in the file.
const YQ_ASSIGNMENT = /\.([\w-]+)(?:\[\d+\])?\s*\|?=\s*"((?:[^"\\]|\\.)*)"/g;
/** `.electronFuses.runAsNode = true`: a switch set, left in the file as `runAsNode: true`. */
const YQ_SWITCH = /\.([\w-]+)\s*=\s*(true|false)\b/g;
const YQ_SUBCOMMANDS = new Set(['e', 'eval', 'ea', 'eval-all']);
/** `.steps += [{"name": "x", "run": "…"}]`: each string a key is given inside an object the expression adds. */
const YQ_OBJECT_PAIR = /[{,]\s*"?([\w-]+)"?\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/** The lines `yq -i` (or `--inplace`) writes into the YAML files it is given. */
function yqInPlaceEdit(cmd: SimpleCommand): SedEdit | null {
  if (cmd.name !== 'yq') return null;
  const args = argsOf(cmd);
  const inPlace = (a: string) => a === '--inplace' || (/^-[a-zA-Z]+$/.test(a) && a.includes('i'));
  if (!args.some(inPlace)) return null;
  const operands = args.filter((a) => !a.startsWith('-'));
  const [expression, ...files] = YQ_SUBCOMMANDS.has(operands[0] ?? '') ? operands.slice(1) : operands;
  if (expression === undefined || files.length === 0) return null;
  const lines: string[] = [];
  for (const match of [...expression.matchAll(YQ_ASSIGNMENT), ...expression.matchAll(YQ_OBJECT_PAIR)]) {
    let value = match[2] ?? '';
    try {
      value = JSON.parse(`"${value}"`) as string;
    } catch {
      // Kept as written: an escape JSON does not know.
    }
    lines.push(`${match[1]}: ${JSON.stringify(value)}`);
  }
  for (const match of expression.matchAll(YQ_SWITCH)) lines.push(`${match[1]}: ${match[2]}`);
  return lines.length ? { files, text: lines.join('\n') } : null;
}
