// Programs that run a command given in one of their own options or in their script language:
// ssh's ProxyCommand, tar's checkpoint actions, rsync's remote shell, an editor's `:!`, a
// debugger's `shell`, sqlite's `.shell`, psql's `\!`, sed's `e`, awk's system(). Each hop's
// text is parsed again as shell, so every policy judges the command inside.
//
// The table is data: what each program executes through, checked against the public catalogues
// of programs that run, read or write through their options (GTFOBins, LOLBAS's Unix peers) and
// the programs' own manuals. Each row has its own case and near miss in test/core/policies/hidden-commands.test.ts.
import { AWS_VALUE_OPTIONS, HEROKU_PSQL_SUBCOMMAND, PSQL_COMMAND_OPTIONS, subcommandAt } from './cli-options';
import type { ArgvView } from './options';
import type { ScriptHop } from './script-hops';
import { cargoConfigCommands } from './cargo-config';
import { shellQuote } from './quote';
import { trimEndChars } from '../text/scan';
import type { Via } from './types';
import { foreignCodeCommands } from '../text/embedded-commands';

/** One way a program takes a command: an option whose value is shell text, or a prefix inside it. */
interface CommandOption {
  /** Long option names (without --), given as --name=VALUE or --name VALUE. */
  long?: readonly string[];
  /** Short option letters, given as -xVALUE or -x VALUE (only as the first letter of a word). */
  short?: readonly string[];
  /** Keep only values with this prefix and drop it: tar's `exec=`. */
  prefix?: RegExp;
  /** Only after this subcommand (git difftool's -x). */
  subcommand?: string;
  /**
   * Only among the program's own options, before its first operand (npx's `-c`, not the `-c` of the package
   * it runs, `npx jest -c jest.config.js`); the options listed take a value.
   */
  beforeOperand?: readonly string[];
}

/** Whether a word before `at` is an operand: not an option, nor the value of one of `valued`. */
function operandBefore(argv: readonly string[], at: number, valued: readonly string[]): boolean {
  for (let i = 1; i < at; i++) {
    const word = argv[i] ?? '';
    if (!word.startsWith('-')) return true;
    if (valued.includes(word)) i++;
  }
  return false;
}

/** `-o Key=Value` style settings whose value is a command (ssh -o ProxyCommand=…). */
interface KeyedCommandSetting {
  option: string;
  keys: readonly string[];
}

/**
 * A command that follows a subcommand as the rest of the argv (`screen -dm CMD…`, `cmake -E env
 * CMD…`, `tmux new-session 'CMD'`, `git submodule foreach 'CMD'`): after `after` (consecutive
 * words; empty for right after the program's options), options are skipped, `values` naming the
 * ones that take a value (letters, and long names with their arity), and the rest is the command.
 */
interface CommandAfter {
  after: readonly string[];
  values?: string;
  long?: Readonly<Record<string, number>>;
  /** Skips NAME=VALUE words before the command (cmake -E env). */
  assignments?: boolean;
}

interface ProgramRow {
  commandAfter?: readonly CommandAfter[];
  options?: readonly CommandOption[];
  /** Long options are written with one dash (gdb -ex). */
  singleDashLong?: boolean;
  keyed?: KeyedCommandSetting;
  /**
   * Operands that are code in a language no reader here follows, read by `code` for the commands in
   * its strings: they run as that code's commands (via interpreter-code), not hidden in an option.
   */
  code?: (word: string) => string[];
  /** Operands (non-option words) that are scripts in the program's own language, read by `scan`. */
  scan?: (word: string) => string[];
  /** Settings given as properties over the whole argv (`-Dexec.executable=…`), read by `properties`. */
  properties?: (argv: readonly string[]) => { script: string; through: string; via?: Via }[];
}

/** The command of a `scripts.NAME=CMD` word (npm pkg set), or none. */
function packageScriptSetting(word: string): string[] {
  if (!word.startsWith('scripts.')) return [];
  const equals = word.indexOf('=');
  return equals > 'scripts.'.length && /^[\w:.-]+$/.test(word.slice('scripts.'.length, equals))
    ? [word.slice(equals + 1)]
    : [];
}

