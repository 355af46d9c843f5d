// MCP servers that wrap a command-line tool (git, ssh, terraform, a package manager) take its options
// as named arguments: `{"key": "core.fsmonitor", "value": "sh -c …"}` to a git server is
// `git config core.fsmonitor "sh -c …"`, `{"destroy": true}` to a terraform server is
// `terraform apply -destroy`. Read as that command line, the call meets every shell policy, instead
// of none because no face says what its arguments do.
import { ansibleTaskCommands } from './run-later-formats';

type Input = Record<string, unknown>;

const GIT_GLOBAL_OPTION =
  /^(-c|-C|-p|--paginate|--config-env(=.*)?|--git-dir(=.*)?|--work-tree(=.*)?|--exec-path(=.*)?)$/;
const EXTRA_ARGUMENTS = ['extra_args', 'extraArgs', 'args', 'arguments', 'options', 'flags'];

function text(input: Input, ...names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = input[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function words(input: Input, ...names: readonly string[]): string[] {
  for (const name of names) {
    const value = input[name];
    if (Array.isArray(value) && value.every((w) => typeof w === 'string')) return value as string[];
    if (typeof value === 'string' && value !== '') return [value];
  }
  return [];
}

function quoted(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function gitLine(verb: string, input: Input): string[] | undefined {
  const action =
    /^git_([a-z]+)/.exec(verb)?.[1] ??
    /^(?:(?:set|get|add)_)?(log|diff|status|config|commit|push|pull|fetch|show)/.exec(verb)?.[1];
  if (action === undefined) return undefined;
  const repo = text(input, 'repo_path', 'repoPath', 'repository', 'cwd');
  const extra = words(input, ...EXTRA_ARGUMENTS);
  const global = extra.length > 0 && GIT_GLOBAL_OPTION.test(extra[0]!) ? extra : [];
  const line = ['git', ...(repo ? ['-C', repo] : []), ...global, action];
  if (action === 'config') {
    const scope = text(input, 'scope');
    if (scope === 'global' || scope === 'system') line.push(`--${scope}`);
    const key = text(input, 'key', 'name');
    const value = text(input, 'value');
    if (key !== undefined) line.push(key, ...(value !== undefined ? [value] : []));
  }
  return global.length ? line : [...line, ...extra];
}

/** ssh options as a list of `Key=Value` words or as an object of them (`{"ProxyCommand": "…"}`). */
function sshOptions(input: Input): string[] {
  for (const name of ['options', 'ssh_options', 'sshOptions']) {
    const value = input[name];
    if (value && typeof value === 'object' && !Array.isArray(value))
      return Object.entries(value).flatMap(([key, v]) => (typeof v === 'string' ? [`${key}=${v}`] : []));
  }
  return words(input, 'options', 'ssh_options', 'sshOptions');
}

/**
 * `{"service": "s3", "args": ["rm", "s3://…", "--recursive"]}` to an AWS server is `aws s3 rm …`;
 * the API's own form, `{"service": "rds", "operation": "DeleteDBCluster", "parameters": {…}}`, is
 * `aws rds delete-db-cluster --db-cluster-identifier …` (S3's API operations are `aws s3api`).
 */
function awsLine(input: Input): string[] | undefined {
  const service = text(input, 'service');
  const operation = text(input, 'operation', 'action', 'api', 'method');
  if (service !== undefined && operation !== undefined && /^[A-Z][A-Za-z0-9]+$/.test(operation)) {
    const parameters = input['parameters'] ?? input['params'] ?? input['input'];
    const profile = text(input, 'profile');
    return [
      'aws',
      service.toLowerCase() === 's3' ? 's3api' : service.toLowerCase(),
      kebab(operation),
      ...(parameters && typeof parameters === 'object' && !Array.isArray(parameters)
        ? Object.entries(parameters).flatMap(([key, value]) => apiParameter(key, value))
        : []),
      ...(profile ? ['--profile', profile] : []),
    ];
  }
  const args = words(input, 'args', 'arguments', 'command');
  return service === undefined && args.length === 0 ? undefined : ['aws', ...(service ? [service] : []), ...args];
}

/** `DBClusterIdentifier` is `db-cluster-identifier`: the CLI's spelling of an API name. */
function kebab(name: string): string {
  const upper = (ch: string | undefined) => ch !== undefined && ch >= 'A' && ch <= 'Z';
  const lowerOrDigit = (ch: string | undefined) => ch !== undefined && /[a-z0-9]/.test(ch);
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    // A word starts at a capital after a small letter (`dbCluster`), or at the last capital of a run (`DBCluster`).
    if (i > 0 && upper(ch) && (lowerOrDigit(name[i - 1]) || (upper(name[i - 1]) && lowerOrDigit(name[i + 1]))))
      out += '-';
    out += ch.toLowerCase();
  }
  return out;
}

function apiParameter(key: string, value: unknown): string[] {
  const option = `--${kebab(key)}`;
  if (value === true) return [option];
  if (value === false) return [`--no-${kebab(key)}`];
  if (typeof value === 'string') return [option, value];
  if (typeof value === 'number') return [option, String(value)];
  return value === null || value === undefined ? [] : [option, JSON.stringify(value)];
}

/** `{"args": ["sql", "instances", "delete", …], "project": "p"}` to a gcloud or az server is that command. */
function cloudLine(program: 'gcloud' | 'az', input: Input): string[] | undefined {
  const args = words(input, 'args', 'arguments', 'command');
  if (args.length === 0) return undefined;
  const project = text(input, 'project', 'subscription');
  const scope = project === undefined ? [] : [program === 'gcloud' ? '--project' : '--subscription', project];
  return [program, ...(args[0] === program ? args.slice(1) : args), ...scope];
}

/** `{"instance", "zone", "command", "ssh_flags"}` to a gcloud server: `gcloud compute ssh … --command …`. */
function computeSshLine(input: Input): string[] | undefined {
  const instance = text(input, 'instance', 'name', 'vm');
  const command = text(input, 'command', 'cmd');
  if (instance === undefined || command === undefined) return undefined;
  const zone = text(input, 'zone');
  const flags = words(input, 'ssh_flags', 'sshFlags', 'ssh_flag').map((flag) => `--ssh-flag=${flag}`);
  return ['gcloud', 'compute', 'ssh', instance, ...(zone ? ['--zone', zone] : []), ...flags, '--command', command];
}

/** `{"document_name", "commands": […]}` to an AWS server's send-command: the lines each instance runs. */
function ssmLine(input: Input): string[] | undefined {
  const commands = words(input, 'commands', 'command');
  if (commands.length === 0) return undefined;
  const document = text(input, 'document_name', 'documentName') ?? 'AWS-RunShellScript';
  return ['aws', 'ssm', 'send-command', '--document-name', document, '--parameters', JSON.stringify({ commands })];
}

/**
 * An Ansible server's ad-hoc run (`{"pattern", "module", "args", "become"}`) is the `ansible` command
 * line; an inline playbook's tasks (`playbook_content`) are the commands they amount to, run on its hosts.
 */
function ansibleLine(verb: string, input: Input): string[] | undefined {
  const pattern = text(input, 'pattern', 'hosts', 'limit') ?? 'all';
  const become = input['become'] === true ? ['-b'] : [];
  const inventory = text(input, 'inventory');
  const module = text(input, 'module', 'module_name');
  if (/adhoc|ad_hoc|module/.test(verb) || module !== undefined) {
    const args = text(input, 'args', 'module_args');
    return [
      'ansible',
      pattern,
      ...(inventory ? ['-i', inventory] : []),
      '-m',
      module ?? 'command',
      ...(args ? ['-a', args] : []),
      ...become,
      ...words(input, 'extra_args', 'extraArgs'),
    ];
  }
  const playbook = text(input, 'playbook_content', 'content', 'playbook_yaml');
  if (playbook === undefined) return undefined;
  const commands = ansibleTaskCommands(playbook);
  if (commands.length === 0) return undefined;
  // ssh hands its words to the host's shell as one line: the script is one word, quoted once more for sudo.
  const script = commands.join('\n');
  return ['ssh', pattern, input['become'] === true ? `sudo sh -c ${quoted(script)}` : script];
}

/** Keys that only git's configuration has: a config tool given one is setting git's. */
const GIT_CONFIG_KEY = /^(core|url|credential|alias|filter|diff|merge|include|includeif|sequence|gpg|http)\./i;

function sshLine(input: Input): string[] | undefined {
  const host = text(input, 'host', 'hostname', 'server');
  if (host === undefined) return undefined;
  const user = text(input, 'user', 'username');
  const line = ['ssh'];
  for (const option of sshOptions(input)) line.push('-o', option);
  const port = input['port'];
  if (typeof port === 'number' || typeof port === 'string') line.push('-p', String(port));
  const identity = text(input, 'identity_file', 'identityFile', 'key_path', 'keyPath', 'private_key_path');
  if (identity !== undefined) line.push('-i', identity);
  line.push(user ? `${user}@${host}` : host);
  const command = text(input, 'command', 'cmd');
  return command === undefined ? line : [...line, command];
}

/** A Kubernetes or Helm server's release tools: `helm install NAME CHART`, with its post-renderer (a program helm runs). */
/**
 * A Kubernetes server's kubectl tools: `kubectl apply -f FILE` (a URL too), `kubectl delete KIND NAME`, in the
 * context they name. A manifest given inline is applied from standard input, its text the heredoc's.
 */
function kubectlLine(verb: string, input: Input): string[] | undefined {
  const action = /^(?:kubectl_)?(apply|delete|create|patch|scale)\b/.exec(verb)?.[1];
  if (action === undefined) return undefined;
  const context = text(input, 'context', 'kubeContext', 'kube_context');
  const namespace = text(input, 'namespace', 'ns');
  const file = text(input, 'filename', 'file', 'url', 'path');
  return [
    'kubectl',
    action,
    ...(file !== undefined ? ['-f', file] : []),
    ...words(input, 'resourceType', 'resource_type', 'kind'),
    ...words(input, 'name', 'resourceName', 'resource_name'),
    ...(namespace ? ['-n', namespace] : []),
    ...(context ? ['--context', context] : []),
  ];
}

function helmLine(verb: string, input: Input): string[] | undefined {
  const action = /^(?:helm_)?(install|upgrade|template|uninstall|rollback)/.exec(verb)?.[1];
  if (action === undefined || (!verb.startsWith('helm') && input['chart'] === undefined)) return undefined;
  const namespace = text(input, 'namespace', 'ns');
  const renderer = text(input, 'postRenderer', 'post_renderer');
  return [
    'helm',
    action,
    ...words(input, 'name', 'release', 'releaseName', 'release_name'),
    ...words(input, 'chart', 'chartRef', 'chart_ref'),
    ...(namespace ? ['-n', namespace] : []),
    ...(renderer ? ['--post-renderer', renderer] : []),
    ...words(input, 'postRendererArgs', 'post_renderer_args').flatMap((arg) => ['--post-renderer-args', arg]),
  ];
}

/** An Xcode server's build tools: `xcodebuild -workspace W -scheme S NAME=VALUE…`, its build settings as words. */
function xcodeLine(verb: string, input: Input): string[] | undefined {
  if (!/build|archive|test/.test(verb)) return undefined;
  const settings = input['buildSettings'] ?? input['build_settings'];
  const assignments =
    settings && typeof settings === 'object' && !Array.isArray(settings)
      ? Object.entries(settings).flatMap(([name, value]) => (typeof value === 'string' ? [`${name}=${value}`] : []))
      : [];
  const option = (flag: string, ...names: string[]) => {
    const value = text(input, ...names);
    return value === undefined ? [] : [flag, value];
  };
  return [
    'xcodebuild',
    ...option('-workspace', 'workspace', 'workspacePath'),
    ...option('-project', 'project', 'projectPath'),
    ...option('-scheme', 'scheme'),
    ...option('-configuration', 'configuration'),
    ...assignments,
  ];
}

// Terraform's subcommands a generic tool (`run`, `execute`) names in its `command` argument.
const TERRAFORM_SUBCOMMAND =
  /^(apply|destroy|plan|import|state|taint|untaint|force-unlock|workspace|init|output|show)$/;

function terraformLine(verb: string, input: Input): string[] | undefined {
  const named = text(input, 'command', 'subcommand', 'action');
  const action =
    /^(apply|destroy|plan|import|state_rm|taint)/.exec(verb)?.[1] ??
    (named !== undefined && TERRAFORM_SUBCOMMAND.test(named) ? named : undefined);
  if (action === undefined) return undefined;
  const directory = text(input, 'directory', 'dir', 'working_dir', 'workingDir', 'path');
  const line = ['terraform', ...(directory ? [`-chdir=${directory}`] : []), action.replace('_', ' ')];
  if (input['destroy'] === true) line.push('-destroy');
  if (input['auto_approve'] === true || input['autoApprove'] === true) line.push('-auto-approve');
  return [...line, ...words(input, ...EXTRA_ARGUMENTS)];
}

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'pip', 'pip3', 'uv', 'cargo', 'gem', 'go']);

