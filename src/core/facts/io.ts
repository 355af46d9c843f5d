// Facts that need the file system or git enter here, through an injected source, so that policies
// stay pure, tests fake the machine, and every answer a verdict rested on is recorded with it.
//
// The source is synchronous and memoized per call. Policies are synchronous; gathering answers
// ahead of them would need a second list of what each policy asks, which would drift from the
// policies themselves. The questions are few and bounded (a realpath per touched path, a capped
// read of a file the agent wrote and now runs, git only at Stop), and the evaluation runs under
// the deterministic time budget, so a stuck answer costs that call its budget, not the server.
import path from 'node:path';
import type { IoRecord } from './types';

export interface FactSource {
  /** The real path of an existing file or folder (symlinks followed), or null when it does not exist. */
  realpath(p: string): string | null;
  exists(p: string): boolean;
  /** At most maxBytes of a file's text, or null when it cannot be read. */
  readText(p: string, maxBytes: number): string | null;
  /** The names in a folder, or null. */
  listDir(p: string): string[] | null;
  /** git's stdout for these arguments in that folder, or null when git fails or is absent. */
  git(args: string[], cwd: string): string | null;
}

/** A source that knows nothing: every file is missing, git is absent. */
export const NO_FACT_SOURCE: FactSource = {
  realpath: () => null,
  exists: () => false,
  readText: () => null,
  listDir: () => null,
  git: () => null,
};

const MAX_RECORDS = 64;
const MAX_ANSWER_CHARS = 200;

function summary(answer: unknown): string {
  if (answer === null || answer === undefined) return 'none';
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  return text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS - 1)}…` : text;
}

/** One call's view of the source: each question asked once, answers kept for the VerdictRecord. */
export class IoFacts {
  private readonly memo = new Map<string, unknown>();
  readonly records: IoRecord[] = [];

  constructor(private readonly source: FactSource) {}

  private ask<T>(
    op: string,
    arg: string,
    answer: () => T,
    describe: (t: T) => string = summary,
    key = `${op}\u0000${arg}`,
  ): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    let value: T;
    try {
      value = answer();
    } catch {
      value = null as T;
    }
    this.memo.set(key, value);
    if (this.records.length < MAX_RECORDS) this.records.push({ op, arg, answer: describe(value) });
    return value;
  }

  exists(p: string): boolean {
    return this.ask('exists', p, () => this.source.exists(p), String);
  }

  readText(p: string, maxBytes: number): string | null {
    return this.ask(
      'read',
      p,
      () => this.source.readText(p, maxBytes),
      (t) => (t === null ? 'none' : `${t.length} chars`),
      // Readers ask for different lengths of the same file: a 64 KB answer is not a 1 MB one.
      `read\u0000${maxBytes}\u0000${p}`,
    );
  }

  listDir(p: string): string[] | null {
    return this.ask('list', p, () => this.source.listDir(p));
  }

  git(args: string[], cwd: string): string | null {
    return this.ask('git', `${cwd}: git ${args.join(' ')}`, () => this.source.git(args, cwd));
  }

  /**
   * Where a path really leads: the real path of its longest existing prefix, with the rest
   * appended. Null when no prefix below the root exists or nothing differs from the path itself.
   */
  realpath(absolute: string): string | null {
    if (!absolute.startsWith('/')) return null;
    return this.ask('realpath', absolute, () => {
      let prefix = path.posix.normalize(absolute);
      const rest: string[] = [];
      while (prefix !== '/') {
        const real = this.source.realpath(prefix);
        if (real !== null) {
          const full = rest.length ? path.posix.join(real, ...rest.reverse()) : real;
          return full === absolute ? null : full;
        }
        rest.push(path.posix.basename(prefix));
        prefix = path.posix.dirname(prefix);
      }
      return null;
    });
  }
}
