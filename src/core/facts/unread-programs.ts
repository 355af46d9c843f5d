// Programs that run code Warden has no reader for: a makefile or Tcl script from stdin or an
// option, Emacs Lisp, an editor's Python or Lua, a shared library loaded into a process, every
// file of a folder, an ssh config that may carry its own ProxyCommand. Each is judged as unread
// code (a person decides), naming what could not be read. Cases and near misses sit in
// test/core/facts/unread.test.ts.
import { posix } from 'node:path';
import type { SimpleCommand } from '../shell';
import { argsOf, evidenceOf, optionValues } from './commands';
import { unreadInlineCode } from './inline-unread-languages';
import { unreadBeamCode } from './beam-code';
import { TAURI_HOOK_KEYS } from './run-later-formats';
import { NIX_PROGRAMS, railsArguments } from './programs';
import { JVM_OPTION_VARIABLES } from '../shell/option-hops';
import { dbusCallOf, dbusRunsCode } from './dbus';

// Ex commands that run another language's code: :python, :py3, :pyx, :lua, :perl, :ruby, :tcl, their
// -do and -file forms, and :source of a script.
const EX_CODE = /^(py(thon)?3?|pyx|pythonx|lua|perl|ruby|rub|tcl|(py3?|lua|perl|ruby|tcl)(do|file)|so(urce)?)\b/;
const VIM = new Set(['vim', 'vi', 'nvim', 'ex', 'view', 'vimdiff', 'rvim', 'rview']);
// CUDA's driver loads an injection library (a profiler's, or anyone's) into every CUDA process. `xcrun
// simctl launch` hands its SIMCTL_CHILD_ variables to the app it starts, without the prefix.
const LIBRARY_VARIABLES =
  /^(?:SIMCTL_CHILD_)?(LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|CUDA_INJECTION(64|32)_PATH)=/;
// NCCL dlopens the network, tuner and profiler plugin these name into every rank of a job. A bare name
// (`aws-ofi`) is looked up on the system's library path; a path is a file someone put there.
const NCCL_PLUGIN_PATH = /^(NCCL_NET_PLUGIN|NCCL_TUNER_PLUGIN|NCCL_PROFILER_PLUGIN)=[^=]*\//;
// Libraries the package manager installed (root's folders): preloading the distro's tcmalloc or jemalloc
// loads nothing an agent could have written.
const SYSTEM_LIBRARY = /^\/(usr\/)?lib(32|64|x32)?\/[^\s:]+$/;

