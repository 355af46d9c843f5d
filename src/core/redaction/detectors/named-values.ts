// Values of secret-named keys and credential headers: `API_KEY=…`, `"client_secret": "…"`,
// `password: …` in YAML, `<password>…</password>`, `Authorization: Bearer …`, `-H 'X-Api-Key: …'`.
import { has, KEY_NAME_CHARS, runEnd } from '../charset';
import { judgeAuthorization } from './authorization';
import {
  isQuoteAt,
  MAX_VALUE_LENGTH,
  readQuoted,
  readToLineEnd,
  readWord,
  skipBlanks,
  startsLine,
  trimmed,
  VALUE_STOPS,
  type Slice,
} from '../scan';
import { classifySecretName, type SecretName } from '../secret-names';
import { isMarker, markerAt, markerEndsAt } from '../labels';
import type { Candidate, Detector, RedactionMode } from '../types';
import { isCodeWord, isLiteralSecretValue, isPlaceholder, looksLikeCode } from '../value-shape';

const DETECTOR = 'named-value';
/** Finds a secret word; the whole name around it is then read, and classified if an operator follows. */
const SECRET_WORD = /pass|pw|secret|token|key|auth|credential|sig|cookie|pat/gi;
const MAX_NAME_LENGTH = 128;
const MIN_ASSIGNED_LENGTH = 3;

interface Context {
  /** The key itself was quoted: `"password": …`. */
  keyQuoted: boolean;
  /** The key sits inside a quoted string that also holds its value: `-H 'X-Api-Key: …'`. */
  enclosingQuote: string;
  colon: boolean;
  lineStart: boolean;
  /** An HTTP header line (`Name: value`), alone on its line or inside a quoted `-H` argument. */
  header: boolean;
  /** `name=value` with nothing around the `=`: shell, .env, query strings, `key=value` arguments. */
  tight: boolean;
}

/** After a name: an optional (escaped) closing quote, blanks, then `:`, `=`, or `>` closing an XML tag. */
function operatorFollows(text: string, end: number): boolean {
  let i = end;
  if (text.charAt(i) === '\\') i++;
  const quote = text.charAt(i);
  if (quote === '"' || quote === "'" || quote === '`') i++;
  i = skipBlanks(text, i, 16);
  const op = text.charAt(i);
  return op === ':' || op === '=' || op === '>';
}

export const detectNamedValues: Detector = (text, mode, out) => {
  SECRET_WORD.lastIndex = 0;
  // Names never start before the end of the last one read, so each char is read about once.
  let floor = 0;
  let match: RegExpExecArray | null;
  while ((match = SECRET_WORD.exec(text)) !== null) {
    const hit = match.index;
    let start = hit;
    const lowest = Math.max(floor, hit - MAX_NAME_LENGTH);
    while (start > lowest && has(KEY_NAME_CHARS, text.charCodeAt(start - 1))) start--;
    const end = runEnd(text, hit, KEY_NAME_CHARS);
    floor = end;
    SECRET_WORD.lastIndex = Math.max(end, hit + 1);
    if (!operatorFollows(text, end)) continue;
    const truncated = start > 0 && has(KEY_NAME_CHARS, text.charCodeAt(start - 1));
    if (truncated || end - start > MAX_NAME_LENGTH) continue;
    // Flags (`--password`) belong to the command-line detector; a trailing dot or dash is prose;
    // a name glued to a marker was glued to the redacted text too, and was no name then.
    const raw = text.slice(start, end);
    if (raw.charAt(0) === '-' || raw.endsWith('.') || raw.endsWith('-') || markerEndsAt(text, start)) continue;
    const name = classifySecretName(raw);
    if (!name) continue;
    // Names inside a value just read are part of that value: resuming after it keeps the scan linear.
    const next = readAssignment(text, start, end, name, raw.includes('-'), mode, out);
    if (next > end) {
      SECRET_WORD.lastIndex = next;
      floor = next;
    }
  }
};