function packageLine(server: string, verb: string, input: Input): string[] | undefined {
  if (!/^(install|add)/.test(verb)) return undefined;
  const packages = words(input, 'packages', 'package', 'name', 'names', 'specs');
  if (packages.length === 0) return undefined;
  const dev = input['dev'] === true || input['save_dev'] === true || input['saveDev'] === true;
  return [server, 'install', ...(dev ? ['--save-dev'] : []), ...packages];
}

const PROGRAM_PARAMS = ['program', 'executable', 'binary'];
/** Servers that run programs, whose `command` is the program to run (a data store's `command` is its own verb). */
const RUNNER_SERVER = /(exec|shell|terminal|process|spawn|command|console|system|bash|runner)/;
const ARGV_PARAMS = ['args', 'arguments', 'argv'];
const ENV_PARAMS = ['env', 'environment', 'env_vars', 'envVars'];

/** `NAME=value` words for the variables an exec tool sets for its program. */
function assignments(input: Input): string[] {
  for (const name of ENV_PARAMS) {
    const value = input[name];
    if (value && typeof value === 'object' && !Array.isArray(value))
      return Object.entries(value).flatMap(([key, v]) =>
        /^[A-Za-z_]\w*$/.test(key) && typeof v === 'string' ? [`${key}=${quoted(v)}`] : [],
      );
  }
  return [];
}

