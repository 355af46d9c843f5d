import type { SimpleCommand } from '../shell';
import { argsOf, optionValues, parseFlags } from './commands';
import { PARALLEL_SPEC } from '../shell/wrappers';
import { perCommand } from './per-command';

// Families of programs that several policies recognise.

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox']);
/** Nix's programs: each reads Nix settings (`--option NAME VALUE`, NIX_CONFIG) that choose caches and hooks. */
export const NIX_PROGRAMS = new Set([
  ...['nix', 'nix-build', 'nix-shell', 'nix-env', 'nix-instantiate', 'nix-store', 'nixos-rebuild'],
  ...['home-manager', 'darwin-rebuild', 'nix-collect-garbage'],
]);

export const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'xh',
  'iwr',
  'irm',
  'invoke-webrequest',
  'invoke-restmethod',
  'lwp-request',
  'lwp-download',
  'httpie',
]);
export const NETCATS = new Set([
  'nc',
  'ncat',
  'netcat',
  'nc.traditional',
  'nc.openbsd',
  'socat',
  'telnet',
  'cryptcat',
  'pwncat',
]);

/** Command-line HTTP clients: curl, wget, httpie (`http`, `https`) and xh. */
export const HTTP_CLIENTS: ReadonlySet<string> = new Set(['curl', 'wget', 'http', 'https', 'xh', 'xhs']);

/** curl's (and httpie's, wget's) options whose value is a request body or an uploaded file. */
export const REQUEST_BODY_SHORT: readonly string[] = ['d', 'F', 'T'];
export const REQUEST_BODY_LONG: readonly string[] = [
  'data',
  'data-binary',
  'data-raw',
  'data-urlencode',
  'data-ascii',
  'form',
  'form-string',
  'upload-file',
  'json',
  'post-data',
  'body-data',
];

/** Programs that carry data to another host by themselves: the core every egress list starts from. */
export const SENDERS: readonly string[] = [
  'curl',
  'wget',
  'http',
  'https',
  'xh',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  ...NETCATS,
];

type InterpreterKind = 'python' | 'perl' | 'ruby' | 'node' | 'php' | 'lua' | 'powershell' | 'rust' | 'jvm';

// Module-level: a regular expression literal in a function body is a new object each time it runs.
const HAS_UPPER_CASE = /[A-Z]/;
// Programs that run a JVM language's script or snippet as they read it (JShell, Groovy, Kotlin scripts,
// JBang): none of them has a reader here, so their code counts as unread. Scala's runners are left out:
// Spark notebooks' one-line Scala (`scala -e 'println(…count())'`) is read as the query it is elsewhere.
const JVM_SCRIPT_RUNNERS = new Set(['jshell', 'groovy', 'kotlin', 'jbang']);
const PYTHON_NAME = /^(python|pypy)[\d.]*$/;
const PERL_NAME = /^perl[\d.]*$/;
const RUBY_NAME = /^ruby[\d.]*$/;
const PHP_NAME = /^php[\d.]*$/;
const LUA_NAME = /^lua(jit)?[\d.]*$/;

/**
 * The arguments rails gets (`rails …`, `bin/rails …`), or null for any other command. `bundle exec rails …`
 * reaches here as the rails command the shell analysis unwraps from it (shell/wrappers).
 */
export function railsArguments(name: string, args: readonly string[]): readonly string[] | null {
  return name === 'rails' ? args : null;
}

/** `rails runner CODE` (or `r`): the Ruby it runs, `-` for its standard input, or a script file's name. */
export function railsRunnerOperand(cmd: SimpleCommand): string | undefined {
  const rails = railsArguments(cmd.name, argsOf(cmd));
  if (rails === null || (rails[0] !== 'runner' && rails[0] !== 'r')) return undefined;
  return parseFlags(rails.slice(1), ['e'], ['environment']).positionals[0];
}

/**
 * The arguments Laravel's console gets, however it is started: `php artisan …` (`php8.3 -d … artisan …`),
 * `./artisan …`, `sail artisan …` (`sail art …`); Sail's own shortcuts (`sail tinker`) as they are. Null
 * for any other command.
 */
