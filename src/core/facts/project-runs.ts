// Running the project's own code is ordinary: package manager scripts, make targets, test runners,
// `python manage.py`, `node server.js`. Unless this session wrote or changed a file that the
// command runs: then that file's content is what runs, and it is read like inline code.
import { GIT_HOOK_FILE } from './git-hook-files';
import path from 'node:path';
import { z } from 'zod';
import type { SimpleCommand } from '../shell';
import { isInside, resolvePath } from '../shell/paths';
import { argsOf, optionValues, parseFlags } from './commands';
import { languageOfFile } from './code';
import { ddevHookCommands, deployerCommands } from './run-later-formats';
import { interpreterKind, scriptArgument, SHELLS } from './programs';
import type { SessionWrites } from './session-writes';
import { inDownloads, inUnownedCacheEntry, inScratch } from './temp-dirs';

/** A file a command runs whose text is known: shell lines to analyze, or code for the code reader. */
export type RunText =
  { kind: 'shell'; file: string; lines: string[] } | { kind: 'code'; file: string; language: string; code: string };

export interface RunFileProblem {
  file: string;
  problem: string;
}

/** Reads a file the session wrote (through IoFacts); null when it cannot be read. */
export type ReadWritten = (absolute: string) => string | null;

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** DDEV's config, whose hooks run on every start; a Deployer recipe, whose tasks run on every deploy. */
export const DDEV_CONFIG = /(^|\/)\.ddev\/config(\.[\w-]+)?\.ya?ml$/;
export const DEPLOYER_RECIPE = /(^|\/)deploy\.php$/;
const MAKES = new Set(['make']);
const PY_TEST_RUNNERS = new Set(['pytest', 'py.test']);
const JS_TEST_RUNNERS = new Set(['jest', 'vitest', 'mocha', 'ava', 'playwright', 'tap']);
const RUNNER_LAUNCHERS = new Set(['npx', 'pnpx', 'bunx']);
const PYTHON_TEST_FILE = /(^|\/)(conftest\.py|test_[^/]*\.py|[^/]*_test\.py|setup\.py)$/;
/** Test files, setup files and the configs a JavaScript runner or bundler loads and runs. */
const JS_TEST_FILE = { test: isJsTestFile };
const JS_SCRIPT_EXTENSION = /\.[cm]?[jt]sx?$/;
const JS_TEST_FOLDERS = new Set(['test', 'tests', '__tests__']);

// Checked on the file name and its folder separately: one regex over the whole path backtracked
// polynomially on long names.
function isJsTestFile(path: string): boolean {
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  const extension = JS_SCRIPT_EXTENSION.exec(base)?.[0];
  if (extension === undefined) return false;
  const stem = base.slice(0, -extension.length);
  const withoutX = !extension.endsWith('x');
  const folder = slash === -1 ? '' : path.slice(path.lastIndexOf('/', slash - 1) + 1, slash);
  return (
    stem.endsWith('.test') ||
    stem.endsWith('.spec') ||
    (withoutX && stem.endsWith('.config')) ||
    (stem === '.mocharc' && /^\.[cm]?js$/.test(extension)) ||
    (withoutX && stem.includes('setup')) ||
    JS_TEST_FOLDERS.has(folder)
  );
}
/** Bundlers and dev servers that load a config file of their own. */
const JS_CONFIG_RUNNERS = new Set(['vite', 'webpack', 'rollup', 'next', 'nuxt', 'astro', 'eslint', 'parcel']);
/** Package manager commands that run the package's lifecycle scripts. */
const INSTALLS = new Set(['install', 'i', 'ci', 'add', 'rebuild']);
const LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepare'];
/** Python imports these from its path at start-up, whatever it runs. */
export const PYTHON_STARTUP = /(^|\/)(sitecustomize|usercustomize)\.py$/;

const packageJson = z.object({ scripts: z.record(z.string(), z.unknown()).optional() }).passthrough();

function shebangLanguage(text: string): string | null {
  const first = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (!first) return null;
  const program = path.posix.basename(
    first[1] === '/usr/bin/env' || first[1]?.endsWith('/env') ? (first[2] ?? '') : (first[1] ?? ''),
  );
  if (SHELLS.has(program)) return 'shell';
  const kind = interpreterKind(program);
  return kind === 'node' ? 'javascript' : kind;
}

function textOf(file: string, text: string, hint: string | null): RunText | RunFileProblem {
  const language = hint ?? languageOfFile(file) ?? shebangLanguage(text);
  if (!language) return { file, problem: `its language is unknown` };
  if (language === 'shell') return { kind: 'shell', file, lines: [text] };
  return { kind: 'code', file, language, code: text };
}

