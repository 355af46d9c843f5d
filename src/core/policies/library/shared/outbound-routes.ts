import type { SimpleCommand } from '../../../shell';
import type { ToolCall } from '../../types';
import { mcpToolOf, serviceTool } from './mcp';
import { onOwnNetwork } from './own-sources';
import { resolvePath } from '../../../shell/paths';
import { argsOf, optionValues, parseFlags, redirectReads } from '../../../facts/commands';
import { REQUEST_BODY_LONG, REQUEST_BODY_SHORT, inlineCode } from '../../../facts/programs';
import { classifySecretName } from '../../../redaction/secret-names';
import { secretKindOfPath } from '../../../facts/sensitive';
import { secretInText, urlPayload, type UrlPayload } from './url-payload';
import { gitInvocation } from '../../../facts/git-invocation';
import { hostOfSchemedUrl, hostOfUrl } from './hosts';
import { ibanIn } from '../../../text/bank-numbers';

// Routes by which a call carries data to another host that no upload option names: a URL that
// holds a secret or encoded data, a request body of a web tool, commits mailed as patches, a copy
// to a remote path (scp, rsync, sftp put), a pipe into ssh, command output substituted into a
// request, interpreter code that posts a file's content.

export interface Outbound {
  what: string;
  host: string;
  certain: boolean;
}

/** Where a URL goes, for the reason. */
export function hostOf(raw: string): string {
  try {
    return new URL(raw).hostname;
  } catch {
    return raw;
  }
}

const URL_WORD = /^[a-z][\w+.-]*:\/\/\S+$/i;
const WEB_BODY_KEYS = ['body', 'data', 'payload', 'content', 'json', 'form', 'headers', 'query'];

/** A secret or encoded data in the URL a web tool fetches, or in a request body it sends. */
export function webToolPayload(call: ToolCall): Outbound | undefined {
  if (call.face.family !== 'network') return undefined;
  if (!call.url) return searchPayload(call);
  const host = hostOf(call.url);
  const inUrl: UrlPayload | undefined = urlPayload(call.url);
  if (inUrl) return { what: `${inUrl.what} in the URL`, host, certain: inUrl.certain };
  for (const key of WEB_BODY_KEYS) {
    const value = call.input[key];
    const text = typeof value === 'string' ? value : value !== undefined ? JSON.stringify(value) : '';
    const secret = text ? secretInText(text) : undefined;
    if (secret) return { what: `${secret} in the request ${key}`, host, certain: true };
  }
  return undefined;
}

/** A web search's query goes to the search engine, and into its logs: a secret in it leaves the machine. */
function searchPayload(call: ToolCall): Outbound | undefined {
  const query = call.input['query'];
  if (typeof query !== 'string') return undefined;
  const secret = secretInText(query);
  if (secret) return { what: `${secret} in a web search`, host: 'the search engine', certain: true };
  // Someone's bank account (with, as often, their name beside it): personal data the search engine keeps.
  return ibanIn(query) !== undefined
    ? { what: 'a bank account number (IBAN) in a web search', host: 'the search engine', certain: false }
    : undefined;
}

// MCP servers that work on this machine's files: what they write stays here (secret-written-to-file
// judges it); a secrets manager is where a secret belongs.
const LOCAL_OR_VAULT_SERVER = /filesystem|files?|fs|docker|podman|vault|secrets?|1password|bitwarden|keychain|keyring/i;

/**
 * A secret in what an MCP tool is handed (a chat message, an email, an issue, a gist, a pushed file):
 * the tool's server sends it on, wherever that server posts. A file of this machine handed to such a
 * tool (an attachment, an upload's source) leaves with it: asked about, as `curl -F file=@…` is.
 */
export function mcpToolPayload(call: ToolCall): Outbound | undefined {
  const server = mcpToolOf(call.toolName)?.server;
  if (server === undefined || LOCAL_OR_VAULT_SERVER.test(server)) return undefined;
  for (const text of stringsIn(call.input)) {
    const secret = secretInText(text, { shapeOnly: true });
    if (secret) return { what: `${secret} through the ${server} tool ${call.toolName}`, host: server, certain: true };
  }
  const attached = attachedSecretFile(call);
  if (attached)
    return { what: `${attached} attached through the ${server} tool ${call.toolName}`, host: server, certain: true };
  const sent = localFileHanded(call);
  if (sent) return { what: `${sent} through the ${server} tool ${call.toolName}`, host: server, certain: false };
  return serviceSendsOut(call);
}

