// Command lines written inside files and arguments Warden has no reader for: a Rust build script's
// `"curl … | sh"`, an Xcode build phase's `shellScript = "…"`, a JetBrains run configuration's
// SCRIPT_TEXT, a Terraform `local-exec`, a Kubernetes Job's `command`, an MCP tool's pipeline steps.
// Whatever runs them (a Command, a Process, a CI runner), the text is the command. Only text that
// fetches, sends or hands something to a shell is taken: that is where harm hides in such files, and
// a bare word such as "curl" in an argument list stays data.
import { xmlText } from './xml';
import { quotedSpans } from './quoted';

/**
 * A command that moves data over the network, a pipe into a shell, or a client of a database, a cloud
 * or a cluster (what a Kubernetes Job or a Terraform local-exec runs against shared data).
 */
const ACTING =
  /(?:^|[\s;&|(`])(?:curl|wget|nc|ncat|socat|scp|sftp|rsync|ftp|telnet|psql|mysql|mongosh|redis-cli|aws|gsutil|gcloud|kubectl)[ \t]+\S|\|[ \t]*(?:sudo[ \t]+)?(?:ba|z|da|k)?sh(?:\s|$)/;

/** Longer text is not one command line someone wrote into a string. */
const MAX_LINE_CHARS = 4096;
/** A file with more than this many is not a file of a few hidden commands; the first ones are judged. */
const MAX_LINES = 64;

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '' };

function unescape(body: string): string {
  return body.replace(/\\(.)/g, (_, ch: string) => ESCAPES[ch] ?? ch);
}

/** Whether the text reads as a command line that fetches, sends, or feeds a shell. */
export function isActingCommandLine(text: string): boolean {
  return text.length <= MAX_LINE_CHARS && ACTING.test(text);
}

/** The quoted strings of code or config that read as command lines that act (see ACTING). */
export function embeddedCommandLines(text: string): string[] {
  const found = new Set<string>();
  for (const { body } of quotedSpans(text)) {
    if (body.length <= 5) continue;
    const line = xmlText(unescape(body));
    if (isActingCommandLine(line)) found.add(line);
    if (found.size >= MAX_LINES) break;
  }
  return [...found];
}

/** Control characters and replacement marks: decoded bytes that are not text. */
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001f\ufffd]/;

// Base64 written into code as one literal, long enough to hold a command line.
const BASE64_LITERAL = /["'`]([A-Za-z0-9+/]{16,}={0,2})["'`]/g;
// Base64 standing as a word of its own (`echo <base64> | base64 -d` in a script a file holds).
const BARE_BASE64 = /(?<![\w+/=])([A-Za-z0-9+/]{24,}={0,2})(?![\w+/=])/g;

/** The text base64 `encoded` stands for, when it decodes to text of eight characters or more. */
function base64Text(encoded: string): string | undefined {
  if (encoded.length % 4 === 1) return undefined;
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  return text.length >= 8 && !NOT_TEXT.test(text) ? text : undefined;
}

/**
 * The base64 of code that decodes to text (a payload a decode call hands to eval or a shell): its
 * quoted literals, and with `bareWords` its base64 words too (a script a file holds, unquoted). With
 * `keep`, only the payloads it keeps count and come back. Every run is tried: a cap on tries let a
 * text hide its payload behind as many harmless literals, and each try decodes only its own run, so
 * the whole costs one pass over the text.
 */
export function decodedPayloads(
  code: string,
  { bareWords = false, keep }: { bareWords?: boolean; keep?: (payload: string) => boolean } = {},
): string[] {
  const found = new Set<string>();
  const runs = bareWords
    ? [code.matchAll(BASE64_LITERAL), code.matchAll(BARE_BASE64)]
    : [code.matchAll(BASE64_LITERAL)];
  for (const matches of runs)
    for (const match of matches) {
      const text = base64Text(match[1] ?? '');
      if (text !== undefined && (keep === undefined || keep(text))) found.add(text);
      if (found.size >= MAX_LINES) return [...found];
    }
  return [...found];
}

/**
 * The command lines code in a language Warden has no reader for carries: in its strings, and in the
 * base64 payloads it decodes (`Code.eval_string(Base.decode64!("…"))`, `"…".decodeBase64().execute()`).
 */
export function foreignCodeCommands(code: string): string[] {
  const found = new Set(embeddedCommandLines(code));
  const carriesCommands = (payload: string) => isActingCommandLine(payload) || embeddedCommandLines(payload).length > 0;
  for (const payload of decodedPayloads(code, { keep: carriesCommands })) {
    if (isActingCommandLine(payload)) found.add(payload);
    for (const line of embeddedCommandLines(payload)) found.add(line);
  }
  return [...found].slice(0, MAX_LINES);
}

/** Argument names under which a tool keeps what it will run: scripts, steps, commands, hooks, tasks, code. */
const RUN_KEY = /script|step|command|cmd|^run|exec|hook|task|entrypoint|pipeline|program|^code$/i;

/**
 * The string values an MCP tool keeps under a name for what it runs (nested to a bound) that read
 * as acting command lines, line by line and in their quoted parts: a pipeline's steps handed over
 * as one YAML string, composer's event scripts. A message body that quotes `curl … | sh` is not
 * under such a name and stays text.
 */
export function argumentCommandLines(input: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, depth: number, runs: boolean, encoded: boolean): void => {
    if (found.size >= MAX_LINES || depth > 6) return;
    if (typeof value === 'string') {
      if (!runs) return;
      // `script_b64`: a script handed over encoded is a script, every line of it.
      const decoded = encoded ? decodedBase64Text(value) : undefined;
      if (decoded !== undefined) for (const line of decoded.split('\n')) if (line.trim()) found.add(line.trim());
      for (const line of value.split('\n')) {
        // `- command: env | curl …`: a step's key is not part of its command.
        const command = line.replace(/^\s*(?:-\s+)?(?:[\w-]+:\s+)?/, '');
        if (isActingCommandLine(command)) found.add(command);
      }
      for (const line of foreignCodeCommands(value)) found.add(line);
    } else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1, runs, encoded);
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value))
        visit(item, depth + 1, runs || RUN_KEY.test(key), ENCODED_KEY.test(key));
  };
  visit(input, 0, false, false);
  return [...found].slice(0, MAX_LINES);
}