export function artisanArguments(name: string, args: readonly string[]): readonly string[] | null {
  const program = name.toLowerCase().split('/').pop() ?? '';
  if (PHP_NAME.test(program)) {
    const script = args.findIndex((arg) => !arg.startsWith('-'));
    return script >= 0 && /(^|\/)artisan$/.test(args[script] ?? '') ? args.slice(script + 1) : null;
  }
  if (program === 'artisan') return args;
  if (program === 'sail') return args[0] === 'artisan' || args[0] === 'art' ? args.slice(1) : args;
  return null;
}

/**
 * `php artisan tinker --execute=CODE` (and every other way artisanArguments knows): the PHP that
 * Laravel's console runs inside the booted application, with its configuration and secrets loaded.
 */
export function artisanTinkerCode(cmd: SimpleCommand): string | undefined {
  const console = artisanArguments(cmd.name, argsOf(cmd));
  if (console?.[0] !== 'tinker') return undefined;
  const code = optionValues(console.slice(1), [], ['execute'])[0];
  // Tinker takes an expression as a statement: `User::count()` needs no semicolon.
  return code === undefined || /[;}]\s*$/.test(code) ? code : `${code};`;
}

/** Django settings that hold the passwords of the services they connect to. */
export const DJANGO_PASSWORD_SETTINGS: ReadonlySet<string> = new Set(['DATABASES', 'CACHES']);

/**
 * The arguments Django's management commands get, however they are started: `python manage.py …`
 * (`python3 -X dev manage.py …`), `./manage.py …`, `django-admin …`. Null for any other command.
 */
export function djangoManageArguments(name: string, args: readonly string[]): readonly string[] | null {
  const program = name.toLowerCase().split('/').pop() ?? '';
  if (program === 'manage.py' || program === 'django-admin') return args;
  if (interpreterKind(program) !== 'python') return null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (PYTHON_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return /(^|\/)manage\.py$/.test(arg) ? args.slice(i + 1) : null;
  }
  return null;
}

/** `manage.py shell -c CODE` (`--command`): Python run inside the configured project, its settings and secrets loaded. */
export function djangoShellCode(cmd: SimpleCommand): string | undefined {
  const manage = djangoManageArguments(cmd.name, argsOf(cmd));
  if (manage?.[0] !== 'shell') return undefined;
  return optionValues(manage.slice(1), ['c'], ['command'])[0];
}

/** Python's own options that take the next word as their value (`-W ignore`, `-X dev`). */
const PYTHON_VALUE_OPTIONS = new Set(['-W', '-X', '--check-hash-based-pycs']);

/**
 * `python [options] -m MODULE ARGS…`: the module and its arguments, past the interpreter's own options
 * (`python3 -u -m http.server`, `python -B -m pip install`, `python -Bm pip`), which change nothing of
 * what the module does. Undefined for a script, `-c` code or another program.
 */
export function pythonModuleRun(cmd: SimpleCommand): { module: string; args: readonly string[] } | undefined {
  if (interpreterKind(cmd.name) !== 'python') return undefined;
  const args = argsOf(cmd);
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (PYTHON_VALUE_OPTIONS.has(word)) {
      i++;
      continue;
    }
    if (!word.startsWith('-') || word === '-' || word === '--') return undefined;
    if (word.startsWith('--')) continue;
    const letters = word.slice(1);
    const m = letters.indexOf('m');
    const c = letters.indexOf('c');
    if (c !== -1 && (m === -1 || c < m)) return undefined;
    if (m === -1) continue;
    // `-mhttp.server` carries the module in the same word; `-Bm pip` takes the next.
    const inline = letters.slice(m + 1);
    const module = inline !== '' ? inline : args[i + 1];
    if (module === undefined) return undefined;
    return { module, args: args.slice(inline !== '' ? i + 1 : i + 2) };
  }
  return undefined;
}

