// The shell analyzer's public result shapes.

export type Via =
  | 'bash-c'
  | 'eval'
  | 'command-substitution'
  | 'process-substitution'
  | 'subshell'
  | 'wrapper'
  | 'function'
  | 'xargs'
  | 'find-exec'
  | 'ssh'
  | 'heredoc-shell'
  | 'pipe-to-shell'
  /** An alias defined earlier in the same command text, expanded. */
  | 'alias'
  /** A command a program runs through one of its options, its script language or a variable. */
  | 'option'
  /** A command that interpreter code runs (os.system, execSync), read by the code reader. */
  | 'interpreter-code'
  /** A command in a file the session wrote and now runs (a package.json script, a Makefile recipe). */
  | 'session-file'
  /** A command a file written by this call will run later, judged now (a heredoc into a Makefile). */
  | 'write-time';

export interface Redirect {
  /** The operator as written: '>', '>>', '<', '&>', '&>>', '>&', '<&', '>|', '<>', '<<', '<<-', '<<<'. */
  op: string;
  /** The destination after expansion; for heredocs the body, for here-strings the string. */
  target: string;
  /** The file descriptor written before the operator (the 2 of 2>). */
  fd?: number;
  /** `< <(…)`: what the file will hold, when the commands inside print known text. */
  fileText?: string;
  /** A target with a variable a branch left with several known values: each value it may take. */
  alternatives?: readonly string[];
}

export interface PipelinePlace {
  /** Shared by the commands of one pipeline; unique per analysis. */
  id: number;
  index: number;
  length: number;
}

export interface SimpleCommand {
  /** Words after quote removal and the expansions that can be resolved statically. */
  argv: string[];
  /** Basename of argv[0]. */
  name: string;
  /** Indexes into argv whose value depends on something only known at run time. */
  dynamicWords: number[];
  /** The `<(…)` words whose file holds known text (`bash <(echo …)`), by index in argv. */
  fileTexts?: Record<number, string>;
  /** VAR=x prefixes, and the assignments of an `env` wrapper. */
  assignments: Record<string, string>;
  redirects: Redirect[];
  pipeline: PipelinePlace;
  /** Run in the background (its statement ended with &). */
  background: boolean;
  /** How it was reached, outermost hop first; [] at top level. */
  via: Via[];
  /** Wrappers it was unwrapped from, outermost first. */
  wrappers: string[];
  /** Index in `commands` of the enclosing command, for nested ones. */
  parent?: number;
  /** For an argv word that is one variable set at run time in this source (`kill "$PID"`), where its value came from. */
  origins?: Record<number, RunTimeOrigin>;
  /** For an argv word with a variable a branch left with several known values, each value the word may take. */
  alternatives?: Record<number, readonly string[]>;
  /** For a command given again with one value of each such word in its place: the index of the command as written. */
  variantOf?: number;
  /** Its source text (of the string it was parsed from, for re-parsed ones). */
  text: string;
  /** The `for NAME in WORDS` loops around it in its own source, outermost first. */
  loops?: ForLoop[];
}

export interface ForLoop {
  variable: string;
  /** The words as written (quotes kept). */
  words: string[];
  /** The words as the shell expands them (`$HOME/.ssh/*` is `/home/dev/.ssh/*`), those known now. */
  values: string[];
}

/**
 * Where a variable's run-time value came from: the pid of the job this shell last started in the
 * background (`$!`), or what the commands of one substitution printed (`PID=$(lsof -ti :3000)`;
 * indexes into `commands`).
 */
export type RunTimeOrigin = { kind: 'background-pid' } | { kind: 'output'; commands: number[] };

export interface ShellAnalysis {
  /** Every simple command found anywhere, outer ones before the ones nested in them. */
  commands: SimpleCommand[];
  /** Shell comments without their '#', including those of re-parsed strings. */
  comments: string[];
  /** The source with its comments removed. */
  withoutComments: string;
  /** The parser met text it could not read (here or in a re-parsed string). */
  hasParseErrors: boolean;
  /** Something was not followed: nesting past maxDepth, or text left when the parse budget ran out. */
  truncated: boolean;
}

export interface AnalyzeOptions {
  /** The home folder for ~ and $HOME; defaults to env.HOME, then the current user's. */
  home?: string;
  /** Variables known to be set in the shell's environment. */
  env?: Record<string, string | undefined>;
  /** How many hops (re-parsed strings, wrappers, substitutions, subshells) to follow; default 8. */
  maxDepth?: number;
  /**
   * Wall-clock milliseconds the parser may spend on one analysis, default 5000. Text not parsed
   * in time is left out and the result is marked truncated and unparsable.
   */
  parseBudgetMs?: number;
}
