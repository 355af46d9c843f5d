// Source written in a language no reader here follows (Go, Rust, Java, C, …) runs later, when the
// project builds or tests it, with the user's files in reach. Its calls are not read, but the paths it
// names are in its string literals: code that names a credential store (`filepath.Join(home,
// ".pgpass")`, `"~/.aws/credentials"`, `home + "/.ssh/id_rsa"`) is judged as reading it.
import { secretBasenameKind, secretFileKind } from './sensitive-paths';
import { trimEndChars } from '../text/scan';

/** Source files of languages without a reader here (python, JavaScript, Ruby, PHP, Perl and PowerShell have one). */
const UNREAD_SOURCE =
  /\.(go|rs|java|kt|kts|scala|sc|groovy|gradle|cs|fs|vb|c|cc|cpp|cxx|h|hh|hpp|m|mm|swift|dart|zig|nim|cr|ex|exs|erl|hrl|hs|ml|jl|r|lua|clj|cljs|v|d)$/i;

/** A literal longer than this is text, not a path. */
const MAX_PATH_LITERAL = 300;

/** What may stand between the parts of one path: an argument list's comma (`Join(home, ".ssh", "id_rsa")`) or a `+`. */
const PATH_PART_GAP = /^\s*[,+]\s*$/;

/** More literals than this in one file are not read (a table of strings is no path). */
const MAX_LITERALS = 2000;

export interface NamedSecret {
  /** The literal text, as written (parts joined with `/`). */
  literal: string;
  kind: string;
}

export function isUnreadSource(file: string): boolean {
  return UNREAD_SOURCE.test(file);
}

/** The credential stores the string literals of `content` name, as paths in `home` or absolute. */
export function secretsNamedInSource(content: string, home: string): NamedSecret[] {
  const found: NamedSecret[] = [];
  // A path given in parts is judged whole (`".ssh", "known_hosts"` is no key), a lone literal as itself.
  let run: string[] = [];
  let runEnd = -1;
  const judgeRun = () => {
    if (run.length) judge(run.join('/'), home, found);
    run = [];
  };
  for (const literal of stringLiterals(content)) {
    if (runEnd >= 0 && !PATH_PART_GAP.test(content.slice(runEnd, literal.start))) judgeRun();
    run.push(literal.text.length <= MAX_PATH_LITERAL ? literal.text : '');
    runEnd = literal.end;
  }
  judgeRun();
  return found;
}

/**
 * The one-line string literals of `content` (in double quotes, single quotes or backticks), in order.
 * A scan rather than a regex: an unclosed quote ends at its line, so each character is looked at once.
 */
function* stringLiterals(content: string): Generator<{ text: string; start: number; end: number }> {
  let count = 0;
  for (let at = 0; at < content.length && count < MAX_LITERALS; at++) {
    const quote = content[at]!;
    if (quote !== '"' && quote !== "'" && quote !== '`') continue;
    let text = '';
    let close = at + 1;
    for (; close < content.length && content[close] !== quote && content[close] !== '\n'; close++) {
      if (content[close] === '\\' && quote !== '`' && close + 1 < content.length) close++;
      text += content[close];
    }
    if (content[close] !== quote) {
      at = close;
      continue;
    }
    count++;
    yield { text, start: at, end: close + 1 };
    at = close;
  }
}

function judge(literal: string, home: string, found: NamedSecret[]): void {
  const path = literal.replace(/\/{2,}/g, '/');
  const kind = homeSecretKind(path, home) ?? absoluteSecretKind(path, home);
  if (kind && !found.some((f) => f.literal === literal)) found.push({ literal, kind });
}

/** `.pgpass`, `~/.aws/credentials`, `$HOME/.ssh/id_rsa`, `/.vault-token` after a home folder. */
function homeSecretKind(path: string, home: string): string | null {
  // A placeholder the home folder is formatted into (`format!("{}/.ssh/id_rsa", home)`, `"%s/.pgpass"`) counts as it.
  const relative = path.replace(/^(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\{\w*\}|%[sv])?\//, '');
  // A name alone is a path only when it is a dotfile; a bare `credentials` is a word.
  if (!relative.startsWith('.') || relative.length < 4 || /\s/.test(relative)) return null;
  // `.env` is read by the project's own code everywhere (dotenv): a store of the user's it is not.
  if (secretBasenameKind(relative.split('/').pop() ?? '') === 'an environment file') return null;
  return secretFileKind(`${trimEndChars(home, '/')}/${relative}`, home);
}

function absoluteSecretKind(path: string, home: string): string | null {
  if (!path.startsWith('/') || /\s/.test(path)) return null;
  if (secretBasenameKind(path.split('/').pop() ?? '') === 'an environment file') return null;
  return secretFileKind(path, home);
}