/**
 * An exec tool's program with its argument list and environment (`{"program": "less", "args": [...],
 * "env": {...}}`): the command line it runs. A program named with spaces in it is a command line
 * already (an inferred shell face reads it).
 */
function execLine(server: string, input: Input): string | undefined {
  const program = text(input, ...PROGRAM_PARAMS, ...(RUNNER_SERVER.test(server) ? ['command', 'cmd'] : []));
  if (program === undefined || /\s/.test(program)) return undefined;
  const argv = ARGV_PARAMS.find((name) => Array.isArray(input[name]));
  const env = assignments(input);
  if (argv === undefined && env.length === 0) return undefined;
  return [...env, ...[program, ...(argv ? words(input, argv) : [])].map(quoted)].join(' ');
}

/** Build and test tools a server may be named for (`cargo-helper`, `dotnet-sdk`, `mix-runner`). */
const TOOLCHAINS: Record<string, string> = {
  cargo: 'cargo',
  dotnet: 'dotnet',
  mix: 'mix',
  gradle: 'gradle',
  maven: 'mvn',
  mvn: 'mvn',
  npm: 'npm',
  pnpm: 'pnpm',
  yarn: 'yarn',
  go: 'go',
  make: 'make',
  bundle: 'bundle',
  rake: 'rake',
  pytest: 'pytest',
  poetry: 'poetry',
  deno: 'deno',
  bun: 'bun',
  node: 'node',
  python: 'python3',
};

