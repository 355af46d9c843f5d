// Where application code sends data: the network calls a source file makes to a host written into it
// (`fetch('https://…', {body})`, `requests.post("https://…", json=…)`, `wp_remote_post('https://…', …)`,
// `navigator.sendBeacon(ENDPOINT, …)`, a tracking `<img src="https://…?e={{ customer.email }}">`), each with
// the text of what it carries: its arguments, and the assignments of the names they use. Which of that is
// sensitive, and which hosts may have it, is for the policy to judge; this only reads the code's shape.

export interface CodeSend {
  /** The host the call reaches, as the code writes it. */
  host: string;
  /** The URL as written, or the host alone when the code gives only that (`hostname: "…"`). */
  url: string;
  /** The call as written, for the evidence (bounded). */
  call: string;
  /** The call's arguments and the assignments of the names they use: what the request may carry. */
  payload: string;
}

/** Calls that make a request, by their last name (`axios.post`, `http.NewRequest`, `Net::HTTP.post_form`). */
const SEND_CALL =
  /\b(fetch|sendBeacon|post|put|patch|get|request|urlopen|Request|Post|Get|NewRequest|post_form|wp_remote_post|wp_remote_get|wp_remote_request|PostAsync|PutAsync|GetAsync|PostAsJsonAsync|GetStringAsync|ajax|WebSocket|open|start)\s*\(/g;
/** An image or beacon whose address carries the data (`new Image().src = "https://…?" + x`, `<img src="…">`). */
const SOURCE_ASSIGNED = /\.src\s*=\s*(?=["'`])/g;
const TAG_SOURCE = /\bsrc\s*=\s*(?=["'`])/i;
const MAX_TAG = 600;
/** `open` is XMLHttpRequest's only with a method first; `start` is a file transfer's (Net::SFTP, Net::SSH). */
const METHOD_FIRST = /^["'](?:GET|POST|PUT|PATCH|DELETE)["']\s*,\s*|^http\.Method\w+\s*,\s*/;
const TRANSFER_START = /(?:SFTP|SSH|SCP|FTP)\s*\.\s*$/;
const TRANSFER_ANYWHERE = /(?:SFTP|SSH|SCP|FTP)\s*\.\s*start\s*\(/;
/** Wrappers a URL is often given in: `new URL("…")`, `URI("…")`, `URI.parse("…")`, `URI.create("…")`. */
const URL_WRAPPER = /^(?:new\s+URL|new\s+Uri|URI(?:\.(?:parse|create))?)\s*\(\s*/;
const QUOTED_URL = /^["'`]((?:https?|wss?):\/\/([^/:?#"'`\s$\\{]+)(?=[/:?#"'`])[^"'`]*)/i;
const QUOTED_HOST = /^["'`]([a-z0-9][\w.-]*\.[a-z]{2,}|\d{1,3}(?:\.\d{1,3}){3})["'`]/i;
/** In an options object: `{ url: "https://…" }`, `{ hostname: "…" }`. */
const OPTION_ADDRESS = /\b(?:url|uri|baseURL|hostname|host)\s*[:=]\s*(?=["'`])/g;
const IDENTIFIER = /^[A-Za-z_$][\w$.]*/;

const MAX_TEXT = 200_000;
const MAX_CALL = 1_200;
/** How much of a call's arguments tells where it goes: a method, a wrapper, then the address or an options object. */
const MAX_ARGUMENT_HEAD = 500;
const MAX_ASSIGNMENT = 400;
const MAX_SENDS = 16;
const MAX_NAMES = 16;
/** How far above a call its names' assignments are looked for. */
const MAX_LOOKBACK = 8_000;

/** The text from `at` to the parenthesis that closes the one opened at `open`, bounded. */
function callSpan(text: string, at: number, open: number): string {
  let depth = 0;
  const end = Math.min(text.length, open + MAX_CALL);
  for (let i = open; i < end; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(at, i + 1);
  }
  return text.slice(at, end);
}

/** The URL (or host) a quoted literal at the start of `rest` names. */
function addressAt(rest: string): { url: string; host: string } | undefined {
  const url = QUOTED_URL.exec(rest);
  if (url) return { url: url[1]!, host: url[2]!.toLowerCase() };
  const host = QUOTED_HOST.exec(rest);
  return host ? { url: host[1]!, host: host[1]!.toLowerCase() } : undefined;
}

/** `NAME = "https://…"`, `NAME: 'https://…'`, `const NAME: string = \`https://…\``: a name bound to a URL literal. */
const URL_BINDING = /(?<![\w$])([A-Za-z_$][\w$]*)\s*(?::\s*[\w<>[\]]+\s*)?[:=]\s*(?=["'`](?:https?|wss?):\/\/)/g;

/** Every name the text binds to a URL literal, with where it points (the first binding of a name wins). */
function urlBindings(text: string): Map<string, { url: string; host: string }> {
  const bound = new Map<string, { url: string; host: string }>();
  for (const match of text.matchAll(URL_BINDING)) {
    const name = match[1]!;
    const at = match.index + match[0].length;
    const found = bound.has(name) ? undefined : addressAt(text.slice(at, at + 300));
    if (found) bound.set(name, found);
  }
  return bound;
}

/**
 * Where the call's first argument points: a URL literal, a name bound to one, or an options object's url
 * or host. A bare host literal counts only for a file transfer (`Net::SFTP.start("203.0.113.30", …)`).
 */
function destination(
  bindings: () => Map<string, { url: string; host: string }>,
  args: string,
  bareHost: boolean,
): { url: string; host: string } | undefined {
  const rest = args.replace(METHOD_FIRST, '').replace(URL_WRAPPER, '');
  if (rest.startsWith('{')) {
    const object = rest.slice(0, 400);
    for (const match of object.matchAll(OPTION_ADDRESS)) {
      const found = addressAt(object.slice(match.index + match[0].length));
      if (found) return found;
    }
    return undefined;
  }
  const literal = addressAt(rest);
  if (literal) return bareHost || literal.url.includes('://') ? literal : undefined;
  const name = IDENTIFIER.exec(rest)?.[0];
  return name === undefined ? undefined : bindings().get(name.split('.').pop()!);
}

/** The lines that assign the names a call uses, before it: what a `body: payload` holds. */
function assignmentsOf(text: string, call: string, before: number): string {
  const names = new Set([...call.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]{0,40}/g)].map((m) => m[0]));
  const found: string[] = [];
  const head = text.slice(Math.max(0, before - MAX_LOOKBACK), before);
  for (const name of [...names].slice(0, MAX_NAMES)) {
    const escaped = name.replace(/\$/g, '\\$');
    const assignment = new RegExp(`(?<![\\w$.])${escaped}\\s*(?::\\s*[\\w<>\\[\\]]+\\s*)?=(?![=>])`, 'g');
    for (const match of head.matchAll(assignment))
      found.push(head.slice(match.index, match.index + match[0].length + MAX_ASSIGNMENT));
  }
  return found.join('\n');
}

/** A URL's template placeholders, by their opening and closing marks. */
const PLACEHOLDER_MARKS: readonly [open: string, close: string][] = [
  ['${', '}'],
  ['{{', '}}'],
  ['<%', '%>'],
];

/** Where the data in a URL comes from: its template placeholders (`${email}`, `{{ customer.email }}`, `<%= … %>`). */
function placeholdersOf(url: string): string[] {
  const found: string[] = [];
  for (const [open, close] of PLACEHOLDER_MARKS)
    for (let at = url.indexOf(open); at >= 0; at = url.indexOf(open, at + open.length)) {
      const end = url.indexOf(close, at + open.length);
      if (end < 0) break;
      found.push(url.slice(at, end + close.length));
    }
  return found;
}

/** The call's text with its URL reduced to the placeholders in it: a fixed path (`/customers`) carries no one's data. */
function withoutFixedUrl(call: string, url: string): string {
  return call.replace(url, () => placeholdersOf(url).join(' '));
}

/** Where the quoted address of each image the code loads starts: `x.src = "…"`, `<img … src="…">`. */
function imageSourceStarts(code: string): number[] {
  const starts = [...code.matchAll(SOURCE_ASSIGNED)].map((m) => m.index + m[0].length);
  const lower = code.toLowerCase();
  for (let at = lower.indexOf('<img'); at >= 0 && starts.length < MAX_SENDS * 4; at = lower.indexOf('<img', at + 4)) {
    const end = code.indexOf('>', at);
    const tag = code.slice(at, end < 0 ? at + MAX_TAG : Math.min(end, at + MAX_TAG));
    const source = TAG_SOURCE.exec(tag);
    if (source) starts.push(at + source.index + source[0].length);
  }
  return starts;
}

/** The requests the text's code makes to hosts it writes down, with what each carries. */
export function codeSends(text: string): CodeSend[] {
  const code = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  // Every address a send can name is a URL, but for a file transfer's host: code with neither sends nowhere named.
  if (!code.includes('://') && !TRANSFER_ANYWHERE.test(code)) return [];
  const sends: CodeSend[] = [];
  // Read once, and only when a call names its address by a name.
  let bound: Map<string, { url: string; host: string }> | undefined;
  const bindings = () => (bound ??= urlBindings(code));
  for (const match of code.matchAll(SEND_CALL)) {
    const name = match[1]!;
    const open = match.index + match[0].length - 1;
    const args = code.slice(open + 1, open + 1 + MAX_ARGUMENT_HEAD).trimStart();
    if (name === 'open' && !METHOD_FIRST.test(args)) continue;
    if (name === 'start' && !TRANSFER_START.test(code.slice(Math.max(0, match.index - 12), match.index))) continue;
    const where = destination(bindings, args, name === 'start');
    if (where === undefined) continue;
    const call = callSpan(code, match.index, open);
    // A transfer's session is used in the block after it (`{ |s| s.upload!(StringIO.new(csv), …) }`).
    const block = name === 'start' ? code.slice(match.index + call.length, match.index + call.length + 600) : '';
    const used = call + block;
    const carried = withoutFixedUrl(used, where.url);
    sends.push({ ...where, call, payload: `${carried}\n${assignmentsOf(code, carried, match.index)}` });
    if (sends.length >= MAX_SENDS) return sends;
  }
  for (const at of imageSourceStarts(code)) {
    const where = addressAt(code.slice(at, at + MAX_CALL));
    if (where === undefined || !where.url.includes('://')) continue;
    const lineStart = code.lastIndexOf('\n', at) + 1;
    const lineEnd = code.indexOf('\n', at) < 0 ? code.length : code.indexOf('\n', at);
    const statement = code.slice(lineStart, Math.min(lineEnd, lineStart + MAX_CALL));
    const carried = withoutFixedUrl(statement, where.url);
    sends.push({ ...where, call: statement, payload: `${carried}\n${assignmentsOf(code, carried, lineStart)}` });
    if (sends.length >= MAX_SENDS) break;
  }
  return sends;
}
