// Where the commands sit in the files build tools, task runners, CI systems and containers run:
// one reader per format, each returning the command lines the file will run. Pure text readers;
// written-runs.ts decides which file is read by which.
import { shellQuote } from '../shell/quote';
import { beforeHashComment } from '../text/scan';
import { xmlText } from '../text/xml';
import { parseJsonWithComments } from '../text/jsonc';
import { COMMAND_MODULES, bareModule, moduleArgs, moduleScript } from '../shell/ansible-hops';

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0])
    return t[0] === '"' ? t.slice(1, -1).replace(/\\(["\\])/g, '$1') : t.slice(1, -1).replace(/''/g, "'");
  return t;
}

/** The items of a YAML flow list's inside (`a, "b, c"`), split on commas outside quotes. */
function flowItems(inside: string): string[] {
  const items: string[] = [];
  let quote = '';
  let current = '';
  for (const ch of inside) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ',') {
      items.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  return [...items, current].map((i) => i.trim()).filter((i) => i !== '');
}

/**
 * The values of the given keys in a YAML file: an inline scalar, a block scalar (`key: |`), or a
 * list (`key:` then `- cmd` lines, or `key: [a, b]`). Read line by line, without a YAML parser: a
 * written file is judged for what its command keys say, whatever else it holds.
 */
export function yamlValues(text: string, keys: ReadonlySet<string>): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trimStart();
    const entry = trimmed.startsWith('- ') ? trimmed.slice(2).trimStart() : trimmed;
    const match = /^["']?([\w.-]+)["']?[ \t]*:/.exec(entry);
    if (!match || !keys.has(match[1] ?? '')) continue;
    const after = entry.slice(match[0].length);
    if (after !== '' && !/^\s/.test(after)) continue;
    const inline = beforeHashComment(after).trim();
    if (inline.startsWith('[') && inline.endsWith(']')) {
      out.push(...flowItems(inline.slice(1, -1)).map(unquote));
      continue;
    }
    if (inline !== '' && !/^[|>][-+]?\d*$/.test(inline)) {
      out.push(unquote(inline));
      continue;
    }
    const indent = indentOf(line);
    // A key whose block is a mapping (lefthook's `commands:` then `lint:` then `run:`) holds no
    // command itself: its inner keys are read as the loop reaches them.
    let nextAt = i + 1;
    while (nextAt < lines.length && lines[nextAt]?.trim() === '') nextAt++;
    const next = lines[nextAt];
    if (
      inline === '' &&
      next !== undefined &&
      indentOf(next) > indent &&
      /^["']?[\w.-]+["']?[ \t]*:([ \t]|$)/.test(next.trim())
    )
      continue;
    const block: string[] = [];
    // A list may sit at its key's own indent (`args:` then `- -c` under it, as kubectl writes kubeconfigs).
    const sameIndentList = inline === '' && next !== undefined && indentOf(next) === indent && /^\s*- /.test(next);
    const inBlock = (l: string) =>
      l.trim() === '' || indentOf(l) > indent || (sameIndentList && indentOf(l) === indent && /^\s*- /.test(l));
    for (i++; i < lines.length && inBlock(lines[i] ?? ''); i++) block.push(lines[i] ?? '');
    i--;
    const items = block.filter((l) => l.trim() !== '');
    if (inline === '' && items.length && items.every((l) => /^\s*- /.test(l) || indentOf(l) > indentOf(items[0] ?? '')))
      out.push(...items.filter((l) => /^\s*- /.test(l)).map((l) => unquote(l.trim().slice(2))));
    else out.push(...items.map((l) => l.trim()));
  }
  return out.filter((l) => l !== '');
}

/** The JSON strings in a piece of text, still escaped, in order; with `values`, only those no `:` follows (not keys). */
function jsonStrings(text: string, values = false): string[] {
  const out: string[] = [];
  let current: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (current === undefined) {
      if (ch === '"') current = '';
    } else if (ch === '\\') {
      current += ch + (text[i + 1] ?? '');
      i++;
    } else if (ch === '"') {
      if (!values || !/^\s*:/.test(text.slice(i + 1, i + 64))) out.push(current);
      current = undefined;
    } else current += ch;
  }
  return out;
}

/**
 * lint-staged's JSON config (or an Edit's piece of it): every value is a command run on the staged files
 * at each commit; the keys are globs.
 */
export function lintStagedCommands(text: string): string[] {
  return jsonStrings(text, true).flatMap((escaped) => {
    try {
      return [JSON.parse(`"${escaped}"`) as string];
    } catch {
      return [];
    }
  });
}

/**
 * A Prisma schema's generator providers that are commands (`provider = "node ./gen/index.js"`), which
 * `prisma generate` runs; a package name (`prisma-client-js`) is not one.
 */
export function prismaGeneratorCommands(text: string): string[] {
  // A datasource's provider is one word (`postgresql`): only a generator's can be a command line or a path.
  return text
    .split('\n')
    .map((line) => /^[ \t]*provider[ \t]*=[ \t]*"([^"\n]*)"/.exec(line)?.[1])
    .filter((provider): provider is string => provider !== undefined && /[\s/]|^[.~]/.test(provider));
}

