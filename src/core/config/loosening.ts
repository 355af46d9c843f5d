import { isDeepStrictEqual } from 'node:util';
import type { WardenConfigFile } from './schema';
import { DEFAULT_DETERMINISTIC_BUDGET_MS, DEFAULT_LOG_KEEP, DEFAULT_LOG_MAX_BYTES } from './defaults';
import { classifyCloudChange } from './cloud-changes';
import { change, listChange, type ConfigChange } from './change';

// Every config key change is either proven to tighten, or it is a loosening:
// loosening waits for a person, tightening applies at once. Unknown keys never
// reach here (the schema refuses them), and each key the schema has is listed
// in CLASSIFIERS, so a new key without a rule fails the build's type check.
// Each change says where it lands in the file and what it sets there, so the
// tightening part of a mixed change can apply on its own (split.ts).

export type { ConfigChange } from './change';

type Key = keyof WardenConfigFile;
type Classifier = (before: WardenConfigFile, after: WardenConfigFile) => ConfigChange[];

/** Anything other than equal loosens: no direction of change is proven to tighten. */
function opaque(at: string[], from: unknown, to: unknown): ConfigChange[] {
  return isDeepStrictEqual(from, to) ? [] : [change(at, false, from, to)];
}

const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

const keysOf = (...records: (Record<string, unknown> | undefined)[]): string[] =>
  [...new Set(records.flatMap((r) => Object.keys(r ?? {})))].sort();

const FAILURE_RANK = { allow: 0, ask: 1, deny: 2 } as const;

function policyChanges(before: WardenConfigFile, after: WardenConfigFile): ConfigChange[] {
  const changes: ConfigChange[] = [];
  for (const name of keysOf(before.policies, after.policies)) {
    const from = own(before.policies, name);
    const to = own(after.policies, name);
    if (from?.enabled !== to?.enabled)
      changes.push(change(['policies', name, 'enabled'], to?.enabled === true, from?.enabled, to?.enabled));
    const fromParams = from?.params ?? {};
    const toParams = to?.params ?? {};
    for (const param of keysOf(fromParams, toParams)) {
      const a = own(fromParams, param);
      const b = own(toParams, param);
      const at = ['policies', name, 'params', param];
      if (isDeepStrictEqual(a, b)) continue;
      // A deny list that only grows refuses more, and an allowance list that only shrinks (or an
      // allowance switched off) lets less through. A list set where there was none replaces the
      // policy's default list, and a list removed brings the default back: neither is proven.
      if (Array.isArray(a) && Array.isArray(b) && /^(deny|block|protected)/i.test(param))
        changes.push(...listChange(at, a, b, 'adding'));
      else if (Array.isArray(a) && Array.isArray(b) && /^allow/i.test(param))
        changes.push(...listChange(at, a, b, 'removing'));
      else changes.push(change(at, /^allow/i.test(param) && b === false, a, b));
    }
  }
  return changes;
}

/** allowTools narrows what is let through: setting it tightens, and so does dropping a tool from it. */
function allowToolsChange(before: WardenConfigFile, after: WardenConfigFile): ConfigChange[] {
  const from = before.allowTools;
  const to = after.allowTools;
  if (isDeepStrictEqual(from, to)) return [];
  if (from === undefined || to === undefined) return [change(['allowTools'], to !== undefined, from, to)];
  return listChange(['allowTools'], from, to, 'removing');
}

const CLASSIFIERS: Record<Key, Classifier> = {
  $schema: () => [],
  policies: policyChanges,
  toolFaces: (a, b) =>
    keysOf(a.toolFaces, b.toolFaces).flatMap((tool) =>
      opaque(['toolFaces', tool], own(a.toolFaces, tool), own(b.toolFaces, tool)),
    ),
  allowTools: allowToolsChange,
  // Exceptions (allow-list hashes, trusted roots): only removing items tightens.
  redaction: (a, b) =>
    listChange(['redaction', 'allowlist'], a.redaction?.allowlist ?? [], b.redaction?.allowlist ?? [], 'removing'),
  semantic: (a, b) => opaque(['semantic'], a.semantic, b.semantic),
  // Cloud settings decide where the person's words go and which org checks are enforced.
  cloud: classifyCloudChange,
  approvals: (a, b) =>
    opaque(['approvals', 'timeoutSeconds'], a.approvals?.timeoutSeconds, b.approvals?.timeoutSeconds),
  failure: (a, b) => {
    const from = a.failure?.decision;
    const to = b.failure?.decision;
    if (from === to) return [];
    return [change(['failure', 'decision'], FAILURE_RANK[to ?? 'deny'] >= FAILURE_RANK[from ?? 'deny'], from, to)];
  },
  budget: (a, b) => {
    const from = a.budget?.deterministicMs;
    const to = b.budget?.deterministicMs;
    if (from === to) return [];
    // A shorter budget only turns more calls into asks.
    const tightens = (to ?? DEFAULT_DETERMINISTIC_BUDGET_MS) <= (from ?? DEFAULT_DETERMINISTIC_BUDGET_MS);
    return [change(['budget', 'deterministicMs'], tightens, from, to)];
  },
  log: (a, b) => {
    const changes: ConfigChange[] = [];
    for (const field of ['maxBytes', 'keep'] as const) {
      const from = a.log?.[field];
      const to = b.log?.[field];
      if (from === to) continue;
      // Less room or fewer rotated files means rows are dropped sooner.
      const defaults = { maxBytes: DEFAULT_LOG_MAX_BYTES, keep: DEFAULT_LOG_KEEP };
      changes.push(change(['log', field], (to ?? defaults[field]) >= (from ?? defaults[field]), from, to));
    }
    return changes;
  },
  trustedRoots: (a, b) => listChange(['trustedRoots'], a.trustedRoots ?? [], b.trustedRoots ?? [], 'removing'),
};

export const CLASSIFIED_KEYS = Object.keys(CLASSIFIERS) as Key[];

/** Every key change from one version of a config file to the next. */
export function classifyConfigChange(before: WardenConfigFile, after: WardenConfigFile): ConfigChange[] {
  return CLASSIFIED_KEYS.flatMap((key) => CLASSIFIERS[key](before, after));
}
