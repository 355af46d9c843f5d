// RFC 8785, the JSON Canonicalization Scheme (JCS): the one byte form of a JSON value that
// an approval's digest is taken over. No maintained implementation is installed here, and
// JCS reduces to ECMAScript's own serializers, so this is our own:
// - object members sorted by their names compared as UTF-16 code units (the default
//   comparison of Array.prototype.sort), no whitespace;
// - numbers as ECMAScript Number::toString, which is String(n) for finite n (and -0 → "0");
// - strings as JSON.stringify writes them (short escapes for \b \t \n \f \r " \\, \u00xx for
//   other controls, everything else literal), which is exactly the JCS rule for well-formed
//   strings. Lone surrogates are an error, as RFC 8785 requires.
// Callers that want a sentence naming the problem run checkBindable first (see digest.ts).

import { escapeCodeUnit, findLoneSurrogate } from './surrogates';

export class CanonicalJsonError extends TypeError {
  override name = 'CanonicalJsonError';
}

/** The RFC 8785 canonical form of plain JSON data; throws CanonicalJsonError for anything else. */
export function canonicalJson(value: unknown): string {
  return new CanonicalWriter().write(value);
}

// Each distinct member name is quoted once per call: tool inputs repeat the same few names
// thousands of times. Concatenation is left to V8's string ropes, which measured faster here
// than collecting pieces for one join.
class CanonicalWriter {
  private readonly quotedNames = new Map<string, string>();

  write(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return quote(value);
      case 'number':
        if (!Number.isFinite(value)) throw new CanonicalJsonError(`${String(value)} has no JSON form`);
        return String(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'object':
        if (value === null) return 'null';
        return Array.isArray(value) ? this.writeArray(value) : this.writeObject(value);
      default:
        throw new CanonicalJsonError(`a ${typeof value} has no JSON form`);
    }
  }

  private writeArray(items: readonly unknown[]): string {
    let text = '[';
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      if (item === undefined && !Object.prototype.hasOwnProperty.call(items, index)) {
        throw new CanonicalJsonError(`an array hole at index ${index} has no JSON form`);
      }
      text += index === 0 ? this.write(item) : `,${this.write(item)}`;
    }
    return `${text}]`;
  }

  private writeObject(record: object): string {
    const prototype: unknown = Object.getPrototypeOf(record);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new CanonicalJsonError('only plain objects have a canonical JSON form');
    }
    const names = Object.keys(record);
    names.sort();
    let text = '{';
    for (let index = 0; index < names.length; index++) {
      const name = names[index] as string;
      if (index > 0) text += ',';
      text += this.quotedName(name);
      text += this.write((record as Record<string, unknown>)[name]);
    }
    return `${text}}`;
  }

  private quotedName(name: string): string {
    let quoted = this.quotedNames.get(name);
    if (quoted === undefined) {
      quoted = `${quote(name)}:`;
      this.quotedNames.set(name, quoted);
    }
    return quoted;
  }
}

function quote(text: string): string {
  const lone = findLoneSurrogate(text);
  if (lone !== null) throw new CanonicalJsonError(`a lone surrogate ${escapeCodeUnit(lone)} has no canonical form`);
  return JSON.stringify(text);
}

/**
 * The canonical form of `value` in one pass when it is bindable (see bindable.ts: plain data, well-formed
 * strings, finite numbers, at most `maxDepth` levels), else null; the caller then runs the full check for
 * the sentence naming the problem. The same bytes as canonicalJson, without a second walk over the value.
 */
export function canonicalIfBindable(value: unknown, maxDepth: number): string | null {
  const chunks: string[] = [];
  return writeIfBindable(value, maxDepth, (chunk) => chunks.push(chunk)) ? chunks.join('') : null;
}

/**
 * Hands the canonical form of `value` to `sink` in chunks of a few KB, as it is written (a digest
 * hashes them without one large string ever being built); false when the value is not bindable, and
 * then what was handed over means nothing.
 */