/**
 * A build tool's server given an environment for its run (`{"env": {"RUSTC_WRAPPER": …}}` to a cargo
 * server's build): that tool's run with those variables, which decide what else it runs.
 */
function toolchainLine(server: string, verb: string, input: Input): string | undefined {
  const first = server.split(/[-_]/)[0] ?? '';
  const program = Object.hasOwn(TOOLCHAINS, first) ? TOOLCHAINS[first] : undefined;
  const env = assignments(input);
  if (program === undefined || env.length === 0) return undefined;
  const action = /^[a-z]+/.exec(verb)?.[0];
  return [...env, program, ...(action ? [action] : [])].join(' ');
}

/** The command line an MCP tool that wraps a CLI stands for, or undefined for any other tool. */
export function wrappedCommandLine(tool: string, input: Input): string | undefined {
  if (!tool.startsWith('mcp__')) return undefined;
  const split = tool.indexOf('__', 'mcp__'.length + 1);
  if (split === -1) return undefined;
  const server = tool.slice('mcp__'.length, split).toLowerCase();
  const verb = tool.slice(split + 2).toLowerCase();
  return (
    commandLineOf(server, verb, input)?.map(quoted).join(' ') ??
    execLine(server, input) ??
    toolchainLine(server, verb, input)
  );
}

