// Source written in a language no reader here follows (Go, Rust, Java, C, …) runs later, when the
// project builds or tests it, with the user's files in reach. Its calls are not read, but the paths it
// names are in its string literals: code that names a credential store (`filepath.Join(home,
// ".pgpass")`, `"~/.aws/credentials"`, `home + "/.ssh/id_rsa"`) is judged as reading it. So is read
// code that opens a file by a name it computes (`for f of [".pgpass", …] readFileSync(home + "/" + f)`).
import { HOME_SECRETS, secretBasenameKind, secretFileKind } from './sensitive-paths';
import { trimEndChars } from '../text/scan';
import { quotedSpans } from '../text/quoted';

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
  /** The file it names: in the home folder for a relative name. */
  absolute: string;
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
    // The items of a list (`[".vault-token", ".pgpass"]`) are each a name; a folder among them is a path's part.
    if (run.length > 1) for (const part of run) if (!isSecretFolder(part)) judge(part, home, found);
    run = [];
  };
  for (const literal of quotedSpans(content, '"\'`').slice(0, MAX_LITERALS)) {
    if (runEnd >= 0 && !PATH_PART_GAP.test(content.slice(runEnd, literal.start))) judgeRun();
    run.push(literal.body.length <= MAX_PATH_LITERAL ? unescaped(literal.body) : '');
    runEnd = literal.end;
  }
  judgeRun();
  return found;
}

/** A literal's text with its backslash escapes taken out (`"C:\\Users"` is `C:\Users`). */
function unescaped(body: string): string {
  return body.replace(/\\(.)/g, '$1');
}

function judge(literal: string, home: string, found: NamedSecret[]): void {
  const path = literal.replace(/\/{2,}/g, '/');
  const named = inHome(path, home) ?? absolute(path, home);
  if (named && !found.some((f) => f.literal === literal)) found.push({ literal, ...named });
}

/** `.ssh`, `.aws`, `~/.kube`: a folder of credential stores, named as the first part of a path. */
function isSecretFolder(part: string): boolean {
  const relative = part.replace(/^(?:~|\$HOME)?\//, '').replace(/\/$/, '');
  return HOME_SECRETS.some(([entry]) => entry === `${relative}/`);
}

/** `.pgpass`, `~/.aws/credentials`, `$HOME/.ssh/id_rsa`, `/.vault-token` after a home folder. */
function inHome(path: string, home: string): Omit<NamedSecret, 'literal'> | null {
  // A placeholder the home folder is formatted into (`format!("{}/.ssh/id_rsa", home)`, `"%s/.pgpass"`) counts as it.
  const relative = path.replace(/^(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\{\w*\}|%[sv])?\//, '');
  // A name alone is a path only when it is a dotfile; a bare `credentials` is a word.
  if (!relative.startsWith('.') || relative.length < 4 || /\s/.test(relative)) return null;
  // `.env` is read by the project's own code everywhere (dotenv): a store of the user's it is not.
  if (secretBasenameKind(relative.split('/').pop() ?? '') === 'an environment file') return null;
  const absolute = `${trimEndChars(home, '/')}/${relative}`;
  const kind = secretFileKind(absolute, home);
  return kind ? { kind, absolute } : null;
}

function absolute(path: string, home: string): Omit<NamedSecret, 'literal'> | null {
  if (!path.startsWith('/') || /\s/.test(path)) return null;
  if (secretBasenameKind(path.split('/').pop() ?? '') === 'an environment file') return null;
  const kind = secretFileKind(path, home);
  return kind ? { kind, absolute: path } : null;
}