/** `python3.11`, `python`, `pypy3` all count as python. */
export function interpreterKind(name: string): InterpreterKind | null {
  // Asked of every command by many policies: a name that is lower case already is not copied.
  const n = HAS_UPPER_CASE.test(name) ? name.toLowerCase() : name;
  if (PYTHON_NAME.test(n)) return 'python';
  if (PERL_NAME.test(n)) return 'perl';
  if (RUBY_NAME.test(n)) return 'ruby';
  if (n === 'node' || n === 'nodejs' || n === 'deno' || n === 'bun') return 'node';
  if (PHP_NAME.test(n)) return 'php';
  if (LUA_NAME.test(n)) return 'lua';
  if (n === 'pwsh' || n === 'powershell' || n === 'powershell.exe' || n === 'pwsh.exe') return 'powershell';
  if (n === 'rust-script') return 'rust';
  if (JVM_SCRIPT_RUNNERS.has(n)) return 'jvm';
  return null;
}

const CODE_FLAGS: Record<string, readonly string[]> = {
  shell: ['-c'],
  python: ['-c'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  node: ['-e', '--eval', '-p', '--print'],
  php: ['-r'],
  lua: ['-e'],
  powershell: ['-c', '-command', '-Command', '-EncodedCommand', '-enc', '-e', '-ec'],
  rust: ['-e', '--expr'],
  jvm: ['-e'],
};

const MODULE_OPTIONS = ['--import', '--loader', '--experimental-loader'];

/** The code of a `data:` URL: `data:text/javascript,CODE` (percent-encoded or not) or `;base64,`. */
function dataUrlCode(url: string): string | undefined {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma === -1) return undefined;
  const body = url.slice(comma + 1);
  if (url.slice(0, comma).endsWith(';base64')) return Buffer.from(body, 'base64').toString('utf8');
  try {
    return decodeURIComponent(body);
  } catch {
    return body;
  }
}

/** Modules node loads from `data:` URLs before the program (`--import 'data:text/javascript,…'`): inline code. */
function dataUrlModules(args: readonly string[]): string[] {
  const codes: string[] = [];
  args.forEach((word, at) => {
    const option = MODULE_OPTIONS.find((name) => word === name || word.startsWith(`${name}=`));
    const value = option === undefined ? undefined : word === option ? args[at + 1] : word.slice(option.length + 1);
    const code = value === undefined ? undefined : dataUrlCode(value);
    if (code !== undefined) codes.push(code);
  });
  return codes;
}

/** The inline program of an interpreter (`python -c CODE`, `perl -e CODE`, `bash -c CODE`), if any. */
export const inlineCode: (cmd: SimpleCommand) => string | undefined = perCommand(findInlineCode);

function findInlineCode(cmd: SimpleCommand): string | undefined {
  const kind = SHELLS.has(cmd.name) ? 'shell' : interpreterKind(cmd.name);
  const flags = kind ? CODE_FLAGS[kind] : undefined;
  if (!flags) return undefined;
  const args = argsOf(cmd);
  // `deno eval CODE`: the code is the subcommand's operand.
  if (cmd.name === 'deno' && args[0] === 'eval') return args.slice(1).find((a) => !a.startsWith('-'));
  const parts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    // Combined short flags such as `perl -lne CODE` or `bash -lc CODE` end with the code flag.
    const combined =
      /^-[a-zA-Z]+$/.test(word) &&
      flags.some((f) => f.length === 2 && word.endsWith(f.slice(1)) && word.length > 2 && kind !== 'powershell');
    if (flags.includes(word) || combined) {
      const code = args[i + 1];
      // PowerShell's `-Command -` reads the commands from its input (executesStdin).
      if (code !== undefined && !(kind === 'powershell' && code === '-')) parts.push(code);
      i++;
    }
  }
  if (kind === 'node') parts.push(...dataUrlModules(args));
  return parts.length ? parts.join('\n') : undefined;
}

