// A file the project's own tooling runs later is code the moment it is written: a Makefile's recipes
// (make), package.json's scripts (npm run, npm install), a test or conftest file (the test runner),
// setup.py (pip install .), a git hook (git commit), a script of any language, a bundler or linter
// config, a CI system's steps (a Jenkinsfile's sh steps too), a task runner's tasks, a compose file's
// commands (they run with the host folders it mounts), composer's event scripts, MSBuild's Exec and
// build events, a Nix shellHook, mise's hooks, `sh -c` handed over in a build file, a notebook's cells, a
// Dockerfile's CMD, ENTRYPOINT and ENV (what the container runs at start). Its RUN lines are not read
// as such: they run inside the image being built, where apt, sudo and `rm -rf /var/lib/apt/lists` are
// ordinary; imageBuildShell gives them to the few checks that hold there too. The written text is read as the commands or code it
// will run, so every policy judges it at write time, not only when a later call runs it. Written
// files are named by the path they land in.
import { GIT_HOOK_FILE } from './git-hook-files';
import path from 'node:path';
import { cargoConfigCommands } from '../shell/cargo-config';
import { cmdAsShell } from '../shell/cmd-script';
import { withForwardSlashes } from '../shell/paths';
import { gdbCommands, openocdCommands } from '../shell/option-hops';
import { languageOfFile } from './code';
import { ffiCommands } from './foundry-ffi';
import { elixirShellCalls, rebarHookCommands } from './beam-runs';
import { tiltfileCommands } from './tilt-runs';
import { bazelrcCommands, conanRunCommands, cronCommands, genruleCommands } from './build-tool-runs';
import { embeddedCommandLines, foreignCodeCommands, isActingCommandLine } from '../text/embedded-commands';
import { DDEV_CONFIG, DEPLOYER_RECIPE, makeRecipes, scriptsOf } from './project-runs';
import { notebookCode } from './notebooks';
import { vscodeTasks } from './vscode-tasks';
import { interpreterKind, SHELLS } from './programs';
import {
  actionsExpressionsAsShell,
  cmakeCommands,
  shellApiStrings,
  pdbrcPython,
  goGenerates,
  iniValues,
  ansibleTaskCommands,
  systemdExecLines,
  terraformCommands,
  toxSubstituted,
  jenkinsSteps,
  jsonValues,
  TAURI_HOOK_KEYS,
  justRecipes,
  mavenPluginCommands,
  msbuildCommands,
  nixShellHooks,
  pthImports,
  pyprojectTasks,
  pixiTasks,
  deployerCommands,
  envoyCommands,
  ddevHookCommands,
  snakemakeShells,
  definitionSections,
  scriptShellStrings,
  shellDashCStrings,
  taskRunnerCalls,
  yamlValues,
  lintStagedCommands,
  prismaGeneratorCommands,
} from './run-later-formats';

// A shell script's template (a release's `env.sh.eex`, an `install.sh.j2`) renders to the script that runs.
const SHELL_RUN_LATER =
  /(^|\/)(\.envrc|\.(bash_|zsh)?(profile|login|logout|rc)|\.(bash|zsh)rc|[^/]+\.(sh|bash|zsh|ksh|command)(\.(eex|erb|j2|jinja|jinja2|tmpl|tpl|in|template))?|gradlew|mvnw)$/;
/** A GitHub Actions workflow, or Gitea's and Forgejo's, which read the same files. */
/** Dockerfile, Dockerfile.dev, api.Dockerfile; not a document about one (Dockerfile.md). */
export const DOCKERFILE =
  /(^|\/)(Dockerfile|Containerfile)(\.(?!(md|txt|rst|adoc)$)[\w.-]+)?$|\.(Dockerfile|Containerfile)$/;
/** A compose file: its services' commands run in their containers. */
export const COMPOSE_FILE = /(^|\/)((docker-)?compose[^/]*\.ya?ml)$/;
export const ACTIONS_WORKFLOW = /(^|\/)\.(github|gitea|forgejo)\/workflows\/[^/]+\.ya?ml$/;
const actionsRunSteps = (text: string) => yamlValues(text, new Set(['run'])).map(actionsExpressionsAsShell);
// Kbuild files are make syntax, read by the kernel's build for an out-of-tree module.
const MAKEFILE = /(^|\/)(GNUmakefile|makefile|Makefile|Kbuild|[^/]+\.mk)$/;