// NODE_OPTIONS that load a file into every Node process the command starts (a package name such as
// dotenv/config or ts-node/register is the project's own dependency); PERL5OPT that loads a module
// or the debugger, whose PERL5DB is Perl code.
const NODE_LOADS_FILE =
  /(?:^|\s)(?:--require|-r|--import|--loader|--experimental-loader)(?:=|\s+)['"]?(?:\/|\.{1,2}\/|~|data:)/;
const PERL_LOADS = /(?:^|\s)-(?:d|M|m)/;

/**
 * Variables other runtimes read at start-up to load code into every process of theirs the command
 * starts: a Ruby library by path (`-rbundler/setup` names the project's own gem), a Java agent (not
 * the debugger's jdwp), a .NET startup hook, Erlang code given to `-eval` or `-s`.
 */
const LOADING_VARIABLES: { names: readonly string[]; loads: RegExp; what: string }[] = [
  { names: ['RUBYOPT'], loads: /(?:^|\s)-r\s*['"]?(?:\/|\.{1,2}\/|~)/, what: 'every Ruby' },
  {
    names: JVM_OPTION_VARIABLES,
    loads: /(?:^|\s)-(?:javaagent:|agentpath:|agentlib:(?!jdwp))/,
    what: 'every Java virtual machine',
  },
  { names: ['DOTNET_STARTUP_HOOKS', 'CORECLR_PROFILER_PATH'], loads: /\S/, what: 'every .NET process' },
  {
    names: ['ERL_AFLAGS', 'ERL_ZFLAGS', 'ERL_FLAGS', 'ELIXIR_ERL_OPTIONS'],
    loads: /(?:^|\s)-(?:eval|s|run)(?:\s|$)/,
    what: 'every Erlang or Elixir node',
  },
];

function variableCode(assignments: Record<string, string | undefined>): string | null {
  for (const { names, loads, what } of LOADING_VARIABLES)
    for (const name of names) {
      const value = assignments[name];
      if (value !== undefined && loads.test(value))
        return `${name}=${evidenceOf(value, 60)} loads code into ${what} the command starts`;
    }
  // npm and pnpm hand their node-options setting (npm_config_node_options) to every script's Node as NODE_OPTIONS.
  for (const name of ['NODE_OPTIONS', 'npm_config_node_options', 'NPM_CONFIG_NODE_OPTIONS']) {
    const node = assignments[name];
    if (node !== undefined && NODE_LOADS_FILE.test(node))
      return `${name}=${evidenceOf(node, 60)} loads a file or inline code into every Node process the command starts`;
  }
  const perl = assignments['PERL5OPT'];
  if (perl !== undefined && PERL_LOADS.test(perl))
    return `PERL5OPT=${evidenceOf(perl, 60)} loads code into every Perl the command starts`;
  if (assignments['PERL5DB'] !== undefined) return 'PERL5DB is Perl code the debugger runs';
  return null;
}

// Options that set the environment of what a program starts, as NAME=VALUE (`docker run --env=…`),
// Slurm's as a comma-separated list (`sbatch --export=ALL,LD_PRELOAD=…`), Bazel's for its actions and tests.
const ENVIRONMENT_OPTION = /^--(?:env|export|set-env|setenv|action_env|host_action_env|repo_env|test_env)=/;

/** A word, and when it is an environment option, each NAME=VALUE it sets. */
function exportedWords(word: string): string[] {
  if (!ENVIRONMENT_OPTION.test(word)) return [word];
  const value = word.slice(word.indexOf('=') + 1);
  return [word, value, ...value.split(',')];
}

// A temporary, downloads or upload folder holds no project code: a test runner's setup file, a build's init
// script, a module or library path there is code nobody here has read, loaded into the project's tools.
// A hidden folder or file inside the home's cache (~/.cache/.x/run.sh) is where nothing a tool keeps is named.
const TEMP_PATH =
  /^(\/tmp|\/var\/tmp|\/dev\/shm|\/private\/tmp|\/private\/var\/folders)\/|^(~|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+)\/(Downloads\/|\.cache\/([^/]+\/)*\.[^/.])/;

/** What variables set as in a `.env` file make a program load from a temporary, downloads or upload folder, or null. */
export function variablesLoadFromTemp(assignments: Record<string, string | undefined>): string | null {
  return tempFolderCode('', [], assignments);
}

// A Windows profile's temporary and downloads folders, and the system's own, in either slash; from WSL
// (`/mnt/c/Users/…`) and Git Bash (`/c/Users/…`) too.
const WINDOWS_TEMP_PATH =
  /^(?:[A-Za-z]:|\/mnt\/[a-z]|\/[a-z])[\\/](Users[\\/][^\\/]+[\\/](AppData[\\/]Local[\\/]Temp|Downloads)|Windows[\\/]Temp)[\\/]/i;

// MSBuild properties that name a props or targets file every project imports, and its logger switch.
const MSBUILD_IMPORT_PROPERTY =
  /^(?:-|\/|--)(?:p|property):(CustomBeforeMicrosoftCommon(?:Targets|Props)|CustomAfterMicrosoftCommon(?:Targets|Props)|DirectoryBuild(?:Props|Targets)Path|MSBuildExtensionsPath\w*|RoslynTargetsPath)=(.*)$/i;
const MSBUILD_LOGGER = /^(?:-|\/|--)(?:logger|l|distributedlogger|dl):(.*)$/i;

/** `dotnet build -p:CustomBeforeMicrosoftCommonTargets=…`, `-logger:X,C:/…/x.dll`: MSBuild loads that file from a temporary, downloads or upload folder. */
function msbuildLoadsFromTemp(name: string, args: readonly string[]): string | null {
  if (!/^(dotnet|msbuild)(\.exe)?$/i.test(name.replace(/^.*[\\/]/, ''))) return null;
  for (const word of args) {
    const property = MSBUILD_IMPORT_PROPERTY.exec(word);
    if (property && inForeignFolder(property[2] ?? ''))
      return `${property[1]}=${evidenceOf(property[2] ?? '', 60)} makes MSBuild import a file from a temporary, downloads or upload folder into every project`;
    const logger = MSBUILD_LOGGER.exec(word)?.[1];
    if (logger !== undefined && logger.split(/[,;]/).some((part) => inForeignFolder(part.replace(/^["']|["']$/g, ''))))
      return `${evidenceOf(word, 60)} loads a logger assembly from a temporary, downloads or upload folder into MSBuild`;
  }
  return null;
}

// A web application's folder of visitors' uploads (Laravel's public disk, WordPress's uploads): whatever
// is there came from the site's visitors, and a tool loading code from it runs what they sent.
const UPLOAD_FOLDER =
  /(^|\/)(storage\/app\/public|public\/storage|wp-content\/uploads|web\/app\/uploads|public\/uploads)\//;

/** Whether a path lies in a temporary, downloads or upload folder, where no project code lives. */
export function inForeignFolder(path: string): boolean {
  const plain = withoutDotSegments(path);
  return TEMP_PATH.test(plain) || WINDOWS_TEMP_PATH.test(path) || UPLOAD_FOLDER.test(plain);
}

/**
 * `~/./Downloads/x`, `~//Downloads/x`, `/tmp/../tmp/x` as the folders they name. The home folder stands
 * for one under /home, so `~/../dev/Downloads` is /home/dev/Downloads, a downloads folder either way.
 */
function withoutDotSegments(path: string): string {
  if (!path.includes('/.') && !path.includes('//')) return path;
  const rooted = path.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, '/home/~');
  return rooted.startsWith('/') ? posix.normalize(rooted) : path;
}
/** Options of test runners and build tools whose value is code they load first. */
const CODE_OPTIONS: { programs: readonly string[]; short: string[]; long: string[] }[] = [
  // rake loads every .rake file of a --rakelib folder, a --rakefile, and --require'd libraries.
  { programs: ['rake'], short: ['R', 'f', 'r', 'I'], long: ['rakelib', 'rakefile', 'require', 'libdir'] },
  { programs: ['rubocop'], short: [], long: ['require', 'plugin'] },
  {
    programs: ['jest', 'vitest'],
    short: [],
    long: [
      'setupFiles',
      'setupFilesAfterEnv',
      'globalSetup',
      'globalTeardown',
      'testEnvironment',
      'setup-files',
      'globalsetup',
    ],
  },
  { programs: ['mocha'], short: ['r'], long: ['require', 'file'] },
  // PHP's test and analysis tools include a bootstrap or autoload file, and read a config that names more.
  { programs: ['phpunit', 'pest', 'paratest', 'psalm'], short: ['c'], long: ['bootstrap', 'configuration', 'config'] },
  { programs: ['phpstan', 'rector'], short: ['a', 'c'], long: ['autoload-file', 'configuration', 'config'] },
  // JavaScript build and test tools import their config file as a module: code, run at every build.
  {
    programs: ['vite', 'vitest', 'rollup', 'webpack', 'webpack-cli', 'jest', 'playwright', 'eslint', 'astro', 'tsup'],
    short: ['c'],
    long: ['config', 'config-file', 'configFile'],
  },
  // Storybook imports the main.js of its config folder.
  {
    programs: ['storybook', 'start-storybook', 'build-storybook'],
    short: ['c'],
    long: ['config-dir'],
  },
  // The compiler a security scanner runs, the interpreter uv runs the project with, Hardhat's config module.
  { programs: ['slither', 'crytic-compile', 'echidna', 'echidna-test', 'medusa'], short: [], long: ['solc'] },
  { programs: ['uv', 'uvx'], short: ['p'], long: ['python'] },
  // gunicorn's config is Python it runs at start-up (server hooks too); celery imports its -A app from
  // --workdir, uvicorn from --app-dir; Django's --pythonpath puts a folder first on the import path.
  { programs: ['gunicorn'], short: ['c'], long: ['config'] },
  // VS Code (and its forks) runs an extension in development from that folder, with the editor's full rights.
  {
    programs: ['code', 'code-insiders', 'cursor', 'codium', 'windsurf'],
    short: [],
    long: ['extensionDevelopmentPath'],
  },
  { programs: ['celery'], short: [], long: ['workdir'] },
  { programs: ['uvicorn'], short: [], long: ['app-dir'] },
  { programs: ['python', 'python3', 'manage.py', 'django-admin'], short: [], long: ['pythonpath'] },
  // Dart resolves every import through a --packages config: one elsewhere maps them to code nobody read.
  { programs: ['dart', 'flutter'], short: [], long: ['packages'] },
  { programs: ['hardhat'], short: [], long: ['config'] },
  // Blender runs each --python script in its embedded Python; clang-tidy dlopens a --load plugin; vcpkg
  // runs the portfiles (CMake scripts) of overlay ports and triplets.
  { programs: ['blender'], short: ['P'], long: ['python'] },
  { programs: ['clang-tidy', 'clang-query', 'clangd'], short: [], long: ['load'] },
  // nvcc runs the host compiler -ccbin names; Triton dlopens every backend and repository agent it finds
  // in these folders.
  { programs: ['nvcc'], short: [], long: ['ccbin', 'compiler-bindir'] },
  { programs: ['tritonserver'], short: [], long: ['backend-directory', 'repoagent-directory'] },
  { programs: ['vcpkg'], short: [], long: ['overlay-ports', 'overlay-triplets'] },
  // Jupyter's and IPython's config files are Python they run first; Slurm runs a prolog before the step.
  {
    programs: ['jupyter', 'jupyter-nbconvert', 'jupyter-lab', 'jupyter-notebook', 'jupyter-execute', 'ipython'],
    short: [],
    long: ['config'],
  },
  { programs: ['srun', 'salloc', 'sbatch'], short: [], long: ['prolog', 'epilog', 'task-prolog', 'task-epilog'] },
  // The database shells' start-up scripts (`-init FILE`) run dot-commands, .shell among them.
  { programs: ['duckdb', 'sqlite3'], short: [], long: ['init'] },
  {
    programs: ['node', 'tsx', 'ts-node', 'bun', 'deno'],
    short: ['r'],
    long: ['require', 'import', 'loader', 'experimental-loader', 'preload'],
  },
  // Gradle runs an init script, and an included build's settings and plugins, as part of the build.
  { programs: ['gradle', 'gradlew', './gradlew'], short: ['I'], long: ['init-script', 'include-build'] },
  // javac runs the annotation processors it finds on the processor path; JShell its start-up snippets; a
  // kubeconfig can name a credential plugin kubectl and helm run for any request.
  { programs: ['javac'], short: [], long: ['processorpath', 'processor-path', 'processor-module-path'] },
  { programs: ['jshell'], short: [], long: ['startup'] },
  // go vet's analysis driver, the wrapper every build tool runs through, the program test binaries run under.
  { programs: ['go'], short: [], long: ['vettool', 'toolexec', 'exec'] },
  // A Pulumi policy pack is a program the engine runs over every preview and update.
  { programs: ['pulumi'], short: [], long: ['policy-pack'] },
  // buf's template, a file or inline JSON, names the plugin programs `buf generate` runs (`"local": "/tmp/…"`).
  { programs: ['buf'], short: [], long: ['template'] },
  { programs: ['kubectl', 'helm', 'oc', 'k9s'], short: [], long: ['kubeconfig'] },
  { programs: ['eslint'], short: [], long: ['rulesdir', 'resolve-plugins-relative-to'] },
  // EF's tools build and run the startup project to make the DbContext.
  { programs: ['dotnet'], short: [], long: ['test-adapter-path', 'startup-project', 'additional-deps'] },
  { programs: ['ansible-playbook', 'ansible', 'ansible-vault'], short: [], long: ['vault-password-file'] },
  { programs: ['rspec', 'rake', 'ruby', 'bundle'], short: ['r'], long: ['require'] },
  // Julia's start-up file, bitbake's extra configuration (inline Python runs as it is parsed), pyOCD's script.
  { programs: ['julia'], short: ['L'], long: ['load'] },
  // Vim's and Neovim's start-up file (-u, Vimscript or Lua) and a session file (-S) run as they load.
  { programs: ['nvim', 'vim', 'vi', 'gvim', 'view'], short: ['u', 'S'], long: [] },
  // chezmoi's source folder: its run_ scripts run and its files are written into home at the next apply.
  { programs: ['chezmoi'], short: ['S'], long: ['source'] },
  { programs: ['bitbake'], short: ['r', 'R'], long: ['read', 'postread'] },
  { programs: ['pyocd'], short: [], long: ['script'] },
  // A Fly deploy config names the image, its build and the release command run in production; zellij's
  // layouts and config start commands in panes; cargo's config (also inline, `--config 'build.rustc-wrapper=…'`)
  // names runners, wrappers and linkers, nextest's setup scripts, and a manifest elsewhere is another crate.
  { programs: ['fly', 'flyctl'], short: ['c'], long: ['config'] },
  // A pnpmfile's hooks run at every resolution; wrangler runs its config's [build] command; prisma runs the
  // schema's generator providers; prettier imports its plugins; Playwright its reporters.
  { programs: ['pnpm'], short: [], long: ['pnpmfile', 'global-pnpmfile'] },
  { programs: ['wrangler'], short: ['c'], long: ['config'] },
  { programs: ['prisma'], short: [], long: ['schema'] },
  { programs: ['prettier'], short: [], long: ['plugin', 'config'] },
  { programs: ['playwright'], short: [], long: ['reporter'] },
  { programs: ['zellij'], short: ['l', 'c'], long: ['layout', 'config', 'config-dir', 'new-session-with-layout'] },
  {
    programs: ['cargo', 'cargo-nextest'],
    short: [],
    long: ['config', 'config-file', 'tool-config-file', 'manifest-path'],
  },
  // Spark ships these to the driver and every executor, and runs them there.
  {
    programs: ['spark-submit', 'pyspark', 'spark-shell', 'spark-sql'],
    short: [],
    long: ['py-files', 'jars', 'archives', 'driver-class-path', 'driver-library-path'],
  },
];
const MODULE_PATH_VARIABLES = [
  ...['PYTHONPATH', 'NODE_PATH', 'RUBYLIB', 'PERL5LIB', 'PERLLIB', 'CLASSPATH'],
  // The dynamic linker looks there first for every shared library (libcuda, libssl).
  'LD_LIBRARY_PATH',
  // R's and Julia's package paths, and Environment Modules' modulefiles (Tcl or Lua that `module load` runs).
  ...['R_LIBS', 'R_LIBS_USER', 'JULIA_LOAD_PATH', 'MODULEPATH'],
  // Airflow imports every module of its plugins and DAGs folders, in the CLI as in the scheduler.
  ...['AIRFLOW__CORE__PLUGINS_FOLDER', 'AIRFLOW__CORE__DAGS_FOLDER'],
];
/**
 * Variables naming the manifest, config or compiler a tool takes instead of the project's: in a temporary
 * folder, a Gemfile, composer.json or mix.exs with its own scripts and sources, or a compiler, nobody read.
 */
const TOOL_FILE_VARIABLES = [
  ...['BUNDLE_GEMFILE', 'COMPOSER', 'MIX_EXS', 'TF_CLI_CONFIG_FILE', 'NPM_CONFIG_USERCONFIG', 'PIP_CONFIG_FILE'],
  // rebar3's config (its pre- and post-hooks run shell commands), and the binaries the tailwind and esbuild mix tasks run.
  ...['REBAR_CONFIG', 'REBAR_GLOBAL_CONFIG_DIR', 'MIX_TAILWIND_PATH', 'MIX_ESBUILD_PATH', 'MIX_BUN_PATH'],
  // The Erlang VM's code path (every application folder under it loads first) and Mix's archives.
  ...['ERL_LIBS', 'MIX_ARCHIVES'],
  ...['SWIFT_EXEC', 'CC', 'CXX', 'LD', 'RUSTC_WRAPPER', 'RUSTC'],
  // A kubeconfig can name a credential plugin that kubectl and helm run for any request.
  'KUBECONFIG',
  // PHP's extra ini folder and its ini file (`auto_prepend_file` runs a file before every script), and the
  // compose files Laravel Sail starts its containers from.
  ...['PHP_INI_SCAN_DIR', 'PHPRC', 'SAIL_FILES'],
  // The Xcode whose compilers, linker and signing tools xcodebuild and xcrun use.
  'DEVELOPER_DIR',
  // The Electron build the electron package starts instead of its own (`electron .`, electron-vite dev).
  'ELECTRON_OVERRIDE_DIST_PATH',
  // Cargo's compiler, rustdoc and wrappers, its home (config.toml and registries), and the pkg-config build scripts run.
  ...['CARGO_BUILD_RUSTC', 'CARGO_BUILD_RUSTC_WRAPPER', 'CARGO_BUILD_RUSTDOC', 'RUSTDOC', 'CARGO_HOME', 'PKG_CONFIG'],
  // Prisma's engines are native code it loads or runs (with the database's credentials at hand).
  ...['PRISMA_QUERY_ENGINE_LIBRARY', 'PRISMA_QUERY_ENGINE_BINARY', 'PRISMA_SCHEMA_ENGINE_BINARY'],
  // Start-up files of database clients and the cloud CLIs' own config (a credential_process runs).
  ...['PSQLRC', 'MYSQL_HOME', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE'],
  // Python runs this file first in every interactive session (`python -i` makes any run one); R runs
  // its profiles at every start.
  ...['PYTHONSTARTUP', 'R_PROFILE_USER', 'R_PROFILE'],
  // The Python that runs PySpark's driver and workers.
  ...['PYSPARK_PYTHON', 'PYSPARK_DRIVER_PYTHON'],
  // The JDK a build or a JVM tool runs on, and the homes Gradle and Maven load their init scripts and extensions from.
  ...['JAVA_HOME', 'JDK_HOME', 'GRADLE_USER_HOME', 'GRADLE_HOME', 'MAVEN_HOME', 'M2_HOME'],
  // NuGet's credential providers (programs handed the feed credentials), MSBuild's SDKs and itself, the
  // .NET runtime, and the folders PowerShell imports modules from.
  ...['NUGET_PLUGIN_PATHS', 'MSBuildSDKsPath', 'MSBUILD_EXE_PATH', 'DOTNET_ROOT', 'DOTNET_HOST_PATH', 'PSModulePath'],
  // The protobuf compiler prost's and tonic's build scripts run, cargo's workspace wrapper, the toolchain
  // rustup runs (a path is a custom toolchain) and where it keeps them.
  ...['PROTOC', 'RUSTC_WORKSPACE_WRAPPER', 'CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER', 'RUSTUP_TOOLCHAIN', 'RUSTUP_HOME'],
  // direnv sources direnvrc and lib/*.sh from its config folder before any .envrc; Nix reads nix.conf (its
  // build hooks among the settings) from these; zellij's config and layouts start commands in panes.
  ...['DIRENV_CONFIG', 'NIX_CONF_DIR', 'NIX_USER_CONF_FILES', 'ZELLIJ_CONFIG_FILE', 'ZELLIJ_CONFIG_DIR'],
  // ESP-IDF's idf.py imports every Python file of these folders as an extension of its own commands.
  'IDF_EXTRA_ACTIONS_PATH',
];
// Cargo's per-target runner (every `cargo run` and `cargo test` binary starts under it) and linker.
const CARGO_TARGET_PROGRAM = /^CARGO_TARGET_[A-Z0-9_]+_(?:RUNNER|LINKER)$/;
// Build settings given as KEY=VALUE words (xcodebuild CC=…, make CXX=…, make's recipe shell SHELL=…), Maven's extension class path,
// CMake's compilers and compiler launchers (-DCMAKE_C_COMPILER_LAUNCHER=…), pyOCD's user script,
// CMake scripts and Zephyr modules a configure runs (-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=…,
// -DZEPHYR_EXTRA_MODULES=…), and PlatformIO's extra scripts (`-O extra_scripts=pre:…`).
// Spark's jars and Python files for the job (`--conf spark.jars=…`), and librdkafka's plugins (kcat's
// `-X plugin.library.paths=…`), shared libraries it loads. electron-builder's `-c.afterSign=…` and other
// hooks it require()s while it builds and signs, and the Electron it packages (`-c.electronDist=…`).
const SETTING_WORD =
  /^(CC|CXX|LD|LDPLUSPLUS|SWIFT_EXEC|SHELL|MAKESHELL|maven\.ext\.class\.path|-Dmaven\.ext\.class\.path|-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES|-DCMAKE_PROJECT_INCLUDE|-DCMAKE_PROJECT_INCLUDE_BEFORE|-DCMAKE_TOOLCHAIN_FILE|-DCMAKE_[A-Za-z]+_COMPILER|-DCMAKE_[A-Za-z]+_COMPILER_LAUNCHER|-DZEPHYR_EXTRA_MODULES|-DEXTRA_ZEPHYR_MODULES|extra_scripts|user_script|spark\.jars|spark\.submit\.pyFiles|spark\.(?:driver|executor)\.extra(?:ClassPath|LibraryPath)|spark\.(?:driver|executor)\.(?:extra|default)JavaOptions|spark\.pyspark\.(?:driver\.)?python|plugin\.library\.paths|-c\.(?:afterSign|afterPack|beforeBuild|beforePack|afterExtract|afterAllArtifactBuild|onNodeModuleFile|electronDist))=(?:pre:|post:)?(.*)$/;

/**
 * A `NAME=VALUE` build or Spark setting (SETTING_WORD) whose value loads something from a temporary or
 * downloads folder: the value itself, an item of its list (`spark.jars=a.jar,/tmp/b.jar`), or the agent a
 * JVM option names (`-javaagent:/tmp/a.jar`). Returns the setting's name and value.
 */
/**
 * Variables holding a command line a tool runs (ccache's compiler check, Perforce's diff and merge
 * programs, the sanitizers' symbolizer): any word of it in a temporary, downloads or upload folder is a program
 * nobody here read.
 */
const COMMAND_VARIABLES = [
  ...['CCACHE_COMPILERCHECK', 'CCACHE_PREFIX', 'CCACHE_PREFIX_CPP', 'P4DIFF', 'P4MERGE', 'P4EDITOR'],
  ...['ASAN_SYMBOLIZER_PATH', 'LLVM_SYMBOLIZER_PATH', 'MSAN_SYMBOLIZER_PATH', 'TSAN_SYMBOLIZER_PATH'],
];

export function settingFromTemp(word: string): { name: string; value: string } | undefined {
  const match = SETTING_WORD.exec(word);
  if (!match) return undefined;
  const value = match[2] ?? '';
  const loaded = value.split(/[\s,]+|-(?:javaagent|agentpath):/).some((item) => inForeignFolder(item));
  return loaded ? { name: match[1] ?? '', value } : undefined;
}

const SINGLE_DASH_LONG = new Set(['sqlite3', 'duckdb', 'javac', 'go', 'nvcc']);

// JVM options that load or run a file: an agent, the boot class path, Spring Boot's loader path, Kotlin's
// compiler plugins, Flyway's extra jars, the command a JVM runs on an error, the JDK a Gradle build runs
// on, the aapt2 the Android build runs. Found in a word of their own or inside another option's value
// (`-Dorg.gradle.jvmargs=…`, `-DargLine=…`, `-Dspring-boot.run.jvmArguments=…`) and in the JVM's variables.
const JVM_FILE_OPTION =
  /(?:^|[\s"'=])-(?:javaagent:|agentpath:|Xbootclasspath\/[ap]:|Dloader\.path=|Xplugin=|jarDirs=|Dorg\.gradle\.java\.home=|Pandroid\.aapt2FromMavenOverride=|XX:On(?:OutOfMemoryError|Error)=)["']?([^"']*)/g;

/** A JVM option (JVM_FILE_OPTION) among the words or the JVM's variables that names a file in a temporary or downloads folder. */
function jvmOptionFromTemp(args: readonly string[], assignments: Record<string, string | undefined>): string | null {
  const values = [...args, ...JVM_OPTION_VARIABLES.flatMap((name) => assignments[name] ?? [])];
  for (const value of values) {
    if (!value.includes('-')) continue;
    for (const match of value.matchAll(JVM_FILE_OPTION))
      if ((match[1] ?? '').split(/[\s,;=]+|:(?!\\)/).some((piece) => inForeignFolder(piece)))
        return `the JVM option ${evidenceOf(match[0].trim(), 60)} loads or runs a file from a temporary, downloads or upload folder`;
  }
  return null;
}

/** `conan install -c tools.build:compiler_executables='{"cpp": "/tmp/c++"}'`: a conf value naming a program there. */
function conanConfFromTemp(name: string, args: readonly string[]): string | null {
  if (name !== 'conan') return null;
  const conf = optionValues(args, ['c'], ['conf', 'conf:host', 'conf:build', 'conf:all']).find((value) =>
    value.split(/[\s,"'{}=]+/).some((word) => inForeignFolder(word)),
  );
  return conf === undefined
    ? null
    : `conan's setting ${evidenceOf(conf, 60)} has the build run a program from a temporary, downloads or upload folder`;
}

/** `lldb -o 'command script import /tmp/x.py'`, `lldb -s /tmp/cmds`: the debugger runs Python or commands from there. */
function lldbScriptFromTemp(name: string, args: readonly string[]): string | null {
  if (name !== 'lldb') return null;
  const commands = optionValues(args, ['o', 'O', 'k', 'K'], ['one-line', 'one-line-before-file', 'one-line-on-crash']);
  const imported = commands
    .map((command) => /^\s*command\s+(?:script\s+import|source)\s+(\S+)/.exec(command)?.[1])
    .find((path) => path !== undefined && inForeignFolder(path));
  const sourced = optionValues(args, ['s', 'S'], ['source', 'source-before-file']).find((path) =>
    inForeignFolder(path),
  );
  const file = imported ?? sourced;
  return file === undefined
    ? null
    : `lldb runs ${file}, Python or commands from a temporary, downloads or upload folder`;
}

// GCC's and Clang's flags that run or load another program: -wrapper runs every subprocess through one,
// -fplugin= loads a shared library into the compiler, -B names where it looks for its own programs,
// -fuse-ld= the linker. Swift's -load-plugin-executable and -load-plugin-library run a macro plugin
// inside the compiler (`path#Module`; `swift build` passes each word behind its own -Xswiftc).
const COMPILER =
  /^(?:[\w.-]+-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|gfortran|swift|swiftc|swift-frontend|rustc)(?:-\d+)?$/;
const SWIFT_PLUGIN_FLAGS = new Set(['-load-plugin-executable', '-load-plugin-library']);

/** The word after `words[at]`, past the -Xswiftc, -Xcc or -Xlinker that `swift build` puts before each one. */
function nextFlagValue(words: readonly string[], at: number): string {
  const next = words[at + 1] ?? '';
  return /^-X(?:swiftc|cc|cxx|linker)$/.test(next) ? (words[at + 2] ?? '') : next;
}

/**
 * The program a rustc codegen option names: the linker it runs (`-C linker=PATH`, `-Clinker=PATH`), or
 * the linker a `-C link-arg=-fuse-ld=PATH` hands the C compiler.
 */
function rustcLinkerOf(words: readonly string[], at: number): string | undefined {
  const word = words[at] as string;
  if (!word.startsWith('-C') && words[at - 1] !== '-C') return undefined;
  const option = word.startsWith('-C') ? word.slice(2) : word;
  if (option.startsWith('linker=')) return option.slice('linker='.length);
  return /^link-args?=-(?:fuse-ld=|B)(.+)$/.exec(option)?.[1];
}

function compilerHookIn(words: readonly string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const linker = rustcLinkerOf(words, i);
    if (linker !== undefined && inForeignFolder(linker)) return `-C ${word.replace(/^-C/, '')}`;
    const path = word.startsWith('-fplugin=')
      ? word.slice('-fplugin='.length)
      : word === '-wrapper'
        ? (words[i + 1] ?? '').split(',')[0]
        : /^-B./.test(word)
          ? word.slice(2)
          : word.startsWith('-fuse-ld=')
            ? word.slice('-fuse-ld='.length)
            : SWIFT_PLUGIN_FLAGS.has(word)
              ? nextFlagValue(words, i).split('#')[0]
              : undefined;
    if (path !== undefined && inForeignFolder(path))
      return word === '-wrapper' || SWIFT_PLUGIN_FLAGS.has(word) ? `${word} ${path}` : word;
  }
  return undefined;
}

/** `OTHER_LDFLAGS=-a -b SWIFT_VERSION=5`: each `NAME=` word starts a setting, the words after it are its value. */
function buildSettingsOf(text: string): string[] {
  const settings: string[] = [];
  for (const word of text.split(/\s+/)) {
    if (/^[A-Z_]+=/.test(word) || settings.length === 0) settings.push(word);
    else settings[settings.length - 1] += ` ${word}`;
  }
  return settings;
}

/**
 * The compiler flags a command is given: its own words for a compiler, and every *FLAGS variable or make
 * word, also among the build settings fastlane's gym and scan hand xcodebuild (`--xcargs 'OTHER_LDFLAGS=…'`).
 */
function compilerFlagWords(name: string, args: readonly string[], assignments: Record<string, string | undefined>) {
  const settings = [...args, ...optionValues(args, [], ['xcargs']).flatMap(buildSettingsOf)];
  const values = [
    ...Object.entries(assignments).flatMap(([key, value]) => (key.endsWith('FLAGS') && value ? [value] : [])),
    ...settings.filter((a) => /^[A-Z_]*FLAGS=/.test(a)).map((a) => a.slice(a.indexOf('=') + 1)),
  ];
  // Cargo's encoded flags (CARGO_ENCODED_RUSTFLAGS) are separated by the unit separator.
  return [...(COMPILER.test(name.replace(/^.*\//, '')) ? args : []), ...values.flatMap((v) => v.split(/[\s\x1f]+/))];
}

/**
 * `PATH=/tmp/.bin:$PATH sf deploy …`: a folder put ahead of the system's, when it is a temporary,
 * downloads or upload folder, answers for every program the command runs by name (`sf`, `git`, `node`).
 */
function programsAheadFromTemp(path: string | undefined): string | null {
  if (path === undefined) return null;
  const entries = path.split(':');
  const rest = entries.findIndex((entry) => /^\$\{?PATH\}?$/.test(entry));
  const ahead = rest < 0 ? entries : entries.slice(0, rest);
  return ahead.some((dir) => dir !== '' && inForeignFolder(`${dir.replace(/\/$/, '')}/`))
    ? `PATH=${evidenceOf(path, 60)} puts a temporary, downloads or upload folder ahead of the system's: whatever it holds runs in place of the programs the command names`
    : null;
}

/**
 * `dart pub global activate --source path /tmp/x`, `flutter pub add x --path /tmp/x`: a Dart package (a
 * CLI run later, or a builder build_runner runs) taken from a temporary, downloads or upload folder.
 */
function dartPackageFromTemp(name: string, args: readonly string[]): string | null {
  if ((name !== 'dart' && name !== 'flutter') || args[0] !== 'pub') return null;
  const fromPath =
    args.includes('activate') && optionValues(args, ['s'], ['source'])[0] === 'path'
      ? args.slice(args.indexOf('activate') + 1).find((a) => !a.startsWith('-') && a !== 'path')
      : args[1] === 'add'
        ? optionValues(args, [], ['path'])[0]
        : undefined;
  return fromPath !== undefined && inForeignFolder(fromPath)
    ? `${name} pub takes a package from ${evidenceOf(fromPath, 60)}, a temporary, downloads or upload folder`
    : null;
}

function tempFolderCode(
  name: string,
  args: readonly string[],
  assignments: Record<string, string | undefined>,
): string | null {
  const searchPath = programsAheadFromTemp(assignments['PATH']);
  if (searchPath !== null) return searchPath;
  for (const variable of MODULE_PATH_VARIABLES) {
    const value = assignments[variable];
    if (value !== undefined && value.split(':').some((dir) => inForeignFolder(`${dir.replace(/\/$/, '')}/`)))
      return `${variable}=${evidenceOf(value, 60)} puts modules or libraries from a temporary, downloads or upload folder ahead of the project's and the system's`;
  }
  for (const variable of TOOL_FILE_VARIABLES) {
    const value = assignments[variable];
    if (value !== undefined && inForeignFolder(value))
      return `${variable}=${evidenceOf(value, 60)} hands the command a file from a temporary, downloads or upload folder that nobody here has read`;
  }
  for (const [variable, value] of Object.entries(assignments))
    if (CARGO_TARGET_PROGRAM.test(variable) && value?.split(/\s+/).some((word) => inForeignFolder(word)))
      return `${variable}=${evidenceOf(value, 60)} has cargo run a program from a temporary, downloads or upload folder`;
  for (const variable of COMMAND_VARIABLES) {
    const value = assignments[variable];
    if (value !== undefined && value.split(/\s+/).some((word) => inForeignFolder(word)))
      return `${variable}=${evidenceOf(value, 60)} has the tool run a program from a temporary, downloads or upload folder`;
  }
  const conan = conanConfFromTemp(name, args);
  if (conan !== null) return conan;
  const lldb = lldbScriptFromTemp(name, args);
  if (lldb !== null) return lldb;
  const msbuild = msbuildLoadsFromTemp(name, args);
  if (msbuild !== null) return msbuild;
  const dart = dartPackageFromTemp(name, args);
  if (dart !== null) return dart;
  const jvm = jvmOptionFromTemp(args, assignments);
  if (jvm !== null) return jvm;
  const setting = args.map(settingFromTemp).find((found) => found !== undefined);
  if (setting)
    return `${setting.name}=${evidenceOf(setting.value, 60)} runs or loads a file from a temporary, downloads or upload folder`;
  const hook = compilerHookIn(compilerFlagWords(name, args, assignments));
  if (hook)
    return `the compiler flag ${evidenceOf(hook, 60)} runs or loads a program from a temporary, downloads or upload folder`;
  // `pnpm eslint …`, `yarn jest …`: the package manager runs the bin its first word names (npx and
  // bunx are wrappers, whose command is judged on its own: shell/wrappers).
  const program = ['pnpm', 'yarn'].includes(name) ? (args.find((a) => !a.startsWith('-')) ?? name) : name;
  const base = program.replace(/^.*\//, '');
  // sqlite3, duckdb, javac and go write their long options with one dash (`-init FILE`, `-vettool=FILE`).
  const words = SINGLE_DASH_LONG.has(base) ? args.map((a) => (/^-[a-z]{2,}(=|$)/.test(a) ? `-${a}` : a)) : args;
  for (const option of CODE_OPTIONS) {
    // pnpm's own options (`pnpm install --pnpmfile …`) count as well as those of the bin it runs.
    const owner = [base, program, name].find((candidate) => option.programs.includes(candidate));
    if (owner === undefined) continue;
    // Some take a comma-separated list (`--py-files a.zip,/tmp/b.zip`), cargo a TOML setting (`k="/tmp/x"`).
    const file = optionValues(words, option.short, option.long)
      .flatMap((value) => value.split(/[,\s="'[\]]+/))
      .find((value) => inForeignFolder(value));
    if (file !== undefined)
      return `${owner.replace(/^.*\//, '')} loads ${file}, code from a temporary, downloads or upload folder`;
  }
  return null;
}

// Database shells' commands that run a shell command, given in the query option: mysql's `\!` and
// `system`, psql's `\!`, snowsql's `!system`.
const MYSQL_ESCAPE = { short: ['e'], long: ['execute'], pattern: /(^|;)\s*(\\!|system\s)/i };
const SHELL_ESCAPES: Record<string, { short: string[]; long: string[]; pattern: RegExp }> = {
  mysql: MYSQL_ESCAPE,
  mariadb: MYSQL_ESCAPE,
  psql: { short: ['c'], long: ['command'], pattern: /(?:^|[;\n])[ \t]*\\!/ },
  snowsql: { short: ['q'], long: ['query'], pattern: /(?:^|[;\n])[ \t]*!system\b/i },
};

/** `rake -e CODE`, `bundle exec rake -E CODE`: Ruby given on the command line, which no reader here follows. */
function rakeCode(name: string, args: readonly string[]): string | null {
  // `bundle exec rake …` reaches here as the rake command the shell analysis unwraps from it.
  if (name !== 'rake') return null;
  const code = optionValues(args, ['e', 'E', 'p'], ['execute', 'execute-continue', 'execute-print'])[0];
  if (code !== undefined) return `rake runs Ruby given on the command line (${evidenceOf(code, 60)})`;
  const printed = optionValues(args, ['f', 'R'], ['rakefile', 'rakelib']).find((f) => f.startsWith('<('));
  return printed === undefined ? null : `rake loads Ruby that a command prints (${evidenceOf(printed, 60)})`;
}

/**
 * `rails app:template LOCATION=URL`, `rails new app -m URL`: a Rails application template is Ruby that
 * rails fetches and runs against the project.
 */
function railsTemplate(name: string, args: readonly string[]): string | null {
  const rails = railsArguments(name, args);
  const location =
    rails?.[0] === 'app:template'
      ? rails.find((a) => a.startsWith('LOCATION='))?.slice('LOCATION='.length)
      : rails?.[0] === 'new'
        ? optionValues(rails, ['m'], ['template'])[0]
        : undefined;
  return location !== undefined && /^https?:\/\//i.test(location)
    ? `rails runs the application template ${evidenceOf(location, 60)}, Ruby fetched from the network`
    : null;
}

function makeCode(args: readonly string[], redirects: SimpleCommand['redirects']): string | null {
  const files = optionValues(args, ['f'], ['file', 'makefile']);
  // A makefile in a heredoc is read as the recipes it holds (stdinMakefileRun).
  const fromHeredoc = redirects.some((r) => r.op.startsWith('<<'));
  if ((files.includes('-') || files.includes('/dev/stdin')) && !fromHeredoc)
    return 'make reads its makefile from standard input';
  if (files.some((f) => f.startsWith('<(')))
    return `make reads its makefile from what a command prints (${evidenceOf(files.find((f) => f.startsWith('<(')) ?? '', 60)})`;
  if (optionValues(args, ['E'], ['eval']).length || args.some((a) => a.startsWith('--eval')))
    return 'make --eval runs makefile text given on the command line';
  return null;
}

function vimCode(args: readonly string[]): string | null {
  const commands = [
    ...optionValues(args, ['c'], ['cmd']),
    ...args.filter((a) => a.startsWith('+')).map((a) => a.slice(1)),
  ];
  // Leading blanks and colons (`:py3`, ` ::lua`) are stripped first, in one linear pass.
  const code = commands.find((c) => EX_CODE.test(c.replace(/^[\s:]+/, '')));
  if (code !== undefined) return `the editor runs ${evidenceOf(code, 60)}, code in another language`;
  if (optionValues(args, ['S'], []).length) return 'the editor sources a session script';
  return null;
}

/** `NAME=VALUE` words (export's arguments) as the variables they set. */
function wordAssignments(words: readonly string[]): Record<string, string> {
  const set: Record<string, string> = {};
  for (const word of words) {
    const equals = word.indexOf('=');
    if (equals > 0 && /^[A-Za-z_]\w*$/.test(word.slice(0, equals))) set[word.slice(0, equals)] = word.slice(equals + 1);
  }
  return set;
}

/**
 * What a command loads from a temporary, downloads or upload folder (tempFolderCode), or null. Whenever it runs,
 * now or from a build file, a hook or a preset later, the file there is whatever lies there by then.
 */
export function codeFromTemp(cmd: SimpleCommand): string | null {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  return tempFolderCode(name, args, environmentOf(name, args, cmd));
}

/** The variables a command sets for what it runs: `export PYTHONPATH=/tmp/x` for every later command too. */
function environmentOf(name: string, args: readonly string[], cmd: SimpleCommand): Record<string, string> {
  return name === 'export' ? { ...wordAssignments(args), ...cmd.assignments } : cmd.assignments;
}

/**
 * `tauri build --config '{"build":{"beforeBuildCommand":…}}'`, `TAURI_CONFIG=…`, `tauri build --runner /tmp/x`:
 * a build command or a cargo stand-in given to Tauri on the command line rather than in the project's config.
 */
function tauriInlineConfig(cmd: SimpleCommand, args: readonly string[]): string | null {
  if (cmd.name !== 'tauri' && cmd.name !== 'cargo-tauri' && !args.includes('tauri')) return null;
  const configs = [...optionValues(args, ['c'], ['config']), cmd.assignments['TAURI_CONFIG'] ?? ''];
  const hook = configs.find((config) => TAURI_HOOK_KEYS.some((key) => config.includes(key)));
  if (hook !== undefined) return `Tauri is given a build command on the command line (${evidenceOf(hook, 80)})`;
  const runner = optionValues(args, ['r'], ['runner'])[0];
  return runner !== undefined && inForeignFolder(runner)
    ? `tauri --runner ${runner} runs the build with a program in a temporary, downloads or upload folder`
    : null;
}

// Nix settings naming a program the daemon or the client runs around builds.
const NIX_HOOK_SETTINGS = new Set(['post-build-hook', 'pre-build-hook', 'build-hook', 'diff-hook']);
const NIX_NATIVE_CODE = 'allow-unsafe-native-code-during-evaluation';

/**
 * `nix build --option post-build-hook /tmp/x`, `--post-build-hook /tmp/x`: a hook program from a temporary or
 * downloads folder; `--option allow-unsafe-native-code-during-evaluation true`: builtins.exec lets the
 * expression run any command while it is evaluated, which no reader here follows.
 */
function nixSettingCode(name: string, args: readonly string[]): string | null {
  if (!NIX_PROGRAMS.has(name)) return null;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    const [setting, value] =
      word === '--option' ? [args[i + 1], args[i + 2]] : word.startsWith('--') ? [word.slice(2), args[i + 1]] : [];
    if (setting === NIX_NATIVE_CODE && (word !== '--option' || value === 'true'))
      return `nix evaluates with ${NIX_NATIVE_CODE}: the expression may run any command (builtins.exec)`;
    if (setting !== undefined && NIX_HOOK_SETTINGS.has(setting) && value !== undefined && inForeignFolder(value))
      return `nix's ${setting} runs ${value}, a program from a temporary, downloads or upload folder`;
  }
  return null;
}

/** `LD_PRELOAD=…` (and its kin) set for what the command runs, or exported for every later command. */
function preloadedLibrary(cmd: SimpleCommand, args: readonly string[]): string | undefined {
  return [...Object.entries(cmd.assignments).map(([k, v]) => `${k}=${v}`), ...args.flatMap(exportedWords)].find(
    (w) => (LIBRARY_VARIABLES.test(w) || NCCL_PLUGIN_PATH.test(w)) && !onlySystemLibraries(w),
  );
}

/** `LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libtcmalloc.so.4`: every library named is one the system installed. */
function onlySystemLibraries(assignment: string): boolean {
  const paths = assignment
    .slice(assignment.indexOf('=') + 1)
    .split(/[\s:]+/)
    .filter((path) => path !== '');
  return paths.length > 0 && paths.every((path) => SYSTEM_LIBRARY.test(path) && !path.includes('..'));
}

/**
 * A library preloaded from a temporary, downloads or upload folder (`export LD_PRELOAD=/tmp/x.so` in an
 * `.envrc`): as unread in a file that runs later as on the command line now.
 */
export function preloadsForeignLibrary(cmd: SimpleCommand): boolean {
  const library = preloadedLibrary(cmd, argsOf(cmd));
  if (library === undefined) return false;
  return library
    .slice(library.indexOf('=') + 1)
    .split(/[\s:]+/)
    .some((path) => path !== '' && inForeignFolder(path));
}

/** Programs whose code may come on their input (R, Julia, a Tcl interpreter): the ones `input` is read for. */
export function readsCodeOnInput(name: string): boolean {
  return /^(r|rscript|julia|expect|tclsh|wish)$/i.test(name);
}

/**
 * What a single command runs that no reader here can follow, or null. `input` is the text it is
 * given on its input when the call writes it out (a heredoc, `echo … |`).
 */
export function unreadProgramCode(cmd: SimpleCommand, input?: string): string | null {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  const library = preloadedLibrary(cmd, args);
  if (library !== undefined) return `${evidenceOf(library, 60)} loads a library into the programs it runs`;
  // bash imports `BASH_FUNC_name%%=() { …; }` from its environment as a function that shadows `name`.
  const exported = [...Object.keys(cmd.assignments), ...args].find((w) => w.startsWith('BASH_FUNC_'));
  if (exported !== undefined)
    return `${evidenceOf(exported.split('=')[0] ?? '', 40)} defines a shell function for every bash the command starts`;
  const environment = environmentOf(name, args, cmd);
  const fromVariables = variableCode(environment);
  if (fromVariables !== null) return fromVariables;
  const fromTemp = tempFolderCode(name, args, environment);
  if (fromTemp !== null) return fromTemp;
  if (name === 'openssl') {
    const engine = args.find((a, at) => args[at - 1] === '-engine' && /[/\\]|\.(so|dylib|dll)$/.test(a));
    if (engine !== undefined) return `openssl -engine loads ${engine}, a library, into itself`;
  }
  if (name === 'make') return makeCode(args, cmd.redirects);
  if (name === 'php') {
    const prepend = optionValues(args, ['d'], ['define']).find((v) => /^auto_(prepend|append)_file\s*=\s*\S/.test(v));
    if (prepend !== undefined) return `php -d ${evidenceOf(prepend, 60)} loads that file into every script it runs`;
  }
  const tauri = tauriInlineConfig(cmd, args);
  if (tauri !== null) return tauri;
  const nix = nixSettingCode(name, args);
  if (nix !== null) return nix;
  const dbus = dbusCallOf(cmd);
  const dbusCode = dbus ? dbusRunsCode(dbus) : null;
  if (dbusCode !== null) return dbusCode;
  const template = railsTemplate(name, args);
  if (template) return template;
  const rake = rakeCode(name, args);
  if (rake !== null) return rake;
  if (VIM.has(name)) return vimCode(args);
  if (name === 'expect' || name === 'tclsh' || name === 'wish')
    return args.length || input !== undefined ? `${name} runs a Tcl script (${evidenceOf(cmd.text, 60)})` : null;
  if (name === 'emacs' && args.some((a) => /^--?(eval|l|load|f|funcall|script|x)(=|$)/.test(a)))
    return 'emacs runs Emacs Lisp given on the command line';
  const escape = SHELL_ESCAPES[name];
  if (escape && optionValues(args, escape.short, escape.long).some((query) => escape.pattern.test(query)))
    return `${name} runs a shell escape from its query`;
  if (name === 'run-parts' && !args.some((a) => a === '--test' || a === '--list'))
    return 'run-parts runs every file of a folder, which nobody here has read';
  if (name === 'ssh' || name === 'scp' || name === 'sftp') {
    const config = optionValues(args, ['F'], []).find((f) => f !== '/dev/null' && f !== 'none');
    if (config !== undefined) return `${name} -F reads ${config}, whose settings can run commands (ProxyCommand)`;
    if (optionValues(args, ['I'], []).length || args.some((a) => /pkcs11provider/i.test(a)))
      return `${name} loads a PKCS#11 library into itself`;
  }
  if (name === 'ssh-keygen' && optionValues(args, ['D'], []).length) return 'ssh-keygen -D loads a shared library';
  return unreadBeamCode(cmd) ?? unreadInlineCode(name, args, cmd.name, input);
}
