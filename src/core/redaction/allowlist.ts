// "Not a secret" entries are stored as a keyed hash of the value, never the value itself.
import { createHmac } from 'node:crypto';
import type { RedactionAllowlist } from './types';

export function allowlistHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}

export function isAllowlisted(allowlist: RedactionAllowlist | undefined, value: string): boolean {
  if (!allowlist || allowlist.hashes.size === 0) return false;
  return allowlist.hashes.has(allowlistHash(allowlist.key, value));
}