/**
 * The values of the given keys in a JSON file (strings, or lists of strings), at any depth. A list is
 * one command's words ('argv'), or command lines each run on its own ('lines', firebase.json's `predeploy`).
 */
export function jsonValues(text: string, keys: ReadonlySet<string>, lists: 'argv' | 'lines' = 'argv'): string[] {
  let parsed: unknown;
  try {
    parsed = parseJsonWithComments(text);
  } catch {
    // An Edit's fragment: `"postCreateCommand": "…"` pairs, and `"post-install-cmd": ["…", "…"]` lists.
    const pairs = [...text.matchAll(/"([\w.-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)]
      .filter((m) => keys.has(m[1] ?? ''))
      .map((m) => m[2] ?? '');
    const lists = [...text.matchAll(/"([\w.-]+)"\s*:\s*\[/g)]
      .filter((m) => keys.has(m[1] ?? ''))
      .flatMap((m) => {
        const start = (m.index ?? 0) + m[0].length;
        const end = text.indexOf(']', start);
        return jsonStrings(text.slice(start, end === -1 ? undefined : end));
      });
    return [...pairs, ...lists].map((value) => value.replace(/\\(.)/g, '$1'));
  }
  const out: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 12 || value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (keys.has(key)) {
        if (typeof inner === 'string') out.push(inner);
        else if (Array.isArray(inner) && inner.every((v) => typeof v === 'string'))
          if (lists === 'lines') out.push(...(inner as string[]));
          else out.push(inner.map((v) => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`)).join(' '));
        else if (inner && typeof inner === 'object' && !Array.isArray(inner))
          // A table of named commands (package and composer scripts); composer lists several per name.
          out.push(
            ...Object.values(inner).flatMap((v) =>
              typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [],
            ),
          );
      }
      visit(inner, depth + 1);
    }
  };
  visit(parsed, 0);
  return out;
}

/** Tauri's build settings that hold a command line it runs (a string, or an object's `script`). */
export const TAURI_HOOK_KEYS = ['beforeDevCommand', 'beforeBuildCommand', 'beforeBundleCommand'] as const;

/** The values of the given keys in an INI or TOML file, with indented continuation lines (tox's `commands =`). */
export function iniValues(text: string, keys: ReadonlySet<string>): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const match = /^[ \t]*([\w.-]+)[ \t]*[=:]/.exec(line);
    if (!match || !keys.has(match[1] ?? '')) continue;
    const first = line.slice(match[0].length).trim();
    if (first !== '') out.push(first.startsWith('"') || first.startsWith("'") ? unquote(first) : first);
    for (i++; i < lines.length && /^\s+\S/.test(lines[i] ?? ''); i++) out.push((lines[i] ?? '').trim());
    i--;
  }
  return out.filter((l) => l !== '');
}

// tox fills `{…}` in its commands before it runs them: the folders it names, and the environment.
const TOX_FOLDERS: Record<string, string> = {
  toxinidir: '.',
  tox_root: '.',
  toxworkdir: '.tox',
  work_dir: '.tox',
  envdir: '.tox/env',
  env_dir: '.tox/env',
  envbindir: '.tox/env/bin',
  env_bin_dir: '.tox/env/bin',
  envtmpdir: '.tox/env/tmp',
  env_tmp_dir: '.tox/env/tmp',
  envlogdir: '.tox/env/log',
  envpython: 'python',
  env_python: 'python',
  homedir: '~',
  temp_dir: '.tox/.tmp',
};

/** A tox command with its `{…}` substitutions as the shell would see them (`{env:HOME}` is `$HOME`). */
export function toxSubstituted(command: string): string {
  return command.replace(/\{([^{}\s]*)\}/g, (whole, inner: string) => {
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)(?::([^{}]*))?$/.exec(inner);
    if (env) return env[2] === undefined ? `\${${env[1]}}` : `\${${env[1]}:-${env[2]}}`;
    if (inner === 'posargs' || inner.startsWith('posargs:')) return '"$@"';
    if (inner === 'opts' || inner === 'packages') return '';
    return Object.hasOwn(TOX_FOLDERS, inner) ? (TOX_FOLDERS[inner] as string) : whole;
  });
}

/** A justfile's recipe lines: the indented lines under a `name:` header, without `@`/`-` prefixes. */
export function justRecipes(text: string): string[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => /^[ \t]+\S/.test(l))
    .map((l) => l.trim().replace(/^[@-]+/, ''));
}

/** The `//go:generate` lines of a Go file: `go generate` runs them. */
export function goGenerates(text: string): string[] {
  return [...text.matchAll(/^\/\/go:generate[ \t]+(.+)$/gm)].map((m) => m[1] ?? '');
}

/** CMake's COMMAND arguments (execute_process, add_custom_command, add_custom_target). */
export function cmakeCommands(text: string): string[] {
  const STOP =
    /(?<=\s)(?:COMMAND|WORKING_DIRECTORY|OUTPUT_VARIABLE|RESULT_VARIABLE|ERROR_VARIABLE|OUTPUT_QUIET|ERROR_QUIET|DEPENDS|COMMENT|VERBATIM|BYPRODUCTS|OUTPUT|TIMEOUT|USES_TERMINAL)\b|\)/;
  const out: string[] = [];
  for (const match of text.matchAll(/\bCOMMAND\s+/g)) {
    const rest = text.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 4000);
    const end = rest.search(STOP);
    // CMake's $ENV{HOME} is the shell's ${HOME}; `\"` is a quote (inside `install(CODE "…")` too).
    out.push(
      (end === -1 ? rest : rest.slice(0, end))
        .replace(/\$ENV\{(\w+)\}/g, '$${$1}')
        .replace(/\\"/g, '"')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  out.push(...cmakeCompilerSettings(text), ...cmakeDownloadedIncludes(text));
  return out.filter((l) => l !== '');
}

/**
 * `file(DOWNLOAD https://host/x.cmake ${dir}/x.cmake)` then `include(${dir}/x.cmake)`: every configure runs
 * CMake code fetched from that address, given as the command line it amounts to.
 */
function cmakeDownloadedIncludes(text: string): string[] {
  const included = new Set([...text.matchAll(/\binclude\s{0,8}\(\s{0,8}"?([^\s")]+)/gi)].map((m) => m[1] ?? ''));
  const out: string[] = [];
  for (const match of text.matchAll(/\bfile\s{0,8}\(\s{0,8}DOWNLOAD\s+"?([^\s")]+)"?\s+"?([^\s")]+)/gi)) {
    const [, url = '', destination = ''] = match;
    if (included.has(destination)) out.push(`cmake -P <(curl -fsSL ${shellQuote(url)})`);
  }
  return out;
}

/**
 * `set(CMAKE_CXX_COMPILER_LAUNCHER /tmp/wrap)` and `set(CMAKE_CXX_FLAGS "… -fplugin=/tmp/p.so")` in a
 * CMake script or toolchain file: every compile runs through the launcher, and the compiler loads what
 * its flags name. Given as the command lines they amount to.
 */
function cmakeCompilerSettings(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/\bset\s{0,8}\(/gi)) {
    const start = (match.index ?? 0) + match[0].length;
    const close = text.indexOf(')', start);
    const [name = '', ...words] = text
      .slice(start, close === -1 ? start + 2000 : Math.min(close, start + 2000))
      .replace(/"/g, ' ')
      .split(/\s+/)
      .filter((word) => word !== '');
    const setting = name.toUpperCase();
    if (!setting.startsWith('CMAKE_')) continue;
    const end = words.findIndex((word) => word === 'CACHE' || word === 'PARENT_SCOPE');
    const value = (end === -1 ? words : words.slice(0, end)).join(' ');
    if (setting.endsWith('_COMPILER_LAUNCHER') || setting.endsWith('_LINKER_LAUNCHER')) out.push(value);
    else if (setting.endsWith('_FLAGS') || setting.includes('_FLAGS_')) out.push(`cc ${value}`);
  }
  return out;
}

const QUOTED = String.raw`(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')`;
/** Between the words of an argument list in code: `, `, `).arg(`, `.args(&[`, `commandLine `. */
const GAP = String.raw`[\s,().&\[\]\w]{0,24}?`;
const SHELL_DASH_C = new RegExp(
  String.raw`["'](?:/(?:usr/)?bin/)?(?:ba|z|da|k)?sh["']${GAP}["']-c["']${GAP}(${QUOTED})`,
  'g',
);

/**
 * `sh -c 'TEXT'` handed over as an argument list in code of any language: Rust's
 * Command::new("sh").arg("-c").arg(…), Gradle's commandLine 'sh', '-c', …, Java's ProcessBuilder,
 * nox's session.run('sh', '-c', …). The TEXT is the shell command that will run.
 */
export function shellDashCStrings(text: string): string[] {
  return [...text.matchAll(SHELL_DASH_C)].map((m) => {
    const quoted = m[1] ?? '';
    const body = quoted.slice(1, -1);
    return quoted.startsWith('"') ? body.replace(/\\(["\\])/g, '$1') : body.replace(/\\(['\\])/g, '$1');
  });
}

const C_STRING = String.raw`(?:L|u8|u|U)?"((?:[^"\\\n]|\\.)*)"`;
// C's and C++'s system() and popen() (and Windows' _wsystem, _popen), Java's Runtime.exec: the string is a
// command line the program runs.
const SHELL_API_CALL = new RegExp(
  String.raw`(?:\b(?:std::)?(?:system|popen|_popen|_wsystem|_wpopen)|\bgetRuntime\(\)\s*\.\s*exec)\s*\(\s*${C_STRING}`,
  'g',
);
// .NET's Process.Start("program", "arguments") and new ProcessStartInfo(…): the program and its argument line.
const PROCESS_START = new RegExp(
  String.raw`\b(?:Process\.Start|new\s+ProcessStartInfo)\s*\(\s*@?${C_STRING}(?:\s*,\s*@?${C_STRING})?`,
  'g',
);
const C_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '' };

function cUnescape(body: string): string {
  return body.replace(/\\(.)/g, (_, ch: string) => C_ESCAPES[ch] ?? ch);
}

/**
 * The literal command lines a compiled language's code hands to the system's shell: `system("…")`,
 * `popen("…")`, `Runtime.getRuntime().exec("…")`, `Process.Start("pwsh", "-c …")`. A test or a tool
 * built from the file runs them; any command, not only one that fetches, is what it will do.
 */
export function shellApiStrings(text: string): string[] {
  const out = [...text.matchAll(SHELL_API_CALL)].map((m) => cUnescape(m[1] ?? ''));
  for (const m of text.matchAll(PROCESS_START))
    out.push(
      [m[1], m[2]]
        .filter((part) => part !== undefined)
        .map((part) => cUnescape(part))
        .join(' '),
    );
  return out.filter((line) => line.trim() !== '');
}

// Node's and Python's calls that hand a string to the system's shell: `execSync("…")`, `exec("…")` (not a
// regex's `.exec`), `os.system("…")`, `subprocess.run("…", shell=True)`. Read as text, so an edit's fragment
// of a config or a module (which no parser takes whole) still shows the command line it adds. Python's own
// `exec("…")` runs Python, not a shell, so the bare names are Node's alone.
const SHELL_STRING = String.raw`(${QUOTED}|\x60[^\x60$\\]*\x60)`;
const SCRIPT_SHELL_CALLS: Readonly<Record<'javascript' | 'python', RegExp>> = {
  javascript: new RegExp(
    String.raw`(?:(?<![.\w$])(?:execSync|exec|execaCommand|execaCommandSync)|\b(?:child_process|childProcess|cp)\.(?:execSync|exec))\s*\(\s*${SHELL_STRING}`,
    'g',
  ),
  python: new RegExp(
    String.raw`(?:\bos\.(?:system|popen)|\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\s*\(\s*${SHELL_STRING}`,
    'g',
  ),
};

/** The literal command lines Node or Python code hands to the shell (see SCRIPT_SHELL_CALLS). */
export function scriptShellStrings(text: string, language: 'javascript' | 'python'): string[] {
  return [...text.matchAll(SCRIPT_SHELL_CALLS[language])].flatMap((m) => {
    const quoted = m[1] ?? '';
    const body = quoted.slice(1, -1);
    const line = quoted.startsWith('"') ? body.replace(/\\(["\\])/g, '$1') : body.replace(/\\(['\\])/g, '$1');
    return line.trim() === '' ? [] : [line];
  });
}

/**
 * The Python a `.pdbrc` runs whenever a debugger starts in that folder (`pytest --pdb`, `breakpoint()`): its
 * `!statement` lines, and the lines pdb hands to Python because they are no command of its own (`import os`).
 */
export function pdbrcPython(text: string): string {
  return text
    .split('\n')
    .filter((line) => /^\s*(!|import\s|from\s+[\w.]+\s+import\s|exec\(|__import__\()/.test(line))
    .map((line) => line.replace(/^\s*!/, ''))
    .join('\n');
}

/** The commands a pyproject.toml's task runners run (poe, pdm, hatch, taskipy, rye scripts). */
export function pyprojectTasks(text: string): string[] {
  return tomlTasks(text, /^tool\.(poe\.tasks|pdm\.scripts|taskipy\.tasks|rye\.scripts|hatch\.envs\.[^.]+\.scripts)\b/);
}

/** pixi.toml's tasks (`[tasks]`, a feature's or a platform's): `pixi run NAME` runs each. */
export function pixiTasks(text: string): string[] {
  // An edit's fragment (`qc = "…"`) often comes without its table's header: read it as tasks.
  const headed = /^[ \t]*\[/m.test(text);
  return tomlTasks(headed ? text : `[tasks]\n${text}`, /^((feature|target)\.[^.\s]+\.)?tasks$/);
}

/** The command strings of a TOML file's task tables: `name = "cmd"`, `name = { cmd = "…" }`, lists of them. */
function tomlTasks(text: string, section: RegExp): string[] {
  const out: string[] = [];
  let inTasks = false;
  for (const line of text.split('\n')) {
    const header = /^[ \t]*\[+(?!\[)([^\]]*)\]/.exec(line);
    if (header && header[1]?.trim()) {
      inTasks = section.test(header[1].trim());
      continue;
    }
    if (!inTasks) continue;
    for (const m of line.matchAll(
      /(?:^\s*[\w.-]+\s*=\s*|\b(?:shell|cmd|cmds|call)\s*=\s*|,\s*|\[\s*)"((?:[^"\\]|\\.)*)"/g,
    ))
      out.push((m[1] ?? '').replace(/\\(.)/g, '$1'));
  }
  return out.filter((l) => /\s/.test(l) || /^[\w./-]+$/.test(l));
}

/** A .pth file's `import` lines: Python runs them at every start-up. */
export function pthImports(text: string): string[] {
  return text.split('\n').filter((l) => /^import[\s\t]/.test(l));
}

const STRING_LIST = new RegExp(String.raw`^\s*(${QUOTED}(?:\s*,\s*${QUOTED})*)`);

// One item of a list STRING_LIST matched, and the comma after it; sticky, so each is read where the last ended.
const LIST_ITEM = new RegExp(String.raw`(${QUOTED})(?:\s*,\s*)?`, 'y');

/** The quoted items of a list STRING_LIST matched, in order. */
function listItems(list: string): string[] {
  const items: string[] = [];
  LIST_ITEM.lastIndex = 0;
  for (let match = LIST_ITEM.exec(list); match; match = LIST_ITEM.exec(list)) items.push(match[1] ?? '');
  return items;
}

function unquoteCode(quoted: string): string {
  const body = quoted.slice(1, -1);
  return quoted.startsWith('"') ? body.replace(/\\(["\\])/g, '$1') : body.replace(/\\(['\\])/g, '$1');
}

/**
 * Task runners' own run calls, which no interpreter API list knows: nox's `session.run('curl', …)`,
 * invoke's and fabric's `c.run('cmd')`, `local('cmd')`, rake's `sh 'cmd'`. Several strings are an
 * argument list; one is a command line.
 */
export function taskRunnerCalls(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(
    /\b(?:session|c|ctx|context|conn|connection)\.(?:run|sudo|local)\(|\blocal\(|^[ \t]*sh[ (]/gm,
  )) {
    const rest = text.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 2000);
    const list = STRING_LIST.exec(rest)?.[1];
    if (!list) continue;
    const words = listItems(list).map(unquoteCode);
    out.push(
      words.length === 1
        ? (words[0] ?? '')
        : words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' '),
    );
  }
  return out.filter((l) => l.trim() !== '');
}

/**
 * A GitHub Actions (or Gitea, Forgejo) `run:` line as the shell will see it once the runner has put
 * its `${{ … }}` expressions in. A secret becomes a secret-named variable, so a step that sends
 * `${{ secrets.DEPLOY_KEY }}` to another host reads like `curl -d "$DEPLOY_KEY" …`; the job token
 * and `env.X` become the variables they stand for; any other expression becomes an unknown value.
 */
export function actionsExpressionsAsShell(line: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = line.indexOf('${{', from);
    const close = open === -1 ? -1 : line.indexOf('}}', open + 3);
    if (close === -1) return out + line.slice(from);
    out += line.slice(from, open) + expressionAsShell(line.slice(open + 3, close).trim());
    from = close + 2;
  }
}

function expressionAsShell(expression: string): string {
  const secret = /^secrets\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*'([A-Za-z_]\w*)'\s*\])$/.exec(expression);
  if (secret) return `\${${secretVariableName(secret[1] ?? secret[2] ?? '')}}`;
  if (/^github\s*\.\s*token$/.test(expression)) return '${GITHUB_TOKEN}';
  const env = /^env\s*\.\s*([A-Za-z_]\w*)$/.exec(expression);
  if (env) return `\${${env[1]}}`;
  return '${ACTIONS_EXPRESSION}';
}

/** A repository secret's name as a variable that reads as secret whatever the secret is called. */
function secretVariableName(name: string): string {
  return /(secret|token|key|password|passwd|pass|credentials?|auth|pat)$/i.test(name) ? name : `${name}_SECRET`;
}

/** The text between an opening quote at `from` and its closing one (the same quote), or undefined. */
function quotedFrom(text: string, from: number, quote: string): string | undefined {
  const close = text.indexOf(quote, from);
  return close === -1 ? undefined : text.slice(from, close);
}

/** A Jenkinsfile's shell steps: `sh '…'`, `sh "…"`, `sh '''…'''`, `sh(script: '…')`, and bat/powershell. */
export function jenkinsSteps(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(sh|bat|powershell|pwsh)\b/g)) {
    let at = (m.index ?? 0) + m[0].length;
    const skipBlanks = () => {
      while (text[at] === ' ' || text[at] === '\t') at++;
    };
    skipBlanks();
    if (text[at] === '(') at++;
    skipBlanks();
    if (text.startsWith('script', at)) {
      at += 'script'.length;
      skipBlanks();
      if (text[at] !== ':') continue;
      at++;
      skipBlanks();
    }
    const quote = ["'''", '"""', "'", '"'].find((q) => text.startsWith(q, at));
    const body = quote === undefined ? undefined : quotedFrom(text, at + quote.length, quote);
    if (body !== undefined) out.push(...body.split('\n'));
  }
  // A variable bound to a Jenkins credential holds a secret whatever it is called (`variable: 'T'`).
  const credentials = jenkinsCredentialVariables(text);
  return out
    .map((l) =>
      l
        .trim()
        .replace(/\$\{?([A-Za-z_]\w*)\}?/g, (whole, name: string) =>
          credentials.has(name) ? `\${${secretVariableName(name)}}` : whole,
        ),
    )
    .filter((l) => l !== '');
}

/** DDEV's hooks: `exec` lines run in the web container, `exec-host` lines on this machine, on every start. */
export function ddevHookCommands(text: string): string[] {
  return yamlValues(text, new Set(['exec', 'exec-host']));
}

/** A Deployer recipe's commands: the string given to each `run(…)` and `runLocally(…)`, quoted with ' or ". */
export function deployerCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b(?:run|runLocally)[ \t]*\([ \t]*/g)) {
    const at = (m.index ?? 0) + m[0].length;
    const quote = text[at] === "'" || text[at] === '"' ? text[at]! : undefined;
    const body = quote === undefined ? undefined : quotedFrom(text, at + 1, quote);
    if (body !== undefined) out.push(body.replace(/\{\{\s*(\w+)\s*\}\}/g, '$$$1'));
  }
  return out;
}

/**
 * Laravel Envoy's tasks (`Envoy.blade.php`): every line of a `@task … @endtask` block is shell run on its
 * servers. Lines that are Blade directives are not, nor the PHP of `@setup` blocks; `{{ $x }}` echoes a
 * value, read as a variable. An edit's fragment may hold a task's lines without its `@task`: all are read.
 */
export function envoyCommands(text: string): string[] {
  const out: string[] = [];
  let inSetup = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (/^@setup\b/.test(trimmed)) inSetup = true;
    else if (/^@endsetup\b/.test(trimmed)) inSetup = false;
    else if (!inSetup && trimmed !== '' && !trimmed.startsWith('@') && !trimmed.startsWith('{{--'))
      out.push(trimmed.replace(/\{\{\s*\$?(\w+)\s*\}\}/g, '$$$1'));
  }
  return out;
}

/** The variables withCredentials binds (`variable:`, `passwordVariable:`, …) and `X = credentials('id')` sets. */
function jenkinsCredentialVariables(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(
    /\b(?:variable|usernameVariable|passwordVariable|keyFileVariable|passphraseVariable|tokenVariable)[ \t]*:[ \t]*['"]([A-Za-z_]\w*)['"]/g,
  ))
    names.add(m[1] ?? '');
  for (const m of text.matchAll(/\b([A-Za-z_]\w*)[ \t]*=[ \t]*credentials[ \t]*\(/g)) names.add(m[1] ?? '');
  return names;
}

/** A Nix shell's `shellHook`, which runs as the shell starts (nix develop, nix-shell, direnv's use flake). */
export function nixShellHooks(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bshellHook[ \t]*=[ \t]*(''|")/g)) {
    const body = quotedFrom(text, (m.index ?? 0) + m[0].length, m[1] ?? "''");
    if (body !== undefined) out.push(...body.split('\n'));
  }
  return out.map((l) => l.trim()).filter((l) => l !== '');
}

/** The XML tag that opens at `at`, up to its `>` (attribute values here hold no `>`). */
function tagAt(text: string, at: number): string {
  const close = text.indexOf('>', at);
  return text.slice(at, close === -1 ? undefined : close);
}

/**
 * What a Maven build runs through plugins: the exec plugin's `<executable>` with its `<argument>`s or
 * `<commandlineArgs>` (it runs in whatever phase the execution names, `validate` included), and the
 * antrun plugin's `<exec executable="…">` with its `<arg>`s. Read from a whole pom or an Edit's fragment.
 */
export function mavenPluginCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/<executable>([^<]*)<\/executable>/g)) {
    const end = text.indexOf('</configuration>', m.index ?? 0);
    const rest = text.slice((m.index ?? 0) + m[0].length, end === -1 ? undefined : end);
    const args = [...rest.matchAll(/<argument>([^<]*)<\/argument>/g)].map((a) => shellQuote(xmlText(a[1] ?? '')));
    const line = /<commandlineArgs>([^<]*)<\/commandlineArgs>/.exec(rest)?.[1];
    out.push([shellQuote(xmlText(m[1] ?? '').trim()), ...args, ...(line ? [xmlText(line)] : [])].join(' '));
  }
  for (const m of text.matchAll(/<exec\b/g)) {
    const at = m.index ?? 0;
    const executable = /\bexecutable[ \t]*=[ \t]*"([^"]*)"/.exec(tagAt(text, at))?.[1];
    if (executable === undefined) continue;
    const end = text.indexOf('</exec>', at);
    const body = text.slice(at, end === -1 ? undefined : end);
    const args: string[] = [];
    for (const a of body.matchAll(/<arg\b/g)) {
      const attribute = /\b(value|line)[ \t]*=[ \t]*"([^"]*)"/.exec(tagAt(body, a.index ?? 0));
      if (attribute)
        args.push(attribute[1] === 'line' ? xmlText(attribute[2] ?? '') : shellQuote(xmlText(attribute[2] ?? '')));
    }
    out.push([shellQuote(xmlText(executable)), ...args].join(' '));
  }
  return out.filter((l) => l.trim() !== '');
}

/** MSBuild's commands: `<Exec Command="…">` and the pre- and post-build events. */
export function msbuildCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/<Exec\b/g)) {
    // The attribute's value may hold `>` (a redirect), so the tag is not cut at the first one.
    const tag = text.slice(m.index ?? 0, (m.index ?? 0) + 8192);
    const command = /\bCommand[ \t]*=[ \t]*"([^"]*)"|\bCommand[ \t]*=[ \t]*'([^']*)'/.exec(tag);
    if (command) out.push(xmlText(command[1] ?? command[2] ?? ''));
  }
  for (const m of text.matchAll(/<(PreBuildEvent|PostBuildEvent)>/g)) {
    const body = quotedFrom(text, (m.index ?? 0) + m[0].length, `</${m[1]}>`);
    if (body !== undefined) out.push(...xmlText(body).split('\n'));
  }
  return out.map((l) => l.trim()).filter((l) => l !== '');
}

