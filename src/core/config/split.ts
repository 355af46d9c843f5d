import { configSchema, type WardenConfigFile } from './schema';
import { classifyConfigChange } from './loosening';
import type { ConfigChange } from './change';

// A change that both tightens and loosens is split: the tightening keys apply at
// once (tightening never waits for a person) and only the loosening keys are held.
// The split is used only when it is proven: the settings in force after it are a
// valid config that only tightens what was in force, and what still waits only loosens.

type Node = Record<string, unknown>;

function setAt(root: Node, at: readonly string[], value: unknown): void {
  let node = root;
  for (const key of at.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (typeof next !== 'object' || next === null || Array.isArray(next))
      Object.defineProperty(node, key, { value: {}, enumerable: true, writable: true, configurable: true });
    node = node[key] as Node;
  }
  const last = at[at.length - 1]!;
  if (value === undefined) delete node[last];
  else
    Object.defineProperty(node, last, {
      value: structuredClone(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

export interface SplitChange {
  /** The settings in force now: what was in force with the tightening keys applied. */
  inForce: WardenConfigFile;
  /** What still waits for a person, from `inForce` to the file: loosening only. */
  waiting: ConfigChange[];
}

/** The tightening part of `changes` (from `before` to `after`) applied on its own, or undefined when none can be. */
export function splitTightening(
  before: WardenConfigFile,
  after: WardenConfigFile,
  changes: readonly ConfigChange[],
): SplitChange | undefined {
  const tightening = changes.filter((c) => c.effect === 'tightens');
  if (tightening.length === 0) return undefined;
  const next = structuredClone(before) as Node;
  for (const c of tightening) setAt(next, c.at, c.value);
  const parsed = configSchema.safeParse(next);
  if (!parsed.success) return undefined;
  const inForce = parsed.data;
  const applied = classifyConfigChange(before, inForce);
  const waiting = classifyConfigChange(inForce, after);
  if (applied.length === 0 || applied.some((c) => c.effect !== 'tightens')) return undefined;
  if (waiting.length === 0 || waiting.some((c) => c.effect !== 'loosens')) return undefined;
  return { inForce, waiting };
}