/** The npm script a package manager command runs, or null. */
function packageScriptName(cmd: SimpleCommand): string | null {
  const words = parseFlags(argsOf(cmd), ['C', 'w', 'F'], ['prefix', 'workspace', 'filter', 'dir', 'cwd']).positionals;
  const [first, second] = words;
  if (!first) return cmd.name === 'yarn' ? null : null;
  if (first === 'run' || first === 'run-script' || first === 'rum' || first === 'urn') return second ?? null;
  if (['test', 't', 'tst', 'start', 'stop', 'restart'].includes(first))
    return first === 't' || first === 'tst' ? 'test' : first;
  // `yarn build`, `pnpm build`: a bare word runs the script of that name.
  if ((cmd.name === 'yarn' || cmd.name === 'pnpm') && !['install', 'add', 'remove', 'i', 'dlx', 'exec'].includes(first))
    return first;
  return null;
}

export function scriptsOf(text: string, name: string | string[] | 'all'): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const pkg = packageJson.safeParse(parsed);
  if (!pkg.success) return null;
  const scripts = pkg.data.scripts ?? {};
  const keys =
    name === 'all' ? Object.keys(scripts) : typeof name === 'string' ? [`pre${name}`, name, `post${name}`] : name;
  return keys
    .map((key) => (Object.hasOwn(scripts, key) ? scripts[key] : undefined))
    .filter((v): v is string => typeof v === 'string');
}

// MAKEFILE_LIST and CURDIR name the makefile and its folder (the common `help:` target greps the former).
const MAKE_BUILTINS: Record<string, string> = {
  MAKE: 'make',
  CC: 'cc',
  CXX: 'c++',
  RM: 'rm -f',
  SHELL: 'sh',
  MAKEFILE_LIST: 'Makefile',
  CURDIR: '.',
};

/** Every recipe line of a Makefile, with its simple variables put in: the commands make may run. */
export function makeRecipes(text: string, env: Record<string, string> = {}): string[] {
  // make reads the environment's variables too: $(HOME) in a recipe is the home folder.
  const vars: Record<string, string> = { ...MAKE_BUILTINS, ...env };
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (const line of lines) {
    const assign = /^([A-Za-z_][\w.-]*)\s*(?::{1,3}=|\?=|=|\+=)(.*)$/.exec(line);
    if (assign && !line.startsWith('\t')) vars[assign[1] ?? ''] = (assign[2] ?? '').trim();
  }
  // A variable the Makefile does not set comes from the environment: $(HOME) is the shell's ${HOME}.
  const expand = (s: string, depth = 0): string =>
    depth > 4
      ? s
      : s.replace(/\$[({]([A-Za-z_][\w.-]*)[)}]/g, (all, name: string) =>
          Object.hasOwn(vars, name) ? expand(vars[name] ?? '', depth + 1) : /^\w+$/.test(name) ? `\${${name}}` : all,
        );
  return lines
    .filter((l) => l.startsWith('\t'))
    .map((l) =>
      expand(l.slice(1).replace(/^[@+-]+/, ''))
        .replace(/\$[@<^?*]/g, 'target')
        .replace(/\$\$/g, '$'),
    )
    .filter((l) => l.trim() !== '');
}

// Commands that make files where they are told: copies, unpacks, clones, downloads, environments.
const FILE_MAKERS = new Set([
  'mkdir',
  'cp',
  'mv',
  'install',
  'rsync',
  'ln',
  'touch',
  'tee',
  'git',
  'tar',
  'unzip',
  'curl',
  'wget',
  'virtualenv',
  'uv',
]);

/** Whether a command makes the files it names: a FILE_MAKERS program, or `python -m venv DIR`. */
function makesFiles(cmd: SimpleCommand): boolean {
  return FILE_MAKERS.has(cmd.name) || (interpreterKind(cmd.name) === 'python' && argsOf(cmd).includes('venv'));
}

/**
 * A script in a temp or downloads folder that a command runs (`bash /tmp/x.sh`, `find … -exec sh /tmp/p.sh {} +`,
 * `/tmp/x`) and that neither this session nor this command wrote: code that something else left
 * there, which nobody here has read. What the session wrote is read instead (sessionFilesRun).
 */
