// The aws CLI's global options that take a value, which may stand before its service and operation
// (`aws --profile prod configure get …`). Read as flags, their values were taken for the service, and the
// command for something else: every reader of aws's words shares this list.

export const AWS_VALUE_LONG: readonly string[] = [
  ...['profile', 'region', 'output', 'endpoint-url', 'query', 'color', 'ca-bundle', 'cli-input-json'],
  ...['cli-input-yaml', 'cli-read-timeout', 'cli-connect-timeout', 'cli-binary-format'],
];
