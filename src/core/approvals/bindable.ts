// Bindable means plain JSON data whose canonical bytes are the same for every reader:
// plain objects (prototype Object or null), dense arrays, well-formed strings, finite numbers,
// booleans and null, nested at most MAX_NESTING_DEPTH levels.
//
// How depth is counted: each object or array is one level, counting the checked value itself
// (tool_input). `{}` and `[]` are depth 1, `{"a":{"b":[1]}}` is depth 3, a bare scalar is depth
// 0; scalars add no level. So 256 nested arrays are bindable and 257 are not.
//
// Duplicate keys and overflowing number literals are invisible in a parsed value; rawJsonScan.ts
// finds those in the text.

import { escapeCodeUnit, findLoneSurrogate } from './surrogates';
import { formatPath, type PathSegment } from './jsonPath';

export const MAX_NESTING_DEPTH = 256;

export type Bindability = { ok: true } | { ok: false; problem: string };

/**
 * Whether `value` is plain JSON data; otherwise one sentence naming the first problem and where.
 * `at` is the value's own location, used to write paths (`['tool_input']` gives `$.tool_input.x`).
 */
export function checkBindable(value: unknown, at: readonly PathSegment[] = []): Bindability {
  const walker = new BindableWalker([...at]);
  let problem: string | null;
  try {
    problem = walker.walk(value, 0);
  } catch (error) {
    // Only exotic values throw here (a revoked proxy, a throwing getter); the walker's path
    // still points at the value it was reading.
    problem = walker.unreadable(error);
  }
  return problem === null ? { ok: true } : { ok: false, problem };
}

class BindableWalker {
  private readonly enclosing = new Set<object>();

  constructor(private readonly path: PathSegment[]) {}

  /** `depth` counts the objects and arrays that enclose `value`. */
  walk(value: unknown, depth: number): string | null {
    switch (typeof value) {
      case 'string':
        return this.checkString(value, 'a string');
      case 'number':
        return Number.isFinite(value) ? null : this.at(`a number that is not finite (${String(value)})`);
      case 'boolean':
        return null;
      case 'undefined':
        return this.at('an undefined value');
      case 'bigint':
        return this.at(`a bigint (${String(value)}n)`);
      case 'symbol':
        return this.at('a symbol');
      case 'function':
        return this.at('a function');
      case 'object':
        if (value === null) return null;
        return this.walkContainer(value, depth + 1);
    }
    return this.at(`a value of type ${typeof value}`);
  }

  private walkContainer(container: object, level: number): string | null {
    if (this.enclosing.has(container)) return this.at('a reference cycle (an object that contains itself)');
    if (level > MAX_NESTING_DEPTH) return this.at(`nesting deeper than ${MAX_NESTING_DEPTH} levels`);
    const nonPlain = describeNonPlain(container);
    if (nonPlain !== null) return this.at(`${nonPlain} (not plain JSON data)`);
    this.enclosing.add(container);
    const problem = Array.isArray(container) ? this.walkItems(container, level) : this.walkMembers(container, level);
    this.enclosing.delete(container);
    return problem;
  }

  private walkItems(items: readonly unknown[], level: number): string | null {
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      this.path.push(index);
      const problem =
        item === undefined && !Object.prototype.hasOwnProperty.call(items, index)
          ? this.at('a hole in a sparse array')
          : this.walk(item, level);
      this.path.pop();
      if (problem !== null) return problem;
    }
    return null;
  }

  private walkMembers(record: object, level: number): string | null {
    if (Object.getOwnPropertySymbols(record).length > 0) return this.at('a symbol-keyed property');
    for (const key of Object.keys(record)) {
      const keyProblem = this.checkString(key, 'a key');
      if (keyProblem !== null) return keyProblem;
      this.path.push(key);
      const problem = this.walk((record as Record<string, unknown>)[key], level);
      this.path.pop();
      if (problem !== null) return problem;
    }
    return null;
  }

  unreadable(error: unknown): string {
    const detail = error instanceof Error ? error.message : String(error);
    return this.at(`a value that cannot be read (${detail.slice(0, 80)})`);
  }

  private checkString(text: string, what: string): string | null {
    const lone = findLoneSurrogate(text);
    return lone === null ? null : this.at(`a lone surrogate ${escapeCodeUnit(lone)} in ${what}`);
  }

  private at(what: string): string {
    return `${what} at ${formatPath(this.path)}`;
  }
}

function describeNonPlain(container: object): string | null {
  const prototype: unknown = Object.getPrototypeOf(container);
  if (Array.isArray(container)) return prototype === Array.prototype ? null : describeInstance(container);
  if (prototype === Object.prototype || prototype === null) return null;
  return describeInstance(container);
}

function describeInstance(container: object): string {
  if (container instanceof Date) return 'a Date object';
  if (container instanceof Map) return 'a Map';
  if (container instanceof Set) return 'a Set';
  if (container instanceof RegExp) return 'a regular expression';
  if (container instanceof Promise) return 'a Promise';
  if (ArrayBuffer.isView(container) || container instanceof ArrayBuffer) return 'binary data';
  const name = constructorName(container);
  return name === null ? 'an object with a custom prototype' : `an instance of ${name}`;
}

function constructorName(container: object): string | null {
  try {
    const constructor: unknown = (container as { constructor?: unknown }).constructor;
    if (typeof constructor === 'function' && constructor.name !== '') return constructor.name.slice(0, 60);
  } catch {
    // A throwing getter or proxy trap: the object is reported without a name.
  }
  return null;
}
