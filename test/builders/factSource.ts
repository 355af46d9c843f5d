// A file system for policy tests that holds only the files given (path to text): what exists and
// what a policy reads through the call's I/O view, with nothing else on disk.
//   const source = aFilesSource({ '/home/dev/proj/.claude/settings.json': '{}' });
import { NO_FACT_SOURCE, type FactSource } from '../../src/core/facts/io';

export function aFilesSource(files: Record<string, string>): FactSource {
  return {
    ...NO_FACT_SOURCE,
    exists: (p) => Object.hasOwn(files, p),
    readText: (p) => (Object.hasOwn(files, p) ? (files[p] ?? null) : null),
  };
}
