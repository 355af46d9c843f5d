import { basename } from 'node:path';
import { z } from 'zod';
import { trimEndChars } from '../../text/scan';
import type { SimpleCommand } from '../../shell';
import { resolvePath } from '../../shell/paths';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { tableDownloads } from '../../facts/program-table';
import { autoLoadedBy } from '../../facts/auto-loaded';
import { hostAndPath, onOwnNetwork } from './shared/own-sources';
import { readsStatementsFromStdin, statementFiles } from '../../facts/database-clients';
import {
  argsOf,
  commandsWithCwd,
  evidenceOf,
  optionValues,
  parseFlags,
  redirectWrites,
  shellCommands,
  reachedBy,
  stageProgram,
} from '../../facts/commands';
import {
  DOWNLOADERS,
  NETCATS,
  SHELLS,
  executesStdin,
  commandLineCode,
  inlineCode,
  interpreterKind,
  scriptArgument,
} from '../../facts/programs';

// Code that runs without anyone having read it: fetched from the network,
// decoded from base64, or driven by a remote listener.

/** Follows wrapper hops (sudo, env, xargs) up to the command that sits in the pipeline. */
function anchorOf(commands: SimpleCommand[], cmd: SimpleCommand): SimpleCommand {
  let current = cmd;
  const seen = new Set<SimpleCommand>();
  while (current.parent !== undefined && !seen.has(current)) {
    seen.add(current);
    const hop = current.via[current.via.length - 1];
    if (hop !== 'wrapper' && hop !== 'xargs') break;
    const parent = commands[current.parent];
    if (!parent) break;
    current = parent;
  }
  return current;
}

/** Whether `later` reads, directly or through other stages, the output of `earlier` in one pipeline. */
function feeds(commands: SimpleCommand[], earlier: SimpleCommand, later: SimpleCommand): boolean {
  const a = anchorOf(commands, earlier);
  const b = anchorOf(commands, later);
  return a !== b && a.pipeline.id === b.pipeline.id && a.pipeline.index < b.pipeline.index;
}

function runsSubstitutedCode(parent: SimpleCommand): boolean {
  const name = parent.name.toLowerCase();
  // trap keeps its first argument to run as code when the signal comes.
  if (['eval', 'source', '.', 'iex', 'invoke-expression', 'trap'].includes(name)) return true;
  if (inlineCode(parent) !== undefined) return true;
  // `$(curl …)` in the command position runs whatever came back.
  if (parent.dynamicWords.includes(0)) return true;
  return parent.dynamicWords.some((at) => substitutedAsCode(parent.argv, at));
}

/**
 * A word that a wrapper hands on as code (`ssh host bash -c "$(…)"`, `docker run img sh -c "$(…)"`:
 * what the substitution prints becomes the inner shell's script), or a Lua script Redis runs
 * (`redis-cli EVAL "$(…)"`), or an AppleScript statement (`osascript -e "$(…)"`).
 */
function substitutedAsCode(argv: readonly string[], at: number): boolean {
  const before = argv[at - 1] ?? '';
  if (/^-[a-zA-Z]*c$/.test(before) && SHELLS.has(basename(argv[at - 2] ?? ''))) return true;
  if (before === '-e' && basename(argv[0] ?? '') === 'osascript') return true;
  return /^redis-cli$/i.test(basename(argv[0] ?? '')) && /^eval$/i.test(before);
}

