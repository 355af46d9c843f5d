// Whether text written into an agent's instructions (CLAUDE.md, AGENTS.md, a rules file, a slash command,
// a sub-agent's definition) is plain working guidance: style, build and test routines, a read-only
// reviewer. Every command such guidance leads to still comes through the hook when the agent runs it,
// so what instructions add beyond the calls themselves is what the hook cannot see later:
// - a standing approval or a waiver of asking ("pre-approved", "do not ask"), or a way around the guard;
// - tools granted without the agent's own prompts (allowed-tools, a sub-agent's tools, permissionMode);
// - commands a slash command runs before the model sees it (`!` lines), hooks a skill defines;
// - secrets, hosts and uploads named for later, text hidden from the rendered page.
// Anything of these, or any doubt, leaves the change to the person.

/** Tools that only read, which a command or sub-agent may be given without a prompt being lost. */
const READ_ONLY_TOOLS = new Set(['read', 'grep', 'glob', 'ls', 'websearch', 'todowrite', 'todoread', 'notebookread']);

/** Programs whose pre-approval would approve anything they are handed. */
const OPEN_ENDED_PROGRAMS =
  /^(sh|bash|zsh|fish|dash|ksh|pwsh|powershell|cmd|env|sudo|su|doas|eval|exec|xargs|nohup|timeout|python\d*(\.\d+)?|node|deno|bun|perl|ruby|php|lua|curl|wget|nc|ncat|socat|ssh|scp|rsync|sftp|ftp|rm|dd|chmod|chown|kubectl|helm|terraform|aws|gcloud|az|docker|podman|psql|mysql|mongosh|redis-cli)$/;