/** Files of a language Warden reads that carry no extension: Ruby's Rakefile, Python's SConstruct. */
const CODE_BY_NAME: Record<string, string> = {
  Gemfile: 'ruby',
  Rakefile: 'ruby',
  Guardfile: 'ruby',
  Vagrantfile: 'ruby',
  Podfile: 'ruby',
  Fastfile: 'ruby',
  Brewfile: 'ruby',
  Dangerfile: 'ruby',
  Capfile: 'ruby',
  Berksfile: 'ruby',
  Jarfile: 'ruby',
  SConstruct: 'python',
  SConscript: 'python',
  wscript: 'python',
  Snakefile: 'python',
  Jakefile: 'javascript',
  // irb and pry load these from the project folder when a console starts there.
  '.irbrc': 'ruby',
  '.pryrc': 'ruby',
};

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);

/** Command-bearing files by name: where their commands sit. */
/** A playbook, or a role's tasks or handlers: YAML under an `ansible/` or `playbooks/` folder, or a role's. */
/** A play: a `hosts:` key and a `tasks:` key (`- hosts: all` … `tasks:`), each at the start of a line. */
function isPlaybook(content: string): boolean {
  const keys = content.split('\n').map((line) => line.trimStart().replace(/^-[ \t]+/, ''));
  return keys.some((key) => /^hosts[ \t]*:/.test(key)) && keys.some((key) => /^tasks[ \t]*:/.test(key));
}

/** A YAML file in an Ansible inventory's folders (group_vars, host_vars, inventories). */
const INVENTORY_FOLDERS = new Set(['group_vars', 'host_vars', 'inventories', 'inventory']);
function isInventoryFile(file: string): boolean {
  return (
    /\.ya?ml$/.test(file) &&
    file
      .split('/')
      .slice(0, -1)
      .some((folder) => INVENTORY_FOLDERS.has(folder))
  );
}

function isAnsibleFile(file: string): boolean {
  if (!/\.ya?ml$/.test(file)) return false;
  const folders = file.split('/').slice(0, -1);
  const role = folders.lastIndexOf('roles');
  return (
    folders.some((f) => f === 'ansible' || f === 'playbooks' || f === 'playbook') ||
    (role >= 0 && ['tasks', 'handlers'].includes(folders[role + 2] ?? '')) ||
    (file.split('/').pop() ?? '').includes('playbook')
  );
}

/** A SkyPilot task: `*.sky.yaml`, or a YAML file in a `sky`, `skypilot` or `.sky` folder. */
function isSkyPilotTask(file: string): boolean {
  if (/\.sky\.ya?ml$/.test(file)) return true;
  const folders = file.split('/').slice(0, -1);
  return (
    /\.ya?ml$/.test(file) && folders.some((folder) => folder === 'sky' || folder === 'skypilot' || folder === '.sky')
  );
}

