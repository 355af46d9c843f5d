// Which changes to the `cloud` settings need a person. Each of these decides where the person's
// words go or what the org enforces, so they loosen: turning Cloud on or off, changing its URL,
// its key variable or its machine id, moving from enforce to observe, observing more policies,
// and shortening the timeout (a Cloud that times out more often enforces less). What tightens:
// observe to enforce (both already send), observing fewer policies, a longer timeout.
// The config classifier (loosening.ts) uses it for the `cloud` key.
import { isDeepStrictEqual } from 'node:util';
import { change, listChange, type ConfigChange } from './change';
import { DEFAULT_CLOUD_TIMEOUT_MS, type WardenConfigFile } from './schema';

export function classifyCloudChange(before: WardenConfigFile, after: WardenConfigFile): ConfigChange[] {
  const a = before.cloud ?? {};
  const b = after.cloud ?? {};
  const changes: ConfigChange[] = [];
  const fromMode = a.mode ?? 'off';
  const toMode = b.mode ?? 'off';
  if (fromMode !== toMode)
    changes.push(change(['cloud', 'mode'], fromMode === 'observe' && toMode === 'enforce', a.mode, b.mode));
  for (const key of ['url', 'keyEnv', 'machineId'] as const)
    if (a[key] !== b[key]) changes.push(change(['cloud', key], false, a[key], b[key]));
  // Observing fewer policies enforces more; observing more is a loosening.
  const fromObserved = a.observedPolicies ?? [];
  const toObserved = b.observedPolicies ?? [];
  if (!isDeepStrictEqual([...fromObserved].sort(), [...toObserved].sort()))
    changes.push(...listChange(['cloud', 'observedPolicies'], fromObserved, toObserved, 'removing'));
  const fromTimeout = a.timeoutMs ?? DEFAULT_CLOUD_TIMEOUT_MS;
  const toTimeout = b.timeoutMs ?? DEFAULT_CLOUD_TIMEOUT_MS;
  if (fromTimeout !== toTimeout)
    changes.push(change(['cloud', 'timeoutMs'], toTimeout > fromTimeout, a.timeoutMs, b.timeoutMs));
  return changes;
}
