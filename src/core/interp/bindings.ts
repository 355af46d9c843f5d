// Which value a name holds, for the names a reader can be sure of: bound once by a plain
// assignment or an import. A name bound any other way (a parameter, a loop variable, two
// different assignments) holds an unknown value; a list or record mutated through a method or an
// element assignment too.
import { UNKNOWN, type Value } from './values';

type Binding<N> = { kind: 'assign'; node: N } | { kind: 'fixed'; value: Value } | { kind: 'other' };

export class Bindings<N> {
  private readonly byName = new Map<string, Binding<N>[]>();
  private readonly mutated = new Set<string>();
  private readonly resolved = new Map<string, Value>();
  private readonly resolving = new Set<string>();

  assign(name: string, node: N): void {
    this.push(name, { kind: 'assign', node });
  }

  fixed(name: string, value: Value): void {
    this.push(name, { kind: 'fixed', value });
  }

  other(name: string): void {
    this.push(name, { kind: 'other' });
  }

  mutate(name: string): void {
    this.mutated.add(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The name's value; undefined when the code never binds it (a builtin or a global module). */
  lookup(name: string, resolve: (node: N) => Value): Value | undefined {
    const bindings = this.byName.get(name);
    if (!bindings) return undefined;
    const known = this.resolved.get(name);
    if (known) return known;
    if (this.resolving.has(name)) return UNKNOWN;
    this.resolving.add(name);
    try {
      const value = this.valueOf(name, bindings, resolve);
      this.resolved.set(name, value);
      return value;
    } finally {
      this.resolving.delete(name);
    }
  }

  private valueOf(name: string, bindings: Binding<N>[], resolve: (node: N) => Value): Value {
    const values = bindings.map((binding) =>
      binding.kind === 'assign' ? resolve(binding.node) : binding.kind === 'fixed' ? binding.value : UNKNOWN,
    );
    const first = values[0] ?? UNKNOWN;
    const key = JSON.stringify(first, (_key, value: unknown) => (value instanceof Map ? [...value] : value));
    const same = values.every(
      (value) => JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v] : v)) === key,
    );
    if (!same || first.kind === 'unknown') return UNKNOWN;
    if ((first.kind === 'list' || first.kind === 'record') && this.mutated.has(name)) return UNKNOWN;
    return first;
  }

  private push(name: string, binding: Binding<N>): void {
    const list = this.byName.get(name);
    if (list) list.push(binding);
    else this.byName.set(name, [binding]);
    this.resolved.clear();
  }
}
