// The evaluation pool's waiting line, one line per session taken in turn: a session that
// sends hundreds of calls at once holds up only its own calls, and a call from any other
// session (another agent's ask, say) is the next to run once a worker is free. Within a
// session the order is kept, because each call reads what the ones before it remembered.

export class FairQueue<T> {
  /** Each session's waiting items, oldest first; a session is here only while it has some. */
  private readonly lines = new Map<string, T[]>();
  /** The sessions in the order they are served next. */
  private readonly turns: string[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(key: string, item: T): void {
    const line = this.lines.get(key);
    if (line) line.push(item);
    else {
      this.lines.set(key, [item]);
      this.turns.push(key);
    }
    this.size++;
  }

  /** Puts an item back first in line: it was handed out, and is now to be handed out again before the rest. */
  unshift(key: string, item: T): void {
    const line = this.lines.get(key);
    if (line) {
      line.unshift(item);
      this.turns.splice(this.turns.indexOf(key), 1);
    } else this.lines.set(key, [item]);
    this.turns.unshift(key);
    this.size++;
  }

  /** The oldest item of the session whose turn it is; that session goes to the back of the turns. */
  shift(): T | undefined {
    const key = this.turns.shift();
    if (key === undefined) return undefined;
    const line = this.lines.get(key)!;
    const item = line.shift()!;
    if (line.length) this.turns.push(key);
    else this.lines.delete(key);
    this.size--;
    return item;
  }

  /** The item shift() would hand out next, left in place. */
  peek(): T | undefined {
    const key = this.turns[0];
    return key === undefined ? undefined : this.lines.get(key)![0];
  }

  /** Whether the item still waits (it was not handed out or taken out). */
  has(key: string, item: T): boolean {
    return this.lines.get(key)?.includes(item) === true;
  }

  /** Takes an item out wherever it waits (it gave up waiting); false when it was not there. */
  remove(key: string, item: T): boolean {
    const line = this.lines.get(key);
    const at = line?.indexOf(item) ?? -1;
    if (!line || at < 0) return false;
    line.splice(at, 1);
    this.size--;
    if (line.length === 0) {
      this.lines.delete(key);
      this.turns.splice(this.turns.indexOf(key), 1);
    }
    return true;
  }

  /** Empties the queue, oldest sessions first. */
  drain(): T[] {
    const out: T[] = [];
    for (let item = this.shift(); item !== undefined; item = this.shift()) out.push(item);
    return out;
  }
}
