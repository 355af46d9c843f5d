// Rows and open asks repeat the same strings many times over (the session, the project, the command's
// summary, the search text, a reason, an arguments digest), yet each is built anew from its own call,
// so 10,000 rows of one busy session held 10,000 copies of each. The pool hands back the copy it
// already holds. It is bounded: past its limit the oldest entry goes, and a string seen again later is
// simply kept once more, so nothing depends on a string still being in the pool.

export const DEFAULT_POOL_SIZE = 4096;

export class StringPool {
  private readonly strings = new Map<string, string>();

  constructor(private readonly limit = DEFAULT_POOL_SIZE) {}

  get size(): number {
    return this.strings.size;
  }

  /** The pool's copy of `text` (equal to it), kept for the next caller. */
  intern(text: string): string {
    const held = this.strings.get(text);
    if (held !== undefined) return held;
    this.strings.set(text, text);
    if (this.strings.size > this.limit) this.strings.delete(this.strings.keys().next().value as string);
    return text;
  }

  /** intern() for a value that may be null. */
  internOrNull(text: string | null): string | null {
    return text === null ? null : this.intern(text);
  }
}
