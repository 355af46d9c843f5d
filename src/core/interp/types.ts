// What interpreter code does, as read from its syntax: the facts the policies judge like a shell command's.

export type CodeLanguage = 'python' | 'javascript' | 'php' | 'ruby' | 'powershell' | 'perl' | 'awk' | 'rust';

export type CodeEffectKind = 'exec' | 'read' | 'write' | 'delete' | 'network' | 'env-read' | 'secret-read';

export interface CodeEffect {
  kind: CodeEffectKind;
  /** What was called: 'os.system', 'child_process.execSync', 'open(w)', 'shutil.rmtree', 'urllib.request.urlopen'. */
  api: string;
  /**
   * The argument resolved statically: shell command text for exec, a path for read/write/delete
   * ('~/…' kept as written, for the caller's path logic), a URL or host for network, a variable name
   * for env-read ('*' for the whole environment), what is read for secret-read (a stored credential:
   * `Airflow connection prod_db`). Absent when it could not be resolved.
   */
  value?: string;
  /** For exec with an argument vector: the items up to the first one that could not be resolved. */
  argv?: string[];
  /** True when some argument that matters could not be resolved to a literal. */
  dynamic: boolean;
}

export interface CodeFacts {
  language: CodeLanguage;
  effects: CodeEffect[];
  /** Why the code could not be read in full, each a short phrase a person can read ('parse error', …). */
  unread: string[];
}

export interface AnalyzeCodeOptions {
  /** A Date.now() value past which parsing stops and the code counts as unread. */
  deadline?: number;
}
