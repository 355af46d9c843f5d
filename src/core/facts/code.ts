// The seam to the interpreter-code reader (src/core/interp): which languages it reads and what it
// finds. Code in a language no reader handles is unread, and the call waits for a person.

export type CodeEffectKind = 'exec' | 'read' | 'write' | 'delete' | 'network' | 'env-read' | 'secret-read';

export interface CodeEffect {
  kind: CodeEffectKind;
  /** The API that does it (`os.system`, `fs.rmSync`). */
  api: string;
  /** The literal argument (command line, path, URL), when it is one. */
  value?: string;
  /** A literal argument vector (subprocess.run([...]), execFileSync(f, [...])). */
  argv?: string[];
  /** The argument is computed at run time. */
  dynamic: boolean;
}

const COMMAND_URL = /\bhttps?:\/\/[^\s"'`<>]+/g;

/**
 * The secrets a piece of code holds and where it reaches, when it does both: code that reads a token and
 * makes a request may send the one to the other. Environment reads name the variable (`*`: all of it).
 */
export function secretsAndSends(effects: readonly CodeEffect[]): { secrets?: string[]; sends?: string[] } {
  const secrets = new Set<string>();
  const sends = new Set<string>();
  for (const effect of effects) {
    // A program the code runs reaches the URLs its command line names (`curl --data-binary … https://…`).
    if (effect.kind === 'exec')
      for (const word of effect.argv ?? (effect.value === undefined ? [] : [effect.value]))
        for (const [url] of word.matchAll(COMMAND_URL)) sends.add(url);
    if (effect.value === undefined) continue;
    if (effect.kind === 'secret-read' || (effect.kind === 'env-read' && !effect.dynamic)) secrets.add(effect.value);
    else if (effect.kind === 'network') sends.add(effect.value);
  }
  return secrets.size && sends.size ? { secrets: [...secrets], sends: [...sends] } : {};
}

/** Whether the code fetches from a URL (`urlretrieve`, `copy('https://…')`, `fetch`). */
export function fetchesUrl(effects: readonly CodeEffect[]): boolean {
  return effects.some((e) => e.kind === 'network' && /^(https?|ftp):\/\//i.test(e.value ?? ''));
}

export interface CodeReading {
  effects: CodeEffect[];
  /** What could not be read, one phrase each (a parse error, an `exec` of a computed string). */
  unread: string[];
}

export interface CodeReader {
  /** Whether this reader parses the language at all. */
  reads(language: string): boolean;
  read(language: string, code: string): CodeReading;
}

/** The reader used until a real one is wired: it reads nothing, so every piece of code is unread. */
export const NO_CODE_READER: CodeReader = {
  reads: () => false,
  read: (language) => ({ effects: [], unread: [`no reader for ${language} code`] }),
};

/** The language of an interpreter kind (see interpreterKind) or a file name's extension. */
export function languageOfFile(file: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase();
  switch (ext) {
    case 'py':
      return 'python';
    case 'js':
    case 'cjs':
    case 'mjs':
    case 'jsx':
      return 'javascript';
    case 'ts':
    case 'cts':
    case 'mts':
    case 'tsx':
      return 'typescript';
    case 'rb':
    case 'rake':
    case 'ru':
      return 'ruby';
    case 'php':
      return 'php';
    case 'pl':
    case 'pm':
      return 'perl';
    case 'rs':
      return 'rust';
    case 'ps1':
    case 'psm1':
      return 'powershell';
    case 'sh':
    case 'bash':
      return 'shell';
    default:
      return null;
  }
}

export function languageOfInterpreter(kind: string): string {
  return kind === 'node' ? 'javascript' : kind;
}