function readAssignment(
  text: string,
  start: number,
  end: number,
  name: SecretName,
  dashedName: boolean,
  mode: RedactionMode,
  out: Candidate[],
): number {
  const before = start > 0 ? text.charAt(start - 1) : '';
  if (before === '<' && text.charAt(end) === '>')
    return readXmlElement(text, end + 1, text.slice(start, end), name, out);
  const context: Context = {
    keyQuoted: false,
    enclosingQuote: '',
    colon: false,
    lineStart: false,
    header: false,
    tight: false,
  };
  let i = end;
  if (before === '"' || before === "'" || before === '`') {
    const escaped = text.charAt(start - 2) === '\\';
    if (escaped && text.charAt(end) === '\\' && text.charAt(end + 1) === before) {
      context.keyQuoted = true;
      i = end + 2;
    } else if (text.charAt(end) === before) {
      context.keyQuoted = true;
      i = end + 1;
    } else {
      context.enclosingQuote = before;
    }
  }
  const opAt = skipBlanks(text, i);
  const spaceBefore = opAt > i;
  i = opAt;
  const op = text.charAt(i);
  if (op === ':') {
    const next = text.charAt(i + 1);
    if (next === ':' || next === '/') return end;
    if (next === '=') i += 2;
    else {
      i += 1;
      context.colon = true;
    }
  } else if (op === '=') {
    // `==` and `===` compare (`request.credentials === 'same-origin'`): no value is assigned.
    if (text.charAt(i + 1) === '=') return end;
    i += text.charAt(i + 1) === '>' ? 2 : 1;
  } else {
    return end;
  }
  context.lineStart = startsLine(text, context.keyQuoted ? start - 1 : start);
  const headerName = name.kind !== 'secret' || dashedName;
  context.header =
    context.colon && headerName && !context.keyQuoted && (context.enclosingQuote !== '' || context.lineStart);
  const valueStart = skipBlanks(text, i);
  context.tight = op === '=' && !spaceBefore && valueStart === i;
  // `user:pass@host`, `host:8080`, `x-access-token:ghs_…`: a colon glued to both sides is no assignment.
  if (context.colon && valueStart === i && !context.keyQuoted && !context.header && !isQuoteAt(text, i)) return end;
  const slice = readValue(text, valueStart, name, context);
  judge(text, trimmed(text, slice), name, context, mode, out);
  return slice.next;
}

function readValue(text: string, from: number, name: SecretName, context: Context): Slice {
  if (isQuoteAt(text, from)) {
    const quoted = readQuoted(text, from);
    if (quoted) return quoted;
  }
  if (context.header) return readToLineEnd(text, from, context.enclosingQuote);
  if (context.colon && context.lineStart && !context.keyQuoted)
    return yamlPlainValue(text, cutYamlComment(text, readToLineEnd(text, from)));
  const headerish = name.kind === 'authorization' || name.kind === 'cookie';
  if (headerish && context.colon) return readToLineEnd(text, from, context.enclosingQuote || ',');
  return readWord(text, from, VALUE_STOPS);
}

/** A YAML plain value cannot hold `: ` (that would start a mapping): a line that does is no value. */
function yamlPlainValue(text: string, line: Slice): Slice {
  const colon = text.indexOf(': ', line.start);
  return colon >= 0 && colon < line.end ? { ...line, end: line.start } : line;
}

/** `password: hunter2 # rotated in May` keeps the comment out of the value. */
function cutYamlComment(text: string, line: Slice): Slice {
  for (let i = line.start + 1; i < line.end; i++) {
    if (text.charAt(i) === '#' && (text.charAt(i - 1) === ' ' || text.charAt(i - 1) === '\t')) {
      return trimmed(text, { ...line, end: i });
    }
  }
  return line;
}

function judge(
  text: string,
  slice: Slice,
  name: SecretName,
  context: Context,
  mode: RedactionMode,
  out: Candidate[],
): void {
  if (slice.end <= slice.start) return;
  const value = text.slice(slice.start, slice.end);
  // Markers are never secrets; PEM blocks are the private-key detector's, whole.
  if (isMarker(value) || value.startsWith('-----BEGIN ')) return;
  if (!slice.quoted && markerAt(text, slice.end)) return;
  switch (name.kind) {
    case 'authorization':
      judgeAuthorization(
        slice,
        value,
        mode,
        slice.quoted || context.keyQuoted || context.header || context.lineStart,
        DETECTOR,
        out,
      );
      return;
    case 'cookie':
      if (mode === 'blunt') out.push({ label: name.label, detector: DETECTOR, start: slice.start, end: slice.end });
      return;
    case 'aws-account':
      if (value.length === 12 && /^\d{12}$/.test(value))
        out.push({ label: name.label, detector: DETECTOR, start: slice.start, end: slice.end });
      return;
    case 'secret':
      if (mode === 'blunt' && context.header) {
        out.push({ label: 'secret-header', detector: DETECTOR, start: slice.start, end: slice.end });
        return;
      }
      if (!isAssignedSecret(text, slice, value, context)) return;
      out.push({
        label: context.header ? 'secret-header' : name.label,
        detector: DETECTOR,
        start: slice.start,
        end: slice.end,
      });
  }
}