/** A frontmatter line (or an edit of one) that sets what the agent may do unprompted. */
const GRANT_KEY =
  /^\s*["']?(allowed[-_]tools|tools|disallowed[-_]tools|permission[-_]?mode|hooks|mcp[-_]?servers)["']?\s*:/i;

/** Words of a guard, of approvals, of turning checks off, of acting unseen or on everything (several short expressions, each checked for ReDoS on its own). */
const GUARD_OR_APPROVAL: readonly RegExp[] = [
  /guard|warden|hook|sandbox|bypass|permission|approv|authori[sz]|yolo|dangerously|no-verify|false positive/i,
  /skip|ignore|disabl|\bblock|deny|denied|allowlist|whitelist|unrestricted|autonomous|auto-?(run|accept|execut|confirm)/i,
  /(?<![\w-])safety(?!-)|\bsudo\b|\broot\b|\badmin|escalat|\bas already\b|\bobey/i,
  /follow (any|all|every) instruction|mention|\btell\b|\bhide\b|conceal|silent|quiet|from the user|user instruction|tool output/i,
  /everything|\b(every|all|any)\s+(terminal\s+|shell\s+)?(command|tool call|call)s?\b/i,
];
const namesGuardOrApproval = (text: string) => GUARD_OR_APPROVAL.some((pattern) => pattern.test(text));
/** Asking waived: a negation and asking in one sentence ("do not ask", "without confirmation"). */
const NEGATION = /\b(not|never|no|without|don't|dont|needn't|skip|stop)\b/i;
const ASKING = /\b(ask\w*|confirm\w*|prompt\w*|check with|approval|review\w*)\b/i;
/** Secrets, and the places they are kept. */
const SECRETS =
  /\.env\b|secret|token|passw|credential|private[ _-]?key|\.pem\b|\.p12\b|\.pfx\b|\.key\b|id_rsa|id_ed25519|\bssh\b|keychain|keystore|\.aws\b|api[ _-]?key|cookie|\.netrc|\.npmrc|\.pypirc|vault/i;
/** Sending or fetching: anything that moves data past the machine, or brings code onto it. */
const TRANSFER =
  /\bupload|\bsend\b|\bpost\b|\be-?mail|\bpaste|webhook|exfil|\bcurl\b|\bwget\b|\bscp\b|\brsync\b|\bnc\b|netcat|\bftp\b|include the (full )?contents|print the (full )?contents|download/i;
/** Harm named outright: force, deletion, production. */
const DESTRUCTIVE =
  /--force\b|\bforce[- ]push|\brm\s+-\w*[rf]|\bdelete|\bdrop\b|\btruncate|\bwipe|\bdestroy|reset --hard|\bprod\b|\bprod[-_]|production|\bpurge/i;
/** Encodings and run-time text: what a reader of the file cannot see as written. */
const OPAQUE = /base64|\beval\b|\$\(|\\x[0-9a-f]{2}|\\u[0-9a-f]{4}/i;
/** An encoded blob: a long run of base64's letters with digits and both cases in it. */
function holdsEncodedBlob(text: string): boolean {
  return text
    .split(/[^A-Za-z0-9+/=]+/)
    .some((run) => run.length >= 40 && /\d/.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run));
}
/** An address: a URL, an e-mail address, an IP address or a host name with a known ending (read word by word). */
const TOP_LEVEL_DOMAIN = /\.(com|net|org|io|example|xyz|ru|cn|me|co|ai|cloud|site|online|top|info|biz)$/i;
const IP_ADDRESS = /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/;
function withoutTrailingPunctuation(word: string): string {
  let end = word.length;
  while (end > 0 && '.:!?'.includes(word[end - 1]!)) end--;
  return word.slice(0, end);
}

function namesAddress(text: string): boolean {
  if (IP_ADDRESS.test(text)) return true;
  return text.split(/[\s"'`()<>[\]{},;]+/).some((word) => {
    if (word.includes('://')) return true;
    const at = word.indexOf('@');
    if (at > 0 && word.indexOf('.', at) > at + 1) return true;
    const host = withoutTrailingPunctuation(word.split('/')[0] ?? '');
    return TOP_LEVEL_DOMAIN.test(host);
  });
}
/** Paths outside the project: the home folder, system folders, temporary folders. */
const OUTSIDE_PATH =
  /(^|[\s"'`(=])(~|\$HOME|\$\{HOME\}|%USERPROFILE%|\/(etc|tmp|var|usr|opt|root|home|Users)\b|[A-Za-z]:\\)/;
/** Text a rendered page hides: HTML comments, zero-width and direction-control characters. */
const HIDDEN = /<!--|[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]/;
/**
 * A letter outside ASCII: the word lists here are English, and a waiver of asking written in another script
 * or with accented letters ("nie um Bestätigung bitten") would pass them unread.
 */
const NON_ASCII_LETTER = /(?![\x00-\x7F])\p{L}/u;
/** A slash command's line that runs before the model reads the command (`!` and a backquoted command). */
const PRE_RUN = /(^|\s)!`/m;

const MAX_CHARS = 16_000;

/** Whether every tool a grant line names only reads, or is a program that does one fixed job. */
function grantsOnlyNarrowTools(line: string): boolean {
  const value = line.slice(line.indexOf(':') + 1).trim();
  if (!/^(allowed[-_]tools|tools)$/i.test(line.split(':')[0]!.trim().replace(/["']/g, ''))) return false;
  if (value === '') return false;
  const entries = value
    .replace(/^\[|\]$/g, '')
    .split(/,(?![^(]*\))/)
    .map((e) => e.trim().replace(/^["']|["']$/g, ''))
    .filter((e) => e !== '');
  return entries.length > 0 && entries.every(isNarrowTool);
}

function isNarrowTool(entry: string): boolean {
  if (READ_ONLY_TOOLS.has(entry.toLowerCase())) return true;
  // Bash(npm test:*), Bash(vendor/bin/phpunit:*): one program, named; never a shell, an interpreter or a wildcard.
  const scoped = /^Bash\(([^()*]+?)(:\*)?\)$/.exec(entry);
  if (!scoped) return false;
  const words = scoped[1]!.trim().split(/\s+/);
  const program = (words[0] ?? '').split('/').pop() ?? '';
  return program !== '' && !OPEN_ENDED_PROGRAMS.test(program) && !/[;&|<>$`]/.test(scoped[1]!);
}

/**
 * Asking waived in some clause of the text: a negation and asking in one clause ("no need to confirm",
 * "approval is not required"). Clauses, not sentences: "Review the diff; do not modify files" waives nothing.
 */
function waivesAsking(text: string): boolean {
  return text.split(/[.!?;:,]\s|\n|\sbut\s/).some((clause) => ASKING.test(clause) && NEGATION.test(clause));
}

/**
 * Whether `text`, written into an agent's instructions, is plain guidance (see the top of this file).
 * `replaced` is the text an edit takes out: taking out a rule about asking or the guard is not plain.
 */
export function isPlainInstruction(text: string, replaced = ''): boolean {
  if (text.length > MAX_CHARS) return false;
  if (HIDDEN.test(text) || PRE_RUN.test(text) || NON_ASCII_LETTER.test(text)) return false;
  for (const line of text.split('\n')) if (GRANT_KEY.test(line) && !grantsOnlyNarrowTools(line)) return false;
  const prose = text
    .split('\n')
    .filter((line) => !GRANT_KEY.test(line))
    .join('\n');
  if (
    namesGuardOrApproval(prose) ||
    SECRETS.test(prose) ||
    TRANSFER.test(prose) ||
    DESTRUCTIVE.test(prose) ||
    OPAQUE.test(prose) ||
    holdsEncodedBlob(prose) ||
    namesAddress(prose) ||
    OUTSIDE_PATH.test(prose) ||
    waivesAsking(prose)
  )
    return false;
  return !(ASKING.test(replaced) || namesGuardOrApproval(replaced));
}
