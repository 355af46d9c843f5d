// Credentials passed on a command line: `--password X`, `--token=X`, `--api-key X`, `mysql -pX`,
// `sshpass -p X`, `curl -u user:pass`, `redis-cli -a X`, `docker login -p X`, `openssl -passin pass:X`,
// `keytool -storepass X`. Short flags only count after the command that gives them that meaning,
// within the same command (a newline, `;`, `|` or `&` starts a new one).
import { isAlnum, isSpace } from '../charset';
import { isMarker, markerAt } from '../labels';
import { readWord, skipBlanks, type Slice } from '../scan';
import { isCredentialFlagName } from '../secret-names';
import type { Candidate, Detector, RedactionMode } from '../types';
import { isLiteralSecretValue } from '../value-shape';

const LABEL = 'cli-credential-flag';
const MIN_NARROW_LENGTH = 3;

const MYSQL = 1;
const SSHPASS = 2;
const CURL = 4;
const REDIS = 8;
const LOGIN = 16;

/** Command separators, the commands whose short flags carry credentials, and flags. Literals and bounded runs only. */
const TOKENS = /\\n|[\n;|&]|mysql[a-z]{0,16}|mariadb[a-z-]{0,16}|sshpass|curl|redis-cli|login|--?[A-Za-z][A-Za-z0-9-]{0,63}/g;

function commandBit(word: string): number {
  if (word.startsWith('mysql') || word.startsWith('mariadb')) return MYSQL;
  if (word === 'sshpass') return SSHPASS;
  if (word === 'curl') return CURL;
  if (word === 'redis-cli') return REDIS;
  if (word === 'login') return LOGIN;
  return 0;
}

/** Chars that continue a word (a path, a value, an option): a flag or command cannot start after them. */
const WORD_CONTINUERS = new Set(['-', '_', '.', '/', '=', ':', '@', '+', '%', '~', '$', '\\']);

function opensWord(text: string, index: number): boolean {
  if (index === 0) return true;
  const code = text.charCodeAt(index - 1);
  return !isAlnum(code) && !WORD_CONTINUERS.has(text.charAt(index - 1));
}

/** A command name may also follow a path (`/usr/bin/mysql`) or an assignment (`CMD=curl`). */
function opensCommand(text: string, index: number): boolean {
  if (opensWord(text, index)) return true;
  const ch = text.charAt(index - 1);
  return ch === '/' || ch === '=';
}

function closesWord(text: string, index: number): boolean {
  if (index >= text.length) return true;
  const ch = text.charAt(index);
  return isSpace(text.charCodeAt(index)) || ch === '"' || ch === "'" || ch === ';' || ch === '|' || ch === '&' || ch === ')' || ch === '\\';
}

/** The value of a flag: attached (`-pX`, `--x=Y`) or the next word. Null when the next word is another flag. */
function flagValue(text: string, afterName: number, attached: boolean): Slice | null {
  if (attached) {
    const word = readWord(text, afterName);
    return word.end > word.start ? word : null;
  }
  if (text.charAt(afterName) === '=') {
    const word = readWord(text, afterName + 1);
    return word.end > word.start ? word : null;
  }
  const ch = text.charAt(afterName);
  if (ch !== ' ' && ch !== '\t') return null;
  const start = skipBlanks(text, afterName);
  if (text.charAt(start) === '-') return null;
  const word = readWord(text, start);
  return word.end > word.start ? word : null;
}

function pushCredential(text: string, value: Slice, mode: RedactionMode, out: Candidate[]): void {
  const raw = text.slice(value.start, value.end);
  if (isMarker(raw) || (!value.quoted && markerAt(text, value.end))) return;
  if (mode === 'narrow' && !isLiteralSecretValue(raw, MIN_NARROW_LENGTH)) return;
  out.push({ label: LABEL, detector: 'cli-flag', start: value.start, end: value.end });
}

/** `user:pass`: narrow hides the password, blunt the whole pair. A bare user name is not secret. */
function pushUserPassword(text: string, value: Slice, mode: RedactionMode, out: Candidate[]): void {
  const raw = text.slice(value.start, value.end);
  const colon = raw.indexOf(':');
  if (colon < 0 || isMarker(raw) || (!value.quoted && markerAt(text, value.end))) return;
  if (mode === 'blunt') {
    out.push({ label: LABEL, detector: 'cli-flag', start: value.start, end: value.end });
    return;
  }
  pushCredential(text, { ...value, start: value.start + colon + 1 }, mode, out);
}

/** openssl `-passin pass:X`: only the `pass:` form carries the password itself. */
function pushOpensslPass(text: string, value: Slice, mode: RedactionMode, out: Candidate[]): void {
  if (!text.startsWith('pass:', value.start)) return;
  pushCredential(text, { ...value, start: value.start + 5 }, mode, out);
}

export const detectCliFlags: Detector = (text, mode, out) => {
  TOKENS.lastIndex = 0;
  let commands = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKENS.exec(text)) !== null) {
    const word = match[0];
    const at = match.index;
    const end = at + word.length;
    const first = word.charAt(0);
    if (first !== '-') {
      if (word.length <= 2 && (first === '\n' || first === ';' || first === '|' || first === '&' || first === '\\')) {
        commands = 0;
      } else if (opensCommand(text, at) && closesWord(text, end)) {
        commands |= commandBit(word);
      }
      continue;
    }
    if (!opensWord(text, at)) continue;
    const value = handleFlag(text, word, at, end, commands, mode, out);
    if (value) TOKENS.lastIndex = Math.max(TOKENS.lastIndex, value.next);
  }
};

function handleFlag(text: string, word: string, at: number, end: number, commands: number, mode: RedactionMode, out: Candidate[]): Slice | null {
  if (word.startsWith('--')) {
    if (isCredentialFlagName(word)) {
      const value = flagValue(text, end, false);
      if (value) pushCredential(text, value, mode, out);
      return value;
    }
    if ((word === '--user' || word === '--proxy-user') && commands & CURL) {
      const value = flagValue(text, end, false);
      if (value) pushUserPassword(text, value, mode, out);
      return value;
    }
    return null;
  }
  const bare = word.slice(1);
  const letter = bare.charAt(0);
  // `-pX`, `-p"X"`, `-u'a:b'`: anything glued to the letter is its value.
  const attached = at + 2 < text.length && !isSpace(text.charCodeAt(at + 2));
  if (letter === 'p' && commands & MYSQL) {
    // `mysql -p secret` prompts and reads `secret` as the database: only the attached form is a password.
    const value = attached ? flagValue(text, at + 2, true) : null;
    if (value) pushCredential(text, value, mode, out);
    return value;
  }
  if ((letter === 'p' && commands & (SSHPASS | LOGIN)) || (letter === 'a' && commands & REDIS)) {
    const value = attached ? flagValue(text, at + 2, true) : flagValue(text, end, false);
    if (value) pushCredential(text, value, mode, out);
    return value;
  }
  if (letter === 'u' && commands & CURL) {
    const value = attached ? flagValue(text, at + 2, true) : flagValue(text, end, false);
    if (value) pushUserPassword(text, value, mode, out);
    return value;
  }
  if (bare === 'pass' || bare === 'passin' || bare === 'passout') {
    const value = flagValue(text, end, false);
    if (value) pushOpensslPass(text, value, mode, out);
    return value;
  }
  if (bare.length > 1 && (bare.endsWith('pass') || bare.endsWith('password'))) {
    const value = flagValue(text, end, false);
    if (value) pushCredential(text, value, mode, out);
    return value;
  }
  return null;
}
