import { isDeepStrictEqual } from 'node:util';

/** One classified key change of a config file. */
export interface ConfigChange {
  /** The key, dotted: policies.<name>.enabled, failure.decision, … */
  key: string;
  effect: 'tightens' | 'loosens';
  /** One line a person can judge: what it was, what it becomes. */
  detail: string;
  /** Where the change lands in the file. */
  at: string[];
  /** What it sets there when applied on its own (undefined: the key is removed). */
  value: unknown;
}

const show = (value: unknown) => (value === undefined ? '(unset)' : JSON.stringify(value));

export function change(at: string[], tightens: boolean, from: unknown, to: unknown, note = ''): ConfigChange {
  const key = at.join('.');
  return {
    key,
    effect: tightens ? 'tightens' : 'loosens',
    detail: `${key}: ${show(from)} → ${show(to)}${note}`,
    at,
    value: to,
  };
}

const missingFrom = (list: readonly unknown[], other: readonly unknown[]) =>
  list.filter((item) => !other.some((o) => isDeepStrictEqual(o, item)));

const items = (verb: string, list: unknown[]) => (list.length ? `${verb} ${list.map(show).join(', ')}` : '');

/**
 * A list whose items tighten when `tightensBy` them (adding to a deny list, removing from an
 * exception list). A change that does both is split in two: the tightening part, which applies on
 * its own, then the loosening part from there to the new list.
 */
export function listChange(
  at: string[],
  from: readonly unknown[],
  to: readonly unknown[],
  tightensBy: 'adding' | 'removing',
): ConfigChange[] {
  if (isDeepStrictEqual(from, to)) return [];
  const added = missingFrom(to, from);
  const removed = missingFrom(from, to);
  const note = (a: unknown[], r: unknown[]) => {
    const parts = [items('adds', a), items('removes', r)].filter(Boolean);
    return parts.length ? ` (${parts.join('; ')})` : '';
  };
  const tightening = tightensBy === 'adding' ? added : removed;
  const loosening = tightensBy === 'adding' ? removed : added;
  if (loosening.length === 0 || tightening.length === 0)
    return [change(at, loosening.length === 0, from, to, note(added, removed))];
  const between = tightensBy === 'adding' ? [...from, ...added] : missingFrom(from, removed);
  return [
    change(at, true, from, between, tightensBy === 'adding' ? note(added, []) : note([], removed)),
    change(at, false, between, to, tightensBy === 'adding' ? note([], removed) : note(added, [])),
  ];
}