// Editors' ex commands: `:!cmd`, `:!cmd` after a range, `:sh`-less `!cmd`, and `:call system('cmd')`.
function exCommands(word: string): string[] {
  // `silent !cmd`, `:r !cmd`, `:w !cmd`, `:terminal cmd` run cmd as well.
  const text = word
    .replace(/^\s*:*\s*/, '')
    .replace(/^(?:sil(?:ent)?!?\s+|exe(?:cute)?\s+)+/, '')
    .replace(/^(?:r(?:ead)?|w(?:rite)?|[0-9,.$%]*)\s*(?=!)/, '');
  if (text.startsWith('!')) return [text.slice(1)];
  const terminal = /^ter(?:m|minal)?!?\s+(.+)$/s.exec(text);
  if (terminal?.[1] !== undefined) return [terminal[1]];
  const call = /^(?:call\s+)?system\(\s*(['"])(.*)\1\s*\)\s*$/.exec(text);
  return call?.[2] !== undefined ? [call[2]] : [];
}

// gdb's `shell cmd` and `!cmd`; its `python code` is handed on as `python3 -c code`, so the
// interpreter reader judges it like any other inline code.
export function gdbCommands(word: string): string[] {
  const text = word.trim();
  if (text.startsWith('!')) return [text.slice(1)];
  const shell = /^shell\s+(.*)$/s.exec(text);
  if (shell?.[1] !== undefined) return [shell[1]];
  const python = /^(?:python3?|py)\s+(.*)$/s.exec(text);
  return python?.[1] !== undefined ? [`python3 -c ${shellQuote(python[1])}`] : [];
}

// OpenOCD's commands are Tcl: `exec PROGRAM ARGS` runs a program (a `{…}` word is one argument).
export function openocdCommands(word: string): string[] {
  return word.split(/[;\n]/).flatMap((statement) => {
    const exec = /^\s*exec\s+(.+)$/s.exec(statement);
    return exec?.[1] !== undefined ? [exec[1].replace(/\{([^{}]*)\}/g, (_, inner: string) => shellQuote(inner))] : [];
  });
}

// QEMU's tap networking runs `script=` when the interface comes up and `downscript=` when it goes down.
function qemuNetworkScripts(argv: readonly string[]): { script: string; through: string }[] {
  return argv.flatMap((word, at) => {
    if (at === 0 || !/^--?(nic|netdev|net)$/.test(argv[at - 1] ?? '')) return [];
    return [...word.matchAll(/(?:^|,)((?:down)?script)=([^,]+)/g)]
      .filter((m) => m[2] !== 'no')
      .map((m) => ({ script: shellQuote(m[2]!), through: m[1]! }));
  });
}

// Maven's exec plugin runs `exec.executable` with `exec.args` (`mvn exec:exec -Dexec.executable=sh …`).
function mavenExecCommands(argv: readonly string[]): { script: string; through: string }[] {
  const properties = new Map<string, string>();
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string;
    const setting = word === '-D' ? argv[++i] : word.startsWith('-D') ? word.slice(2) : undefined;
    const eq = setting?.indexOf('=') ?? -1;
    if (setting !== undefined && eq > 0) properties.set(setting.slice(0, eq), setting.slice(eq + 1));
  }
  const executable = properties.get('exec.executable');
  if (executable === undefined) return [];
  const args = properties.get('exec.args') ?? properties.get('exec.commandlineArgs') ?? '';
  return [{ script: `${shellQuote(executable)} ${args}`.trim(), through: '-Dexec.executable' }];
}

// IPython runs `-c CODE` and its apps' exec_lines / code_to_run settings before anything else, in its
// own dialect: a `!` line is a shell command, the rest Python (handed on as `python3 -c`, like gdb's).
const IPYTHON_CODE_SETTING = /^--(?:[A-Za-z]+App\.)?(exec_lines|code_to_run)=(.*)$/s;

function ipythonLines(code: string): string[] {
  const shell: string[] = [];
  const python: string[] = [];
  for (const line of code.split('\n')) {
    const escaped = /^\s*!+(.*)$/s.exec(line)?.[1] ?? /^\s*%(?:system|sx)\s+(.*)$/s.exec(line)?.[1];
    if (escaped !== undefined) shell.push(escaped);
    // Other magics (`%load_ext autoreload`, `%matplotlib inline`) are IPython's own settings.
    else if (!/^\s*%/.test(line)) python.push(line);
  }
  const rest = python.join('\n').trim();
  return rest ? [...shell, `python3 -c ${shellQuote(rest)}`] : shell;
}

/** The quoted strings of a Python list literal, unescaped (a scan: a regex over escapes backtracks). */
function pythonStrings(text: string): string[] {
  const strings: string[] = [];
  for (let at = 0; at < text.length; at++) {
    const quote = text[at];
    if (quote !== "'" && quote !== '"') continue;
    let value = '';
    for (at++; at < text.length && text[at] !== quote; at++) value += text[at] === '\\' ? (text[++at] ?? '') : text[at];
    strings.push(value);
  }
  return strings;
}

/** exec_lines is a list of strings (`['import os', 'os.system(…)']`); code_to_run one string. */
function settingLines(setting: string, value: string): string[] {
  if (setting === 'code_to_run' || !value.trim().startsWith('[')) return [value];
  return pythonStrings(value);
}

/**
 * `ray job submit --runtime-env-json '{"pip": [...]}'`: every worker of the job installs those packages
 * (and imports them) before the entrypoint runs, as `pip install` would.
 */
function rayRuntimePackages(argv: readonly string[]): { script: string; through: string; via: Via }[] {
  const at = argv.findIndex((word) => word === '--runtime-env-json' || word.startsWith('--runtime-env-json='));
  if (at === -1) return [];
  const text = argv[at]!.includes('=') ? argv[at]!.slice(argv[at]!.indexOf('=') + 1) : argv[at + 1];
  let env: unknown;
  try {
    env = JSON.parse(text ?? '');
  } catch {
    return [];
  }
  const pip = (env as { pip?: unknown } | null)?.pip;
  const list = Array.isArray(pip) ? pip : (pip as { packages?: unknown } | undefined)?.packages;
  const packages = Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  return packages.length
    ? // Named in the open, as a wrapper names its command: judged as that install, not as a hidden command.
      [{ script: `pip install ${packages.map(shellQuote).join(' ')}`, through: '--runtime-env-json', via: 'wrapper' }]
    : [];
}

function ipythonCode(argv: readonly string[]): { script: string; through: string; via?: Via }[] {
  const found: { script: string; through: string; via?: Via }[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '-c' && argv[i + 1] !== undefined) {
      // The code the person asked to run, in IPython's dialect: its `!` lines are no more hidden than Python's.
      for (const script of ipythonLines(argv[++i] as string))
        found.push({ script, through: '-c', via: 'interpreter-code' });
      continue;
    }
    const setting = IPYTHON_CODE_SETTING.exec(word);
    if (!setting) continue;
    for (const line of settingLines(setting[1]!, setting[2]!))
      for (const script of ipythonLines(line)) found.push({ script, through: `--${setting[1]}` });
  }
  return found;
}

// MSBuild's build events are command lines it runs before and after a build; `-p:` sets them.
const BUILD_EVENTS = new Set(['prebuildevent', 'postbuildevent']);
function buildEventCommands(argv: readonly string[]): { script: string; through: string }[] {
  const found: { script: string; through: string }[] = [];
  for (const word of argv.slice(1)) {
    const given = /^(?:--?|\/)(?:p|property):(.+)$/is.exec(word)?.[1];
    if (given === undefined) continue;
    // `-p:A=1;B=2` sets two; a `;` inside a command line stays with it.
    for (const property of given.split(/;(?=\s*[A-Za-z_][\w.-]*\s*=)/)) {
      const eq = property.indexOf('=');
      if (eq > 0 && BUILD_EVENTS.has(property.slice(0, eq).trim().toLowerCase()))
        found.push({ script: property.slice(eq + 1), through: `-p:${property.slice(0, eq).trim()}` });
    }
  }
  return found;
}

// make's command-line variables that name programs its recipes run (`make CC='sh -c …'`).
// A bare SHELL (`SHELL=/bin/bash`) is the shell recipes run in, not a command of its own.
const MAKE_PROGRAM_VARIABLES = new Set(['CC', 'CXX', 'CPP', 'LD', 'AR', 'AS', 'FC', 'SHELL']);
// Variables a Makefile conventionally runs as a tool (`GO ?= go`, `$(PYTHON) -m pytest`): given a whole
// command line rather than a program's name (`GO=go1.22.3` is a toolchain), that line runs instead.
// And the conventional names of such variables: Sphinx's SPHINXBUILD, *_CMD, *_COMMAND, *_PROG.
const MAKE_TOOL_NAME = /^[A-Z][A-Z0-9]*(BUILD|_CMD|_COMMAND|_PROG|_PROGRAM)$/;
const MAKE_TOOL_VARIABLES = new Set([
  'GO',
  'PYTHON',
  'PYTHON3',
  'NODE',
  'NPM',
  'PNPM',
  'YARN',
  'CARGO',
  'RUSTC',
  'JAVA',
  'JAVAC',
  'DOCKER',
  'KUBECTL',
  'HELM',
  'PERL',
  'RUBY',
  'PHP',
  'INSTALL',
]);
/** The `NAME=VALUE` words of a command line after the program (make's variables, Xcode's build settings). */
function settingWords(argv: readonly string[]): { name: string; value: string }[] {
  return argv.slice(1).flatMap((word) => {
    const eq = word.indexOf('=');
    return eq > 0 ? [{ name: word.slice(0, eq), value: word.slice(eq + 1) }] : [];
  });
}

function makeProgramVariables(argv: readonly string[]): { script: string; through: string }[] {
  return settingWords(argv).flatMap(({ name, value }) => {
    const commandLine = /\s/.test(value.trim());
    if ((MAKE_TOOL_VARIABLES.has(name) || MAKE_TOOL_NAME.test(name)) && commandLine)
      return [{ script: value, through: name }];
    // Whatever its name, a value with shell syntax in it (a pipe or a list between words, a substitution) is
    // a command line a recipe runs where it names the variable (`TERRAFORM='curl … | sh; terraform'`). A
    // pattern's `|` (`RUN='TestA|TestB'`) is not one.
    if (/\s\|\s|;\s|&&|\|\||\$\(|`/.test(value) && !value.trimStart().startsWith('-'))
      return [{ script: value, through: name }];
    if (!MAKE_PROGRAM_VARIABLES.has(name) || (name === 'SHELL' && !commandLine)) return [];
    return [{ script: value, through: name }];
  });
}

// Xcode's build settings that name the programs a build runs, given as `NAME=VALUE` words
// (`xcodebuild … CC='sh -c …'`): each compile or link step runs that command line.
const XCODE_PROGRAM_SETTINGS = new Set(['CC', 'CPLUSPLUS', 'LD', 'LDPLUSPLUS', 'LIBTOOL', 'SWIFT_EXEC']);
function xcodeProgramSettings(argv: readonly string[]): { script: string; through: string }[] {
  return settingWords(argv)
    .filter(({ name, value }) => XCODE_PROGRAM_SETTINGS.has(name) && value !== '')
    .map(({ name, value }) => ({ script: value, through: name }));
}

// CMake's compiler launchers and compilers, set with -D (a `;` list is an argv).
const CMAKE_PROGRAM = /^-DCMAKE_\w*_(?:COMPILER_LAUNCHER|LINKER_LAUNCHER|COMPILER)(?::\w+)?=(.*)$/s;
/** `helm … --post-renderer bash --post-renderer-args=-c --post-renderer-args='…'`: helm runs that program with those words. */
function helmPostRenderer(argv: readonly string[]): { script: string; through: string }[] {
  const words = (name: string) =>
    argv.flatMap((word, at) =>
      word === `--${name}` ? [argv[at + 1] ?? ''] : word.startsWith(`--${name}=`) ? [word.slice(name.length + 3)] : [],
    );
  const program = words('post-renderer')[0];
  if (!program) return [];
  return [{ script: [program, ...words('post-renderer-args')].map(shellQuote).join(' '), through: '--post-renderer' }];
}

/**
 * WP-CLI's PHP: `wp eval CODE`, `wp eval-file FILE` and the global `--exec=CODE` run in WordPress's own
 * process, as `php -r CODE` and `php FILE` would, and are read as that.
 */
function wpCliCode(argv: readonly string[]): { script: string; through: string; via?: Via }[] {
  const found: { script: string; through: string; via?: Via }[] = [];
  const operands: string[] = [];
  for (let at = 1; at < argv.length; at++) {
    const word = argv[at]!;
    if (word === '--exec' && at + 1 < argv.length) found.push(wpPhp(argv[++at]!, '--exec'));
    else if (word.startsWith('--exec=')) found.push(wpPhp(word.slice('--exec='.length), '--exec'));
    else if (!word.startsWith('-') && !word.startsWith('@')) operands.push(word);
  }
  if (operands[0] === 'eval' && operands[1] !== undefined) found.push(wpPhp(operands[1], 'eval'));
  if (operands[0] === 'eval-file' && operands[1] !== undefined)
    found.push({ script: `php ${shellQuote(operands[1])}`, through: 'eval-file', via: 'interpreter-code' });
  return found;
}

function wpPhp(code: string, through: string): { script: string; through: string; via: Via } {
  return { script: `php -r ${shellQuote(code)}`, through, via: 'interpreter-code' };
}

/** ssh settings that name a command. */
const SSH_COMMAND_KEYS = ['proxycommand', 'localcommand', 'knownhostscommand'];

/**
 * The commands an ssh option list sets (`-o ProxyCommand=/tmp/x`, `-oLocalCommand …`), with each
 * setting's name. Every occurrence is looked at: `PermitLocalCommand` holds `LocalCommand` too.
 */
function sshCommandSettings(options: string): { key: string; command: string }[] {
  const lower = options.toLowerCase();
  const found: { key: string; command: string }[] = [];
  for (const key of SSH_COMMAND_KEYS)
    for (let at = lower.indexOf(key); at >= 0; at = lower.indexOf(key, at + key.length)) {
      if (!/-o\s*["']?$/.test(lower.slice(Math.max(0, at - 8), at))) continue;
      const rest = options.slice(at + key.length).replace(/^[ \t]*[= ][ \t]*/, '');
      // The setting's value ends where the next `-o` begins.
      const next = rest.search(/[ \t]-o[ \t]*["']?[A-Za-z]+[ \t]*[= ]/);
      const value = next >= 0 ? rest.slice(0, next) : rest;
      const trimmed = trimEndChars(value, ' \t');
      // A value quoted as a whole (`LocalCommand='curl … | sh'`) is the text inside the quotes.
      const quoted = /^(["'])(.*)\1$/s.exec(trimmed);
      const command = quoted ? (quoted[2] ?? '') : trimEndChars(trimmed, '"\'');
      if (command) found.push({ key: options.slice(at, at + key.length), command });
    }
  return found;
}

/** ssh options handed on by another program (gcloud's --ssh-flag, pssh's -x and -O): the commands they set. */
function passedSshOptions(flags: readonly string[]) {
  return (argv: readonly string[]): { script: string; through: string }[] =>
    argv.flatMap((word, at) => {
      const flag = flags.find((f) => word === f || word.startsWith(`${f}=`));
      if (flag === undefined) return [];
      const options = word === flag ? (argv[at + 1] ?? '') : word.slice(flag.length + 1);
      return sshCommandSettings(/^-o/.test(options.trim()) ? options : `-o ${options}`).map((setting) => ({
        script: setting.command,
        through: `ssh ${setting.key}`,
      }));
    });
}

/**
 * Ansible's ssh options: `--ssh-common-args '-o ProxyCommand=…'` and the same as extra variables
 * (`-e 'ansible_ssh_common_args="-o ProxyCommand=…"'`): ssh runs that command for every host.
 */
function ansibleSshCommands(argv: readonly string[]): { script: string; through: string }[] {
  const found: { script: string; through: string }[] = [];
  for (let at = 1; at < argv.length; at++) {
    const word = argv[at] ?? '';
    const [flag, inline] = word.startsWith('--') ? word.split(/=(.*)/s) : [word.slice(0, 2), word.slice(2)];
    if (!['--ssh-common-args', '--ssh-extra-args', '-e', '--extra-vars'].includes(flag ?? '')) continue;
    for (const setting of sshCommandSettings(inline || argv[at + 1] || ''))
      found.push({ script: setting.command, through: `ssh ${setting.key}` });
  }
  return found;
}

/** tmux's subcommands that start a window or pane running the command they are given. */
export const TMUX_COMMAND_SUBCOMMANDS = [
  'new-session',
  'new',
  'new-window',
  'neww',
  'split-window',
  'splitw',
  'respawn-pane',
  'respawnp',
];

/** The keys that end a line typed into a pane, so the shell there runs it. */
const ENTER_KEYS = new Set(['Enter', 'C-m', 'KPEnter', 'C-j']);

/**
 * `tmux send-keys -t PANE 'CMD' Enter`: the words are typed into that pane's shell, and the Enter runs
 * them there, as whoever owns that shell.
 */
function tmuxTypedCommands(argv: readonly string[]): { script: string; through: string }[] {
  const at = argv.findIndex((word) => word === 'send-keys' || word === 'send');
  if (at < 0) return [];
  const words: string[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (/^-[tNR]$/.test(word)) i++;
    else if (!word.startsWith('-')) words.push(word);
  }
  const typed: string[] = [];
  let line: string[] = [];
  for (const word of words) {
    if (ENTER_KEYS.has(word)) {
      if (line.length) typed.push(line.join(' '));
      line = [];
    } else line.push(word);
  }
  return typed.map((script) => ({ script, through: 'send-keys' }));
}

/**
 * `gh alias set --shell NAME 'BODY'` (or `-s`): every later `gh NAME` runs BODY through sh. Judged now, as
 * the command the alias is.
 */
function ghShellAlias(argv: readonly string[]): { script: string; through: string }[] {
  if (argv[1] !== 'alias' || argv[2] !== 'set' || !argv.some((w) => w === '--shell' || w === '-s')) return [];
  const operands = argv.slice(3).filter((word) => !word.startsWith('-'));
  const body = operands[1];
  return body === undefined ? [] : [{ script: body, through: 'gh alias --shell' }];
}

/** The service word of an aws command line, past its global options (`aws --no-cli-pager configure …`). */
function awsSubcommand(argv: readonly string[]): string | undefined {
  const args = argv.slice(1);
  return args[subcommandAt(args, AWS_VALUE_OPTIONS)];
}

/** `aws configure set credential_process CMD`: the CLI runs CMD whenever it needs credentials. */
function awsConfigureCommands(argv: readonly string[]): { script: string; through: string }[] {
  const at = argv.indexOf('set');
  if (awsSubcommand(argv) !== 'configure' || at < 0) return [];
  const key = (argv[at + 1] ?? '').replace(/^.*\./, '');
  const value = argv[at + 2];
  return key === 'credential_process' && value ? [{ script: value, through: 'credential_process' }] : [];
}

function cmakePrograms(argv: readonly string[]): { script: string; through: string }[] {
  return argv.slice(1).flatMap((word) => {
    const value = CMAKE_PROGRAM.exec(word)?.[1];
    return value
      ? [{ script: value.split(';').map(shellQuote).join(' '), through: word.slice(0, word.indexOf('=')) }]
      : [];
  });
}

// sqlite3's dot commands `.shell cmd` and `.system cmd`.
function sqliteCommands(word: string): string[] {
  const found: string[] = [];
  for (const line of word.split('\n')) {
    const match = /^\.(?:shell|system)\s(.*)$/.exec(line.trimStart());
    if (match?.[1] !== undefined) found.push(match[1].trim());
  }
  return found;
}

// psql's `\! cmd` meta-command.
function psqlCommands(word: string): string[] {
  const match = /^\s*\\!\s*(.*)$/s.exec(word);
  return match?.[1] !== undefined && match[1].trim() !== '' ? [match[1]] : [];
}

// sed's `e command` (run a command) in a one-line script: `1e cmd`, `/re/e cmd`, `e cmd`.
function sedCommands(word: string): string[] {
  const found: string[] = [];
  for (const part of word.split(/[;\n]/)) {
    const text = part.trimStart();
    const address = /^(?:\d+|\$|\/[^/]*\/)/.exec(text)?.[0] ?? '';
    const rest = text.slice(address.length).trimStart();
    if (rest[0] === 'e' && /\s/.test(rest[1] ?? '') && rest.slice(2).trim() !== '') found.push(rest.slice(2).trim());
  }
  return found;
}

/** awk's string literals, left to right (a `\\"` inside one is part of it), each with where it starts and ends. */
function awkStrings(word: string): { body: string; start: number; end: number }[] {
  const strings: { body: string; start: number; end: number }[] = [];
  for (let start = word.indexOf('"'); start >= 0; start = word.indexOf('"', start)) {
    let at = start + 1;
    while (at < word.length && word[at] !== '"') at += word[at] === '\\' ? 2 : 1;
    if (at >= word.length) break;
    strings.push({ body: word.slice(start + 1, at), start, end: at + 1 });
    start = at + 1;
  }
  return strings;
}

const isBlank = (char: string | undefined) => char !== undefined && /\s/.test(char);

// awk's system("cmd"), "cmd" | getline, and print … | "cmd", with literal strings only. One pass over the
// program's strings, looking only at the blanks and words around each: no pattern is tried from every quote.
function awkCommands(word: string): string[] {
  const found: string[] = [];
  for (const { body, start, end } of awkStrings(word)) {
    let before = start;
    while (isBlank(word[before - 1])) before--;
    let after = end;
    while (isBlank(word[after])) after++;
    if (word[before - 1] === '(') {
      let name = before - 1;
      while (isBlank(word[name - 1])) name--;
      if (word.slice(name - 'system'.length, name) === 'system') found.push(unescapeAwk(body));
    }
    if (word[after] === '|') {
      let next = after + 1;
      while (isBlank(word[next])) next++;
      if (word.startsWith('getline', next)) found.push(unescapeAwk(body));
    }
    if (word[before - 1] === '|') found.push(unescapeAwk(body));
  }
  return found;
}

function unescapeAwk(text: string | undefined): string {
  return (text ?? '').replace(/\\(.)/g, '$1');
}

function pagerStartCommands(word: string): string[] {
  const bang = /^\+:?!(.+)$/s.exec(word);
  return bang?.[1] ? [bang[1]] : [];
}

const EDITOR: ProgramRow = {
  options: [{ short: ['c'], long: ['cmd'] }],
  scan: (word) => (word.startsWith('+') ? exCommands(word.slice(1)) : []),
};

const BAZEL_COMMAND_OPTIONS: readonly CommandOption[] = [
  { long: ['run_under'], prefix: /^(?!\/\/|@|:)/ },
  { long: ['workspace_status_command'] },
  // `%workspace%/tools/helper` is the workspace's own file.
  { long: ['credential_helper'], prefix: /^(?:[^=/]*=)?(?:%workspace%\/)?/ },
];

export const COMMAND_OPTION_TABLE: Readonly<Record<string, ProgramRow>> = {
  ssh: { keyed: { option: 'o', keys: ['proxycommand', 'localcommand', 'knownhostscommand'] } },
  scp: { options: [{ short: ['S'] }], keyed: { option: 'o', keys: ['proxycommand', 'localcommand'] } },
  sftp: { options: [{ short: ['S'] }], keyed: { option: 'o', keys: ['proxycommand', 'localcommand'] } },
  rsync: { options: [{ short: ['e'], long: ['rsh', 'rsync-path'] }] },
  // sort compresses its temporary files through this program.
  sort: { options: [{ long: ['compress-program'] }] },
  // ripgrep runs its preprocessor on every file it searches; Slither's custom build is a command line;
  // Foundry's `--use` takes a solc version or the path of a compiler it runs.
  rg: { options: [{ long: ['pre'] }] },
  slither: { options: [{ long: ['compile-custom-build'] }] },
  'crytic-compile': { options: [{ long: ['compile-custom-build'] }] },
  forge: { options: [{ long: ['use'], prefix: /^(?=[./~$])/ }] },
  tar: {
    options: [
      { long: ['checkpoint-action'], prefix: /^exec=/ },
      { long: ['to-command', 'use-compress-program', 'info-script', 'new-volume-script', 'rsh-command'] },
      { short: ['I', 'F'] },
    ],
  },
  zip: { options: [{ long: ['unzip-command'] }, { short: ['TT'] }] },
  git: {
    options: [
      { long: ['upload-pack', 'receive-pack'] },
      // `--exec` is --upload-pack's old name for the commands that fetch, and a command after each commit in a rebase.
      ...['fetch', 'clone', 'pull', 'ls-remote', 'archive'].map((subcommand) => ({ long: ['exec'], subcommand })),
      { long: ['extcmd'], short: ['x'], subcommand: 'difftool' },
      { long: ['open-files-in-pager'], short: ['O'], subcommand: 'grep' },
      { long: ['exec'], short: ['x'], subcommand: 'rebase' },
    ],
    commandAfter: [{ after: ['submodule', 'foreach'] }, { after: ['bisect', 'run'] }],
  },
  gh: { properties: ghShellAlias },
  java: { properties: javaErrorCommands },
  tmux: {
    properties: tmuxTypedCommands,
    commandAfter: TMUX_COMMAND_SUBCOMMANDS.map((sub) => ({ after: [sub], values: 'sncteFlxyt' })),
  },
  screen: { commandAfter: [{ after: [], values: 'ScehpTLX' }] },
  // launchd runs a submitted job's command now, and again whenever it exits, until the next boot.
  launchctl: { commandAfter: [{ after: ['submit'], values: 'lpoe' }] },
  bwrap: {
    commandAfter: [
      {
        after: [],
        long: {
          ...Object.fromEntries(
            [
              'bind',
              'ro-bind',
              'dev-bind',
              'bind-try',
              'ro-bind-try',
              'dev-bind-try',
              'symlink',
              'setenv',
              'chmod',
              'file',
              'bind-data',
              'ro-bind-data',
            ].map((o) => [o, 2]),
          ),
          ...Object.fromEntries(
            [
              'dev',
              'proc',
              'tmpfs',
              'dir',
              'chdir',
              'unsetenv',
              'uid',
              'gid',
              'hostname',
              'remount-ro',
              'lock-file',
              'sync-fd',
              'info-fd',
              'json-status-fd',
              'block-fd',
              'userns-block-fd',
              'seccomp',
              'exec-label',
              'file-label',
              'cap-add',
              'cap-drop',
              'perms',
              'size',
              'args',
              'userns',
              'userns2',
              'pidns',
              'mqueue',
              'overlay-src',
              'tmp-overlay',
              'ro-overlay',
              'argv0',
            ].map((o) => [o, 1]),
          ),
        },
      },
    ],
  },
  cmake: { commandAfter: [{ after: ['-E', 'env'], assignments: true }], properties: cmakePrograms },
  man: {
    options: [
      { short: ['P'], long: ['pager'] },
      { short: ['H'], long: ['html'] },
    ],
  },
  vim: EDITOR,
  vi: EDITOR,
  nvim: EDITOR,
  view: EDITOR,
  ex: EDITOR,
  vimdiff: EDITOR,
  gdb: { options: [{ long: ['ex', 'eval-command', 'iex', 'init-eval-command'] }], singleDashLong: true },
  openocd: { options: [{ short: ['c'], long: ['command'] }] },
  'qemu-system': { properties: qemuNetworkScripts },
  // Zephyr's west runs `forall -c CMD` in every project of the workspace.
  west: { options: [{ short: ['c'], subcommand: 'forall' }] },
  // Snakemake runs its cluster submit, status and cancel commands once per job.
  snakemake: {
    options: [
      {
        long: [
          'cluster',
          'cluster-status',
          'cluster-cancel',
          'cluster-generic-submit-cmd',
          'cluster-generic-status-cmd',
          'cluster-generic-cancel-cmd',
        ],
      },
    ],
  },
  sqlite3: { scan: sqliteCommands },
  psql: { options: [{ short: [...PSQL_COMMAND_OPTIONS.short], long: [...PSQL_COMMAND_OPTIONS.long] }] },
  heroku: {
    options: [
      {
        short: [...PSQL_COMMAND_OPTIONS.short],
        long: [...PSQL_COMMAND_OPTIONS.long],
        subcommand: HEROKU_PSQL_SUBCOMMAND,
      },
    ],
  },
  mysql: { options: [{ long: ['pager'] }] },
  wp: { properties: wpCliCode },
  mariadb: { options: [{ long: ['pager'] }] },
  helm: { properties: helmPostRenderer },
  ansible: { properties: ansibleSshCommands },
  gcloud: { properties: passedSshOptions(['--ssh-flag']) },
  pssh: { properties: passedSshOptions(['-x', '--extra-args', '-O', '--option']) },
  'parallel-ssh': { properties: passedSshOptions(['-x', '--extra-args', '-O', '--option']) },
  'ansible-playbook': { properties: ansibleSshCommands },
  aws: { properties: awsConfigureCommands },
  sed: { scan: sedCommands },
  awk: { scan: awkCommands },
  gawk: { scan: awkCommands },
  mawk: { scan: awkCommands },
  nawk: { scan: awkCommands },
  script: { options: [{ short: ['c'], long: ['command'] }] },
  // `npm pkg set scripts.postinstall=CMD`: a script npm runs by itself at the next install.
  npm: { options: [{ short: ['c'], long: ['call', 'script-shell'] }], code: packageScriptSetting },
  // pnpm takes any setting as `--config.NAME=VALUE` too: the script shell wraps every package script.
  pnpm: { options: [{ long: ['script-shell', 'config.script-shell', 'config.shell'] }] },
  npx: { options: [{ short: ['c'], long: ['call'], beforeOperand: ['-p', '--package'] }] },
  // Secret injectors that run a command string with the secrets in its environment (shell/runners.ts runs their argv form).
  doppler: { options: [{ long: ['command'], subcommand: 'run' }] },
  infisical: { options: [{ long: ['command'], subcommand: 'run' }] },
  socat: { scan: (word) => /^(?:system|exec):(.+)$/i.exec(word)?.slice(1, 2) ?? [] },
  // Languages no reader here follows (Elixir, Erlang, Groovy, Scala, Kotlin, Java's shell, Swift, AppleScript): their
  // code on the command line is read for the command lines in its strings and decoded payloads.
  ...Object.fromEntries(
    [
      'elixir',
      'iex',
      'mix',
      'erl',
      'groovy',
      'groovysh',
      'scala',
      'scala-cli',
      'kotlin',
      'kotlinc',
      'jshell',
      'swift',
      // AppleScript's `do shell script "…"` and JXA's doShellScript run their strings in sh.
      'osascript',
    ].map((program) => [program, { code: foreignCodeCommands }]),
  ),
  // `less +'!cmd' f`: a less command run at start; `!` is its shell escape.
  less: { scan: pagerStartCommands },
  more: { scan: pagerStartCommands },
  // tcpdump -z runs a program on each file it finishes writing.
  tcpdump: { options: [{ short: ['z'] }] },
  // strace -o '|cmd' pipes its trace into a command.
  strace: { options: [{ short: ['o'], long: ['output'], prefix: /^\|/ }] },
  // go test -exec / go run -exec runs the built binary through the given program; -toolexec runs
  // every compiler and linker step through it.
  go: { options: [{ long: ['exec', 'toolexec'] }], singleDashLong: true },
  // cargo --config 'target.X.runner = "…"' runs every built binary through the runner; the linker and
  // the rustc wrappers run at every build.
  cargo: { options: [{ long: ['config'] }] },
  make: { properties: makeProgramVariables },
  xcodebuild: { properties: xcodeProgramSettings },
  // bazel test --run_under='…' runs every test through the given command.
  // --workspace_status_command runs before each stamped build, a credential helper for each host it
  // matches (`--credential_helper=*.example.com=/path`); a target label (`//tools:lock`) is the workspace's own.
  bazel: { options: BAZEL_COMMAND_OPTIONS },
  bazelisk: { options: BAZEL_COMMAND_OPTIONS },
  // `ros2 run … --prefix 'gdb -ex run --args'` and `ros2 launch … --launch-prefix '…'` start each node through that command.
  ros2: { options: [{ long: ['prefix', 'launch-prefix'] }] },
  ray: { properties: rayRuntimePackages },
  mvn: { properties: mavenExecCommands },
  ipython: { properties: ipythonCode },
  // gpg runs its photo viewer on each photo ID a listing shows (--list-options show-photos).
  gpg: { options: [{ long: ['photo-viewer'] }] },
  gpg2: { options: [{ long: ['photo-viewer'] }] },
  ipython3: { properties: ipythonCode },
  mvnw: { properties: mavenExecCommands },
  dotnet: { properties: buildEventCommands },
  msbuild: { properties: buildEventCommands },
  aria2c: {
    options: [
      {
        long: [
          'on-download-complete',
          'on-download-error',
          'on-download-start',
          'on-download-pause',
          'on-download-stop',
          'on-bt-download-complete',
        ],
      },
    ],
  },
  'start-stop-daemon': { options: [{ short: ['x'], long: ['exec'] }] },
};

// Programs that read their own commands from stdin, where a line can run a shell command: ed's and
// ftp's `!cmd`, ex mode's ex commands, sqlite3's `.shell`, psql's and mysql's `\!`.
const STDIN_COMMAND_READERS: Record<string, (text: string) => string[]> = {
  ed: bangLines,
  red: bangLines,
  ftp: bangLines,
  sftp: bangLines,
  ex: (text) => text.split('\n').flatMap(exCommands),
  sqlite3: sqliteCommands,
  psql: (text) => text.split('\n').flatMap(psqlCommands),
  mysql: (text) => [...text.matchAll(/^[ \t]*(?:\\!|system)[ \t]+(\S.*)$/gm)].map((m) => m[1] ?? ''),
  mariadb: (text) => [...text.matchAll(/^[ \t]*(?:\\!|system)[ \t]+(\S.*)$/gm)].map((m) => m[1] ?? ''),
};

function bangLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('!'))
    .map((line) => line.slice(1));
}

// sftp's batch commands that change files on the server, as the shell commands that do the same there.
const SFTP_REMOTE_COMMANDS: Record<string, string> = {
  rm: 'rm',
  rmdir: 'rmdir',
  rename: 'mv',
  chmod: 'chmod',
  chown: 'chown',
  chgrp: 'chgrp',
  ln: 'ln',
  symlink: 'ln -s',
};

/**
 * The commands an sftp batch read from stdin runs on the server (`sftp -b - host <<< 'rm /srv/x/*'`),
 * each as the shell command that does the same; a leading `-` (carry on past errors) is dropped.
 */
export function sftpRemoteCommands(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const [verb, ...rest] = line.trim().replace(/^-/, '').split(/\s+/);
    const command =
      verb !== undefined && Object.hasOwn(SFTP_REMOTE_COMMANDS, verb) ? SFTP_REMOTE_COMMANDS[verb] : undefined;
    if (command !== undefined && rest.length) out.push(`${command} ${rest.join(' ')}`);
  }
  return out;
}

/** Whether a program reads commands from stdin whose lines can run shell commands. */
export function readsCommandsFromStdin(name: string): boolean {
  return Object.hasOwn(STDIN_COMMAND_READERS, name);
}

/** The shell commands in what such a program reads from stdin (`printf '!cat x\nq\n' | ed -s f`). */
export function stdinShellCommands(name: string, text: string): string[] {
  const read = Object.hasOwn(STDIN_COMMAND_READERS, name) ? STDIN_COMMAND_READERS[name] : undefined;
  return read ? read(text).filter((c) => c.trim() !== '') : [];
}

/** Whether the table has a row for this program (own keys only: a command may be named `constructor`). */
export function runsCommandsThroughOptions(name: string): boolean {
  return Object.hasOwn(COMMAND_OPTION_TABLE, tableName(name));
}

/** The table's row name for a program: every QEMU system emulator reads the same options. */
function tableName(name: string): string {
  return name.startsWith('qemu-system-') ? 'qemu-system' : name;
}

/** Per-option readers that turn one option's value into the commands it runs. */
function valueCommands(name: string, option: string, value: string): string[] {
  if (name === 'gdb') return gdbCommands(value);
  if (name === 'openocd') return openocdCommands(value);
  if (['vim', 'vi', 'nvim', 'view', 'ex', 'vimdiff'].includes(name)) return exCommands(value);
  if (name === 'psql' || name === 'heroku') return psqlCommands(value);
  if (name === 'cargo') return cargoConfigCommands(value);
  if (name === 'socat') return [];
  return option === '' ? [] : [value];
}

function optionValue(
  argv: readonly string[],
  i: number,
  option: CommandOption,
  singleDashLong: boolean,
): { name: string; value: string; used: number } | undefined {
  const written = argv[i] as string;
  const word = singleDashLong && /^-[^-]{2,}/.test(written) ? `-${written}` : written;
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const longName = word.slice(2, eq === -1 ? undefined : eq);
    if (!option.long?.includes(longName)) return undefined;
    if (eq !== -1) return { name: longName, value: word.slice(eq + 1), used: 1 };
    return i + 1 < argv.length ? { name: longName, value: argv[i + 1] as string, used: 2 } : undefined;
  }
  if (!word.startsWith('-') || word.length < 2) return undefined;
  for (const letter of option.short ?? []) {
    // `-qc VALUE`: a one-letter option may close a cluster of flags and take the next word.
    if (letter.length === 1 && /^-[a-zA-Z]+$/.test(word) && word.endsWith(letter) && i + 1 < argv.length)
      return { name: letter, value: argv[i + 1] as string, used: 2 };
    if (!word.startsWith(`-${letter}`)) continue;
    const rest = word.slice(1 + letter.length);
    if (rest !== '') return { name: letter, value: rest, used: 1 };
    return i + 1 < argv.length ? { name: letter, value: argv[i + 1] as string, used: 2 } : undefined;
  }
  return undefined;
}

function keyedValue(argv: readonly string[], i: number, keyed: KeyedCommandSetting): string | undefined {
  const word = argv[i] as string;
  let setting: string | undefined;
  if (word === `-${keyed.option}`) setting = argv[i + 1];
  else if (word.startsWith(`-${keyed.option}`)) setting = word.slice(2);
  if (setting === undefined) return undefined;
  const match = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)(.*)$/s.exec(setting);
  if (!match || !keyed.keys.includes((match[1] as string).toLowerCase())) return undefined;
  return match[2];
}

/** Where `after` starts in argv (after the program name), or -1. */
function sequenceAt(argv: readonly string[], after: readonly string[]): number {
  if (after.length === 0) return 1;
  for (let i = 1; i + after.length <= argv.length; i++)
    if (after.every((word, j) => argv[i + j] === word)) return i + after.length;
  return -1;
}

/** The command a `commandAfter` entry finds, as one script (a single word is already shell text). */
function commandAfterOf(argv: readonly string[], entry: CommandAfter): string | undefined {
  let i = sequenceAt(argv, entry.after);
  if (i === -1) return undefined;
  while (i < argv.length) {
    const word = argv[i] as string;
    if (word === '--') {
      i++;
      break;
    }
    if (entry.assignments && /^[A-Za-z_]\w*=/.test(word)) {
      i++;
      continue;
    }
    if (!word.startsWith('-') || word === '-') break;
    if (word.startsWith('--')) {
      const name = word.slice(2).split('=')[0] as string;
      i += 1 + (word.includes('=') ? 0 : (entry.long?.[name] ?? 0));
      continue;
    }
    // `-dmS name`: a cluster whose last letter takes a value takes the next word.
    i += (entry.values ?? '').includes(word[word.length - 1] as string) ? 2 : 1;
  }
  const rest = argv.slice(i);
  if (!rest.length) return undefined;
  return rest.length === 1 ? rest[0] : rest.map(shellQuote).join(' ');
}

/** The commands a program runs through its options or its script operands, as script hops. */
export function optionHopsOf(name: string, view: ArgvView): ScriptHop[] {
  const row = runsCommandsThroughOptions(name) ? COMMAND_OPTION_TABLE[tableName(name)] : undefined;
  if (!row) return [];
  const { argv, dynamic } = view;
  const scripts: { script: string; through: string; via?: Via }[] = [];
  for (const entry of row.commandAfter ?? []) {
    const script = commandAfterOf(argv, entry);
    if (script !== undefined) scripts.push({ script, through: entry.after.join(' ') || 'its operands' });
  }
  // A word known only at run time is left out; the rest still says what runs.
  if (row.properties) scripts.push(...row.properties(argv.filter((_, at) => !dynamic.has(at))));
  for (let i = 1; i < argv.length; i++) {
    if (dynamic.has(i)) continue;
    const word = argv[i] as string;
    if (word === '--') break;
    if (row.keyed) {
      const value = keyedValue(argv, i, row.keyed);
      if (value !== undefined) scripts.push({ script: value, through: `-${row.keyed.option}` });
    }
    for (const option of row.options ?? []) {
      if (option.subcommand !== undefined && !argv.slice(1, i).includes(option.subcommand)) continue;
      if (option.beforeOperand && operandBefore(argv, i, option.beforeOperand)) continue;
      const found = optionValue(argv, i, option, row.singleDashLong === true);
      if (!found) continue;
      const flag = found.name.length === 1 ? `-${found.name}` : `--${found.name}`;
      const through = option.subcommand !== undefined ? `${option.subcommand} ${flag}` : flag;
      // `go test -exec "$(ls -t /tmp/dl/*/runner | head -1)"`: the program it runs is chosen at run time,
      // and read as a command whose name is known only then (its words as written).
      if (dynamic.has(i + found.used - 1)) {
        if (!option.prefix) scripts.push({ script: found.value, through });
        continue;
      }
      if (option.prefix && !option.prefix.test(found.value)) continue;
      const value = option.prefix ? found.value.replace(option.prefix, '') : found.value;
      for (const script of valueCommands(name, found.name, value)) scripts.push({ script, through });
    }
    if (row.scan && !word.startsWith('-'))
      for (const script of row.scan(word)) scripts.push({ script, through: 'its script' });
    if (row.code && !word.startsWith('-'))
      for (const script of row.code(word)) scripts.push({ script, through: 'code', via: 'interpreter-code' });
  }
  return scripts
    .filter(({ script }) => script.trim() !== '')
    .map(({ script, through, via }) => ({
      kind: 'script',
      via: via ?? 'option',
      wrapper: `${name} ${through}`,
      script,
    }));
}

/** Variables whose value a program runs as a command (git's ssh command, less's input filter). */
export const COMMAND_VARIABLES: ReadonlySet<string> = new Set([
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'GIT_PROXY_COMMAND',
  'SSH_ASKPASS',
  'PAGER',
  'MANPAGER',
  'EDITOR',
  'VISUAL',
  'LESSOPEN',
  'LESSCLOSE',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  // ccache runs its prefix command in front of every compile.
  'CCACHE_PREFIX',
  'RSYNC_RSH',
  'BROWSER',
  'SYSTEMD_PAGER',
  'SYSTEMD_EDITOR',
  'SUDO_EDITOR',
  'SUDO_ASKPASS',
  'PSQL_PAGER',
  'PSQL_EDITOR',
  // kubectl diff runs this instead of diff; kubectl edit, this editor; the aws CLI pipes its output here.
  'KUBECTL_EXTERNAL_DIFF',
  'KUBE_EDITOR',
  'AWS_PAGER',
  // gh opens pages, edits text and pages output through these.
  'GH_BROWSER',
  'GH_EDITOR',
  'GH_PAGER',
  // gcloud runs this interpreter with the user's cloud login.
  'CLOUDSDK_PYTHON',
  // IEx's open/1 runs this editor command (`__FILE__` and `__LINE__` filled in).
  'ELIXIR_EDITOR',
  // cargo runs every rustc call through these.
  'RUSTC_WRAPPER',
  'RUSTC_WORKSPACE_WRAPPER',
  'CARGO_BUILD_RUSTC_WRAPPER',
  'CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER',
  'CARGO_BUILD_RUSTC',
  'RUSTC',
  // npm and pnpm run every package script with this shell (npm's settings come from npm_config_* too).
  'npm_config_script_shell',
  'NPM_CONFIG_SCRIPT_SHELL',
  'npm_config_shell',
  'NPM_CONFIG_SHELL',
]);

/** Cargo's per-target runner and linker, as variables (CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER). */
const CARGO_TARGET_PROGRAM = /^CARGO_TARGET_\w+_(?:RUNNER|LINKER)$/;

/** The commands that variables set for a command will make it run, as script hops. */
export function variableHopsOf(assignments: Record<string, string | undefined>): ScriptHop[] {
  const hops: ScriptHop[] = [];
  for (const [name, value] of Object.entries(assignments)) {
    if ((!COMMAND_VARIABLES.has(name) && !CARGO_TARGET_PROGRAM.test(name)) || value === undefined) continue;
    // less runs LESSOPEN's command when it starts with `|` (or `||`), with %s for the file name.
    const script = value.replace(/^\|{1,2}/, '').trim();
    if (script !== '') hops.push({ kind: 'script', via: 'option', wrapper: `$${name}`, script });
  }
  return [
    ...hops,
    ...gitEnvironmentConfigHops(assignments),
    ...nixConfigHops(assignments['NIX_CONFIG']),
    ...goFlagsHops(assignments['GOFLAGS']),
    ...jvmErrorHops(assignments),
  ];
}

/** The variables the JVM and the JVM tools' launch scripts take options from. */
export const JVM_OPTION_VARIABLES: readonly string[] = [
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'JAVA_OPTS',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'SBT_OPTS',
  // The data tools' launch scripts pass these to their JVM.
  ...['KAFKA_OPTS', 'HADOOP_OPTS', 'SPARK_SUBMIT_OPTS', 'HIVE_OPTS', 'CATALINA_OPTS', 'ES_JAVA_OPTS', 'ANT_OPTS'],
  // Nextflow's launcher passes NXF_OPTS to its JVM.
  'NXF_OPTS',
];

/** The command a JVM runs through sh on an error (`-XX:OnOutOfMemoryError="…"`), in a word or in a variable's value. */
const JVM_ERROR_COMMAND = /-XX:On(?:OutOfMemoryError|Error)=(?:"([^"]*)"|'([^']*)'|(\S+))/g;

