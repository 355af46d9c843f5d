import { Redactor } from '../../../redaction';

// The redactor's narrow detectors decide what a secret is, so the policies and
// the log agree. It never reads this machine's environment here: a policy's
// answer must not depend on which variables happen to be set.

let shared: Redactor | undefined;

function redactor(): Redactor {
  shared ??= new Redactor({ mode: 'narrow', env: {} });
  return shared;
}

/** Labels found by name or shape only (`token = "abc"`); short values under them are usually test data. */
const GENERIC_LABELS = new Set([
  'secret-assignment',
  'cli-credential-flag',
  'high-entropy',
  'secret-header',
  'basic-auth',
  'bearer-token',
  'named-value',
]);
const STRONG_GENERIC_LENGTH = 16;

export interface SecretScan {
  count: number;
  labels: string[];
  redacted: string;
}

/**
 * Secrets in a text. With `realLooking`, a value found only by its name must
 * also be long enough to be a real credential rather than a test placeholder.
 */
export function scanSecrets(text: string, opts: { realLooking?: boolean } = {}): SecretScan {
  if (text === '') return { count: 0, labels: [], redacted: text };
  const result = redactor().redactText(text);
  const findings = opts.realLooking
    ? result.findings.filter((f) => !GENERIC_LABELS.has(f.label) || f.valueLength >= STRONG_GENERIC_LENGTH)
    : result.findings;
  return { count: findings.length, labels: [...new Set(findings.map((f) => f.label))].sort(), redacted: result.text };
}
