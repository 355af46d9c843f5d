// Every label a `<redacted:label>` marker can carry. Stable: the log, the panel and the judge read them.

export const LABELS = [
  'anthropic-key',
  'authorization-header',
  'aws-access-key',
  'aws-account-id',
  'aws-secret-key',
  'azure-storage-key',
  'basic-auth',
  'bearer-token',
  'cli-credential-flag',
  'connection-string-password',
  'cookie-header',
  'digitalocean-token',
  'discord-webhook',
  'env-secret',
  'gcp-api-key',
  'github-token',
  'gitlab-token',
  'high-entropy',
  'huggingface-token',
  'jwt',
  'known-secret',
  'linear-key',
  'npm-token',
  'onepassword-token',
  'openai-key',
  'private-key',
  'pypi-token',
  'secret-assignment',
  'secret-header',
  'sendgrid-key',
  'shopify-token',
  'slack-token',
  'slack-webhook',
  'stripe-key',
  'too-deep',
  'url-credential',
  'url-password',
  'vault-token',
] as const;

export type Label = (typeof LABELS)[number];

const KNOWN = new Set<string>(LABELS);

/** Only the redactor's own labels make a marker: `<redacted:anything-else>` is ordinary text. */
export function isLabel(value: string): value is Label {
  return KNOWN.has(value);
}

const MARKER_OPEN = '<redacted:';

/**
 * A marker starts at `index`. An unquoted value that runs into one (`-u admin:<redacted:…>`) was
 * redacted already: its readers stop at the `<`, and what they read before it is left alone.
 */
export function markerAt(text: string, index: number): boolean {
  if (!text.startsWith(MARKER_OPEN, index)) return false;
  const close = text.indexOf('>', index);
  return close > 0 && close - index <= 80 && isLabel(text.slice(index + MARKER_OPEN.length, close));
}

/** A marker ends just before `index`. */
export function markerEndsAt(text: string, index: number): boolean {
  if (index <= 0 || text.charCodeAt(index - 1) !== 62) return false;
  const open = text.lastIndexOf(MARKER_OPEN, index - 1);
  return open >= 0 && index - open <= 80 && isLabel(text.slice(open + MARKER_OPEN.length, index - 1));
}

/** The whole value is one marker: already redacted, nothing to find in it. */
export function isMarker(value: string): boolean {
  return value.startsWith(MARKER_OPEN) && value.endsWith('>') && isLabel(value.slice(MARKER_OPEN.length, -1));
}
