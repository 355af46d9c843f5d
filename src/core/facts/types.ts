// What one tool call does, as far as Warden can read it: computed once per call, read by the
// policies and the semantic tier alike.
import type { PathRelation } from '../shell/paths';

/** Why (part of) a call could not be read. Each one is enough for the call to need a person. */
export type UnreadReason =
  'truncated' | 'parse-error' | 'dynamic-command' | 'unknown-script' | 'unread-code' | 'unresolvable-path' | 'budget';

export interface Unread {
  reason: UnreadReason;
  /** One phrase a person can act on: what could not be read, and where. */
  detail: string;
  /**
   * It holds in text a written file runs later too. Most unread parts of such text are left to that
   * run; a scratch file nobody wrote (in a temporary folder or a hidden folder of the cache) that it
   * runs is no unknown part but a lead (see project-runs).
   */
  alsoLater?: true;
}

export type PathAccess = 'read' | 'write' | 'delete' | 'execute';

export interface PathFact {
  /** As the call wrote it. */
  raw: string;
  /** Resolved lexically against the command's folder (tilde forms, `..`). */
  absolute: string;
  /** The real path where the file system says otherwise (a symlink, /proc/<pid>/root); absent when equal or unknown. */
  real?: string;
  relation: PathRelation;
  /** The word depends on run-time values ($VAR, $(…)); `absolute` is only its static reading. */
  dynamic: boolean;
  /** The word is a glob: it stands for every file it could match. */
  glob: boolean;
  access: PathAccess;
  /** The tool parameter or the program that names it. */
  source: string;
}

/** A program the call runs, directly or from interpreter code. */
export interface RunFact {
  argv: string[];
  /** Where it came from: 'shell', or the language whose code runs it. */
  from: string;
}

/** Something the call sends or fetches over the network. */
export interface NetworkFact {
  /** The program or the code API that does it. */
  via: string;
  destination?: string;
}

/** Interpreter code the call runs: inline (-c, -e), a heredoc, a pipe, or a file written this session. */
export interface CodeFact {
  language: string;
  origin: 'inline' | 'heredoc' | 'stdin' | 'session-file';
  /** The program or the file it came from. */
  source: string;
  /** What reading it found, for the record and the judge; the effects also land in reads/writes/runs. */
  effects: string[];
  /**
   * The secrets the code holds (secret-named environment variables, `*` for the whole environment,
   * stored credentials it fetches) and the URLs or hosts it reaches: together, what it could send where.
   */
  secrets?: string[];
  sends?: string[];
  /** Files the code writes when it also fetches a URL: what it downloaded may be what lands there. */
  fetchesInto?: string[];
}

/** One question a call's facts asked the file system or git, with its answer. */
export interface IoRecord {
  op: string;
  arg: string;
  answer: string;
}

export interface CallFacts {
  reads: PathFact[];
  writes: PathFact[];
  deletes: PathFact[];
  runs: RunFact[];
  network: NetworkFact[];
  code: CodeFact[];
  unread: Unread[];
}