/**
 * Whether an assigned value is a literal secret. Quoted values, header values, lines of config
 * (`password: x` in YAML, `password = x` in INI) and tight shell assignments are; in code and prose
 * (`password = getPassword()`, `the password: secret`) a value must not read like an expression or
 * a plain word.
 */
function isAssignedSecret(text: string, slice: Slice, value: string, context: Context): boolean {
  // The common prose case first, cheaply: `password: password: …` names, it assigns nothing.
  if (!slice.quoted && context.colon && !context.lineStart && !context.header && value.endsWith(':')) return false;
  if (!isLiteralSecretValue(value, MIN_ASSIGNED_LENGTH) || looksLikePath(value)) return false;
  if (slice.quoted) return true;
  const after = text.charAt(slice.end);
  if (after === '(' || after === '[' || looksLikeCode(value) || isCodeWord(value)) return false;
  if (context.header || context.tight) return true;
  // A member list in code ends its values with `,` or `;` (`token: panelToken,`, `password: string;`).
  const bare = value.endsWith(',') || value.endsWith(';') ? value.slice(0, -1) : value;
  const codeList = bare !== value || after === ',' || after === ';';
  if (context.lineStart && !context.keyQuoted && !codeList) return true;
  if (
    bare.length < MIN_ASSIGNED_LENGTH ||
    bare.endsWith(':') ||
    /\s/.test(bare) ||
    bare.startsWith('/*') ||
    bare.startsWith('//')
  )
    return false;
  if (DOTTED_PATH.test(bare) || /^\d{1,6}$/.test(bare) || isPlaceholder(bare)) return false;
  return /[^A-Za-z_]/.test(bare);
}

const DOTTED_PATH = /^[A-Za-z_$][\w$]{0,64}(?:\.[A-Za-z_$][\w$]{0,64}){1,16}$/;

function looksLikePath(value: string): boolean {
  if (!(value.startsWith('/') || value.startsWith('~/') || value.startsWith('./') || value.startsWith('../')))
    return false;
  let slashes = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    if (ch === '/') slashes++;
    else if (ch === ' ') return false;
  }
  return slashes >= 2;
}

/** `<password>…</password>` on one line; only with its closing tag (`Promise<EqualsToken>` is a type, not XML). */
function readXmlElement(text: string, from: number, tag: string, name: SecretName, out: Candidate[]): number {
  if (name.kind !== 'secret') return from;
  const limit = Math.min(text.length, from + MAX_VALUE_LENGTH);
  let close = from;
  while (close < limit && text.charAt(close) !== '<' && text.charAt(close) !== '\n') close++;
  if (close >= limit || !text.startsWith(`</${tag}>`, close)) return from;
  const slice = trimmed(text, { start: from, end: close, next: close, quoted: true });
  const value = text.slice(slice.start, slice.end);
  if (isLiteralSecretValue(value, MIN_ASSIGNED_LENGTH))
    out.push({ label: name.label, detector: DETECTOR, start: slice.start, end: slice.end });
  return close;
}

/**
 * The candidates for a whole string that is the value of `keyName` in structured data (a JSON
 * member): the key gives the context that the string alone lacks.
 */
export function keyedValueCandidates(keyName: string, value: string, mode: RedactionMode): Candidate[] {
  const name = classifySecretName(keyName);
  if (!name) return [];
  const out: Candidate[] = [];
  const context: Context = {
    keyQuoted: true,
    enclosingQuote: '',
    colon: true,
    lineStart: false,
    header: false,
    tight: false,
  };
  const slice = trimmed(value, { start: 0, end: value.length, next: value.length, quoted: true });
  judge(value, slice, name, context, mode, out);
  return out;
}
