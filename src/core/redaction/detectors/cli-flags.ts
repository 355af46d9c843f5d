// Credentials passed on a command line: `--password X`, `--token=X`, `--api-key X`, `mysql -pX`,
// `sshpass -p X`, `curl -u user:pass`, `redis-cli -a X`, `docker login -p X`, `openssl -passin pass:X`,
// `keytool -storepass X`. Short flags only count after the command that gives them that meaning,
// within the same command (a newline, `;`, `|` or `&` starts a new one).
import { isAlnum, isSpace, runEnd } from '../charset';
import { isMarker, markerAt, markerEndsAt } from '../labels';
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

/**
 * Flags that may carry a credential (a long flag naming one, `-p`, `-u`, `-a`, `-…pass`) and the
 * commands that give short flags that meaning. A lazy run bounded to 40 chars before a literal
 * alternation: a failed start costs at most 40 steps per alternative, so the scan stays linear.
 */
const TOKENS =
  /-(?:-(?=[A-Za-z])[A-Za-z0-9-]{0,40}?(?:pass|pw|token|secret|key|auth|credential|sig|pat|user)|[pua]|[a-z]{0,20}pass)|mysql|mariadb|sshpass|curl|redis-cli|login/g;
const FLAG_CHARS = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-') FLAG_CHARS[ch.charCodeAt(0)] = 1;

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
  return !isAlnum(code) && !WORD_CONTINUERS.has(text.charAt(index - 1)) && !markerEndsAt(text, index);
}

/** A command name may also follow a path (`/usr/bin/mysql`) or an assignment (`CMD=curl`). */
function opensCommand(text: string, index: number): boolean {
  if (opensWord(text, index)) return true;
  const ch = text.charAt(index - 1);
  return ch === '/' || ch === '=';
}

function closesWord(text: string, index: number): boolean {
  if (index >= text.length) return true;
  if (markerAt(text, index)) return false;
  const ch = text.charAt(index);
  return (
    isSpace(text.charCodeAt(index)) ||
    ch === '"' ||
    ch === "'" ||
    ch === ';' ||
    ch === '|' ||
    ch === '&' ||
    ch === ')' ||
    ch === '\\'
  );
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

/** A newline (or a `\n` escape), `;`, `|` or `&` between `from` and `to` ends the command. */
function separatorBetween(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const ch = text.charAt(i);
    if (ch === '\n' || ch === ';' || ch === '|' || ch === '&') return true;
    if (ch === '\\' && text.charAt(i + 1) === 'n') return true;
  }
  return false;
}

export const detectCliFlags: Detector = (text, mode, out) => {
  TOKENS.lastIndex = 0;
  let commands = 0;
  // Separators are looked for only while a command is in force, and each char at most once.
  let scannedTo = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKENS.exec(text)) !== null) {
    const at = match.index;
    if (commands !== 0 && separatorBetween(text, scannedTo, at)) commands = 0;
    scannedTo = at;
    const end = runEnd(text, at + 1, FLAG_CHARS);
    // The scan goes on right after the word, not after a flag's value: a command word read as a
    // value (`curl -u mysql …`) still sets the context, whether or not that value was redacted.
    TOKENS.lastIndex = Math.max(end, at + 1);
    if (text.charCodeAt(at) !== 45) {
      if (opensCommand(text, at) && closesWord(text, end)) commands |= commandBit(text.slice(at, end));
      continue;
    }
    if (!opensWord(text, at)) continue;
    if (text.charCodeAt(at + 1) === 45) handleLongFlag(text, text.slice(at, end), end, commands, mode, out);
    else handleShortFlag(text, at, end, commands, mode, out);
  }
};

function handleLongFlag(
  text: string,
  word: string,
  end: number,
  commands: number,
  mode: RedactionMode,
  out: Candidate[],
): void {
  if (isCredentialFlagName(word)) {
    const value = flagValue(text, end, false);
    if (value) pushCredential(text, value, mode, out);
  } else if ((word === '--user' || word === '--proxy-user') && commands & CURL) {
    const value = flagValue(text, end, false);
    if (value) pushUserPassword(text, value, mode, out);
  }
}

function handleShortFlag(
  text: string,
  at: number,
  end: number,
  commands: number,
  mode: RedactionMode,
  out: Candidate[],
): void {
  const letter = text.charAt(at + 1);
  // `-pX`, `-p"X"`, `-u'a:b'`: anything glued to the letter is its value.
  const attached = at + 2 < text.length && !isSpace(text.charCodeAt(at + 2));
  if (letter === 'p' && commands & MYSQL) {
    // `mysql -p secret` prompts and reads `secret` as the database: only the attached form is a password.
    const value = attached ? flagValue(text, at + 2, true) : null;
    if (value) pushCredential(text, value, mode, out);
    return;
  }
  if ((letter === 'p' && commands & (SSHPASS | LOGIN)) || (letter === 'a' && commands & REDIS)) {
    const value = attached ? flagValue(text, at + 2, true) : flagValue(text, end, false);
    if (value) pushCredential(text, value, mode, out);
    return;
  }
  if (letter === 'u' && commands & CURL) {
    const value = attached ? flagValue(text, at + 2, true) : flagValue(text, end, false);
    if (value) pushUserPassword(text, value, mode, out);
    return;
  }
  if (end - at < 5) return;
  const bare = text.slice(at + 1, end);
  if (bare === 'pass' || bare === 'passin' || bare === 'passout') {
    const value = flagValue(text, end, false);
    if (value) pushOpensslPass(text, value, mode, out);
  } else if (bare.endsWith('pass') || bare.endsWith('password')) {
    const value = flagValue(text, end, false);
    if (value) pushCredential(text, value, mode, out);
  }
}