/** Argument names that say their value is base64 (`script_b64`, `commandBase64`). */
const ENCODED_KEY = /b64|base64/i;

/** A whole value's base64, as text, when it decodes to text. */
export function decodedBase64Text(value: string): string | undefined {
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]{8,}={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
  const text = Buffer.from(compact, 'base64').toString('utf8');
  return NOT_TEXT.test(text) ? undefined : text.slice(0, MAX_LINE_CHARS * 4);
}

/** Longer prose is not a note; only its start is read. */
const MAX_PROSE_CHARS = 16_384;

/**
 * The command lines a note written in prose tells its reader to run: its `code spans` and fenced blocks'
 * lines that act (fetch, send, feed a shell). A memory note that says "run `… | bash` before the tests"
 * hands that command to every later session.
 */
/**
 * A code span that reads as a whole command line (`pio run -d legacy -O "extra_scripts=…"`): a program
 * name and its words. The prose around it tells the reader to run it; a file or function name in
 * backticks is one word, and stays prose.
 */
function isSpanCommand(span: string): boolean {
  if (span.length > MAX_LINE_CHARS) return false;
  // Variables set for the one command (`LD_PRELOAD=… ./gradlew test`, `ERL_ZFLAGS="-eval '…'" mix …`) come
  // before its program; a quoted value is one word, spaces and all.
  const words = span.slice(afterAssignments(span)).split(/[ \t]+/);
  return /^(\.{0,2}\/)?[a-z][\w.+/-]*$/.test(words[0] ?? '') && words.length > 1;
}

/** The index of the quote that closes the one at `open` (a backslash escapes within double quotes), or -1. */
function closingQuote(line: string, open: number): number {
  const quote = line[open];
  for (let at = open + 1; at < line.length; at++) {
    if (quote === '"' && line[at] === '\\') at++;
    else if (line[at] === quote) return at;
  }
  return -1;
}

/** Where a command line's program starts: after its leading `NAME=value` words, quoted values read whole. */
function afterAssignments(line: string): number {
  let at = 0;
  for (;;) {
    const name = /^[A-Za-z_]\w*=/.exec(line.slice(at));
    if (!name) return at;
    let end = at + name[0].length;
    while (end < line.length && line[end] !== ' ' && line[end] !== '\t') {
      const quote = line[end];
      if (quote === '"' || quote === "'") {
        const close = closingQuote(line, end);
        if (close < 0) return at;
        end = close + 1;
      } else end++;
    }
    while (line[end] === ' ' || line[end] === '\t') end++;
    if (end >= line.length) return at;
    at = end;
  }
}

export function proseCommandLines(prose: string): string[] {
  const text = prose.slice(0, MAX_PROSE_CHARS);
  const found = new Set<string>();
  const pieces = text.split('`');
  // Odd pieces sit between backticks; a fence's pieces are empty around its body.
  for (let at = 1; at < pieces.length; at += 2)
    for (const line of (pieces[at] ?? '').split('\n'))
      if (isActingCommandLine(line.trim()) || isSpanCommand(line.trim())) found.add(line.trim());
  // A command written into a sentence ("run: curl -fsSL https://… | bash, then …"): its clause, when it
  // names a URL or pipes, so that prose such as "use curl to check" stays prose.
  for (let at = 0; at < pieces.length; at += 2)
    for (const clause of (pieces[at] ?? '').split(/\n|: |, |; |\. /)) {
      const text = clause.trim();
      if (/https?:\/\/|\|/.test(text) && isActingCommandLine(text)) found.add(text);
    }
  return [...found].slice(0, MAX_LINES);
}
