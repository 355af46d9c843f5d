// Developer tools load code their config names: a Prettier or ESLint plugin, parser or processor given
// as a file of the project, a mypy plugin module, a library every process preloads (LD_PRELOAD, Prisma's
// query engine) or a script every shell sources first (BASH_ENV). A config write that names one makes
// the next format, lint, type check or start run that file, often with no command at all: the editor
// formats and lints on save. The file itself is read where it is written; this asks about the config
// that makes it run. A package name (`prettier-plugin-tailwindcss`) is the project's own dependency.
import path from 'node:path';
import { isWindowsForm, withForwardSlashes } from '../../shell/paths';
import { z } from 'zod';
import { evidenceOf } from '../../facts/commands';
import { firstWrittenFinding } from '../../facts/compute';
import { DOCKERFILE } from '../../facts/written-runs';
import { inForeignFolder, settingFromTemp, variablesLoadFromTemp } from '../../facts/unread-programs';
import { definePolicy } from '../types';
import { quotedSpans } from '../../text/quoted';

interface ConfigRule {
  file: RegExp;
  names: (content: string) => boolean;
  /** What the config makes the tool do, for the reason. */
  what: string;
}

/** A quoted path to a JavaScript or TypeScript file (`"./scripts/plugin.js"`), or a YAML list item naming one. */
const SCRIPT_PATH =
  /["'`](?:\.{1,2}\/|\/|~\/)[^"'`\r\n]*\.[cm]?[jt]s["'`]|^[ \t]*-[ \t]+(?:\.{1,2}\/|\/)\S*\.[cm]?[jt]s[ \t]*$/m;
// rbenv-vars and foreman read the same NAME=VALUE lines into every process they start.
const DOTENV = /(^|\/)(\.env(\.[\w.-]+)?|\.rbenv-vars)$/;
const WORKFLOW = /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/;
// Variables that make a program load a library or source a script before its own code.
const PRELOAD_VARIABLE = String.raw`(LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|CUDA_INJECTION(64|32)_PATH|BASH_ENV|PRISMA_QUERY_ENGINE_LIBRARY|PRISMA_SCHEMA_ENGINE_BINARY)`;
const NODE_REQUIRES_FILE = String.raw`NODE_OPTIONS[ \t]*[=:][^\r\n]*(--require|--import|--loader|-r)[ \t=]+["']?(\.{1,2}\/|\/)`;
const RUBY_REQUIRES_FILE = String.raw`RUBYOPT[ \t]*[=:][^\r\n]*-r[ \t]*["']?(\.{1,2}\/|\/|~)`;

const matches =
  (pattern: RegExp) =>
  (content: string): boolean =>
    pattern.test(content);

/** A line of the file matches: each line is tested from its own start, so a long one costs its length once. */
const matchesALine =
  (pattern: RegExp) =>
  (content: string): boolean =>
    content.split(/\r?\n/).some((line) => pattern.test(line));

/** A pytest setting line whose pythonpath, or whose addopts' --rootdir or config file, is in a temporary folder. */
function pytestLoadsFromTemp(line: string): boolean {
  const setting = /^[ \t]*(pythonpath|addopts)[ \t]*=/.exec(line)?.[1];
  if (!setting) return false;
  const words = line.slice(line.indexOf('=') + 1).split(/[\s"',[\]]+/);
  const paths =
    setting === 'pythonpath'
      ? words
      : words.flatMap((word, at) =>
          /^--(rootdir|confcutdir|config-file)=/.test(word)
            ? [word.slice(word.indexOf('=') + 1)]
            : /^(--rootdir|--confcutdir|--config-file|-c)$/.test(word)
              ? [words[at + 1] ?? '']
              : [],
        );
  return paths.some((path) => path.startsWith('/') && inForeignFolder(path));
}

/** Properties that name what the build runs or loads (an SDK, a JDK, a tool), not where it writes. */
const RUNS_PROPERTY =
  /sdk|ndk|cmake|java\.home|jdk|aapt2|override|executable|launcher|compiler|toolchain|agent|\.home$|\.path$/i;

/** A `key=value` line of a properties file that names something the build runs in a temporary, downloads or upload folder. */
function propertyFromTemp(line: string): boolean {
  const [, key = '', value] = /^[ \t]*([\w.-]+)[ \t]*[=:][ \t]*(\S+)/.exec(line) ?? [];
  return value !== undefined && RUNS_PROPERTY.test(key) && inForeignFolder(value.replace(/\\:/g, ':'));
}

/** A `.env` file's NAME=VALUE lines that put modules, a library or an interpreter from a temporary folder first. */
function dotenvLoadsFromTemp(content: string): boolean {
  const assignments: Record<string, string> = {};
  for (const line of content.split('\n')) {
    const match = /^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)[ \t]*=[ \t]*["']?([^"'\r\n]*)/.exec(line);
    if (match) assignments[match[1] ?? ''] = (match[2] ?? '').trim();
  }
  return variablesLoadFromTemp(assignments) !== null;
}

/** A path in the text, quoted or bare, that lies in a temporary, downloads or upload folder. */
function namesTempPath(content: string): boolean {
  return content
    .split(/[\s"',[\]=]+/)
    .some((word) => (word.startsWith('/') || word.startsWith('~/') || isWindowsForm(word)) && inForeignFolder(word));
}

/** spark-defaults.conf's `key value` lines, read as the `--conf key=value` settings they stand for. */
function sparkDefaultsLoadFromTemp(content: string): boolean {
  return content.split('\n').some((line) => {
    const setting = /^[ \t]*(spark\.[\w.]+)(?:[ \t]*=[ \t]*|[ \t]+)(\S.*)$/.exec(line);
    return setting !== null && settingFromTemp(`${setting[1]}=${setting[2]}`) !== undefined;
  });
}

const JVM_AGENT = /-(?:javaagent|agentpath):([^\s"',;)<>]+)/g;
const JVM_ERROR_COMMAND = /-XX:On(?:OutOfMemory)?Error=["']?([^"'\r\n]*)/g;

/** A command the JVM runs on an error that only stops or inspects the process itself (`kill -9 %p`, `jcmd %p …`). */
function ownProcessOnly(command: string): boolean {
  const words = command.trim().split(/\s+/);
  return ['kill', 'jcmd', 'jmap', 'jstack'].includes(words[0] ?? '') && !/[;&|`$<>()]/.test(command);
}

/**
 * JVM options in any file a build, an IDE or a deployment hands to java (build.gradle's jvmArgs, an IDE
 * run configuration, a chart's javaOpts): an agent loaded from a temporary, downloads or upload folder, or a
 * command run when the JVM runs out of memory or crashes (other than stopping or inspecting itself).
 */
function jvmOptionsRunCode(content: string): boolean {
  if (!content.includes('-javaagent:') && !content.includes('-agentpath:') && !content.includes('-XX:On')) return false;
  return (
    [...content.matchAll(JVM_AGENT)].some((m) => inForeignFolder(m[1]!)) ||
    [...content.matchAll(JVM_ERROR_COMMAND)].some((m) => !ownProcessOnly(m[1]!))
  );
}

/** SQLFluff's templater imports every Python module under its `library_path` on each lint. */
function sqlfluffLibraryFromTemp(content: string): boolean {
  const value = /^[ \t]*library_path[ \t]*=[ \t]*(\S+)/m.exec(content)?.[1] ?? '';
  return value.startsWith('/') && inForeignFolder(value.endsWith('/') ? value : `${value}/`);
}

// ansible.cfg's settings that name a program Ansible runs or folders whose Python it loads (path lists, `:`-separated).
const ANSIBLE_CODE_PATHS =
  /^[ \t]*(vault_password_file|vault_identity_list|[a-z]+_plugins|library|module_utils|roles_path|collections_paths?)[ \t]*=/;

const RULES: ConfigRule[] = [
  {
    file: /(^|\/)\.prettierrc(\.(json5?|ya?ml|toml))?$/,
    names: matches(SCRIPT_PATH),
    what: 'makes Prettier load a file of the project as a plugin on every format (editors format on save)',
  },
  {
    file: /(^|\/)\.eslintrc(\.(json|ya?ml))?$/,
    names: matches(SCRIPT_PATH),
    what: 'makes ESLint load a file of the project as a parser, plugin or processor on every lint (editors lint as you type)',
  },
  {
    file: /(^|\/)\.(babelrc|stylelintrc|postcssrc|swcrc|lintstagedrc)(\.(json|ya?ml))?$/,
    names: matches(SCRIPT_PATH),
    what: 'makes a build or lint tool load a file of the project as a plugin',
  },
  {
    file: /(^|\/)(\.?mypy\.ini|setup\.cfg|pyproject\.toml)$/,
    // A `plugins =` line that names a .py file (line by line: one pattern over the text backtracks).
    names: (content) =>
      content.split(/\r?\n/).some((line) => /^[ \t]*plugins[ \t]*=/.test(line) && /\.py\b/.test(line)),
    what: 'makes mypy import a file of the project as a plugin on every type check',
  },
  {
    file: DOTENV,
    names: matchesALine(
      new RegExp(
        String.raw`^[ \t]*(export[ \t]+)?(${PRELOAD_VARIABLE}[ \t]*=|${NODE_REQUIRES_FILE}|${RUBY_REQUIRES_FILE})`,
      ),
    ),
    what: 'makes every program started with it load a library or script first',
  },
  {
    file: DOTENV,
    names: dotenvLoadsFromTemp,
    what: 'makes every program started with it load modules, a library or an interpreter from a temporary, downloads or upload folder',
  },
  {
    // The CLR loads a startup hook or a profiler into every .NET process started with these set: a test
    // run's settings, a launch profile.
    file: /(\.runsettings|(^|\/)launchSettings\.json|\.(cs|fs|vb)proj|(^|\/)Directory\.Build\.props)$/,
    names: matches(/\b(DOTNET_STARTUP_HOOKS|CORECLR_PROFILER_PATH\w*|COR_PROFILER_PATH\w*)\b/),
    what: 'makes every .NET process it starts load a startup hook or profiler first',
  },
  {
    // Bundler's BUNDLE_GEMFILE, RuboCop's `require:`, Yarn's yarn-path and Overcommit's hook commands are
    // code each run of the tool loads or starts.
    // MSBuild reads Directory.Build.rsp (and any .rsp it is given) as switches, OmniSharp loads its
    // extension assemblies, and a Directory.Build.props item can name an analyzer the compiler runs.
    file: /(^|\/)(\.bundle\/config|\.rubocop(_todo)?\.yml|\.yarnrc(\.yml)?|\.overcommit\.yml|[^/]+\.rsp|omnisharp\.json|Directory\.Build\.(props|targets))$/,
    names: namesTempPath,
    what: 'makes a build, lint or editor tool load or run a file from a temporary, downloads or upload folder on every run',
  },
  {
    file: /(^|\/)spark-defaults\.conf$/,
    names: sparkDefaultsLoadFromTemp,
    what: 'makes every Spark job load code from a temporary, downloads or upload folder into its driver or executors',
  },
  {
    file: /./,
    names: jvmOptionsRunCode,
    what: 'makes the JVM load an agent from a temporary, downloads or upload folder, or run a command when it fails, each time it starts',
  },
  {
    file: /(^|\/)(\.sqlfluff|setup\.cfg|tox\.ini|pyproject\.toml)$/,
    names: sqlfluffLibraryFromTemp,
    what: 'makes every SQLFluff lint import Python modules from a temporary, downloads or upload folder',
  },
  {
    file: DOCKERFILE,
    names: matchesALine(new RegExp(String.raw`^[ \t]*ENV[ \t]+(${PRELOAD_VARIABLE}\b|${NODE_REQUIRES_FILE})`)),
    what: 'makes every process in the container load a library or script first',
  },
  {
    // Next.js fetches and bundles modules from these URL prefixes at build time: code from a host.
    file: /(^|\/)next\.config\.(js|mjs|cjs|ts)$/,
    names: (content) => {
      const at = content.search(/\burlImports[ \t]*:[ \t]*\[/);
      if (at < 0) return false;
      const end = content.indexOf(']', at);
      return /["'`]https?:\/\//.test(content.slice(at, end < 0 ? undefined : end));
    },
    what: 'lets the app import and run modules straight from a URL (Next.js urlImports)',
  },
  {
    // React Native's build phases source .xcode.env(.local) and run NODE_BINARY to bundle the app.
    file: /(^|\/)\.xcode\.env(\.local)?$/,
    names: (content) =>
      [...content.matchAll(/^[ \t]*(?:export[ \t]+)?NODE_BINARY[ \t]*=[ \t]*["']?([^"'\s]+)/gm)].some((m) =>
        inForeignFolder(m[1]!),
      ),
    what: 'makes every iOS build run a program from a temporary, downloads or upload folder as Node',
  },
  {
    // Hydra (and OmegaConf's instantiate) calls whatever `_target_` names when the config is used.
    file: /\.ya?ml$/,
    names: matches(
      /^[ \t-]*_target_[ \t]*:[ \t]*["']?(builtins\.(exec|eval|compile|__import__)|os\.(system|popen|exec\w*|spawn\w*)|subprocess\.\w+|pty\.spawn|runpy\.\w+|importlib\.import_module)["']?[ \t]*$/m,
    ),
    what: 'makes Hydra call a function that runs a command or code (its _target_) whenever the config is instantiated',
  },
  {
    // Ansible runs an executable vault password file (or client script) to get the password, and ssh's
    // ProxyCommand in ssh_args for every host it connects to.
    file: /(^|\/)(ansible\.cfg|\.ansible\.cfg)$/,
    names: (content) =>
      content.split(/\r?\n/).some(
        (line) =>
          /^[ \t]*(ssh_args|ssh_common_args|ssh_extra_args)[ \t]*=.*proxycommand/i.test(line) ||
          (ANSIBLE_CODE_PATHS.test(line) &&
            line
              .slice(line.indexOf('=') + 1)
              .split(/[:,]/)
              .some((entry) => inForeignFolder(entry.trim()))),
      ),
    what: 'makes Ansible run a program or load plugins from a temporary or downloads folder on every run (a vault password script, a plugin path, an ssh ProxyCommand)',
  },
  {
    // Triton's Python backend unpacks the environment EXECUTION_ENV_PATH names and runs the model in it.
    file: /(^|\/)config\.pbtxt$/,
    names: (content) =>
      [...content.matchAll(/EXECUTION_ENV_PATH"?[\s\S]{0,80}?string_value\s*:\s*"([^"]*)"/g)].some((m) =>
        inForeignFolder(m[1]!),
      ),
    what: "makes Triton's Python backend run the model inside an environment archive from a temporary or downloads folder",
  },
  {
    // A custom linter of golangci-lint is a Go plugin: native code loaded into every lint run.
    file: /(^|\/)\.?golangci\.ya?ml$/,
    names: (content) =>
      content.split(/\r?\n/).some((line) => /^[ \t]*path[ \t]*:[ \t]*["']?\S+\.so["']?[ \t]*$/.test(line)),
    what: 'makes golangci-lint load a native plugin (a shared object) into every lint run',
  },
  {
    // RSpec reads its options file at every run: a required file outside the project loads first.
    file: /(^|\/)\.rspec(-local)?$/,
    names: (content) =>
      content.split(/\r?\n/).some((line) => /^[ \t]*(--require|-r)[ \t=]+["']?([/~]|\$HOME|\.\.\/)/.test(line)),
    what: 'makes every RSpec run load a file from outside the project first',
  },
  {
    file: /(^|\/)phpunit\.xml(\.dist)?$/,
    names: matches(/\bbootstrap[ \t]*=[ \t]*["']([/~]|\$HOME|\.\.\/)/),
    what: 'makes every PHPUnit run execute a bootstrap file from outside the project first',
  },
  {
    // An exec KRM function is a program kustomize runs when the overlay is built with exec functions on.
    file: /\.ya?ml$/,
    names: (content) =>
      content.includes('config.kubernetes.io/function') &&
      content.split(/\r?\n/).some((line) => /^[ \t]*exec[ \t]*:[ \t]*$/.test(line)),
    what: 'makes kustomize run a program of its own choosing (an exec KRM function) whenever the overlay is built',
  },
  {
    file: WORKFLOW,
    names: matchesALine(new RegExp(String.raw`^[ \t]*(${PRELOAD_VARIABLE}[ \t]*:|${NODE_REQUIRES_FILE})`)),
    what: 'makes every step of the workflow load a library or source a script first',
  },
  {
    // pytest imports its plugins (`-p NAME`, conftest files) from its pythonpath and rootdir: one in a
    // temporary folder is code nobody here wrote, loaded by every test run.
    file: /(^|\/)(pyproject\.toml|pytest\.ini|setup\.cfg|tox\.ini)$/,
    names: (content) => content.split('\n').some(pytestLoadsFromTemp),
    what: 'makes pytest import modules from a temporary folder (its pythonpath or rootdir)',
  },
  {
    // Foundry runs the compiler binary `solc` names (a version is fetched and checked instead).
    file: /(^|\/)foundry\.toml$/,
    names: matches(/^[ \t]*solc(_version)?[ \t]*=[ \t]*["'][^"'\n]*\//m),
    what: 'makes forge run the compiler binary at that path on every build and test',
  },
  {
    // With ffi on, any test or script (those of lib/ dependencies too) runs programs through vm.ffi.
    file: /(^|\/)foundry\.toml$/,
    names: matches(/^[ \t]*ffi[ \t]*=[ \t]*true\b/m),
    what: 'lets every test and script, those of its dependencies too, run programs on this machine (vm.ffi)',
  },
  {
    // Gradle's and Flutter's properties name the SDKs, the JDK and the tools the build runs
    // (flutter.sdk, sdk.dir, ndk.dir, org.gradle.java.home, android.aapt2FromMavenOverride).
    file: /(^|\/)(gradle|local)\.properties$/,
    names: (content) => content.split('\n').some(propertyFromTemp),
    what: 'makes the build run an SDK, a JDK or a tool from a temporary, downloads or upload folder',
  },
  {
    // A build script's strings that set a compiler launcher or a compiler (`-DCMAKE_CXX_COMPILER_LAUNCHER=…`
    // in Gradle's externalNativeBuild arguments) in a temporary folder.
    file: /\.gradle(\.kts)?$|(^|\/)CMakeLists\.txt$|\.cmake$/,
    names: (content) => quotedSpans(content).some(({ body }) => settingFromTemp(body) !== undefined),
    what: 'makes each native compile run a compiler or launcher from a temporary, downloads or upload folder',
  },
  {
    // Any other YAML or TOML config that sets the environment of what it starts: a conda environment's
    // `variables:`, Hydra's `job.env_set`, a Compose service's `environment:`.
    file: /\.(ya?ml|toml)$/,
    names: matches(new RegExp(String.raw`^[ \t]*(-[ \t]+)?["']?${PRELOAD_VARIABLE}["']?[ \t]*[:=]`, 'm')),
    what: 'sets an environment that makes what it starts load a library or source a script first',
  },
];

/** What a config write makes a tool load and run, or null. */
export function toolConfigCode(filePath: string, content: string): string | null {
  const file = withForwardSlashes(filePath);
  const base = path.posix.basename(file);
  const rule = RULES.find((r) => (r.file.test(file) || r.file.test(base)) && r.names(content));
  return rule ? rule.what : null;
}

export const toolConfigLoadsCode = definePolicy({
  name: 'tool-config-loads-code',
  category: 'agent-integrity',
  description:
    'Asks before a config write makes a tool load a file as code: a Prettier or ESLint plugin or parser of the project, a mypy plugin, LD_PRELOAD or NODE_OPTIONS --require in .env or a workflow, Foundry ffi or a solc path.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const hit = firstWrittenFinding(call, toolConfigCode);
    if (!hit) return null;
    return {
      reason: `Writes ${hit.file}, which ${hit.found}: that code runs on the next use of the tool, with no command that shows it. Approve it if the person asked for this config.`,
      evidence: evidenceOf(hit.content),
    };
  },
});