export function unwrittenScratchScript(
  cmd: SimpleCommand,
  before: readonly SimpleCommand[],
  cwd: string,
  call: { projectRoot: string; home: string },
  writes: SessionWrites,
): string | undefined {
  const absolute = (word: string) => resolvePath(word, cwd, call.home);
  const script = scriptArgument(cmd);
  const words = [script, cmd.argv[0]?.includes('/') ? cmd.argv[0] : undefined];
  for (const word of words) {
    if (word === undefined || cmd.dynamicWords.includes(cmd.argv.indexOf(word))) continue;
    const file = absolute(word);
    const scratch =
      inScratch(file, call.projectRoot, call.home) ||
      inUnownedCacheEntry(file, call.home) ||
      inDownloads(file, call.projectRoot, call.home);
    if (!scratch || writes.has(file)) continue;
    // Made earlier in this command (`python -m venv /tmp/v && /tmp/v/bin/pip …`, a clone, an unpack):
    // what made it is judged, and what it holds came from there.
    const made = before.some((earlier) =>
      [
        ...(makesFiles(earlier) ? argsOf(earlier) : []),
        ...earlier.redirects.filter((r) => r.op.startsWith('>')).map((r) => r.target),
      ].some((w) => {
        if (!w.startsWith('/') && !w.startsWith('~/')) return false;
        const folder = absolute(w);
        return inScratch(folder, call.projectRoot, call.home) && isInside(file, folder);
      }),
    );
    if (!made) return file;
  }
  return undefined;
}

/** `make -f - <<'EOF' … EOF`: the makefile make reads from its here-document, as the recipes it runs. */
export function stdinMakefileRun(cmd: SimpleCommand, home: string): RunText | undefined {
  if (!MAKES.has(cmd.name)) return undefined;
  const files = optionValues(argsOf(cmd), ['f'], ['file', 'makefile']);
  if (!files.some((file) => file === '-' || file === '/dev/stdin')) return undefined;
  const input = cmd.redirects.filter((r) => r.op.startsWith('<<')).pop();
  if (!input) return undefined;
  return {
    kind: 'shell',
    file: `${cmd.name}'s makefile from its input`,
    lines: makeRecipes(input.target, { HOME: home }),
  };
}