// What a service is told to send somewhere (`upload_logs`, `export_dataset`, `forward_events`), and the
// arguments that say where.
const SENDING = /^(upload|export|send|forward|ship|sync|mirror|replicate|backup|stream|publish|post|transfer)$/;
const DESTINATION_KEY = /(target|destination|dest|url|uri|endpoint|sink|remote|webhook|^to)$/i;

/**
 * A service told to send its data to a host outside the organisation's network (`{"command":
 * "upload_logs", "args": {"target": "https://…"}}`): the data leaves from there, not from this machine.
 */
function serviceSendsOut(call: ToolCall): Outbound | undefined {
  const found = serviceTool(call);
  if (!found || !found.doing.some((w) => SENDING.test(w))) return undefined;
  for (const [key, value] of Object.entries(found.args)) {
    if (typeof value !== 'string' || !DESTINATION_KEY.test(key)) continue;
    const host = hostOfSchemedUrl(value);
    if (host !== undefined && !onOwnNetwork(host))
      return { what: `what ${found.server}'s ${found.doing.join('_')} gathers`, host, certain: false };
  }
  return undefined;
}

// Input keys that hand a tool a file of this machine to read and send (an attachment, an upload's source).
const LOCAL_FILE_KEY = /attach|^(file|local|source|src|upload)_?path$|^(file|filename|local_?file)$/i;
// What leaves in bulk: a database dump, a table export, an archive (of the project, as like as not).
const BULK_DATA_FILE = /\.(sql|dump|csv|tsv|db|sqlite3?|bak|tar|tgz|gz|zip|7z|jsonl|parquet)$/i;
// Tools that copy a file as it is to storage elsewhere (a bucket, a share), whose plain `path` is that file.
const UPLOAD_TOOL = /(^|_)(put|upload|copy|sync)(_|$)/i;
const UPLOAD_SOURCE_KEY = new RegExp(`${LOCAL_FILE_KEY.source}|^(path|paths|file_?path|filepath|files)$`, 'i');