/** Whether a command runs program text that arrives on its standard input (`| sh`, `| python3 -`). */
// The standard input named as a file: `bash /dev/stdin`, `python3 /proc/self/fd/0`, `source /dev/stdin`.
const STDIN_FILE = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** `xargs sh -c` (the code is the input), `xargs -I{} sh -c '{}'`, GNU parallel with no command: each input line runs. */
function runsInputAsCommand(cmd: SimpleCommand, args: readonly string[]): boolean {
  const name = cmd.name.toLowerCase();
  if (name === 'parallel')
    return parseFlags(args, [...PARALLEL_SPEC.shortWithValue], PARALLEL_SPEC.longWithValue).positionals.length === 0;
  if (!SHELLS.has(name) || cmd.via[cmd.via.length - 1] !== 'xargs') return false;
  const at = args.indexOf('-c');
  return at !== -1 && (at === args.length - 1 || /^\{\}$|^'\{\}'$/.test(args[at + 1] ?? ''));
}

export function executesStdin(cmd: SimpleCommand): boolean {
  const name = cmd.name.toLowerCase();
  if (name === 'iex' || name === 'invoke-expression') return true;
  const args = argsOf(cmd);
  // Buildkite runs the steps a pipeline upload reads from its standard input, on the CI's agents.
  if (name === 'buildkite-agent' && args[0] === 'pipeline' && args[1] === 'upload')
    return parseFlags(args.slice(2), [], []).positionals.every((p) => p === '-');
  if (runsInputAsCommand(cmd, args)) return true;
  if ((name === 'source' || name === '.') && STDIN_FILE.test(args[0] ?? '')) return true;
  if (railsRunnerOperand(cmd) === '-') return true;
  if (SHELLS.has(name)) {
    const flags = parseFlags(args, ['o', 'O'], ['rcfile', 'init-file']);
    if (flags.short.has('c')) return false;
    if (flags.short.has('s')) return true;
    return flags.positionals.length === 0 || STDIN_FILE.test(flags.positionals[0] ?? '');
  }
  // osascript runs the AppleScript (or JavaScript) it reads when given neither a script file nor -e.
  if (name === 'osascript') {
    const flags = parseFlags(args, ['e', 'l', 's'], []);
    return !args.includes('-e') && (flags.positionals.length === 0 || flags.positionals[0] === '-');
  }
  const kind = interpreterKind(name);
  if (!kind) return false;
  if (inlineCode(cmd) !== undefined) return false;
  const flags = parseFlags(args, ['m', 'W', 'X', 'I', 'r'], ['require', 'import', 'loader']);
  if (kind === 'python' && flags.short.has('m')) return false;
  if (kind === 'powershell') return args.some((a) => a === '-' || /^-(c|command)$/i.test(a));
  return flags.positionals.length === 0 || STDIN_FILE.test(flags.positionals[0] ?? '');
}

/** Whether a command runs a file given as its first argument: `sh x.sh`, `python3 x.py`, `source x`. */
// elixir's options that take a value (-pa and -pz read as --pa and --pz).
const ELIXIR_VALUED = [
  'sname',
  'name',
  'cookie',
  'erl',
  'boot',
  'vm-args',
  'pa',
  'pz',
  'pr',
  'werl',
  'logger-otp-reports',
];

/**
 * Runners that compile and run a source file named on their command line (`dart run x.dart`, `go run
 * x.go`, `deno run x.ts`, `tsx x.ts`): the file is the script whatever the subcommand before it.
 */
const SOURCE_RUNNERS: Record<string, RegExp> = {
  dart: /\.dart$/,
  go: /\.go$/,
  deno: /\.[cm]?[jt]sx?$/,
  bun: /\.[cm]?[jt]sx?$/,
  tsx: /\.[cm]?[jt]sx?$/,
  'ts-node': /\.[cm]?[jt]sx?$/,
  swift: /\.swift$/,
  rscript: /\.[rR]$/,
  julia: /\.jl$/,
};