/** Files a command runs that the session wrote, with their text; and those that could not be read. */
export function sessionFilesRun(
  cmd: SimpleCommand,
  cwd: string,
  projectRoot: string,
  home: string,
  writes: SessionWrites,
  read: ReadWritten,
): { texts: RunText[]; problems: RunFileProblem[] } {
  const texts: RunText[] = [];
  const problems: RunFileProblem[] = [];
  if (!writes.list().length) return { texts, problems };
  const resolve = (p: string) => path.posix.resolve('/', cwd, p);
  const take = (file: string, toText: (text: string) => RunText | RunFileProblem | null) => {
    if (!writes.has(file)) return;
    const text = read(file);
    if (text === null) return problems.push({ file, problem: 'it cannot be read' });
    const result = toText(text);
    if (result && 'problem' in result) problems.push(result);
    else if (result) texts.push(result);
  };
  const name = cmd.name;
  const kind = interpreterKind(name);
  const script = scriptArgument(cmd);
  if (script !== undefined && !cmd.dynamicWords.includes(cmd.argv.indexOf(script))) {
    const hint =
      SHELLS.has(name) || name === 'source' || name === '.' ? 'shell' : kind === 'node' ? 'javascript' : kind;
    take(resolve(script), (text) => textOf(resolve(script), text, hint));
  }
  if (cmd.argv[0]?.includes('/')) take(resolve(cmd.argv[0]), (text) => textOf(resolve(cmd.argv[0] ?? ''), text, null));
  if (PACKAGE_MANAGERS.has(name)) {
    const first = parseFlags(argsOf(cmd)).positionals[0];
    const scriptName: string | string[] | null =
      first === undefined || INSTALLS.has(first) ? LIFECYCLE : packageScriptName(cmd);
    // `npm --prefix web/theme run build`, `pnpm -C web/theme build`: the package.json of that folder.
    const prefix = optionValues(argsOf(cmd), ['C'], ['prefix', 'dir', 'cwd'])[0];
    if (scriptName)
      for (const dir of new Set([...(prefix !== undefined ? [resolve(prefix)] : []), cwd, projectRoot])) {
        const file = path.posix.join(dir, 'package.json');
        take(file, (text) => {
          const lines = scriptsOf(text, scriptName);
          return lines ? { kind: 'shell', file, lines } : { file, problem: 'its scripts cannot be read' };
        });
      }
  }
  if (MAKES.has(name)) {
    const dir = optionValues(argsOf(cmd), ['C'], ['directory'])[0];
    const base = dir ? resolve(dir) : cwd;
    const named = optionValues(argsOf(cmd), ['f'], ['file', 'makefile']).map((f) => path.posix.resolve(base, f));
    for (const file of named.length
      ? named
      : ['GNUmakefile', 'makefile', 'Makefile'].map((f) => path.posix.join(base, f)))
      take(file, (text) => ({ kind: 'shell', file, lines: makeRecipes(text, { HOME: home }) }));
  }
  const runner = RUNNER_LAUNCHERS.has(name) ? (parseFlags(argsOf(cmd)).positionals[0] ?? '') : name;
  // `npx tsc` runs node_modules/.bin/tsc.
  if (RUNNER_LAUNCHERS.has(name) && /^[\w@.-][\w@./-]*$/.test(runner))
    for (const dir of new Set([cwd, projectRoot])) {
      const bin = path.posix.join(dir, 'node_modules', '.bin', runner.split('/').pop() ?? runner);
      take(bin, (text) => textOf(bin, text, 'shell'));
    }
  const inProject = (file: string) => file.startsWith(`${projectRoot}/`) || file.startsWith(`${cwd}/`);
  const screenWritten = (pattern: RegExp, hint: string | null = null) => {
    for (const file of writes.list())
      if (pattern.test(file) && inProject(file)) take(file, (text) => textOf(file, text, hint));
  };
  if (kind === 'python') {
    screenWritten(PYTHON_STARTUP);
    // `python manage.py seed` runs app/management/commands/seed.py.
    const [script, sub] = parseFlags(argsOf(cmd), ['m', 'W', 'X']).positionals;
    if (script?.endsWith('manage.py') && sub && /^[\w-]+$/.test(sub))
      screenWritten(new RegExp(`/management/commands/${sub}\\.py$`));
    if (script?.endsWith('setup.py')) take(resolve(script), (text) => textOf(resolve(script), text, 'python'));
  }
  if (
    (name === 'pip' || name === 'pip3' || (kind === 'python' && optionValues(argsOf(cmd), ['m'], [])[0] === 'pip')) &&
    argsOf(cmd).includes('install')
  ) {
    const local = parseFlags(
      argsOf(cmd),
      ['e', 'r', 'c'],
      ['editable', 'requirement', 'constraint'],
    ).positionals.concat(optionValues(argsOf(cmd), ['e'], ['editable']));
    for (const target of local)
      if (target === '.' || target.startsWith('./') || target.startsWith('/'))
        take(path.posix.join(resolve(target), 'setup.py'), (text) => textOf('setup.py', text, 'python'));
  }
  if (
    name === 'git' &&
    argsOf(cmd).some((a) => a === 'commit' || a === 'push' || a === 'merge' || a === 'rebase' || a === 'checkout')
  )
    screenWritten(GIT_HOOK_FILE, 'shell');
  if (name === 'go' && argsOf(cmd).includes('generate'))
    for (const file of writes.list())
      if (file.endsWith('.go') && inProject(file))
        take(file, (text) => ({
          kind: 'shell',
          file,
          lines: [...text.matchAll(/^\/\/go:generate (.+)$/gm)].map((m) => m[1] ?? ''),
        }));
  const ddevStart = name === 'ddev' && ['start', 'restart'].includes(argsOf(cmd)[0] ?? '');
  if (ddevStart || (name === 'dep' && argsOf(cmd).some((a) => /^deploy(:|$)/.test(a))))
    for (const file of writes.list())
      if (inProject(file) && (ddevStart ? DDEV_CONFIG : DEPLOYER_RECIPE).test(file))
        take(file, (text) => ({
          kind: 'shell',
          file,
          lines: ddevStart ? ddevHookCommands(text) : deployerCommands(text),
        }));
  if (name === 'cargo' && argsOf(cmd).some((a) => ['build', 'run', 'test', 'check', 'install'].includes(a)))
    screenWritten(/(^|\/)build\.rs$/);
  if (JS_CONFIG_RUNNERS.has(runner) || (PACKAGE_MANAGERS.has(name) && packageScriptName(cmd) !== null))
    screenWritten(/(^|\/)[^/]*\.config\.[cm]?[jt]s$/);
  const pythonModule = kind === 'python' ? optionValues(argsOf(cmd), ['m'], [])[0] : undefined;
  const testFiles =
    PY_TEST_RUNNERS.has(runner) || pythonModule === 'pytest' || pythonModule === 'unittest'
      ? PYTHON_TEST_FILE
      : JS_TEST_RUNNERS.has(runner) || (PACKAGE_MANAGERS.has(name) && packageScriptName(cmd) === 'test')
        ? JS_TEST_FILE
        : null;
  if (testFiles)
    for (const file of writes.list())
      if (testFiles.test(file) && (file.startsWith(`${projectRoot}/`) || file.startsWith(`${cwd}/`)))
        take(file, (text) => textOf(file, text, null));
  return { texts, problems };
}