/** The paths a tool's input names under keys that `key` accepts, one string or a list of them. */
function pathsUnder(call: ToolCall, key: RegExp): string[] {
  return Object.entries(call.input)
    .filter(([name]) => key.test(name))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]))
    .filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * A file of this machine that a tool is told to read and send on, when what leaves is data in bulk (a
 * dump, an export, an archive) or the tool stores it elsewhere as it is (an object store's put). A
 * report attached to a mail is not asked about.
 */
function localFileHanded(call: ToolCall): string | undefined {
  const upload = UPLOAD_TOOL.test(mcpToolOf(call.toolName)?.tool ?? '');
  return pathsUnder(call, upload ? UPLOAD_SOURCE_KEY : LOCAL_FILE_KEY).find((p) => upload || BULK_DATA_FILE.test(p));
}

/** A credential file of this machine that a mail or chat tool is told to attach (its server reads and sends it). */
function attachedSecretFile(call: ToolCall): string | undefined {
  for (const raw of pathsUnder(call, /attach|file/i)) {
    const kind = secretKindOfPath(resolvePath(raw, call.cwd, call.home), call.home);
    if (kind) return `${raw} (${kind})`;
  }
  return undefined;
}

/** Every string inside a tool's input, depth first, bounded (an input is a few KB of JSON). */
export function stringsIn(value: unknown, found: string[] = [], depth = 0): string[] {
  if (typeof value === 'string') found.push(value);
  else if (depth < 8 && value !== null && typeof value === 'object')
    for (const inner of Object.values(value)) stringsIn(inner, found, depth + 1);
  return found;
}

/** A secret or encoded data in a URL a shell command requests. */
export function commandUrlPayload(cmd: SimpleCommand): Outbound | undefined {
  for (const word of argsOf(cmd)) {
    if (!URL_WORD.test(word)) continue;
    const payload = urlPayload(word);
    if (payload) return { what: `${payload.what} in the URL`, host: hostOf(word), certain: payload.certain };
  }
  return undefined;
}

/** `git send-email --to=X`, `git imap-send`: commits mailed out as patches. */
export function mailedCommits(cmd: SimpleCommand): Outbound | undefined {
  const git = gitInvocation(cmd);
  const sub = git?.sub;
  if (!git || (sub !== 'send-email' && sub !== 'imap-send')) return undefined;
  const to = optionValues(git.args, [], ['to', 'cc', 'bcc', 'smtp-server'])[0] ?? 'the configured address';
  return { what: `commits as patches (git ${sub})`, host: to.replace(/^.*@/, ''), certain: false };
}

function isRemotePath(word: string): boolean {
  return (
    (/^([\w.-]+@)?[\w.-]+:(?!\/\/)/.test(word) && !/^[A-Za-z]:[\\/]/.test(word)) || /^(scp|sftp|rsync):\/\//.test(word)
  );
}

function remoteHost(word: string): string {
  return (
    word
      .replace(/^(scp|sftp|rsync):\/\//, '')
      .replace(/^[\w.-]+@/, '')
      .split(/[:/]/)[0] ?? word
  );
}

/** git push's options that take the next word as their value. */
const GIT_PUSH_VALUES = ['o', 'push-option', 'receive-pack', 'exec', 'repo'];

/**
 * `git push https://host/x.git main`, `git push user@host:x.git`: commits pushed to an address
 * written into the command rather than a remote the repository has configured.
 */
export function pushToAddress(cmd: SimpleCommand): Outbound | undefined {
  const git = gitInvocation(cmd);
  // `git lfs push --all URL`: the large files the commits point at, to that address.
  const lfs = git?.sub === 'lfs' && git.args[0] === 'push';
  if (git?.sub !== 'push' && !lfs) return undefined;
  const args = lfs ? git.args.slice(1) : git.args;
  if (lfs && args.includes('--dry-run')) return undefined;
  const repo =
    optionValues(args, [], ['repo'])[0] ??
    parseFlags(
      args,
      ['o'],
      GIT_PUSH_VALUES.filter((v) => v.length > 1),
    ).positionals[0];
  if (repo === undefined) return undefined;
  const url = /^[a-z][\w+.-]*:\/\//i.test(repo) ? repo : undefined;
  if (url === undefined && !isRemotePath(repo)) return undefined;
  const host = url ? (hostOfUrl(url) ?? url) : remoteHost(repo);
  if (url?.startsWith('file:')) return undefined;
  const what = lfs
    ? "the repository's large files (git lfs push to an address, not a configured remote)"
    : "the repository's commits (git push to an address, not a configured remote)";
  return { what, host, certain: false };
}

/**
 * `sentry-cli --url https://host debug-files upload …`: the build's symbols, source maps or events sent to the
 * Sentry server the option names rather than sentry.io's.
 */
export function sentryUpload(cmd: SimpleCommand): Outbound | undefined {
  if (cmd.name !== 'sentry-cli') return undefined;
  const args = argsOf(cmd);
  const url = optionValues(args, [], ['url'])[0] ?? cmd.assignments['SENTRY_URL'];
  if (
    url === undefined ||
    !args.some((a) => /^(upload|upload-dif|upload-sourcemaps|upload-proguard|send-event|send-envelope)$/.test(a))
  )
    return undefined;
  const host = hostOfUrl(url) ?? url;
  if (host === 'sentry.io' || host.endsWith('.sentry.io')) return undefined;
  return { what: `build files or events (sentry-cli to the server --url names)`, host, certain: false };
}

/** `scp -r . host:dir`, `rsync -a ./ host:/x`: local files copied to a remote path. */
export function remoteCopy(cmd: SimpleCommand): Outbound | undefined {
  if (cmd.name !== 'scp' && cmd.name !== 'rsync') return undefined;
  const words = parseFlags(
    argsOf(cmd),
    ['e', 'i', 'P', 'o', 'F', 'c', 'l', 'J', 'S'],
    ['rsh', 'exclude', 'include', 'rsync-path', 'port', 'filter', 'exclude-from', 'include-from', 'backup-dir'],
  ).positionals;
  const dest = words[words.length - 1];
  const sources = words.slice(0, -1);
  if (dest === undefined || !isRemotePath(dest) || !sources.some((s) => !isRemotePath(s))) return undefined;
  // rsync's dry run lists what it would send and sends nothing.
  const dryRun = (a: string) => a === '--dry-run' || (/^-[a-zA-Z]+$/.test(a) && a.includes('n'));
  if (cmd.name === 'rsync' && argsOf(cmd).some(dryRun)) return undefined;
  return { what: `${sources.join(', ')} (${cmd.name} to a remote path)`, host: remoteHost(dest), certain: false };
}

/** `ssh host 'cat > x' < file`, `tar c . | ssh host …`, `sftp host <<< 'put …'`, `tftp host -c put f`. */
export function streamedOverLogin(cmd: SimpleCommand): Outbound | undefined {
  const args = argsOf(cmd);
  const fed = cmd.pipeline.index > 0 || redirectReads(cmd).length > 0;
  const script = cmd.redirects
    .filter((r) => r.op === '<<<' || r.op === '<<' || r.op === '<<-')
    .map((r) => r.target)
    .join('\n');
  const host = parseFlags(args, ['p', 'i', 'o', 'F', 'l', 'J', 'P', 'c', 'b', 'm', 'E', 'L', 'R', 'D', 'W', 'w'], [])
    .positionals[0];
  if (host === undefined) return undefined;
  if (cmd.name === 'ssh' && fed) return { what: 'data fed to ssh', host: remoteHost(host), certain: false };
  if (['sftp', 'ftp', 'lftp'].includes(cmd.name) && /^[ \t]*(m?put|mirror[ \t]+-R|reput)\b/m.test(script))
    return { what: `files sent with ${cmd.name} put`, host: remoteHost(host), certain: false };
  if (cmd.name === 'tftp' && args.includes('put')) return { what: 'files sent with tftp put', host, certain: false };
  // `git format-patch --stdout | mail addr`, `mailx addr < dump.sql`: the message body is what it is fed.
  if (['mail', 'mailx', 'sendmail', 'mutt'].includes(cmd.name) && fed) {
    const address = parseFlags(args, ['s', 'c', 'b', 'r', 'a', 'A', 'F', 'f'], ['subject', 'attach']).positionals[0];
    if (address) return { what: `data mailed with ${cmd.name}`, host: address.replace(/^.*@/, ''), certain: false };
  }
  return undefined;
}

/** Command output substituted into the data, a header or the URL of a request: `curl -d "$(cat f)"`, `/$(whoami)`. */
export function substitutedRequest(cmd: SimpleCommand): boolean {
  if (!['curl', 'wget', 'http', 'https', 'xh'].includes(cmd.name)) return false;
  const args = argsOf(cmd);
  const substituted = (word: string) => /\$\(|`/.test(word);
  if (optionValues(args, [...REQUEST_BODY_SHORT], [...REQUEST_BODY_LONG]).some(substituted)) return true;
  // A header other than a credential one (the tool authenticating with a token a CLI prints), the user agent, the referer.
  const headers = optionValues(args, ['H', 'A', 'e'], ['header', 'user-agent', 'referer']);
  if (headers.some((h) => substituted(h) && classifySecretName(h.split(':')[0]?.trim() ?? '') === null)) return true;
  return args.some((a) => substituted(a) && URL_WORD.test(withSubstitutionsAsX(a)));
}

/** httpie and xh: a body fed on stdin, `@file` as the body, `field@file` or `field=@file` as a field. */
export function httpieUpload(cmd: SimpleCommand): Outbound | undefined {
  if (!['http', 'https', 'xh', 'xhs'].includes(cmd.name)) return undefined;
  const args = argsOf(cmd);
  const url = args.find((a) => URL_WORD.test(a) || /^[\w.-]+\.[a-z]{2,}(\/|:|$)/i.test(a));
  if (!url) return undefined;
  const fed = cmd.pipeline.index > 0 || redirectReads(cmd).length > 0;
  const file = args.find((a) => /^@|^[\w-]+=?@/.test(a));
  if (!fed && !file) return undefined;
  return {
    what: file ? `${file.replace(/^[^@]*@/, '')} (${cmd.name})` : `data fed to ${cmd.name}`,
    host: hostOf(URL_WORD.test(url) ? url : `http://${url}`),
    certain: false,
  };
}

const POSTING_CALLS =
  /requests\.(post|put)\(|httpx\.(post|put)\(|method\s*:\s*['"](POST|PUT)['"]|Net::HTTP\.post|Net::HTTP::Post|CURLOPT_POSTFIELDS|axios\.(post|put)\(|HTTP::Request->new\(\s*['"]?POST/;
const FILE_CONTENT_CALLS =
  /read_text\(|read_bytes\(|readFileSync\(|readFile\(|File\.(read|open|binread)\(|file_get_contents\(|IO\.read\(|Deno\.readTextFile|Bun\.file\(|slurp/;

/** Code that posts: a posting call, `urlopen(…, data=…)`, or `.request(…, 'POST')`. */
function postsInCode(code: string): boolean {
  return (
    POSTING_CALLS.test(code) ||
    someCallArguments(code, 'urlopen(', /data\s*=/) ||
    someCallArguments(code, '.request(', /['"](POST|PUT)['"]/)
  );
}

/** Code that reads a file's content: a reading call, `open(…).read`, or an open file handed to a posting call. */
function readsFileInCode(code: string): boolean {
  if (FILE_CONTENT_CALLS.test(code) || postsOpenFile(code)) return true;
  for (let at = code.indexOf('open('); at >= 0; at = code.indexOf('open(', at + 1)) {
    const close = code.indexOf(')', at);
    if (close === -1) return false;
    if (/^\s*\.read/.test(code.slice(close + 1, close + 80))) return true;
  }
  return false;
}

// `requests.post(url, files={'f': open(p, 'rb')})` and `data=open(p)` stream the file itself: the
// arguments after a posting call are looked at, not only up to its first `)` (`open(` has its own).
const OPEN_FILE_ARGUMENT = /\bfiles\s*=|\bdata\s*=\s*open\(|['"]\s*:\s*open\(/;
function postsOpenFile(code: string): boolean {
  const posting = new RegExp(POSTING_CALLS.source, 'g');
  for (let match = posting.exec(code); match; match = posting.exec(code))
    if (OPEN_FILE_ARGUMENT.test(code.slice(match.index, match.index + ARGUMENTS_LOOKED_AT))) return true;
  return false;
}

// One look per call, over at most a few hundred characters of its arguments (up to the first `)`),
// so the scan stays linear however many calls the code holds.
const ARGUMENTS_LOOKED_AT = 400;
function someCallArguments(code: string, callee: string, argument: RegExp): boolean {
  for (let at = code.indexOf(callee); at >= 0; at = code.indexOf(callee, at + 1)) {
    const from = at + callee.length;
    const window = code.slice(from, from + ARGUMENTS_LOOKED_AT);
    const close = window.indexOf(')');
    if (argument.test(close === -1 ? window : window.slice(0, close))) return true;
  }
  return false;
}

/** A word with each `$(…)` and `` `…` `` replaced by `x`, as far as each closes. */
function withSubstitutionsAsX(word: string): string {
  let out = '';
  let at = 0;
  while (at < word.length) {
    const dollar = word.startsWith('$(', at);
    if (dollar || word[at] === '`') {
      const close = word.indexOf(dollar ? ')' : '`', at + (dollar ? 2 : 1));
      if (close !== -1) {
        out += 'x';
        at = close + 1;
        continue;
      }
    }
    out += word[at];
    at++;
  }
  return out;
}
const REMOTE_URL_IN_CODE = /['"`](https?|ftp):\/\/(?!(localhost|127\.|\[::1\]|0\.0\.0\.0))([^'"`/:]+)/;

/** Interpreter code that reads a file and posts it to a named host. */
export function codePostingFiles(cmd: SimpleCommand): Outbound | undefined {
  const code = inlineCode(cmd);
  if (code === undefined || !postsInCode(code) || !readsFileInCode(code)) return undefined;
  const host = REMOTE_URL_IN_CODE.exec(code)?.[3];
  return host ? { what: `file content posted by ${cmd.name} code`, host, certain: false } : undefined;
}

// pandas' and polars' writers hand an object store's URL to fsspec, which uploads what they write: a frame
// written to `gs://…` or `s3://…` leaves the machine as a `gsutil cp` of the same file would.
const FRAME_TO_STORE =
  /\.(?:to_(?:csv|parquet|json|excel|pickle|feather|orc|xml|hdf)|write_(?:csv|parquet|ndjson|json|ipc|avro|delta))\(\s*(?:[a-z_]+\s*=\s*)?["'](gs|gcs|s3a?|az|abfss?|adl|r2|oci):\/\/([^"'/\s]+)/;

/** Interpreter code that writes a data frame into an object store's bucket. */
export function codeWritingFrameToStore(cmd: SimpleCommand): Outbound | undefined {
  const code = inlineCode(cmd);
  const store = code?.includes('://') ? FRAME_TO_STORE.exec(code) : null;
  return store
    ? { what: `a data frame written by ${cmd.name} code (a ${store[1]}:// bucket)`, host: store[2]!, certain: false }
    : undefined;
}

const POSTED_TO =
  /\b(?:requests|httpx|session|client)\.(?:post|put|patch)\(\s*(?:url\s*=\s*)?["']https?:\/\/([^"'/\s:]+)/g;
const FRAME_EXPORT = /\.(?:to_dict|to_json|to_csv|to_records|to_dicts|write_json|write_csv|write_ndjson)\(/;

/** Interpreter code that posts a data frame's rows to a host outside the organisation's network. */
export function codePostingFrame(cmd: SimpleCommand): Outbound | undefined {
  const code = inlineCode(cmd);
  if (!code?.includes('://')) return undefined;
  for (const posted of code.matchAll(POSTED_TO)) {
    const host = posted[1]!;
    // The request's own arguments: a frame exported further down the code is another matter.
    const call = code.slice(posted.index, posted.index + 400).split('\n')[0] ?? '';
    if (!onOwnNetwork(host) && FRAME_EXPORT.test(call))
      return { what: `a data frame's rows from ${cmd.name} code`, host, certain: false };
  }
  return undefined;
}

/**
 * Tools told by an option where to send what they carry: Bazel's remote cache and executor take every
 * action's inputs and outputs (the sources among them) and its build event service the command lines,
 * environment and logs; the Shopify CLI's tunnel carries the app's sessions and webhooks; the Stripe CLI
 * forwards (live, with --live) payment events.
 */
const URL_OPTION_ROUTES: readonly {
  programs: string[];
  sub?: string;
  options: string[];
  /** The URL is an operand of the subcommand, not an option's value (`heroku drains:add URL`). */
  operand?: true;
  what: string;
}[] = [
  {
    programs: ['bazel', 'bazelisk'],
    options: ['remote_cache', 'remote_executor', 'bes_backend', 'remote_cache_proxy'],
    what: "the build's sources, outputs and logs",
  },
  {
    programs: ['shopify'],
    sub: 'dev',
    options: ['tunnel-url'],
    what: "the app's traffic, session tokens and webhooks",
  },
  {
    programs: ['stripe'],
    sub: 'listen',
    options: ['forward-to', 'forward-connect-to', 'forward-thin-to'],
    what: 'payment events, with customer names and emails',
  },
  // A log drain streams every log line of the app, with the requests and users in them, as it is written.
  { programs: ['heroku'], sub: 'drains:add', options: [], operand: true, what: "the app's logs, with request data" },
];

/** The outside host a tool's option sends what it carries to (`bazel --remote_cache=…`, `stripe listen --forward-to …`). */
export function urlOptionRoute(cmd: SimpleCommand): Outbound | undefined {
  const route = URL_OPTION_ROUTES.find((r) => r.programs.includes(cmd.name));
  const args = argsOf(cmd);
  if (!route || (route.sub !== undefined && !args.includes(route.sub))) return undefined;
  if (route.operand) {
    const url = args.find((arg) => /^(https?|syslog(\+tls)?):\/\//.test(arg));
    const host = url === undefined ? undefined : hostOfUrl(url.replace(/^syslog(\+tls)?:/, 'https:'));
    if (host && !onOwnNetwork(host)) return { what: `${route.what} (${cmd.name} ${route.sub})`, host, certain: false };
  }
  for (const option of route.options) {
    const url = optionValues(args, [], [option])[0];
    const host = url === undefined ? undefined : hostOfUrl(url);
    if (host && !onOwnNetwork(host)) return { what: `${route.what} (${cmd.name} --${option})`, host, certain: false };
  }
  return undefined;
}

/** The host `nix copy --to ssh://builder@host` or `nix-copy-closure --to host` sends store paths to. */
function nixCopyTarget(cmd: SimpleCommand, args: readonly string[]): string | undefined {
  if (cmd.name === 'nix' && args[0] === 'copy') {
    const to = optionValues(args, [], ['to'])[0];
    return to === undefined ? undefined : /^[\w+-]+:\/\/(?:[^@/]*@)?([^/?:]+)/.exec(to)?.[1];
  }
  if (cmd.name === 'nix-copy-closure' && args.includes('--to'))
    return parseFlags(args.filter((a) => a !== '--to')).positionals[0]?.replace(/^[^@]*@/, '');
  return undefined;
}

/**
 * Data tools pointed at a server or a storage place the same command names: `WANDB_BASE_URL=… wandb sync`,
 * rclone's remote defined by its variables (`RCLONE_CONFIG_X_URL=… rclone copy data x:`), a DVC remote added
 * and pushed to at once. The project's configured places are not these: they were set up before.
 */
export function redirectedDataSync(commands: readonly SimpleCommand[]): Outbound | undefined {
  for (const cmd of commands) {
    const args = argsOf(cmd);
    const wandb = cmd.assignments['WANDB_BASE_URL'];
    if (cmd.name === 'wandb' && wandb && ['sync', 'artifact', 'push'].includes(args[0] ?? ''))
      return {
        what: `W&B runs and their artefacts (wandb ${args[0]} to a server set for this command)`,
        host: hostOf(wandb),
        certain: false,
      };
    const nixTarget = nixCopyTarget(cmd, args);
    if (nixTarget)
      return { what: 'Nix store paths (a build output with everything it holds)', host: nixTarget, certain: false };
    if (cmd.name === 'rclone' && ['copy', 'sync', 'move', 'copyto', 'moveto'].includes(args[0] ?? '')) {
      const dest = parseFlags(args.slice(1)).positionals[1] ?? '';
      const remote = /^([\w-]+):/.exec(dest)?.[1]?.toUpperCase();
      const url = remote ? cmd.assignments[`RCLONE_CONFIG_${remote}_URL`] : undefined;
      if (url)
        return {
          what: `files (rclone ${args[0]} to a remote defined on the command line)`,
          host: hostOf(url),
          certain: false,
        };
    }
  }
  const added = new Map<string, string>();
  let fallback: string | undefined;
  for (const cmd of commands) {
    const args = argsOf(cmd);
    if (cmd.name !== 'dvc') continue;
    if (args[0] === 'remote' && args[1] === 'add') {
      const [name, url] = parseFlags(args.slice(2)).positionals;
      if (name && url) {
        added.set(name, url);
        if (args.includes('-d') || args.includes('--default')) fallback = url;
      }
    } else if (args[0] === 'push') {
      const named = optionValues(args, ['r'], ['remote'])[0];
      const url = named !== undefined ? added.get(named) : fallback;
      if (url)
        return {
          what: "the project's data and models (dvc push to a remote added in this command)",
          host: hostOf(url),
          certain: false,
        };
    }
  }
  return undefined;
}