/** An Ansible task's module line: `- ansible.builtin.service:` (its arguments below) or `shell: CMD`. */
const ANSIBLE_MODULE_LINE = /^[ \t]*(?:-[ \t]+)?([\w.]+)[ \t]*:(.*)$/;

/**
 * What an Ansible playbook, role task or handler file runs on its hosts: its shell, command and raw
 * modules' command lines, and its service and file modules as the commands they amount to (see
 * shell/ansible-hops), arguments given inline (`service: name=x state=stopped`) or as keys below.
 */
export function ansibleTaskCommands(text: string): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = ANSIBLE_MODULE_LINE.exec(lines[i] ?? '');
    if (!match) continue;
    const module = bareModule(match[1] ?? '');
    const inline = beforeHashComment(match[2] ?? '').trim();
    if (COMMAND_MODULES.has(module)) {
      if (/^[|>][-+]?$/.test(inline)) found.push(blockScalar(lines, i, inline.startsWith('>')));
      else if (inline !== '') found.push(unquote(inline));
      continue;
    }
    const args = inline !== '' ? moduleArgs(inline) : nestedKeys(lines, i, indentOf(lines[i] ?? ''));
    const script = moduleScript(module, args);
    if (script) found.push(script);
  }
  return [...found, ...yamlValues(text, new Set(['cmd', 'argv']))];
}

