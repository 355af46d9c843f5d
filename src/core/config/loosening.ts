import { isDeepStrictEqual } from 'node:util';
import type { WardenConfigFile } from './schema';
import { DEFAULT_DETERMINISTIC_BUDGET_MS, DEFAULT_LOG_KEEP, DEFAULT_LOG_MAX_BYTES } from './defaults';
import { classifyCloudChange } from './cloud-changes';

// Every config key change is either proven to tighten, or it is a loosening:
// loosening waits for a person, tightening applies at once. Unknown keys never
// reach here (the schema refuses them), and each key the schema has is listed
// in CLASSIFIERS, so a new key without a rule fails the build's type check.

export interface ConfigChange {
  /** The key, dotted: policies.<name>.enabled, failure.decision, … */
  key: string;
  effect: 'tightens' | 'loosens';
  /** One line a person can judge: what it was, what it becomes. */
  detail: string;
}

type Key = keyof WardenConfigFile;
type Classifier = (before: WardenConfigFile, after: WardenConfigFile) => ConfigChange[];

const show = (value: unknown) => (value === undefined ? '(unset)' : JSON.stringify(value));

function change(key: string, tightens: boolean, from: unknown, to: unknown): ConfigChange {
  return { key, effect: tightens ? 'tightens' : 'loosens', detail: `${key}: ${show(from)} → ${show(to)}` };
}

function isSubset(after: readonly unknown[] | undefined, before: readonly unknown[] | undefined): boolean {
  if (after === undefined) return before === undefined;
  if (before === undefined) return false;
  return after.every((item) => before.some((b) => isDeepStrictEqual(b, item)));
}

/** A list that narrows what is let through (allowTools): setting or narrowing it tightens. */
function narrowingList(key: string, from: string[] | undefined, to: string[] | undefined): ConfigChange[] {
  if (isDeepStrictEqual(from, to)) return [];
  const tightens = to !== undefined && (from === undefined || isSubset(to, from));
  return [change(key, tightens, from, to)];
}

/** A list of exceptions (allow-list hashes, trusted roots): only removing items tightens. */
function exceptionList(key: string, from: unknown[] | undefined, to: unknown[] | undefined): ConfigChange[] {
  if (isDeepStrictEqual(from ?? [], to ?? [])) return [];
  return [change(key, isSubset(to ?? [], from ?? []), from, to)];
}

/** Anything other than equal loosens: no direction of change is proven to tighten. */
function opaque(key: string, from: unknown, to: unknown): ConfigChange[] {
  return isDeepStrictEqual(from, to) ? [] : [change(key, false, from, to)];
}

const FAILURE_RANK = { allow: 0, ask: 1, deny: 2 } as const;

function policyChanges(before: WardenConfigFile, after: WardenConfigFile): ConfigChange[] {
  const changes: ConfigChange[] = [];
  const names = new Set([...Object.keys(before.policies ?? {}), ...Object.keys(after.policies ?? {})]);
  for (const name of [...names].sort()) {
    const from = Object.hasOwn(before.policies ?? {}, name) ? before.policies![name] : undefined;
    const to = Object.hasOwn(after.policies ?? {}, name) ? after.policies![name] : undefined;
    if (from?.enabled !== to?.enabled)
      changes.push(change(`policies.${name}.enabled`, to?.enabled === true, from?.enabled, to?.enabled));
    const fromParams = from?.params ?? {};
    const toParams = to?.params ?? {};
    for (const param of [...new Set([...Object.keys(fromParams), ...Object.keys(toParams)])].sort()) {
      const a = fromParams[param];
      const b = toParams[param];
      if (isDeepStrictEqual(a, b)) continue;
      // A deny list that only grows refuses more, and an allowance switched off lets less
      // through; any other parameter change is not proven to tighten.
      const growsDenyList =
        /^(deny|block|protected)/i.test(param) &&
        Array.isArray(b) &&
        (a === undefined || (Array.isArray(a) && isSubset(a, b)));
      const dropsAllowance = /^allow/i.test(param) && b === false;
      changes.push(change(`policies.${name}.params.${param}`, growsDenyList || dropsAllowance, a, b));
    }
  }
  return changes;
}

const CLASSIFIERS: Record<Key, Classifier> = {
  $schema: () => [],
  policies: policyChanges,
  toolFaces: (a, b) => opaque('toolFaces', a.toolFaces, b.toolFaces),
  allowTools: (a, b) => narrowingList('allowTools', a.allowTools, b.allowTools),
  redaction: (a, b) => exceptionList('redaction.allowlist', a.redaction?.allowlist, b.redaction?.allowlist),
  semantic: (a, b) => opaque('semantic', a.semantic, b.semantic),
  // Cloud settings decide where the person's words go and which org checks are enforced.
  cloud: classifyCloudChange,
  approvals: (a, b) => opaque('approvals.timeoutSeconds', a.approvals?.timeoutSeconds, b.approvals?.timeoutSeconds),
  failure: (a, b) => {
    const from = a.failure?.decision;
    const to = b.failure?.decision;
    if (from === to) return [];
    return [change('failure.decision', FAILURE_RANK[to ?? 'deny'] >= FAILURE_RANK[from ?? 'deny'], from, to)];
  },
  budget: (a, b) => {
    const from = a.budget?.deterministicMs;
    const to = b.budget?.deterministicMs;
    if (from === to) return [];
    // A shorter budget only turns more calls into asks.
    const tightens = (to ?? DEFAULT_DETERMINISTIC_BUDGET_MS) <= (from ?? DEFAULT_DETERMINISTIC_BUDGET_MS);
    return [change('budget.deterministicMs', tightens, from, to)];
  },
  log: (a, b) => {
    const changes: ConfigChange[] = [];
    for (const field of ['maxBytes', 'keep'] as const) {
      const from = a.log?.[field];
      const to = b.log?.[field];
      if (from === to) continue;
      // Less room or fewer rotated files means rows are dropped sooner.
      const defaults = { maxBytes: DEFAULT_LOG_MAX_BYTES, keep: DEFAULT_LOG_KEEP };
      changes.push(change(`log.${field}`, (to ?? defaults[field]) >= (from ?? defaults[field]), from, to));
    }
    return changes;
  },
  trustedRoots: (a, b) => exceptionList('trustedRoots', a.trustedRoots, b.trustedRoots),
};

export const CLASSIFIED_KEYS = Object.keys(CLASSIFIERS) as Key[];

/** Every key change from one version of a config file to the next. */
export function classifyConfigChange(before: WardenConfigFile, after: WardenConfigFile): ConfigChange[] {
  return CLASSIFIED_KEYS.flatMap((key) => CLASSIFIERS[key](before, after));
}