export function scriptArgument(cmd: SimpleCommand): string | undefined {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  if (name === 'source' || name === '.') return args[0];
  const source = Object.hasOwn(SOURCE_RUNNERS, name) ? SOURCE_RUNNERS[name] : undefined;
  if (source) {
    const file = args.find((a) => !a.startsWith('-') && source.test(a));
    if (file !== undefined || interpreterKind(name) === null) return file;
  }
  // The BEAM's script runners: `escript FILE`, `elixir FILE` (code given with -e is read elsewhere, beam-code).
  if (name === 'escript' || name === 'elixir') {
    if (args.some((a) => a === '-e' || a === '--eval' || a === '-S')) return undefined;
    return parseFlags(
      args.map((a) => (/^-p[az]$/.test(a) ? `-${a}` : a)),
      ['r'],
      ELIXIR_VALUED,
    ).positionals[0];
  }
  if (interpreterKind(name) === 'powershell') return inlineCode(cmd) === undefined ? powershellFile(args) : undefined;
  if (SHELLS.has(name) || interpreterKind(name)) {
    if (inlineCode(cmd) !== undefined) return undefined;
    // Python's -W and -X take a value (`python3 -W ignore x.py`): it is not the script.
    const python = interpreterKind(name) === 'python';
    const flags = parseFlags(args, python ? ['m', 'W', 'X'] : ['o', 'O', 'm'], ['rcfile', 'init-file']);
    if (flags.short.has('m')) return undefined;
    const first = flags.positionals[0];
    if (first !== undefined && !STDIN_FILE.test(first)) return first;
    if (SHELLS.has(name) && flags.short.has('c')) return undefined;
    return stdinFile(cmd);
  }
  return undefined;
}

// PowerShell's own parameters that take a value (any case, any unambiguous prefix is common: -w, -ep, -ex).
const POWERSHELL_VALUES =
  /^-(w|win|windowstyle|ep|ex|exec|executionpolicy|version|v|psconsolefile|configurationname|outputformat|of|inputformat|if|workingdirectory|wd)$/i;

/** `powershell -File X`, `pwsh -NoProfile x.ps1`: the script file it runs, if any. */
function powershellFile(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (/^-(f|file)$/i.test(word)) return args[i + 1];
    if (POWERSHELL_VALUES.test(word)) i++;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}

/** `bash < x.sh`, `python3 < /tmp/p.py`: the file a script-reading program's standard input comes from. */
function stdinFile(cmd: SimpleCommand): string | undefined {
  const input = cmd.redirects.filter((r) => r.op === '<' && (r.fd === undefined || r.fd === 0)).pop();
  if (!input || input.fileText !== undefined || /[$`]/.test(input.target) || STDIN_FILE.test(input.target))
    return undefined;
  return input.target;
}

/** Programs whose `-e CODE` is a language no code reader here parses (R, Julia). */
const EVAL_OPTION_PROGRAMS = new Set(['rscript', 'r', 'julia']);

/** Whether a command's command-line code is a program's code rather than shell (an interpreter, R, Julia). */
export function takesCodeOnCommandLine(name: string): boolean {
  // `rails runner CODE` is given Ruby as `ruby -e` is.
  // So is Laravel's `artisan tinker --execute CODE` PHP, run through artisan itself or Sail.
  return (
    interpreterKind(name) !== null ||
    EVAL_OPTION_PROGRAMS.has(name.toLowerCase()) ||
    ['rails', 'artisan', 'sail', 'manage.py', 'django-admin'].includes(name.split('/').pop() ?? name)
  );
}

/**
 * The code a command is given on its command line: an interpreter's inline code (inlineCode), and also
 * `deno eval CODE`, `Rscript -e CODE`, `julia -e CODE`, which no code reader here parses but whose text
 * the policies still look through.
 */
export function commandLineCode(cmd: SimpleCommand): string | undefined {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  if ((name === 'deno' || name === 'bun') && args[0] === 'eval') return args[1];
  const runner = railsRunnerOperand(cmd);
  if (runner !== undefined) return runner === '-' || /\.rb$/.test(runner) ? undefined : runner;
  const tinker = artisanTinkerCode(cmd) ?? djangoShellCode(cmd);
  if (tinker !== undefined) return tinker;
  if (EVAL_OPTION_PROGRAMS.has(name)) {
    const code = optionValues(args, ['e'], ['eval']).join('\n');
    return code === '' ? undefined : code;
  }
  return inlineCode(cmd);
}