/** A YAML block scalar's text (`shell: |` and the lines indented under it); folded (`>`) lines join with spaces. */
function blockScalar(lines: readonly string[], at: number, folded: boolean): string {
  const indent = indentOf(lines[at] ?? '');
  const body: string[] = [];
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() !== '' && indentOf(line) <= indent) break;
    body.push(line.trim());
  }
  return body.join(folded ? ' ' : '\n').trim();
}

/** The `key: value` lines indented under line `at` (a module's arguments as a mapping). */
function nestedKeys(lines: readonly string[], at: number, indent: number): Record<string, string> {
  const keys: Record<string, string> = {};
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    if (indentOf(line) <= indent) break;
    const pair = /^[ \t]*([\w-]+)[ \t]*:(.*)$/.exec(line);
    if (pair) keys[pair[1] ?? ''] = unquote(beforeHashComment(pair[2] ?? ''));
  }
  return keys;
}

/**
 * The command lines of a systemd unit (`ExecStart=`, `ExecStartPre=`, `ExecReload=`…), each run when
 * the unit starts, stops or reloads: the prefixes that only change how (`-`, `@`, `:`, `+`, `!`) dropped.
 */
export function systemdExecLines(text: string): string[] {
  return [...text.replace(/\\\r?\n/g, ' ').matchAll(/^[ \t]*Exec[A-Za-z]*[ \t]*=[ \t]*[-@:+!]*(.+)$/gm)].map((m) =>
    (m[1] ?? '').trim().replace(/\$\{?MAINPID\}?/g, UNIT_MAIN_PID),
  );
}