function jvmErrorCommands(text: string): string[] {
  return [...text.matchAll(JVM_ERROR_COMMAND)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** `java -XX:OnOutOfMemoryError="kill -9 %p" …`: the word, past its option, is the command. */
function javaErrorCommands(argv: readonly string[]): { script: string; through: string }[] {
  return argv.flatMap((word) => {
    const option = /^-XX:On(?:OutOfMemoryError|Error)=/.exec(word)?.[0];
    return option === undefined ? [] : [{ script: word.slice(option.length), through: option.slice(0, -1) }];
  });
}

/**
 * `JAVA_TOOL_OPTIONS='-XX:OnOutOfMemoryError="…"' npx generator`: any JVM the command starts, however deep,
 * runs that command when it fails, and a small heap makes sure it does.
 */
function jvmErrorHops(assignments: Record<string, string | undefined>): ScriptHop[] {
  return JVM_OPTION_VARIABLES.flatMap((name) =>
    jvmErrorCommands(assignments[name] ?? '').map((script) => ({
      kind: 'script' as const,
      via: 'option' as const,
      wrapper: `$${name} -XX:OnOutOfMemoryError`,
      script,
    })),
  );
}

/** GOFLAGS' `-toolexec=…` and `-exec=…`: go runs every compile step, or every test binary, through them. */
function goFlagsHops(flags: string | undefined): ScriptHop[] {
  return (flags ?? '').split(/[ \t]+/).flatMap((word) => {
    const match = /^--?(toolexec|exec)=(.+)$/.exec(word);
    return match
      ? [{ kind: 'script' as const, via: 'option' as const, wrapper: `$GOFLAGS -${match[1]}`, script: match[2]! }]
      : [];
  });
}

// Nix settings whose value is a program Nix runs: after every build, to build, or to compare builds.
const NIX_PROGRAM_SETTINGS = new Set(['post-build-hook', 'pre-build-hook', 'build-hook', 'diff-hook']);

/** NIX_CONFIG's settings, a `name = value` line each. */
export function nixConfigSettings(config: string | undefined): [name: string, value: string][] {
  return (config ?? '').split('\n').flatMap((line) => {
    const equals = line.indexOf('=');
    return equals > 0 ? [[line.slice(0, equals).trim(), line.slice(equals + 1).trim()] as [string, string]] : [];
  });
}

/** `NIX_CONFIG='post-build-hook = /tmp/x.sh' nix build`: the program a Nix setting in the environment names. */
function nixConfigHops(config: string | undefined): ScriptHop[] {
  return nixConfigSettings(config)
    .filter(([name, script]) => NIX_PROGRAM_SETTINGS.has(name) && script !== '')
    .map(([name, script]) => ({ kind: 'script', via: 'option', wrapper: `$NIX_CONFIG ${name}`, script }));
}

// git settings whose value is a command git runs (a `!` alias or credential helper is one too).
const GIT_COMMAND_KEYS = new Set([
  'core.fsmonitor',
  'core.pager',
  'core.sshcommand',
  'core.editor',
  'core.askpass',
  'sequence.editor',
  'diff.external',
  'gpg.program',
  'uploadpack.packobjectshook',
]);

/** `GIT_CONFIG_KEY_<n>=core.fsmonitor GIT_CONFIG_VALUE_<n>=…`: git settings given through the environment. */
function gitEnvironmentConfigHops(assignments: Record<string, string | undefined>): ScriptHop[] {
  const hops: ScriptHop[] = [];
  for (const [name, key] of Object.entries(assignments)) {
    const n = /^GIT_CONFIG_KEY_(\d+)$/.exec(name)?.[1];
    const value = n === undefined ? undefined : assignments[`GIT_CONFIG_VALUE_${n}`];
    if (key === undefined || value === undefined) continue;
    const setting = key.toLowerCase();
    const bang = /^(alias\.|credential\.helper$|pager\.)/.test(setting) && value.startsWith('!');
    if (!GIT_COMMAND_KEYS.has(setting) && !bang) continue;
    const script = value.replace(/^!/, '').trim();
    if (script !== '') hops.push({ kind: 'script', via: 'option', wrapper: `$${name}=${key}`, script });
  }
  return hops;
}