function commandLineOf(server: string, verb: string, input: Input): string[] | undefined {
  if (server === 'git' || verb.startsWith('git_')) return gitLine(verb, input);
  const configKey = text(input, 'key', 'name');
  if (/config/.test(verb) && configKey !== undefined && GIT_CONFIG_KEY.test(configKey)) return gitLine('config', input);
  if (server === 'aws' && /send_command|run_command/.test(verb)) return ssmLine(input);
  if (server === 'aws') return awsLine(input);
  if ((server === 'gcloud' || server === 'gcp') && /ssh/.test(verb)) return computeSshLine(input);
  if (server === 'gcloud' || server === 'gcp') return cloudLine('gcloud', input);
  if (server === 'ansible') return ansibleLine(verb, input);
  if (server === 'az' || server === 'azure') return cloudLine('az', input);
  if (server === 'ssh' || /^ssh_/.test(verb)) return sshLine(input);
  if (server === 'terraform') return terraformLine(verb.replace(/^terraform_/, ''), input);
  if (server === 'xcode' || server === 'xcodebuild') return xcodeLine(verb, input);
  if (server === 'helm' || server === 'kubernetes' || server === 'k8s' || verb.startsWith('helm_'))
    return helmLine(verb, input) ?? (server === 'helm' ? undefined : kubectlLine(verb, input));
  if (server === 'gradle' || server === 'maven' || server === 'mvn') return buildToolLine(server, input);
  return PACKAGE_MANAGERS.has(server) ? packageLine(server, verb, input) : undefined;
}

/**
 * `{"project_dir": …, "task": ":app:assembleRelease", "args": ["--init-script", …]}` to a Gradle server is
 * `gradle -p DIR :app:assembleRelease --init-script …`; a Maven server's goals are `mvn -f DIR goals …`.
 */
function buildToolLine(server: string, input: Input): string[] {
  const gradle = server === 'gradle';
  const dir = text(input, 'project_dir', 'projectDir', 'project_path', 'projectPath', 'cwd');
  const tasks = words(input, 'task', 'tasks', 'goal', 'goals');
  return [
    gradle ? 'gradle' : 'mvn',
    ...(dir !== undefined ? [gradle ? '-p' : '-f', dir] : []),
    ...tasks,
    ...words(input, ...EXTRA_ARGUMENTS),
  ];
}