const FORMATS: { file: Pick<RegExp, 'test'>; commands: (text: string) => string[] }[] = [
  { file: /\.ipynb$/, commands: notebookCommands },
  // A Foundry test or script runs its vm.ffi command lines on the developer's machine.
  { file: /\.sol$/, commands: ffiCommands },
  { file: DOCKERFILE, commands: dockerfileStartCommands },
  {
    file: MAKEFILE,
    // `$(shell cmd)` runs as make reads the file, whichever target is asked for; an exported variable
    // is in the environment of every recipe (GOFLAGS, LD_PRELOAD).
    commands: (text) => [...makeExports(text), ...makeRecipes(text), ...makeShellCalls(text)],
  },
  { file: /(^|\/)(justfile|Justfile|\.justfile|[^/]+\.just)$/, commands: justRecipes },
  // The CDK runs its `app` command (CDK for Terraform also its `build`) on every synth, diff and deploy.
  { file: /(^|\/)(cdk|cdktf)\.json$/, commands: (t) => jsonValues(t, keys('app', 'build')) },
  // Firebase runs each target's predeploy and postdeploy commands on every deploy.
  { file: /(^|\/)firebase\.json$/, commands: (t) => jsonValues(t, keys('predeploy', 'postdeploy'), 'lines') },
  // Tauri runs its before-dev, before-build and before-bundle commands in a shell at every `tauri dev` or build.
  {
    file: /(^|\/)tauri(\.[\w-]+)?\.conf\.json5?$/,
    commands: (t) => jsonValues(t, keys(...TAURI_HOOK_KEYS, 'script')),
  },
  // cargo-nextest's setup scripts run before the tests they are configured for.
  { file: /(^|\/)\.config\/nextest\.toml$/, commands: embeddedCommandLines },
  // lint-staged runs its config's commands at every commit (husky's pre-commit hook starts it).
  { file: /(^|\/)\.lintstagedrc(\.json)?$/, commands: lintStagedCommands },
  // `prisma generate` (run by every install's postinstall) runs each generator's provider command.
  { file: /\.prisma$/, commands: prismaGeneratorCommands },
  // Wrangler runs its [build] command on every `wrangler dev` and `wrangler deploy`.
  { file: /(^|\/)wrangler\.toml$/, commands: (t) => iniValues(t, keys('command')) },
  // The Shopify CLI runs an extension's build command and the web process's commands on every app dev,
  // build and deploy.
  { file: /(^|\/)shopify\.extension\.toml$/, commands: (t) => iniValues(t, keys('command')) },
  { file: /(^|\/)shopify\.web\.toml$/, commands: (t) => iniValues(t, keys('dev', 'build', 'predev')) },
  // Playwright starts each webServer's command before the tests; the config is code as well.
  {
    file: /(^|\/)playwright\.config\.[cm]?[jt]s$/,
    commands: (t) => [...quotedCommandValues(t), codeAsShell('typescript', t) ?? ''],
  },
  // gdb reads .gdbinit (and a command file given -x) at start: its `shell` and `python` lines run.
  { file: /(^|\/)(\.gdbinit|gdbinit|[^/]+\.gdb)$/, commands: (t) => t.split('\n').flatMap(gdbCommands) },
  // OpenOCD's config files are Tcl: an `exec` line runs a program on every debug session.
  { file: /(^|\/)(openocd[^/]*|openocd\/[^/]+)\.cfg$/, commands: openocdCommands },
  // CMake presets set the compiler launchers every configure of the preset builds with.
  {
    file: /(^|\/)CMake(User)?Presets\.json$/,
    commands: (t) => [
      // ccache's prefix command, set in a preset's environment, runs in front of every compile as a launcher does.
      ...jsonValues(t, keys('CMAKE_C_COMPILER_LAUNCHER', 'CMAKE_CXX_COMPILER_LAUNCHER', 'CCACHE_PREFIX')),
      // The compiler loads what its flags name (`-fplugin=…`, `-Xclang -load`).
      ...jsonValues(
        t,
        keys('CMAKE_C_FLAGS', 'CMAKE_CXX_FLAGS', 'CMAKE_EXE_LINKER_FLAGS', 'CMAKE_SHARED_LINKER_FLAGS'),
      ).map((flags) => `cc ${flags}`),
    ],
  },
  // A kubeconfig's credential plugin (`users[].user.exec`) runs for every request kubectl and helm make.
  {
    file: /(^|\/)(\.kube\/config|kubeconfig[\w.-]*|[\w.-]+\.kubeconfig(\.ya?ml)?)$/,
    commands: (t) => yamlValues(t, keys('command', 'args')),
  },
  // SkyPilot runs a task's `setup` and `run` blocks on every node it launches (`sky launch`, `sky jobs`, `sky serve`).
  {
    file: { test: isSkyPilotTask },
    commands: (t) => yamlValues(t, keys('setup', 'run')),
  },
  { file: ACTIONS_WORKFLOW, commands: actionsRunSteps },
  // An action's own metadata: its composite steps run wherever the action is used.
  { file: /(^|\/)action\.ya?ml$/, commands: actionsRunSteps },
  {
    file: /(^|\/)(\.gitlab-ci\.ya?ml|\.gitlab\/[^/]+\.ya?ml|bitbucket-pipelines\.ya?ml)$/,
    commands: (t) => yamlValues(t, keys('script', 'before_script', 'after_script')),
  },
  {
    file: /(^|\/)(\.travis\.ya?ml|appveyor\.ya?ml|\.appveyor\.ya?ml|azure-pipelines\.ya?ml)$/,
    commands: (t) =>
      yamlValues(
        t,
        keys(
          'script',
          'bash',
          'install',
          'before_install',
          'before_script',
          'after_script',
          'after_success',
          'before_deploy',
          'build_script',
          'test_script',
          'before_build',
          'after_build',
        ),
      ),
  },
  {
    file: /(^|\/)(\.circleci\/config\.ya?ml|\.drone\.ya?ml|\.woodpecker(\.ya?ml|\/[^/]+\.ya?ml)|\.buildkite\/[^/]+\.ya?ml|\.gitpod\.ya?ml|lefthook(-local)?\.ya?ml|\.lefthook\.ya?ml)$/,
    commands: (t) => yamlValues(t, keys('command', 'commands', 'run', 'init', 'before')),
  },
  { file: /(^|\/)[Tt]askfile(\.dist)?\.ya?ml$/, commands: (t) => yamlValues(t, keys('cmds', 'cmd')) },
  // melos runs its scripts and its command hooks (bootstrap's pre and post) in a shell.
  { file: /(^|\/)melos\.ya?ml$/, commands: (t) => yamlValues(t, keys('run', 'exec', 'pre', 'post')) },
  {
    file: COMPOSE_FILE,
    commands: (t) => yamlValues(t, keys('command', 'entrypoint')),
  },
  { file: /(^|\/)\.pre-commit-(config|hooks)\.ya?ml$/, commands: (t) => yamlValues(t, keys('entry')) },
  {
    file: /(^|\/)(\.devcontainer\/[^/]*|\.devcontainer)\.?json$|(^|\/)\.devcontainer\/[^/]+\/devcontainer\.json$/,
    commands: (t) =>
      jsonValues(
        t,
        keys(
          'initializeCommand',
          'onCreateCommand',
          'updateContentCommand',
          'postCreateCommand',
          'postStartCommand',
          'postAttachCommand',
        ),
      ),
  },
  {
    file: /(^|\/)(vercel|now|turbo|deno|project)\.jsonc?$/,
    commands: (t) =>
      jsonValues(t, keys('buildCommand', 'installCommand', 'devCommand', 'tasks', 'scripts', 'command', 'commands')),
  },
  { file: DDEV_CONFIG, commands: ddevHookCommands },
  // A Deployer recipe's tasks run their `run()` commands on every server it deploys to, `runLocally()` here.
  { file: DEPLOYER_RECIPE, commands: deployerCommands },
  { file: /(^|\/)Envoy\.blade\.php$/, commands: envoyCommands },
  // Composer runs its scripts by event name as it installs and updates.
  {
    file: /(^|\/)composer\.json$/,
    commands: (t) =>
      jsonValues(
        t,
        keys(
          'scripts',
          'pre-install-cmd',
          'post-install-cmd',
          'pre-update-cmd',
          'post-update-cmd',
          'pre-autoload-dump',
          'post-autoload-dump',
          'post-root-package-install',
          'post-create-project-cmd',
        ),
      ).map(composerScriptAsShell),
  },
  // A task runs when the person starts it, or by itself when the folder opens; Husky.Net's tasks run as git
  // hooks, in the same command-and-arguments shape.
  {
    file: /(^|\/)(\.vscode\/tasks|\.husky\/task-runner)\.json$/,
    commands: (t) => vscodeTasks(t)?.commands ?? taskFragmentCommands(t),
  },
  // CaptainHook (PHP) runs each hook's actions as commands.
  { file: /(^|\/)captainhook\.json$/, commands: (t) => jsonValues(t, keys('action')) },
  { file: /(^|\/)netlify\.toml$/, commands: (t) => iniValues(t, keys('command')) },
  // Hosting platforms run these at each deploy, on the app's own machines with its secrets: Fly's release
  // command and process commands, Render's, Railway's and a Heroku app.json's build, start and deploy steps.
  { file: /(^|\/)fly(\.[\w-]+)?\.toml$/, commands: (t) => iniValues(t, keys('release_command', 'cmd', 'entrypoint')) },
  {
    file: /(^|\/)render\.ya?ml$/,
    commands: (t) => yamlValues(t, keys('buildCommand', 'startCommand', 'preDeployCommand')),
  },
  {
    file: /(^|\/)railway\.toml$/,
    commands: (t) => iniValues(t, keys('buildCommand', 'startCommand', 'preDeployCommand')),
  },
  {
    file: /(^|\/)railway\.json$/,
    commands: (t) => jsonValues(t, keys('buildCommand', 'startCommand', 'preDeployCommand')),
  },
  { file: /(^|\/)app\.json$/, commands: (t) => jsonValues(t, keys('postdeploy', 'pr-predestroy')) },
  // pylint runs its init-hook as Python before it lints anything.
  {
    file: /(^|\/)\.?pylintrc$/,
    commands: (t) =>
      iniValues(t, keys('init-hook')).flatMap(
        (hook) => codeAsShell('python', hook.replace(/^(['"])(.*)\1$/s, '$2')) ?? [],
      ),
  },
  {
    file: /(^|\/)(tox\.ini|setup\.cfg)$/,
    commands: (t) =>
      iniValues(t, keys('commands', 'commands_pre', 'commands_post', 'install_command')).map(toxSubstituted),
  },
  { file: /(^|\/)pyproject\.toml$/, commands: pyprojectTasks },
  { file: /(^|\/)pixi\.toml$/, commands: pixiTasks },
  // pytest adds its configured addopts to every run (`--basetemp=DIR` empties DIR first).
  {
    file: /(^|\/)(pytest\.ini|\.pytest\.ini)$/,
    commands: (t) => iniValues(t, keys('addopts')).map((options) => `pytest ${options}`),
  },
  { file: /(^|\/)(Snakefile|[^/]+\.smk)$/, commands: snakemakeShells },
  // Nextflow runs a process's beforeScript and afterScript around every task it submits.
  { file: /(^|\/)nextflow\.config$|\.nf$/, commands: (t) => iniValues(t, keys('beforeScript', 'afterScript')) },
  { file: /\.def$/, commands: definitionSections },
  {
    file: /(^|\/)\.cargo\/config(\.toml)?$/,
    commands: cargoConfigCommands,
  },
  { file: /(^|\/)pom\.xml$/, commands: mavenPluginCommands },
  // Every `bazel test` (or run) of the config runs the tests through --run_under's command.
  { file: /(^|\/)\.bazelrc$/, commands: bazelrcCommands },
  { file: /(^|\/)(BUILD|BUILD\.bazel|[^/]+\.bzl)$/, commands: genruleCommands },
  // A Conan recipe is Python as well; its self.run() strings are command lines whatever they do.
  { file: /(^|\/)conanfile\.py$/, commands: (t) => [...conanRunCommands(t), codeAsShell('python', t) ?? ''] },
  // A crontab kept in the project is installed somewhere its lines then run; a cron.d file names a user.
  { file: /(^|\/)cron\.d\/[^/]+$/, commands: (t) => cronCommands(t, true) },
  { file: /(^|\/)(crontab|[^/]+\.crontab|[^/]+\.cron)$/, commands: (t) => cronCommands(t, false) },
  { file: /(^|\/)(Jenkinsfile(\.[\w-]+)?|[^/]+\.jenkinsfile)$/, commands: jenkinsSteps },
  { file: /(^|\/)(flake|shell|default|devshell)\.nix$/, commands: nixShellHooks },
  {
    file: /(^|\/)(Directory\.Build\.(props|targets)|[^/]+\.(csproj|vbproj|fsproj|proj|props|targets))$/,
    commands: msbuildCommands,
  },
  {
    file: /(^|\/)(\.?mise(\.[\w-]+)?\.toml|\.mise\/config\.toml|\.config\/mise\/config\.toml)$/,
    commands: (t) => iniValues(t, keys('enter', 'leave', 'cd', 'run', 'preinstall', 'postinstall')),
  },
  { file: /(^|\/)Procfile(\.[^/]*)?$/, commands: (t) => [...t.matchAll(/^[\w-]+:\s*(.+)$/gm)].map((m) => m[1] ?? '') },
  { file: /\.go$/, commands: (t) => [...goGenerates(t), ...shellDashCStrings(t)] },
  { file: /(^|\/)\.pdbrc(\.py)?$/, commands: (t) => [codeAsShell('python', pdbrcPython(t)) ?? ''] },
  { file: /(^|\/)CMakeLists\.txt$|\.cmake$/, commands: (t) => [...cmakeCommands(t), ...shellDashCStrings(t)] },
  // Rust is read as code (interp/rust): a build script, a test or a proc macro runs at every build.
  { file: /\.rs$/, commands: (t) => [codeAsShell('rust', t) ?? '', ...foreignCodeCommands(t)] },
  {
    file: /\.(java|kt|kts|gradle|groovy|scala|sc|cs|fs|swift|c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|zig|nim|dart|erl|hs|jl|r|R)$/,
    commands: (t) => [...shellDashCStrings(t), ...shellApiStrings(t), ...foreignCodeCommands(t)],
  },
  // Elixir: a Mix alias's `"cmd …"` step is the shell command after the task's name (not Windows' cmd).
  {
    file: /\.(ex|exs)$/,
    commands: (t) => [
      ...elixirShellCalls(t),
      ...shellDashCStrings(t),
      ...foreignCodeCommands(t).map(withoutMixCmdTask),
    ],
  },
  { file: /(^|\/)rebar\.config(\.script)?$/, commands: rebarHookCommands },
  { file: /(^|\/)Tiltfile$/, commands: (t) => [...tiltfileCommands(t), ...foreignCodeCommands(t)] },
  // Terraform's local-exec and external programs, Xcode's build phases and scheme pre- and post-actions,
  // JetBrains' run configurations.
  {
    file: /\.(tf|hcl)$/,
    commands: (t) => [...terraformCommands(t), ...embeddedCommandLines(t)],
  },
  {
    file: /\.pbxproj$|\.xcscheme$|(^|\/)\.idea\/(runConfigurations\/[^/]+|workspace)\.xml$|\.run\.xml$/,
    commands: embeddedCommandLines,
  },
  // A systemd unit's Exec lines run each time the unit starts, stops or reloads (as root for a system unit).
  { file: /\.(service|socket|timer|mount|path)$/, commands: systemdExecLines },
  // An inventory's ssh arguments go to ssh for every host Ansible reaches (a LocalCommand runs here).
  {
    file: { test: isInventoryFile },
    commands: (t) =>
      yamlValues(t, keys('ansible_ssh_common_args', 'ansible_ssh_extra_args', 'ansible_ssh_args')).map(
        (args) => `ssh ${args} inventory-host true`,
      ),
  },
  // Ansible: playbooks, and a role's tasks and handlers, run every command they hold on their hosts.
  {
    file: { test: isAnsibleFile },
    commands: (t) => [...ansibleTaskCommands(t), ...embeddedCommandLines(t)],
  },
  // Any other YAML a cluster, a CI system or a task runner reads: the steps that act, wherever they sit.
  {
    file: /\.ya?ml$/,
    commands: (t) => [
      ...yamlValues(t, keys('script', 'command', 'args', 'cmd', 'commands', 'entrypoint', 'run')).filter(
        isActingCommandLine,
      ),
      ...embeddedCommandLines(t),
    ],
  },
];

/** `cmd curl … | sh` (a Mix alias step) as the command line the `cmd` task runs. */
function withoutMixCmdTask(line: string): string {
  return line.startsWith('cmd ') ? line.slice('cmd '.length).trimStart() : line;
}

/** A notebook's code cells as the shell lines they run and its Python as one inline script (see notebooks). */
/** What a notebook (or one cell's source) runs, as shell text: its shell lines, then its Python. */
export function notebookCommands(text: string): string[] {
  const { shell, python } = notebookCode(text);
  return python.trim() ? [...shell, codeAsShell('python', python)!] : shell;
}

/** Shell words for an exec-form instruction's JSON array (`["sh", "-c", "…"]`), or undefined for shell form. */
function execForm(rest: string): string | undefined {
  if (!rest.startsWith('[')) return undefined;
  try {
    const words: unknown = JSON.parse(rest);
    if (Array.isArray(words) && words.every((w) => typeof w === 'string')) return words.map(quote).join(' ');
  } catch {
    // Not JSON: Docker runs it in a shell, as written.
  }
  return undefined;
}

/** A Dockerfile's instructions, continuation lines joined: [INSTRUCTION, the rest]. */
export function dockerfileInstructions(text: string): [string, string][] {
  const found: [string, string][] = [];
  for (const line of text.replace(/\\\r?\n/g, ' ').split('\n')) {
    const trimmed = line.trim();
    const space = trimmed.search(/[ \t]/);
    if (space > 0) found.push([trimmed.slice(0, space).toUpperCase(), trimmed.slice(space).trim()]);
  }
  return found;
}

/**
 * What a written Dockerfile's RUN lines run while its image builds, as shell text, or undefined for
 * another file. The image ships what they fetch and run, with the build's secrets and network.
 */
export function imageBuildShell(file: string, content: string): string | undefined {
  if (!DOCKERFILE.test(withForwardSlashes(file))) return undefined;
  const steps = dockerfileInstructions(content)
    .filter(([instruction]) => instruction === 'RUN')
    .map(([, rest]) => execForm(rest) ?? rest.replace(/^(--[\w-]+=\S+[ \t]+)+/, ''));
  return steps.length ? steps.join('\n') : undefined;
}

/**
 * What a container built from a Dockerfile runs when it starts (CMD, ENTRYPOINT), after the environment its
 * ENV lines set. It starts where the service runs, with that service's secrets in its environment. RUN
 * lines are left out: they run in the build.
 */
function dockerfileStartCommands(text: string): string[] {
  const commands: string[] = [];
  for (const [instruction, rest] of dockerfileInstructions(text)) {
    if (instruction === 'ENV') commands.push(`export ${rest.includes('=') ? rest : rest.replace(/[ \t]+/, '=')}`);
    else if (instruction === 'CMD' || instruction === 'ENTRYPOINT') commands.push(execForm(rest) ?? rest);
  }
  return commands;
}

const INLINE_FLAG: Record<string, string> = {
  python: 'python3 -c',
  javascript: 'node -e',
  typescript: 'node -e',
  ruby: 'ruby -e',
  perl: 'perl -e',
  php: 'php -r',
  lua: 'lua -e',
  powershell: 'pwsh -Command',
  // rust-script runs a Rust program given on its command line; a written build script or test reads as one.
  rust: 'rust-script -e',
  // Read only as far as facts/inline-unread-languages reads a one-liner: code beyond its quiet calls asks.
  r: 'Rscript -e',
  julia: 'julia -e',
  scala: 'scala -e',
  groovy: 'groovy -e',
};

/** Languages whose shell calls are also read as text (an edit's fragment of their code parses as no whole program), by the calls they use. */
const SHELL_CALLING_LANGUAGES: Readonly<Record<string, 'javascript' | 'python'>> = {
  javascript: 'javascript',
  typescript: 'javascript',
  python: 'python',
};

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `"build": "tsc -p ."` pairs in a fragment of package.json an Edit writes (not whole JSON). */
/** The strings a JavaScript config gives its `command:` keys (`webServer: { command: 'pnpm start' }`). */
function quotedCommandValues(text: string): string[] {
  return [/\bcommand\s*:\s*'([^'\n]*)'/g, /\bcommand\s*:\s*"([^"\n]*)"/g, /\bcommand\s*:\s*`([^`\n]*)`/g].flatMap(
    (pattern) => [...text.matchAll(pattern)].map((m) => m[1] ?? ''),
  );
}

function scriptFragment(text: string): string[] {
  return [...text.matchAll(/"[\w:.-]+"\s*:\s*"((?:[^"\\]|\\.)*)"/g)]
    .map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'))
    .filter((value) => /\s/.test(value));
}

/** The language a shebang names (`#!/usr/bin/env python3`), if it is one Warden reads as code or shell. */
function shebangLanguage(content: string): string | undefined {
  const first = /^#!\s*(\S+)(?:\s+(?:-S\s+)?(\S+))?/.exec(content);
  if (!first) return undefined;
  const program = path.posix.basename(
    first[1] === '/usr/bin/env' || first[1]?.endsWith('/env') ? (first[2] ?? '') : (first[1] ?? ''),
  );
  if (SHELLS.has(program)) return 'shell';
  const kind = interpreterKind(program);
  return kind === 'node' ? 'javascript' : (kind ?? undefined);
}

/** A script's code, as the shell line that would run it inline. */
export function codeAsShell(language: string, content: string): string | undefined {
  const flag = INLINE_FLAG[language];
  if (!flag) return undefined;
  const calls = Object.hasOwn(SHELL_CALLING_LANGUAGES, language) ? SHELL_CALLING_LANGUAGES[language] : undefined;
  const shellCalls = calls ? scriptShellStrings(content, calls) : [];
  return [`${flag} ${quote(content)}`, ...shellDashCStrings(content), ...shellCalls, ...taskRunnerCalls(content)].join(
    '\n',
  );
}

/** The shell text that stands for what a written file will run, or undefined for a file nothing runs. */
export function runLaterShell(filePath: string, content: string): string | undefined {
  const file = withForwardSlashes(filePath);
  const name = path.posix.basename(file);
  if (name === 'package.json') return (scriptsOf(content, 'all') ?? scriptFragment(content)).join('\n');
  // A playbook anywhere (`/tmp/quick.yml` then `ansible-playbook /tmp/quick.yml`): a play names its hosts.
  if (/\.ya?ml$/.test(file) && isPlaybook(content)) return ansibleTaskCommands(content).join('\n');
  const format = FORMATS.find((f) => f.file.test(file));
  if (format) return format.commands(content).join('\n');
  const shebang = shebangLanguage(content);
  if (SHELL_RUN_LATER.test(file) || GIT_HOOK_FILE.test(file) || shebang === 'shell') return content;
  if (/\.(cmd|bat)$/i.test(name)) return cmdAsShell(content);
  // Python runs a .pth file's import lines at every start-up.
  if (name.endsWith('.pth')) return codeAsShell('python', pthImports(content).join('\n'));
  const language =
    shebang ?? languageOfFile(file) ?? (Object.hasOwn(CODE_BY_NAME, name) ? CODE_BY_NAME[name] : undefined);
  if (name.endsWith('.gemspec')) return codeAsShell('ruby', content);
  return language ? codeAsShell(language, content) : undefined;
}

/**
 * The commands of a tasks file's fragment (an edit's text, not a whole file): `"command": "pwsh", "args":
 * [...]` is the program with its arguments; a command without arguments beside it is itself.
 */
function taskFragmentCommands(text: string): string[] {
  const paired: string[] = [];
  for (let at = text.indexOf('"command"'); at >= 0 && paired.length < 64; at = text.indexOf('"command"', at + 1)) {
    const line = commandWithArgsAt(text, at);
    if (line !== undefined) paired.push(line);
  }
  return paired.length ? paired : jsonValues(text, keys('command'));
}

/** `"command": "pwsh", "args": ["-File", "x.ps1"]` from `at`, read as the JSON object it is part of. */
function commandWithArgsAt(text: string, at: number): string | undefined {
  const argsAt = text.indexOf('"args"', at);
  const close = argsAt < 0 ? -1 : text.indexOf(']', argsAt);
  // A task's command and its arguments sit close together; farther apart, they are not one task's.
  if (argsAt < 0 || argsAt - at > 600 || close < 0 || close - argsAt > 4000) return undefined;
  let task: unknown;
  try {
    task = JSON.parse(`{${text.slice(at, close + 1)}}`);
  } catch {
    return undefined;
  }
  const { command, args } = task as { command?: unknown; args?: unknown };
  if (typeof command !== 'string' || !Array.isArray(args)) return undefined;
  return [command, ...args.filter((a): a is string => typeof a === 'string')].map((word) => quote(word)).join(' ');
}

/** A composer script as the shell runs it: `@php` and `@composer` name the binaries composer runs with. */
function composerScriptAsShell(script: string): string {
  return script.replace(/^@(php|composer)(?=\s|$)/, '$1');
}

/** make's `export NAME := value` lines as the shell's exports, the value kept literal. */
function makeExports(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const match = /^export[ \t]+([A-Za-z_]\w*)[ \t]*(?::{1,3}=|\?=|\+=|=)(.*)$/.exec(line);
    if (!match) return [];
    const value = (match[2] ?? '').trim();
    return [`export ${match[1]}='${value.replace(/'/g, `'\\''`)}'`];
  });
}

/** The commands of make's `$(shell …)` calls, up to the first `)`. */
function makeShellCalls(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('$(shell'); at >= 0; at = text.indexOf('$(shell', at + 1)) {
    const start = at + '$(shell'.length;
    if (!/\s/.test(text[start] ?? '')) continue;
    const close = closingParen(text, start);
    if (close === -1) break;
    // make expands its own `$(HOME)` before the shell sees the text.
    found.push(
      text
        .slice(start, close)
        .trim()
        .replace(/\$\((\w+)\)/g, '${$1}'),
    );
  }
  return found;
}

/** Where the parenthesis open before `from` closes (`$(shell cp $(HOME)/x y)`: nested ones counted), or -1. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}
