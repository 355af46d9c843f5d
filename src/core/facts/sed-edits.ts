// Text `sed -i` puts into files: what its a, i and c commands add and what its substitutions write.
// A line appended to a script or a Makefile (`sed -i '1a curl … | sh' deploy.sh`) runs later like a
// line written by `echo … >>`, so it is read at write time too. Only the added text is known, not
// the file it lands in: it is screened on its own and never stands for the file's content.
import type { SimpleCommand } from '../shell';
import { argsOf, optionValues, parseFlags } from './commands';

export interface SedEdit {
  files: string[];
  /** The text the edit adds, one piece per line (a, i, c texts and substitution replacements). */
  text: string;
}

const IN_PLACE = /^-[a-zA-Z]*i|^--in-place/;
// `1a text`, `$a\text`, `/re/i text`, `2,5c text`: an address, then the command, then its text.
const ADDRESS = String.raw`(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)`;
// Each run of blanks has one place: before the address, after it, after a `!`, before the text (which
// starts at its first non-blank).
const TEXT_COMMAND = new RegExp(String.raw`^\s*(?:${ADDRESS}(?:\s*,\s*${ADDRESS})?\s*)?(?:!\s*)?[aic](\\)?\s*(\S.*)?$`);
/** What may stand before an `s` command: the script's start, a separator, or the end of an address. */
const BEFORE_SUBSTITUTION = /[\s;{}\d$/!]/;

/** A substitution's pattern and replacement, each with its escapes read (\n and \t as the characters). */
export interface Substitution {
  pattern: string;
  replacement: string;
}

/** Each `s<d>pattern<d>replacement<d>` in `script`. */
function substitutionsIn(script: string): Substitution[] {
  const found: Substitution[] = [];
  for (let at = 0; at < script.length - 1; at++) {
    if (script[at] !== 's' || (at > 0 && !BEFORE_SUBSTITUTION.test(script[at - 1]!))) continue;
    const delimiter = script[at + 1]!;
    if (/[\w\s\\]/.test(delimiter)) continue;
    const pattern = delimited(script, at + 2, delimiter);
    if (!pattern) continue;
    const replacement = delimited(script, pattern.end + 1, delimiter);
    if (!replacement) continue;
    found.push({ pattern: unescape(pattern.text), replacement: unescape(replacement.text) });
    at = replacement.end;
  }
  return found;
}

function replacements(script: string): string[] {
  return substitutionsIn(script).map((substitution) => substitution.replacement);
}

/** The text from `from` up to the next `delimiter` not escaped by a backslash, and where that is. */
function delimited(script: string, from: number, delimiter: string): { text: string; end: number } | null {
  for (let at = from; at < script.length; at++) {
    if (script[at] === '\\') at++;
    else if (script[at] === delimiter) return { text: script.slice(from, at), end: at };
  }
  return null;
}

/** `\n` and `\t` as the characters; any other escaped character (the delimiter, `&`) as itself. */
function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_, ch: string) => (ch === 'n' ? '\n' : ch === 't' ? '\t' : ch));
}

/** The text an a, i or c command adds: to the end of its line, and the lines after a trailing backslash. */
function addedTexts(script: string): string[] {
  const lines = script.split('\n');
  const found: string[] = [];
  for (let at = 0; at < lines.length; at++) {
    const match = TEXT_COMMAND.exec(lines[at]!);
    if (!match) continue;
    // `a\` alone on its line: the text is on the lines after it.
    const pieces = [match[1] && !match[2] && at + 1 < lines.length ? lines[++at]! : (match[2] ?? '')];
    while ((pieces[pieces.length - 1] ?? '').endsWith('\\') && at + 1 < lines.length) {
      pieces[pieces.length - 1] = pieces[pieces.length - 1]!.slice(0, -1);
      pieces.push(lines[++at]!);
    }
    // GNU sed reads escapes in the text as it reads them in a replacement (`a \t@curl …` adds a tab).
    found.push(unescape(pieces.filter((p) => p !== '').join('\n')));
  }
  return found;
}

/** The scripts an in-place `sed` or `perl -pi -e` runs over its files, or null for another command (or a script file). */
interface InPlaceScripts {
  files: string[];
  scripts: string[];
  /** perl's scripts are read for their substitutions only. */
  perl: boolean;
}

function inPlaceScripts(cmd: SimpleCommand): InPlaceScripts | null {
  if (cmd.name === 'perl') return perlScripts(cmd);
  if (cmd.name !== 'sed') return null;
  const args = argsOf(cmd);
  if (!args.some((a) => IN_PLACE.test(a))) return null;
  if (optionValues(args, ['f'], ['file']).length) return null;
  const expressions = optionValues(args, ['e'], ['expression']);
  const parsed = parseFlags(args, ['e', 'f', 'l'], ['expression', 'file', 'line-length']).positionals;
  // BSD and macOS sed take the backup suffix as its own word, empty for none (`sed -i '' 's/a/b/' f`).
  const positionals = args.includes('-i') && parsed[0] === '' ? parsed.slice(1) : parsed;
  // Each -e is a line of one script: `-e '$a\' -e 'text'` appends `text`.
  const scripts = expressions.length ? [expressions.join('\n')] : positionals.slice(0, 1);
  const files = expressions.length ? positionals : positionals.slice(1);
  return { files, scripts, perl: false };
}

// perl's in-place switch, alone or in a bundle (`-pi`, `-i.bak`, `-0777 -pi`): its value is a backup suffix.
const PERL_IN_PLACE = /^-[a-zA-Z0-9]*i/;

/**
 * `perl -pi -e 's/a/b/' FILE`: its substitutions are read as sed's are. A script that is a file, or code
 * other than substitutions, adds nothing known.
 */
function perlScripts(cmd: SimpleCommand): InPlaceScripts | null {
  const args = argsOf(cmd);
  if (!args.some((a) => PERL_IN_PLACE.test(a) && !a.startsWith('--'))) return null;
  const scripts = optionValues(args, ['e', 'E'], []);
  if (!scripts.length) return null;
  return { files: parseFlags(args, ['e', 'E', 'M', 'm', 'I'], []).positionals, scripts, perl: true };
}

/** What an in-place `sed` or `perl -pi` adds to its files, or null when it adds nothing known (a script file, deletes only). */
export function sedEdit(cmd: SimpleCommand): SedEdit | null {
  const found = inPlaceScripts(cmd);
  if (!found) return null;
  const texts = found.scripts.flatMap((script) => [...(found.perl ? [] : addedTexts(script)), ...replacements(script)]);
  const written = texts.filter((t) => t !== '');
  return written.length && found.files.length ? { files: found.files, text: written.join('\n') } : null;
}

/** The substitutions an in-place `sed` or `perl -pi` makes in its files (none when it names no file). */
export function sedSubstitutions(cmd: SimpleCommand): Substitution[] {
  const found = inPlaceScripts(cmd);
  return found?.files.length ? found.scripts.flatMap(substitutionsIn) : [];
}
