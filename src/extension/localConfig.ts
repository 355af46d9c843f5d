import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The panel writes the local Warden config (.agent-warden/config.local.json):
// policy toggles and "not a secret" allow-list hashes, leaving every other key
// as it was.

export function localConfigPath(projectRoot: string): string {
  return join(projectRoot, '.agent-warden', 'config.local.json');
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the file (absent or empty: {}), lets `change` edit it, writes it back. */
function updateLocalConfig<T>(path: string, change: (json: JsonObject) => T): T {
  let json: JsonObject = {};
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (!isObject(parsed)) throw new Error(`${path} does not hold a JSON object; fix it by hand first`);
    json = parsed;
  }
  const result = change(json);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(json, null, 2) + '\n');
  return result;
}

export function setPolicyEnabled(path: string, policy: string, enabled: boolean): void {
  updateLocalConfig(path, (json) => {
    const policies = isObject(json.policies) ? { ...json.policies } : {};
    const current = policies[policy];
    const entry = isObject(current) ? { ...current } : {};
    entry.enabled = enabled;
    policies[policy] = entry;
    json.policies = policies;
  });
}

/** Adds a keyed hash to redaction.allowlist; false when it was there already. */
export function addAllowlistHash(path: string, hash: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(hash)) throw new Error('an allow-list entry is a keyed hash: 64 hex characters');
  return updateLocalConfig(path, (json) => {
    const redaction = isObject(json.redaction) ? { ...json.redaction } : {};
    const list = Array.isArray(redaction.allowlist)
      ? redaction.allowlist.filter((h): h is string => typeof h === 'string')
      : [];
    const added = !list.includes(hash);
    if (added) list.push(hash);
    redaction.allowlist = list;
    json.redaction = redaction;
    return added;
  });
}
