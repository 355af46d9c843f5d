// Ids in the order they came, each given a numbered slot that stays its own until the id goes: the
// newest `limit` are kept, the oldest dropped first, and a dropped id's slot is handed to the next.
// Callers keep what belongs to an id in typed arrays indexed by its slot, so holding 10,000 ids adds
// no object per id to the heap (a Map of objects did, and those died in the order they came, which
// left V8's old generation holding about twice what was live).

export class Slots {
  private readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  private used = 0;

  /** `released` hears of each slot an id gave up (replaced or dropped), before the slot is reused. */
  constructor(
    readonly limit: number,
    private readonly released: (slot: number) => void = () => undefined,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`slots need a limit of 1 or more (got ${limit})`);
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** How many slots have ever been handed out: an array indexed by slot needs this length. */
  get span(): number {
    return this.used;
  }

  get(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Makes `id` the newest, in a fresh slot (an id placed again loses its old one), dropping the oldest past the limit. */
  place(id: string): number {
    this.remove(id);
    if (this.slotOf.size >= this.limit) {
      const oldest = this.slotOf.keys().next().value;
      if (oldest !== undefined) this.remove(oldest);
    }
    const slot = this.free.pop() ?? this.used++;
    this.slotOf.set(id, slot);
    return slot;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.released(slot);
    this.free.push(slot);
  }

  clear(): void {
    for (const id of [...this.slotOf.keys()]) this.remove(id);
  }

  /** Ids and their slots, oldest first. */
  entries(): IterableIterator<[string, number]> {
    return this.slotOf.entries();
  }
}

type TypedArray = Float64Array | Uint8Array;

/** A typed array that grows (doubling, up to `max`) to hold any index below `max`; unset entries read 0. */
export class NumberColumn<T extends TypedArray = Float64Array> {
  private values: T;

  constructor(
    private readonly make: (length: number) => T,
    private readonly max: number,
    initial = 256,
  ) {
    this.values = make(Math.min(initial, max));
  }

  get(index: number): number {
    return index < this.values.length ? this.values[index]! : 0;
  }

  set(index: number, value: number): void {
    if (index >= this.values.length) {
      let length = Math.max(this.values.length, 1);
      while (length <= index) length *= 2;
      const grown = this.make(Math.min(length, this.max));
      grown.set(this.values);
      this.values = grown;
    }
    this.values[index] = value;
  }
}

export const floats = (max: number): NumberColumn => new NumberColumn((n) => new Float64Array(n), max);
export const bytes = (max: number): NumberColumn<Uint8Array> => new NumberColumn((n) => new Uint8Array(n), max);