/** Files a download writes: curl -o F / -O (named after the URL), wget -O F / default name. */
function downloadedFiles(cmd: SimpleCommand, cwd: string, call: ToolCall): string[] {
  const args = argsOf(cmd);
  const urls = args.filter((a) => /^(https?|ftp):\/\//i.test(a));
  const fromUrl = urls.map((u) => (u.split(/[?#]/, 1)[0] ?? '').split('/').pop() ?? '').filter((n) => n !== '');
  let files: string[] = [];
  if (cmd.name === 'curl') {
    files = optionValues(args, ['o'], ['output']);
    if (
      parseFlags(args, ['o', 'd', 'H', 'X', 'u', 'A', 'e'], ['output', 'data', 'header', 'request', 'user']).short.has(
        'O',
      ) ||
      args.includes('--remote-name')
    )
      files.push(...fromUrl);
  } else if (cmd.name === 'wget') {
    const named = optionValues(args, ['O'], ['output-document']).filter((f) => f !== '-');
    files = named.length ? named : optionValues(args, ['O'], ['output-document']).includes('-') ? [] : fromUrl;
  } else if (cmd.name === 'aria2c') {
    const dir = optionValues(args, ['d'], ['dir'])[0];
    files = optionValues(args, ['o'], ['out']);
    if (!files.length) files = fromUrl;
    if (dir !== undefined) files = files.map((f) => `${dir}/${f}`);
  } else if (cmd.name === 'git' && args.includes('clone')) {
    files = clonedInto(args);
  }
  files.push(...submoduleAdded(cmd));
  files.push(...tableDownloads(cmd));
  // `curl -s URL > /tmp/x`: the body lands in the redirect's file.
  if (DOWNLOADERS.has(cmd.name.toLowerCase())) files.push(...redirectWrites(cmd));
  return files.map((f) => resolvePath(f, cwd, call.home));
}

/** The folder `git clone URL [DIR]` fills: DIR, or the repository's name. */
function clonedInto(args: readonly string[]): string[] {
  const flags = parseFlags(
    args.slice(args.indexOf('clone') + 1),
    ['b', 'o', 'c', 'j', 'u'],
    ['branch', 'origin', 'config', 'depth', 'jobs', 'upload-pack', 'reference', 'separate-git-dir', 'template'],
  );
  const [url, dir] = flags.positionals;
  if (url === undefined) return [];
  return [dir ?? (trimEndChars(url, '/').split(/[/:]/).pop() ?? '').replace(/\.git$/, '')].filter((d) => d !== '');
}

/** Whether a command fetches files into the file system: a clone, or a program table download. */
function fetchesFiles(cmd: SimpleCommand): boolean {
  return (
    (cmd.name === 'git' && argsOf(cmd).includes('clone')) ||
    tableDownloads(cmd).length > 0 ||
    submoduleAdded(cmd).length > 0
  );
}

/** `git submodule add URL [PATH]`: the folder it fills. */
function submoduleAdded(cmd: SimpleCommand): string[] {
  const args = argsOf(cmd);
  if (cmd.name !== 'git' || args[args.indexOf('submodule') + 1] !== 'add' || !args.includes('submodule')) return [];
  const [url, path] = parseFlags(
    args.slice(args.indexOf('add') + 1),
    ['b', 'name'],
    ['branch', 'name', 'reference', 'depth'],
  ).positionals;
  if (url === undefined) return [];
  return [path ?? (trimEndChars(url, '/').split(/[/:]/).pop() ?? '').replace(/\.git$/, '')].filter((d) => d !== '');
}

// Builds and installs that run the scripts of the folder they run in (Makefile, install scripts, setup.py, build.rs).
const PROJECT_RUNNERS: Record<string, RegExp | true> = {
  make: true,
  cmake: true,
  ninja: true,
  npm: /^(i|install|ci|run|run-script|test|start|exec|rebuild)$/,
  pnpm: /^(i|install|run|test|start|exec|dlx)$/,
  yarn: /^(install|run|test|start|build)?$/,
  bun: /^(i|install|run|test)$/,
  pip: /^install$/,
  pip3: /^install$/,
  cargo: /^(build|run|test|install)$/,
  go: /^(generate|run|test|build)$/,
  bundle: /^(install|exec)$/,
  rake: true,
  gradle: true,
  mvn: true,
  'docker-compose': /^(up|run|build)$/,
  pipx: /^(install|run)$/,
  uv: /^(pip|run|sync|tool)$/,
  west: /^(build|flash|debug)$/,
  bitbake: true,
  'bitbake-layers': /^add-layer$/,
};

function runsProjectCode(cmd: SimpleCommand): boolean {
  const name = cmd.name.toLowerCase();
  if (/^\.\/(configure|gradlew|mvnw|install|setup|build)[\w.-]*$/.test(cmd.argv[0] ?? '')) return true;
  if (interpreterKind(name) === 'python' && /^(setup\.py|-m)$/.test(argsOf(cmd)[0] ?? '')) return true;
  const rule = Object.hasOwn(PROJECT_RUNNERS, name) ? PROJECT_RUNNERS[name] : undefined;
  if (rule === true) return true;
  const sub = argsOf(cmd).find((a) => !a.startsWith('-')) ?? '';
  return rule !== undefined && rule.test(sub);
}

// Programs that run a file handed to them: `java -jar F`, `node F`, `sh F`, `make -f F`, `dotnet F.dll`.
const FILE_RUNNERS = new Set(['java', 'dotnet', 'mono', 'make', 'ansible-playbook', 'docker', 'podman']);

/** Every file the command runs: its script argument, a path in the command position, a runner's file. */
function executedFiles(cmd: SimpleCommand, cwd: string, call: ToolCall): string[] {
  const out: string[] = statementFiles(cmd).map((file) => resolvePath(file, cwd, call.home));
  const script = scriptArgument(cmd);
  if (script !== undefined) out.push(resolvePath(script, cwd, call.home));
  const first = cmd.argv[0] ?? '';
  if (first.includes('/')) out.push(resolvePath(first, cwd, call.home));
  // A shell's or interpreter's later words are its script's arguments (data); a runner's may be the file.
  if (FILE_RUNNERS.has(cmd.name.toLowerCase()) || installsPackageFile(cmd) || runsNotebooks(cmd))
    for (const word of argsOf(cmd)) if (!word.startsWith('-')) out.push(resolvePath(word, cwd, call.home));
  return out;
}

/** `jupyter nbconvert --execute NB`, `jupyter execute NB`, `papermill NB OUT`: the notebook's cells run. */
function runsNotebooks(cmd: SimpleCommand): boolean {
  const args = argsOf(cmd);
  if (cmd.name === 'papermill') return true;
  if (cmd.name === 'jupyter-execute') return true;
  if (cmd.name === 'jupyter-nbconvert') return args.includes('--execute');
  return cmd.name === 'jupyter' && (args[0] === 'execute' || (args[0] === 'nbconvert' && args.includes('--execute')));
}

/** Installers of an app or package file, whose code then runs on the device or the machine (`adb install x.apk`). */
function installsPackageFile(cmd: SimpleCommand): boolean {
  const first = argsOf(cmd)[0] ?? '';
  if (cmd.name === 'adb') return /^install(-multiple)?$/.test(first);
  if (cmd.name === 'dpkg') return argsOf(cmd).some((word) => word === '-i' || word === '--install');
  return cmd.name === 'installer' || (cmd.name === 'xcrun' && first === 'simctl');
}

// Runners that fetch a script from a URL and run it in one step: `uv run URL`, `deno URL`, `bun URL`,
// `pipx run URL`, `jbang URL`, `scala-cli URL`, `groovy URL`, `nix run URL|github:…`.
const URL_SCRIPT_RUNNERS: Record<string, readonly string[]> = {
  uv: ['run'],
  deno: ['', 'run'],
  bun: ['', 'run', 'x'],
  pipx: ['run'],
  jbang: ['', 'run'],
  'scala-cli': ['', 'run'],
  groovy: [''],
  nix: ['run', 'shell'],
  // An MLflow project's entry point, from a repository.
  mlflow: ['run'],
};
const REMOTE_SCRIPT = /^(https?|ftp):\/\/|^(github|gitlab|sourcehut|git\+https?|git\+ssh):/i;
// Code that imports or sources a module from a URL: import('https://…'), source("https://…") in R.
// Julia's `include(download("https://…"))` runs what it downloads.
const URL_IMPORT_IN_CODE =
  /\b(import|require|load|include)\s*(?:\(\s*)?['"`](https?|ftp):\/\/|\binclude\s*\(\s*(Downloads\.)?download\s*\(\s*['"](https?|ftp):\/\//;
// R's source() runs a script; elsewhere `source "https://…"` is data (a Gemfile's gem source).
const R_URL_SOURCE_IN_CODE = /\b(source|sys\.source)\s*\(\s*['"`](https?|ftp):\/\//;

// Node's `res.pipe(spawn('sh').stdin)`: a response streamed into a shell's standard input.
const RESPONSE_PIPED_TO_SHELL =
  /\.pipe\(\s*(?:require\(\s*['"](?:node:)?child_process['"]\s*\)\.)?spawn\(\s*['"](?:ba|z|da|k)?sh['"]/;

function urlScriptRun(cmd: SimpleCommand): string | undefined {
  const name = cmd.name.toLowerCase();
  const subs = Object.hasOwn(URL_SCRIPT_RUNNERS, name) ? URL_SCRIPT_RUNNERS[name] : undefined;
  if (subs) {
    const words = argsOf(cmd).filter((a) => !a.startsWith('-'));
    const script = subs.includes('') && REMOTE_SCRIPT.test(words[0] ?? '') ? words[0] : undefined;
    const after = subs.includes(words[0] ?? '') ? words.slice(1).find((w) => REMOTE_SCRIPT.test(w)) : undefined;
    if (script ?? after) return `${script ?? after} run by ${name}`;
  }
  const args = argsOf(cmd);
  // `ansible-pull -U REPO playbook.yml` clones the repository and runs its playbook on this machine.
  const pulled = name === 'ansible-pull' ? optionValues(args, ['U'], ['url'])[0] : undefined;
  if (pulled !== undefined && (REMOTE_SCRIPT.test(pulled) || /^[\w.-]+@[\w.-]+:|^ssh:\/\//.test(pulled)))
    return `the playbooks of ${pulled} run by ansible-pull`;
  // node --import URL, --loader URL; deno eval CODE; Rscript -e CODE; julia -e CODE.
  const loaded = optionValues(args, ['r'], ['import', 'require', 'loader', 'experimental-loader']).find((v) =>
    REMOTE_SCRIPT.test(v),
  );
  if (interpreterKind(name) === 'node' && loaded) return `${loaded} loaded by ${name}`;
  // Deno's, and Supabase's edge functions', import map from a web address: whoever serves it picks the code of every import.
  const importMap = optionValues(args, [], ['import-map'])[0];
  if ((name === 'deno' || name === 'supabase') && importMap !== undefined && REMOTE_SCRIPT.test(importMap))
    return `every import mapped by ${importMap}, run by ${name}`;
  const code = commandLineCode(cmd);
  const importsFromUrl =
    code !== undefined &&
    (URL_IMPORT_IN_CODE.test(code) || ((name === 'rscript' || name === 'r') && R_URL_SOURCE_IN_CODE.test(code)));
  if (importsFromUrl) return `${cmd.name} code that imports a module from a URL`;
  if (
    code !== undefined &&
    RESPONSE_PIPED_TO_SHELL.test(code) &&
    /\b(?:https?(?:['"]\s*\))?\.(?:get|request)|fetch)\s*\(/.test(code)
  )
    return `${cmd.name} code that pipes a web response into a shell`;
  return undefined;
}

/** `sh <(…)`, `source <(…)`, `python3 <(…)`: the command's output is the script a shell or interpreter runs. */
function runByProcessSubstitution(commands: SimpleCommand[], cmd: SimpleCommand): boolean {
  const { via, from } = reachedBy(commands, cmd);
  if (!from || via !== 'process-substitution') return false;
  // `command sh < <(…)`: the substitution hangs on the wrapper; the shell it runs reads it.
  const parent = stageProgram(commands, from);
  return (
    SHELLS.has(parent.name) ||
    interpreterKind(parent.name) !== null ||
    ['source', '.'].includes(parent.name) ||
    PLAYBOOK_RUNNERS.has(parent.name) ||
    // `cmake -P <(…)` runs the file as a CMake script (execute_process runs anything).
    (parent.name === 'cmake' && argsOf(parent).includes('-P')) ||
    // `just --justfile <(…) deploy`, `make -f <(…)`: the recipes run are the download's.
    RECIPE_RUNNERS.has(parent.name)
  );
}

/** Programs that run the shell recipes of a file they are given (`just --justfile`, `make -f`, `task -t`). */
const RECIPE_RUNNERS = new Set(['just', 'make', 'gmake', 'task', 'go-task', 'rake']);

/** Programs whose file operand is a list of tasks they carry out (a playbook runs its shell tasks). */
const PLAYBOOK_RUNNERS = new Set(['ansible-playbook', 'ansible-pull']);

interface DownloadRun {
  how: string;
  /** A build or install inside a repository just cloned: often intended, so asked rather than refused. */
  fetchedProject?: boolean;
}

/** `tar xz`, `tar -x -f -`, `bsdtar -xf -`, `cpio -id`: a command that unpacks an archive it reads from its input. */
function unpacksStdin(cmd: SimpleCommand): boolean {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  if (name === 'cpio') return args.some((a) => /^-[a-zA-Z]*i/.test(a) || a === '--extract');
  if (!TARS.has(name)) return false;
  const file = tarArchive(args);
  return tarExtracts(args) && (file === undefined || file === '-');
}

const TARS = new Set(['tar', 'bsdtar', 'gtar']);

// The first word of old-style tar may be its letters without a dash (`tar xzf -`).
const oldStyleLetters = (args: readonly string[]) => (/^[a-zA-Z]+$/.test(args[0] ?? '') ? (args[0] ?? '') : '');

function tarExtracts(args: readonly string[]): boolean {
  return (
    oldStyleLetters(args).includes('x') ||
    args.some((a) => a === '--extract' || a === '--get' || /^-[a-zA-Z]*x/.test(a))
  );
}

/** The archive tar reads (`-f F`, `--file=F`, old-style `tar xzf F`), if named. */
function tarArchive(args: readonly string[]): string | undefined {
  const letters = oldStyleLetters(args);
  // Old style: each letter that takes a value takes the next word in turn; f is the archive.
  if (letters.includes('f')) return args[1 + [...letters].filter((l) => 'fCbTXLNV'.includes(l)).indexOf('f')];
  return optionValues(args, ['f'], ['file'])[0];
}

/** Where a later `tar x -f FILE` or `unzip FILE` unpacks one of the downloaded `files`. */
function unpackedDownloads(
  withCwd: { cmd: SimpleCommand; cwd: string }[],
  files: readonly string[],
  call: ToolCall,
): string[] {
  const found: string[] = [];
  for (const { cmd, cwd } of withCwd) {
    const name = cmd.name.toLowerCase();
    const args = argsOf(cmd);
    const archive =
      TARS.has(name) && tarExtracts(args)
        ? tarArchive(args)
        : name === 'unzip'
          ? parseFlags(args, ['d', 'x', 'P']).positionals[0]
          : undefined;
    if (archive === undefined || !files.includes(resolvePath(archive, cwd, call.home))) continue;
    const into = TARS.has(name) ? optionValues(args, ['C'], ['directory'])[0] : optionValues(args, ['d'], [])[0];
    const folder = into === undefined ? cwd : resolvePath(into, cwd, call.home);
    // Unpacked here, it is the folder named like the archive (tool.tar.gz → tool/), not all of here.
    const stem = archive.replace(/^.*\//, '').replace(/\.(tar\.\w+|t[gbx]z|tbz2|tar|zip)$/i, '');
    found.push(folder === cwd ? resolvePath(stem, cwd, call.home) : folder);
  }
  return found;
}

/** Where a download piped into an unpacker lands: the unpacker's -C folder, else its working folder. */
function unpackedFrom(
  commands: SimpleCommand[],
  withCwd: { cmd: SimpleCommand; cwd: string }[],
  download: SimpleCommand,
  call: ToolCall,
): string[] {
  return withCwd
    .filter(({ cmd }) => unpacksStdin(cmd) && feeds(commands, download, cmd))
    .map(({ cmd, cwd }) => resolvePath(optionValues(argsOf(cmd), ['C'], ['directory'])[0] ?? '.', cwd, call.home));
}

/** `pip install ./x`, `cargo install --path x`, `bitbake-layers add-layer ../x`: a build handed the fetched folder. */
function namesFetched(later: { cmd: SimpleCommand; cwd: string }, files: readonly string[], call: ToolCall): boolean {
  return argsOf(later.cmd).some((word) => {
    const value = word.replace(/^--?[\w-]+=/, '');
    if (value.startsWith('-') || value === '') return false;
    const path = resolvePath(value, later.cwd, call.home);
    return files.some((file) => path === file || path.startsWith(`${file}/`));
  });
}

export function downloadExecution(call: ToolCall): DownloadRun | null {
  const commands = shellCommands(call);
  const withCwd = commandsWithCwd(call);
  for (const cmd of commands) {
    const remote = urlScriptRun(cmd);
    if (remote) return { how: `a script straight from the network (${remote})` };
  }
  for (const { cmd, cwd, index } of withCwd) {
    if (!DOWNLOADERS.has(cmd.name.toLowerCase()) && !fetchesFiles(cmd)) continue;
    if (commands.some((later) => executesStdin(later) && feeds(commands, cmd, later)))
      return { how: 'a download piped into an interpreter' };
    if (commands.some((later) => readsStatementsFromStdin(later) && feeds(commands, cmd, later)))
      return { how: 'a download piped into a database client, whose statements run on the server' };
    if (runByProcessSubstitution(commands, cmd)) return { how: 'a download run through process substitution' };
    const reached = reachedBy(commands, cmd);
    if (reached.from && reached.via === 'command-substitution' && runsSubstitutedCode(reached.from))
      return { how: 'a download run through command substitution' };
    const downloaded = downloadedFiles(cmd, cwd, call);
    const files = [
      ...downloaded,
      ...unpackedFrom(commands, withCwd, cmd, call),
      ...unpackedDownloads(withCwd.slice(index + 1), downloaded, call),
    ];
    if (!files.length) continue;
    for (const later of withCwd.slice(index + 1)) {
      const run = executedFiles(later.cmd, later.cwd, call).find((path) =>
        files.some((file) => path === file || path.startsWith(`${file}/`)),
      );
      if (run) return { how: `a downloaded file (${run}) run right after the download` };
      // `git clone URL && cd x && make`: a build or install run inside the fetched folder runs its scripts.
      if (!runsProjectCode(later.cmd)) continue;
      const inside = files.some((file) => later.cwd === file || later.cwd.startsWith(`${file}/`));
      if (inside || namesFetched(later, files, call))
        return {
          how: `${evidenceOf(later.cmd.text, 40)} ${inside ? 'inside' : 'on'} the folder just fetched`,
          fetchedProject: true,
        };
    }
  }
  return null;
}

export const downloadPipedToShell = definePolicy({
  name: 'download-piped-to-shell',
  category: 'dangerous-commands',
  description:
    'Refuses running code straight from the network: curl | sh, bash <(curl …), sh -c "$(curl …)", download then run.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const run = downloadExecution(call);
    if (!run) return null;
    if (run.fetchedProject)
      return {
        decision: 'ask',
        reason: `Runs ${run.how}: its build and install scripts run with your rights before anyone has read them; approve this exact call if you trust that repository.`,
        evidence: evidenceOf(call.command ?? ''),
      };
    return {
      reason: `Runs ${run.how}: code nobody has read would execute with your rights; download it to a file, show it for review, then run it.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});

/** The URLs a downloader names all lead to this machine or the organisation's own network. */
function fetchesOnlyOwn(cmd: SimpleCommand): boolean {
  const urls = argsOf(cmd).filter((a) => /^(https?|ftp):\/\//i.test(a));
  return urls.length > 0 && urls.every((url) => onOwnNetwork(hostAndPath(url)?.host ?? ''));
}

/** A file a download (or code that fetches a URL) writes where a tool loads it by itself. */
export function downloadIntoAutoLoaded(call: ToolCall): { file: string; by: string } | null {
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    if (!DOWNLOADERS.has(cmd.name.toLowerCase()) || fetchesOnlyOwn(cmd)) continue;
    for (const file of downloadedFiles(cmd, cwd, call)) {
      const by = autoLoadedBy(file);
      if (by) return { file, by };
    }
  }
  for (const code of call.facts.code) {
    for (const file of code.fetchesInto ?? []) {
      const by = autoLoadedBy(file);
      if (by) return { file, by };
    }
  }
  return null;
}

export const downloadIntoAutoLoadedFile = definePolicy({
  name: 'download-into-auto-loaded-file',
  category: 'dangerous-commands',
  description:
    'Asks before a download lands where a tool runs it unasked: a Makefile or build script, package.json, a pytest conftest, a .pth file, a git hook, a CI workflow, a shell start-up file. Code nobody read would run with no command naming it.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const landing = downloadIntoAutoLoaded(call);
    if (!landing) return null;
    return {
      reason: `Downloads into ${landing.file}, where ${landing.by}: code nobody has read would run with your rights and no command naming it. Download it elsewhere, show it for review, then move it.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});

function decodes(cmd: SimpleCommand): boolean {
  const args = argsOf(cmd);
  switch (cmd.name.toLowerCase()) {
    case 'base64':
    case 'base32':
    case 'basenc':
      return args.some((a) => a === '--decode' || (/^-[a-zA-Z]+$/.test(a) && /[dD]/.test(a)));
    case 'xxd':
      return args.some((a) => /^-[a-zA-Z]*r/.test(a));
    case 'openssl':
      return args.includes('-d');
    case 'uudecode':
    case 'gunzip':
    case 'zcat':
    case 'rev':
      return true;
    // Text spelled as escapes (\x63\x75…) is a command nobody can read until printf or echo -e prints it.
    case 'printf':
      return args.some(spelledAsEscapes);
    case 'echo':
      return args.some((a) => /^-[a-zA-Z]*e/.test(a)) && args.some(spelledAsEscapes);
    default:
      return false;
  }
}

/** Four or more hex or octal escapes: text written so that it cannot be read as it stands. */
function spelledAsEscapes(arg: string): boolean {
  return (arg.match(/\\(x[0-9a-fA-F]{2}|[0-7]{3})/g) ?? []).length >= 4;
}

// Python's other binary-to-text decoders (base85, Ascii85, base32, base16) hide code as well as base64 does.
// Julia's and R's base64decode too.
const ENCODED_CODE =
  /(b(64|85|32|16)decode|a85decode|base64_?decode|base64\.decode|FromBase64String|decode\(['"]base64|\batob\()/i;

// Other ways code turns text nobody can read at a glance back into code: hex, rot13, character codes, a
// reversed string. Each is an everyday idiom ([::-1] reverses any list), so one counts only inside the
// call that runs code, or in what the name handed to that call was set to.
const HIDING_DECODER = new RegExp(
  [
    /bytes\.fromhex\(|binascii\.(unhexlify|a2b_hex)\(|\bhex2bin\(|FromHexString\(|\.pack\(\s*['"]H\*/.source,
    /Buffer\.from\([^()]*['"]hex['"]/.source,
    /rot_?13/.source,
    /\bintToUtf8\s*\(|\brawToChar\s*\(|String\.fromCharCode\s*(\(\s*(\.\.\.|\d+\s*,)|\.apply\b)|\.join\(\s*(map\(\s*chr\b|chr\(\w+\)\s+for\b)|\barray_map\(\s*['"]chr['"]|\bstring\.char\(\s*\d+\s*,/
      .source,
    /\[\s*::\s*-1\s*\]|\.split\(\s*(''|"")\s*\)\s*\.reverse\(\s*\)/.source,
  ].join('|'),
  'i',
);
// Node's vm module runs its argument as JavaScript too (runInThisContext, new vm.Script(…)).
const CODE_RUNNING_CALL =
  /\b(exec|eval|system|popen|spawn|execSync|Function|Invoke-Expression|iex|loadstring|load|runInThisContext|runInNewContext|runInContext|compileFunction|Script)\s*\(/gi;
/** Past this, a call's argument is cut (the decoder, when there is one, sits at its start). */
const ARGUMENT_SPAN = 2000;

/**
 * The text between the parenthesis at `open` and its match (or the span's end), stepping over string
 * literals: `exec(")'hs|…"[::-1])` has parentheses inside its string.
 */
function argumentAt(code: string, open: number): string {
  let depth = 0;
  let quote: string | undefined;
  const end = Math.min(code.length, open + ARGUMENT_SPAN);
  for (let at = open; at < end; at++) {
    const char = code[at];
    if (quote) {
      if (char === '\\') at++;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return code.slice(open + 1, at);
  }
  return code.slice(open + 1, end);
}

/**
 * Calls of a name set to a global looked up by a built name (`const run = globalThis['ev' + 'al']`):
 * code that spells eval so that no one finds it.
 */
function evalAliasCalls(code: string): RegExpMatchArray[] {
  const calls: RegExpMatchArray[] = [];
  for (const found of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*=\s*(?:globalThis|window|global|self)\s*\[/g)) {
    const from = (found.index ?? 0) + found[0].length;
    // The lookup is short; a bounded look keeps many unclosed ones linear.
    const near = code.slice(from, from + 200);
    const lookup = near.slice(0, Math.max(0, near.indexOf(']')));
    if (!lookup.includes('+') || lookup.includes('\n')) continue;
    const name = found[1]!.replace(/\$/g, '\\$');
    calls.push(...code.matchAll(new RegExp(`(?<![\\w$.])${name}\\s*\\(`, 'g')));
  }
  return calls;
}

/** Every `name = value` of the code, read in one pass (the value up to the line's end or a semicolon). */
function assignmentsOf(code: string): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [, , name, value] of code.matchAll(/(^|[^\w$.])([A-Za-z_$][\w$]*)\s*=(?!=)([^\n;]*)/g)) {
    const list = values.get(name!) ?? [];
    list.push(value!);
    values.set(name!, list);
  }
  return values;
}

/** A call that runs code whose argument decodes hex, rot13, character codes or a reversed string. */
function runsDecodedText(code: string): boolean {
  let assignments: Map<string, string[]> | undefined;
  for (const call of [...code.matchAll(CODE_RUNNING_CALL), ...evalAliasCalls(code)]) {
    const argument = argumentAt(code, (call.index ?? 0) + call[0].length - 1);
    if (HIDING_DECODER.test(argument)) return true;
    const name = /^\s*([A-Za-z_$][\w$]*)\s*(\)|,|$)/.exec(argument)?.[1];
    if (!name) continue;
    assignments ??= assignmentsOf(code);
    if (assignments.get(name)?.some((value) => HIDING_DECODER.test(value))) return true;
  }
  return false;
}

/** `Buffer.from(…, 'base64')`: each call's arguments up to its first parenthesis, looked at once. */
function decodesBufferFromBase64(code: string): boolean {
  for (const call of code.matchAll(/Buffer\.from\(/gi)) {
    const from = (call.index ?? 0) + call[0].length;
    let to = from;
    while (to < code.length && code[to] !== '(' && code[to] !== ')') to++;
    if (/['"]base64['"]/i.test(code.slice(from, to))) return true;
  }
  return false;
}
// `(0, eval)(…)` is an indirect eval: the same call, written so that `eval(` does not appear.
const EXEC_IN_CODE =
  /\b(exec|eval|system|popen|spawn|Invoke-Expression|iex|execSync|Function)\s*\(|\(\s*0\s*,\s*eval\s*\)\s*\(|\|\s*iex\b|os\.system/i;

// AppleScript running the output of a decoding shell command as a shell command.
const APPLESCRIPT_DECODED_RUN =
  /do\s+shell\s+script\s*\(\s*do\s+shell\s+script\s+"[^"]*\b(base64|xxd\s+-r|openssl\s+(enc|base64))\b/i;

export function encodedExecution(call: ToolCall): string | null {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    if (cmd.name === 'osascript' && argsOf(cmd).some((a) => APPLESCRIPT_DECODED_RUN.test(a)))
      return 'AppleScript that runs what a decoding shell command prints';
    if (decodes(cmd) && commands.some((later) => executesStdin(later) && feeds(commands, cmd, later)))
      return `${cmd.name} output piped into an interpreter`;
    if (decodes(cmd) && runByProcessSubstitution(commands, cmd))
      return `decoded ${cmd.name} output run through process substitution`;
    const reached = reachedBy(commands, cmd);
    if (decodes(cmd) && reached.from && reached.via === 'command-substitution' && runsSubstitutedCode(reached.from))
      return `decoded ${cmd.name} output run as code`;
    const kind = interpreterKind(cmd.name);
    if (kind === 'powershell' && argsOf(cmd).some((a) => /^-(e|ec|enc|encodedcommand)$/i.test(a)))
      return 'a PowerShell -EncodedCommand';
    const code = commandLineCode(cmd);
    if (code && (ENCODED_CODE.test(code) || decodesBufferFromBase64(code)) && EXEC_IN_CODE.test(code))
      return `${cmd.name} code that decodes and runs a hidden payload`;
    if (code && runsDecodedText(code)) return `${cmd.name} code that decodes and runs a hidden payload`;
  }
  return null;
}

export const encodedCommandExecution = definePolicy({
  name: 'encoded-command-execution',
  category: 'dangerous-commands',
  description:
    'Refuses running code hidden by encoding: base64 -d | sh, eval "$(… | base64 -d)", printf escapes, exec of base64, hex, rot13, character codes or a reversed string, powershell -enc.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const how = encodedExecution(call);
    if (!how) return null;
    return {
      reason: `Runs ${how}: encoding hides what will execute from review; decode it first and run the plain command if it is what you intend.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});

const LOOPBACK_TCP = /^\/dev\/(tcp|udp)\/(localhost|127\.\d+\.\d+\.\d+|::1)\//;
const SOCKET_CODE =
  /socket|fsockopen|TCPSocket|net\.connect|net\.Socket|createConnection|Sockets\.TCPClient|IO::Socket|\/inet\/tcp\//i;
const SHELL_CODE =
  /dup2|pty\.spawn|subprocess|popen|exec|system\(|spawn|\/bin\/(ba|z)?sh|cmd\.exe|proc_open|Invoke-Expression|iex|\$stdin\.reopen|child_process|getline/i;

function reverseShellSign(call: ToolCall): string | null {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    const name = cmd.name.toLowerCase();
    const args = argsOf(cmd);
    const devTcp = cmd.redirects.find((r) => /^\/dev\/(tcp|udp)\//.test(r.target));
    if (devTcp) {
      const interactive = SHELLS.has(name) && parseFlags(args).short.has('i');
      const duplicates = cmd.redirects.some((r) => r.op === '>&' || r.op === '<&' || r.op === '&>' || r.op === '<>');
      if (interactive || name === 'exec' || (duplicates && !LOOPBACK_TCP.test(devTcp.target)))
        return `a shell wired to ${devTcp.target}`;
    }
    if (NETCATS.has(name)) {
      if (name !== 'socat' && args.some((a) => /^-[a-zA-Z]*[ec]$|^--(exec|sh-exec|lua-exec)(=|$)/.test(a)))
        return `${name} handing a program to the network`;
      if (
        name === 'socat' &&
        args.some((a) => /^(exec|system):/i.test(a)) &&
        args.some((a) => /^(tcp|tcp4|tcp6|udp|openssl|ssl)[-:]/i.test(a))
      )
        return 'socat connecting a program to the network';
    }
    if (NETCATS.has(name) || (name === 'openssl' && args.includes('s_client'))) {
      const here = anchorOf(commands, cmd).pipeline;
      const shellInPipe = commands.some(
        (other) => other !== cmd && executesStdin(other) && anchorOf(commands, other).pipeline.id === here.id,
      );
      if (here.length > 1 && shellInPipe) return `a shell piped through ${name}`;
      // A named pipe looping a shell's input and output through a connection (mkfifo f; sh -i < f | nc h p > f).
      const host = parseFlags(args, ['p', 'w', 'q', 's'], []).positionals.length > 0;
      const fifo = commands.some(
        (other) => other.name === 'mkfifo' || (other.name === 'mknod' && argsOf(other).includes('p')),
      );
      const interactiveShell = commands.some(
        (other) => SHELLS.has(other.name) && parseFlags(argsOf(other)).short.has('i'),
      );
      if (host && (fifo || interactiveShell) && commands.some((other) => executesStdin(other)))
        return `a shell looped through ${name} and a named pipe`;
    }
    const code =
      inlineCode(cmd) ?? (name === 'awk' || name === 'gawk' ? args.find((a) => a.includes('/inet/tcp/')) : undefined);
    if (code && SOCKET_CODE.test(code) && SHELL_CODE.test(code))
      return `a ${cmd.name} one-liner that connects a socket to a shell`;
  }
  return null;
}

export const reverseShell = definePolicy({
  name: 'reverse-shell',
  category: 'dangerous-commands',
  description:
    'Refuses reverse shells: bash -i >& /dev/tcp/…, nc -e, ncat --exec, socat exec:, mkfifo | nc, socket one-liners in python/perl/ruby/php.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const sign = reverseShellSign(call);
    if (!sign) return null;
    return {
      reason: `Looks like a reverse shell (${sign}): it would give a remote machine control of this one; there is no ordinary development need for it.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});