/** systemd's `$MAINPID` is the unit's own process: a fixed stand-in, not a pid known only at run time. */
const UNIT_MAIN_PID = '4242';

/** Terraform's `command = "…"` (a local-exec provisioner) and `command = <<EOT … EOT`: run as written at apply. */
export function terraformCommands(text: string): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const assignment = /^[ \t]*command[ \t]*=(.*)$/.exec(lines[i] ?? '');
    const value = assignment?.[1]?.trim() ?? '';
    const heredoc = /^<<-?([A-Z_]+)$/.exec(value);
    if (heredoc) {
      const body: string[] = [];
      while (++i < lines.length && (lines[i] ?? '').trim() !== heredoc[1]) body.push(lines[i] ?? '');
      found.push(body.join('\n'));
    } else if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      found.push(value.slice(1, -1).replace(/\\(["\\])/g, '$1'));
    }
  }
  return found;
}

/**
 * A Snakefile's shell commands: each rule's `shell:` text, and the `shell(…)` and `shell.prefix(…)` calls
 * of its Python (in `onstart:` and `onsuccess:` handlers, a prefix put before every rule's command).
 */
export function snakemakeShells(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /\bshell(?:\.(?:prefix|suffix))?\(\s*[rRfF]?("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g,
  ))
    out.push((m[1] ?? '').slice(1, -1).replace(/\\(.)/g, '$1'));
  for (const m of text.matchAll(/\bshell:\s*[rRfF]?"""([\s\S]*?)"""/g)) out.push(m[1] ?? '');
  for (const m of text.matchAll(/\bshell:\s*[rRfF]?"((?:[^"\\\n]|\\.)*)"(?!")/g)) out.push(m[1] ?? '');
  return out;
}

// An Apptainer definition's sections that run shell: %setup on the host that builds it, %post inside the
// image as it is built, %runscript, %startscript and %test whenever the image runs.
const DEFINITION_SHELL_SECTIONS = new Set(['setup', 'post', 'runscript', 'startscript', 'test']);

/** The shell text of an Apptainer or Singularity definition file's running sections. */
export function definitionSections(text: string): string[] {
  if (!/^[ \t]*Bootstrap:/im.test(text)) return [];
  const out: string[] = [];
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const header = /^%(\w+)/.exec(line);
    if (header) {
      current = DEFINITION_SHELL_SECTIONS.has((header[1] ?? '').toLowerCase()) ? [] : undefined;
      if (current) out.push('');
      continue;
    }
    if (current) out[out.length - 1] += `${line}\n`;
  }
  return out.filter((section) => section.trim() !== '');
}
