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
