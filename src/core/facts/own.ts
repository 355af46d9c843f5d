/** A table lookup by a name from outside (a command, a file name) that never finds Object's own members. */
export function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
