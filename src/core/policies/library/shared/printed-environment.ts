import type { SimpleCommand } from '../../../shell';
import { classifySecretName } from '../../../redaction/secret-names';
import { argsOf, parseFlags } from '../../../facts/commands';
import {
  commandLineCode,
  DJANGO_PASSWORD_SETTINGS,
  interpreterKind,
  takesCodeOnCommandLine,
} from '../../../facts/programs';

// The environment printed by other routes than `env` and `echo $NAME`: interpreter code that
// prints os.environ or one secret-named variable, a here-string of a secret-named variable, bash's
// indirect expansion over variable names (`${!AWS_*}` then `${!v}`), and env or printenv run inside
// a container with `docker exec` or `kubectl exec`. What a command prints goes to the transcript.

export interface PrintedEnvironment {
  what: string;
  /** The whole environment: it holds secrets, but printing it is sometimes what a person wants. */
  whole: boolean;
}

// R's cat, writeLines and message print too (only as calls: `cat` is a word elsewhere).
const PRINT_CALL =
  /\b(print|println|printf|puts|pp|p|say|console\.(log|info|error|dir|table)|echo|var_dump|print_r|dump)\b|\b(cat|writeLines|message)(?=\s*\()/;
// The whole environment as a value: not followed by a key lookup, nor asked whether it holds a name (`'X' in os.environ`).
const WHOLE_ENV =
  /process\.env(?!\s*(\.|\[|\?\.))|(?<!\bin\s)os\.environ(?!\s*(\[|\.get|\.setdefault|\.pop))|\bENV\b(?!\s*(\[|\.fetch|\.key\?|\.has_key))|%ENV(?!\s*\{)|\$_ENV(?!\s*\[)|getenv\(\s*\)|Deno\.env\.toObject\(\)|\bos\.Environ\(\)|System\.getenv\(\s*\)/;
// One named variable: os.environ['X'], os.getenv("X"), process.env.X, ENV['X'], $ENV{X}, getenv('X').
const NAMED_ENV =
  /(?:os\.environ\s*(?:\[\s*|\.get\(\s*)|os\.getenv\(\s*|getenv\(\s*|ENV(?:\s*\[\s*|\.fetch\(\s*)|\$_ENV\s*\[\s*|Deno\.env\.get\(\s*|System\.getenv\(\s*|Sys\.getenv\(\s*(?:c\(\s*)?)['"]([A-Za-z_]\w*)['"]|process\.env(?:\.|\[\s*['"])([A-Za-z_]\w*)|\$ENV\{\s*['"]?([A-Za-z_]\w*)|(?<![\w.$>])env\(\s*['"]([A-Za-z_]\w*)['"]/g;
// Laravel's config('cashier.secret'): a config value, named as the variable it usually comes from (CASHIER_SECRET).
const LARAVEL_CONFIG = /(?<![\w.$>])config\(\s*['"]([\w.-]+)['"]/g;
// Django's settings.STRIPE_SECRET_KEY: a setting, most often read from the variable of that name.
const DJANGO_SETTING = /(?<![\w.])settings\.([A-Z][A-Z0-9_]*)\b/g;

// Calls that print their argument's value as it is (or merely encoded): str(x), JSON.stringify(x), b64encode(x).
const TRANSPARENT_CALL =
  /^(str|repr|format|print|println|printf|puts|pp|p|say|echo|cat|writeLines|message|dump|var_dump|print_r|dict|list|sorted|encode|b64encode|base64\.b64encode|btoa|Buffer\.from|JSON\.stringify|json\.dumps|Object\.(entries|keys|values)|console\.\w+|String|inspect|to_s|f)$/;

/** A secret-named variable printed as it is: every call between the print and the lookup passes the value through. */
function secretNamedIn(statement: string): string | undefined {
  const named = [
    ...[...statement.matchAll(NAMED_ENV)].map((m) => ({ index: m.index, name: m[1] ?? m[2] ?? m[3] ?? m[4] ?? '' })),
    ...[...statement.matchAll(LARAVEL_CONFIG)].map((m) => ({
      index: m.index,
      name: (m[1] ?? '').replace(/[.-]/g, '_').toUpperCase(),
    })),
    ...[...statement.matchAll(DJANGO_SETTING)].map((m) => ({
      index: m.index,
      name: m[1] ?? '',
      passwords: DJANGO_PASSWORD_SETTINGS.has(m[1] ?? ''),
    })),
  ];
  for (const match of named) {
    const { name } = match;
    if (!('passwords' in match && match.passwords) && classifySecretName(name) === null) continue;
    const between = statement.slice(0, match.index);
    const calls = [...between.matchAll(/(?<![\w.])([A-Za-z_][\w.]*)\s*\(/g)].map((m) => m[1] ?? '');
    if (calls.every((callee) => TRANSPARENT_CALL.test(callee))) return name;
  }
  return undefined;
}

/** The statements of the code that print: a print call and what follows it on that statement. */
function printedStatements(code: string): string[] {
  return code
    .split(/[;\n]/)
    .filter((statement) => PRINT_CALL.test(statement))
    .map((statement) => statement.slice(statement.search(PRINT_CALL)));
}

// A Rails app's encrypted credentials, decrypted with its master key: the app's API keys and passwords.
const RAILS_CREDENTIALS = /\bRails\.application\.(credentials|secrets)\b/;
// What only says whether a value is there, or what keys there are: `.present?`, `.keys`, `.size`.
const SHAPE_ONLY = /\.(present|blank|nil|empty|any|key|has_key|include)\?|\.(keys|size|length|count)\b/;
// PowerShell: a stored credential's password, the environment drive listed, a secret-named `$env:` variable.
const POWERSHELL_CREDENTIAL = /GetNetworkCredential\(\)\.Password|\bGet-StoredCredential\b/i;

/** `ConvertFrom-SecureString … -AsPlainText`: a secure string (a password) turned back into text. */
function plainTextSecret(statement: string): boolean {
  return /\bConvertFrom-SecureString\b/i.test(statement) && /-AsPlainText\b/i.test(statement);
}
const POWERSHELL_NAMED_VARIABLE =
  /\$env:([A-Za-z_]\w*)|\[(?:System\.)?Environment\]::GetEnvironmentVariable\(\s*['"]([A-Za-z_]\w*)['"]/i;
const POWERSHELL_ENV_DRIVE = /\b(Get-ChildItem|gci|dir|ls|Get-Item)\s+env:(?![A-Za-z_])/i;

function powershellPrints(statements: readonly string[]): PrintedEnvironment | undefined {
  for (const statement of statements) {
    if (POWERSHELL_CREDENTIAL.test(statement) || plainTextSecret(statement))
      return { what: 'a stored Windows credential (from PowerShell code)', whole: false };
    // `$env:NAME`, or .NET's `[Environment]::GetEnvironmentVariable('NAME', 'User')` (the user's or machine's store too).
    const named = POWERSHELL_NAMED_VARIABLE.exec(statement);
    const variable = named?.[1] ?? named?.[2];
    if (variable !== undefined && classifySecretName(variable) !== null)
      return { what: `the secret-named variable ${variable} (from PowerShell code)`, whole: false };
  }
  return statements.some((statement) => POWERSHELL_ENV_DRIVE.test(statement))
    ? { what: 'the environment (from PowerShell code)', whole: true }
    : undefined;
}

// The Hugging Face hub library's token, as the hub's own login stored it.
const HUB_TOKEN = /\bget_token\s*\(\s*\)/;

function codePrints(cmd: SimpleCommand): PrintedEnvironment | undefined {
  // An interpreter's inline code, and R's and Julia's -e (commandLineCode); a shell's -c is read as commands.
  const code = takesCodeOnCommandLine(cmd.name) ? commandLineCode(cmd) : undefined;
  if (code === undefined) return undefined;
  // node -p prints the value of its expression; PowerShell prints the value of every statement it does not assign.
  const args = argsOf(cmd);
  const powershell = interpreterKind(cmd.name) === 'powershell';
  const printed = args.some((a) => a === '-p' || a === '--print')
    ? [code]
    : powershell
      ? code.split(/[;\n]/).filter((statement) => !/^\s*\$[\w:]+\s*=/.test(statement))
      : printedStatements(code);
  if (powershell) {
    const found = powershellPrints(printed);
    if (found) return found;
  }
  for (const statement of printed) {
    if (HUB_TOKEN.test(statement)) return { what: `the Hugging Face token (from ${cmd.name} code)`, whole: false };
    if (RAILS_CREDENTIALS.test(statement) && !SHAPE_ONLY.test(statement))
      return { what: `the Rails app's decrypted credentials (from ${cmd.name} code)`, whole: false };
    const name = secretNamedIn(statement);
    if (name) return { what: `the secret-named variable ${name} (from ${cmd.name} code)`, whole: false };
  }
  // Perl's `print "$_=$ENV{$_}" for keys %ENV` prints each value through a loop over the whole environment.
  if (printed.some((statement) => WHOLE_ENV.test(statement)) || (printed.length > 0 && /keys\s+%ENV/.test(code)))
    return { what: `the whole environment (from ${cmd.name} code)`, whole: true };
  return undefined;
}

function hereStringSecret(cmd: SimpleCommand): string | undefined {
  if (!cmd.redirects.some((r) => r.op === '<<<')) return undefined;
  const after = cmd.text.slice(cmd.text.indexOf('<<<') + 3);
  for (const match of after.matchAll(/\$\{?([A-Za-z_]\w*)/g))
    if (classifySecretName(match[1] as string) !== null) return match[1];
  return undefined;
}

/** `${!v}` printed while the call lists variable names (`${!AWS_*}`, `compgen -v`, `env | cut -d= -f1`). */
function indirectExpansion(cmd: SimpleCommand, callText: string): string | undefined {
  const deref = /\$\{!([A-Za-z_]\w*)\}/.exec(cmd.text)?.[1];
  if (!['echo', 'printf', 'print'].includes(cmd.name) || deref === undefined) return undefined;
  const listing = /\$\{![A-Za-z_]\w*[*@]\}/.exec(callText)?.[0];
  if (listing) return listing;
  return /\bcompgen\s+-[ve]\b/.test(callText) || environmentPipedToCut(callText) ? 'variable names' : undefined;
}

const CONTAINER_ENGINES = new Set(['docker', 'podman', 'nerdctl']);

/** The command run inside a container: `docker [compose] exec [opts] NAME cmd…`, `kubectl exec POD -- cmd…`. */
function containerCommand(cmd: SimpleCommand): string[] | undefined {
  const args = argsOf(cmd);
  if (cmd.name === 'kubectl' && args.includes('exec')) {
    const end = args.indexOf('--');
    return end === -1 ? undefined : args.slice(end + 1);
  }
  if (!CONTAINER_ENGINES.has(cmd.name)) return undefined;
  const at = args.indexOf('exec');
  if (at === -1 || at > 1) return undefined;
  const rest = args.slice(at + 1);
  const words = parseFlags(rest, ['e', 'u', 'w', 'T'], ['env', 'user', 'workdir', 'env-file', 'index']).positionals;
  return words.slice(1);
}

function containerEnvironment(cmd: SimpleCommand): PrintedEnvironment | undefined {
  const inner = containerCommand(cmd);
  const program = inner?.[0];
  if (!inner || (program !== 'env' && program !== 'printenv')) return undefined;
  const names = inner.slice(1).filter((a) => !a.startsWith('-'));
  const secret = program === 'printenv' ? names.find((n) => classifySecretName(n) !== null) : undefined;
  if (secret) return { what: `the secret-named variable ${secret} of a container`, whole: false };
  if (names.length === 0) return { what: `the whole environment of a container (${cmd.name} exec)`, whole: true };
  return undefined;
}

/** What environment a command prints by a route other than env/printenv/echo, if any. */
/** `var=GITHUB_TOKEN; echo "${!var}"`: a secret's name assigned to a variable, then dereferenced. */
function namedIndirection(cmd: SimpleCommand, callText: string): string | undefined {
  const deref = /\$\{!([A-Za-z_]\w*)\}/.exec(cmd.text)?.[1];
  if (!['echo', 'printf', 'print'].includes(cmd.name) || deref === undefined) return undefined;
  const assigned = new RegExp(`\\b${deref}=["']?([A-Za-z_]\\w*)`).exec(callText)?.[1];
  return assigned !== undefined && classifySecretName(assigned) !== null ? assigned : undefined;
}

// `ps e`, `ps auxe`, `ps eww`: BSD-style options with `e` print every process's environment.
function processEnvironments(cmd: SimpleCommand): boolean {
  return cmd.name === 'ps' && argsOf(cmd).some((a) => /^[a-zA-Z]+$/.test(a) && a.includes('e'));
}

export function environmentPrinted(cmd: SimpleCommand, callText: string): PrintedEnvironment | undefined {
  const stdoutRedirected = cmd.redirects.some(
    (r) => (r.op.startsWith('>') || r.op === '&>') && (r.fd === undefined || r.fd === 1),
  );
  if (stdoutRedirected) return undefined;
  const here = hereStringSecret(cmd);
  if (here) return { what: `the secret-named variable ${here} (a here-string)`, whole: false };
  const named = namedIndirection(cmd, callText);
  if (named) return { what: `the secret-named variable ${named} (through \${!name})`, whole: false };
  if (processEnvironments(cmd)) return { what: "every process's environment (ps e)", whole: true };
  const indirect = indirectExpansion(cmd, callText);
  if (indirect) return { what: `variables chosen at run time by indirect expansion (${indirect})`, whole: true };
  return codePrints(cmd) ?? containerEnvironment(cmd);
}

/** `env | cut -d= -f1`: the environment's names piped to cut (env or printenv right before the pipe). */
function environmentPipedToCut(text: string): boolean {
  for (const list of text.split(/[;&]/)) {
    const stages = list.split('|');
    for (let i = 0; i + 1 < stages.length; i++)
      if (/\b(env|printenv)\b/.test(stages[i] ?? '') && /^\s*cut\b/.test(stages[i + 1] ?? '')) return true;
  }
  return false;
}
