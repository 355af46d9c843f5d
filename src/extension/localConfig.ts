import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The panel's policy toggles write the local Warden config
// (.agent-warden/config.local.json), leaving every other key as it was.

export function localConfigPath(projectRoot: string): string {
  return join(projectRoot, '.agent-warden', 'config.local.json');
}

export function setPolicyEnabled(path: string, policy: string, enabled: boolean): void {
  let json: Record<string, unknown> = {};
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${path} does not hold a JSON object; fix it by hand first`);
    json = parsed as Record<string, unknown>;
  }
  const policies = typeof json.policies === 'object' && json.policies !== null && !Array.isArray(json.policies) ? { ...(json.policies as Record<string, unknown>) } : {};
  const current = policies[policy];
  const entry = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
  entry.enabled = enabled;
  policies[policy] = entry;
  json.policies = policies;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(json, null, 2) + '\n');
}