export function writeIfBindable(value: unknown, maxDepth: number, sink: (chunk: string) => void): boolean {
  const writer = new BindableCanonicalWriter(maxDepth, sink);
  try {
    if (!writer.write(value, 0)) return false;
  } catch {
    // A throwing getter or proxy trap: the full check says where.
    return false;
  }
  writer.flush();
  return true;
}

const CHUNK_CHARS = 16 * 1024;

/** Member names in the order an object lists them, leading to their sorted order (see sortedNames). */
interface NameOrder {
  next: Map<string, NameOrder>;
  sorted?: string[];
}

// Objects with more members than this are sorted directly: a big map-like object is met once.
const REMEMBERED_ORDER_MAX = 32;

class BindableCanonicalWriter {
  /** Each member name quoted once per call, as it opens an object's first member and as it follows a comma. */
  private readonly quotedNames = new Map<string, readonly [first: string, later: string]>();
  private readonly orders: NameOrder = { next: new Map() };
  private pending = '';

  constructor(
    private readonly maxDepth: number,
    private readonly sink: (chunk: string) => void,
  ) {}

  flush(): void {
    if (this.pending !== '') this.sink(this.pending);
    this.pending = '';
  }

  private emit(text: string): void {
    this.pending += text;
    if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  /** `depth` counts the objects and arrays that enclose `value`. */
  write(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case 'string':
        if (findLoneSurrogate(value) !== null) return false;
        this.emit(JSON.stringify(value));
        return true;
      case 'number':
        if (!Number.isFinite(value)) return false;
        this.emit(String(value));
        return true;
      case 'boolean':
        this.emit(value ? 'true' : 'false');
        return true;
      case 'object':
        if (value === null) {
          this.emit('null');
          return true;
        }
        // A cycle is deeper than any limit: it ends here too.
        if (depth >= this.maxDepth) return false;
        return Array.isArray(value) ? this.writeArray(value, depth + 1) : this.writeObject(value, depth + 1);
      default:
        return false;
    }
  }

  private writeArray(items: readonly unknown[], level: number): boolean {
    if (Object.getPrototypeOf(items) !== Array.prototype) return false;
    this.emit('[');
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      if (item === undefined) return false;
      if (index > 0) this.emit(',');
      if (!this.write(item, level)) return false;
    }
    this.emit(']');
    return true;
  }

  private writeObject(record: object, level: number): boolean {
    const prototype: unknown = Object.getPrototypeOf(record);
    if (prototype !== Object.prototype && prototype !== null) return false;
    if (Object.getOwnPropertySymbols(record).length > 0) return false;
    const names = this.sortedNames(Object.keys(record));
    this.emit('{');
    for (let index = 0; index < names.length; index++) {
      const name = names[index] as string;
      const quoted = this.quotedName(name);
      if (quoted === null) return false;
      this.emit(quoted[index === 0 ? 0 : 1]);
      if (!this.write((record as Record<string, unknown>)[name], level)) return false;
    }
    this.emit('}');
    return true;
  }

  /**
   * `names` sorted. Records of one shape list the same names in the same order, thousands of times in
   * a bulk payload: their sorted order is looked up by that sequence instead of sorted again.
   */
  private sortedNames(names: string[]): readonly string[] {
    if (names.length > REMEMBERED_ORDER_MAX) return names.sort();
    let node = this.orders;
    for (const name of names) {
      let next = node.next.get(name);
      if (next === undefined) {
        next = { next: new Map() };
        node.next.set(name, next);
      }
      node = next;
    }
    node.sorted ??= names.sort();
    return node.sorted;
  }

  private quotedName(name: string): readonly [string, string] | null {
    let quoted = this.quotedNames.get(name);
    if (quoted === undefined) {
      if (findLoneSurrogate(name) !== null) return null;
      const first = `${JSON.stringify(name)}:`;
      quoted = [first, `,${first}`];
      this.quotedNames.set(name, quoted);
    }
    return quoted;
  }
}
