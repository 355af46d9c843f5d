// How command-line programs place their options before their subcommand, shared by every reader of
// their words (the shell's hops, the facts, the policies).

/**
 * The aws CLI's global options that take a value, which may stand before its service and operation
 * (`aws --profile prod configure get …`). Read as flags, their values were taken for the service.
 */
export const AWS_VALUE_OPTIONS: ReadonlySet<string> = new Set(
  [
    ...['profile', 'region', 'output', 'endpoint-url', 'query', 'color', 'ca-bundle', 'cli-input-json'],
    ...['cli-input-yaml', 'cli-read-timeout', 'cli-connect-timeout', 'cli-binary-format'],
  ].map((name) => `--${name}`),
);

/** aws's value options as infrastructure and credential readers name them (without the dashes). */
export const AWS_VALUE_LONG: readonly string[] = [...AWS_VALUE_OPTIONS].map((option) => option.slice(2));

/** A CLI's global options that take a value, as short letters and long names (without dashes). */
export interface ValueOptions {
  short: readonly string[];
  long: readonly string[];
}

/**
 * psql's options whose value it runs (`-c`), and the wrapper that hands them to psql against a deployed
 * database (`heroku pg:psql -c …`). Read by the SQL policies and by the psql meta-command hop alike.
 */
export const PSQL_COMMAND_OPTIONS = { short: ['c'], long: ['command'] } as const;
export const HEROKU_PSQL_SUBCOMMAND = 'pg:psql';

const ENGINE_GLOBALS: ValueOptions = {
  short: ['H', 'c', 'l'],
  long: [
    ...['host', 'context', 'config', 'log-level', 'tlscacert', 'tlscert', 'tlskey'],
    ...['url', 'connection', 'identity', 'root', 'runroot'],
  ],
};

/**
 * The global options that take a value, for the CLIs whose readers look for a subcommand: written before
 * it (`git -c color.ui=false credential fill`, `docker -l error push …`, `helm --kube-context x plugin
 * install …`), their value is not the subcommand.
 */
export const GLOBAL_VALUE_OPTIONS: Readonly<Record<string, ValueOptions>> = {
  git: { short: ['C', 'c'], long: ['git-dir', 'work-tree', 'namespace', 'config-env', 'super-prefix'] },
  docker: ENGINE_GLOBALS,
  podman: ENGINE_GLOBALS,
  nerdctl: ENGINE_GLOBALS,
  helm: {
    short: ['n'],
    long: [
      ...['kube-context', 'kubeconfig', 'namespace', 'registry-config', 'repository-config', 'repository-cache'],
      ...['kube-apiserver', 'kube-as-user', 'kube-as-group', 'kube-ca-file', 'kube-token', 'burst-limit', 'qps'],
    ],
  },
  aws: { short: [], long: AWS_VALUE_LONG },
  awslocal: { short: [], long: AWS_VALUE_LONG },
};

/** A program's global value options, if the table has it. */
export function globalValueOptions(program: string): ValueOptions | undefined {
  return Object.hasOwn(GLOBAL_VALUE_OPTIONS, program) ? GLOBAL_VALUE_OPTIONS[program] : undefined;
}

/** The same options as the words written (`-H`, `--host`), for subcommandAt. */
export function dashedValueOptions(options: ValueOptions): ReadonlySet<string> {
  return new Set([...options.short.map((letter) => `-${letter}`), ...options.long.map((name) => `--${name}`)]);
}

const NO_VALUES: ReadonlySet<string> = new Set();

/**
 * Where a CLI's subcommand starts: past the options written before it (`npm --silent config …`,
 * `docker -D build …`), with the value of each one `valueOptions` names (`docker -H HOST build`).
 */
export function subcommandAt(args: readonly string[], valueOptions: ReadonlySet<string> = NO_VALUES): number {
  let at = 0;
  while (at < args.length && args[at]!.startsWith('-') && args[at] !== '-' && args[at] !== '--')
    at += valueOptions.has(args[at]!) ? 2 : 1;
  return at;
}

/** The wrappers that run the command after them as root (`sudo`, `doas`, …); `su` takes a script instead. */
export const ROOT_WRAPPERS: ReadonlySet<string> = new Set(['sudo', 'doas', 'pkexec', 'run0', 'gsudo', 'runas']);
