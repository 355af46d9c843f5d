// Which changes to the `cloud` settings need a person. Each of these decides where the person's
// words go or what the org enforces, so they loosen: turning Cloud on or off, changing its URL,
// its key variable or its machine id, moving from enforce to observe, observing more policies,
// and shortening the timeout (a Cloud that times out more often enforces less). What tightens:
// observe to enforce (both already send), observing fewer policies, a longer timeout.
// The shape is the config classifier's (key, effect, detail), so it slots in beside the others.
import { isDeepStrictEqual } from 'node:util';
import type { WardenConfigFile } from '../config/schema';
import { DEFAULT_CLOUD_TIMEOUT_MS } from './contract';

export interface CloudSettingChange {
  key: string;
  effect: 'tightens' | 'loosens';
  detail: string;
}

const show = (value: unknown): string => (value === undefined ? '(unset)' : JSON.stringify(value));

function change(key: string, tightens: boolean, from: unknown, to: unknown): CloudSettingChange {
  return { key, effect: tightens ? 'tightens' : 'loosens', detail: `${key}: ${show(from)} → ${show(to)}` };
}

export function classifyCloudChange(before: WardenConfigFile, after: WardenConfigFile): CloudSettingChange[] {
  const a = before.cloud ?? {};
  const b = after.cloud ?? {};
  const changes: CloudSettingChange[] = [];
  const fromMode = a.mode ?? 'off';
  const toMode = b.mode ?? 'off';
  if (fromMode !== toMode)
    changes.push(change('cloud.mode', fromMode === 'observe' && toMode === 'enforce', a.mode, b.mode));
  for (const key of ['url', 'keyEnv', 'machineId'] as const)
    if (a[key] !== b[key]) changes.push(change(`cloud.${key}`, false, a[key], b[key]));
  const fromObserved = a.observedPolicies ?? [];
  const toObserved = b.observedPolicies ?? [];
  if (!isDeepStrictEqual([...fromObserved].sort(), [...toObserved].sort())) {
    const narrows = toObserved.every((id) => fromObserved.includes(id));
    changes.push(change('cloud.observedPolicies', narrows, a.observedPolicies, b.observedPolicies));
  }
  const fromTimeout = a.timeoutMs ?? DEFAULT_CLOUD_TIMEOUT_MS;
  const toTimeout = b.timeoutMs ?? DEFAULT_CLOUD_TIMEOUT_MS;
  if (fromTimeout !== toTimeout)
    changes.push(change('cloud.timeoutMs', toTimeout > fromTimeout, a.timeoutMs, b.timeoutMs));
  return changes;
}
