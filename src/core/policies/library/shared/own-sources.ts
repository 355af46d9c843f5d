import { isLocalHost } from './hosts';

// Package sources the person's own organisation runs: a registry on this machine or the private network,
// a host under a name that is never delegated on the public internet, and the hosts and repository
// prefixes the person lists in package-from-untrusted-source's allowSources. Code from there is the
// organisation's reviewed code, as much as the project's configured registry is; an agent cannot put a
// server under such a name without the organisation's own DNS.

/**
 * Top-level names kept out of the public root: `.internal` (reserved for private use, 2024),
 * `.home.arpa` (RFC 8375), and `.corp` and `.home`, which the root's name-collision rules never delegate.
 * Not `.local`: multicast DNS lets any machine on the network answer for it.
 */
const PRIVATE_USE_NAME = /\.(internal|corp|home|home\.arpa)$/i;

/** A host under a name no one can register publicly: the organisation's own network named it. */
export function isPrivateUseName(host: string): boolean {
  return PRIVATE_USE_NAME.test(host);
}

/** This machine, its private network, or a host under a private-use name: the organisation's own. */
export function onOwnNetwork(host: string): boolean {
  return isLocalHost(host) || isPrivateUseName(host);
}

/** A URL-ish source as host and path: `git+https://h/p`, `sparse+https://h/p`, `git::https://h/p`, `git@h:p`, `h/p`. */
export function hostAndPath(source: string): { host: string; path: string } | undefined {
  const bare = source
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/^(git::|[a-z]+\+)/i, '')
    .replace(/^[a-z][\w+.-]{0,30}\\?:\/\//i, '')
    .replace(/^[\w.-]+@(?=[\w.-]+[:/])/, '');
  const scpLike = /^([\w.-]+):(?!\d+(\/|$))(.*)$/.exec(bare);
  const withSlash = scpLike ? `${scpLike[1]}/${scpLike[3]}` : bare;
  const match = /^([\w.-]+|\[[\da-f:]+\])(?::\d+)?(\/[^?#\s]*)?/i.exec(withSlash);
  if (!match?.[1]) return undefined;
  return { host: match[1].toLowerCase(), path: (match[2] ?? '').replace(/\.git$/, '').toLowerCase() };
}

function listed(where: { host: string; path: string }, entry: string): boolean {
  const allowed = hostAndPath(entry);
  if (!allowed) return false;
  const hostMatches = where.host === allowed.host || where.host.endsWith(`.${allowed.host}`);
  if (!hostMatches) return false;
  let prefix = allowed.path;
  while (prefix.endsWith('/')) prefix = prefix.slice(0, -1);
  return prefix === '' || where.path === prefix || where.path.startsWith(`${prefix}/`);
}

/** Whether code from this source is the organisation's own (see above); `allowSources` are the person's entries. */
export function isOwnSource(source: string, allowSources: readonly string[]): boolean {
  const where = hostAndPath(source);
  if (!where) return false;
  if (onOwnNetwork(where.host)) return true;
  return allowSources.some((entry) => listed(where, entry));
}

/** Characters that end a URL written in a config file. */
const URL_END = new Set([' ', '\t', '\n', '\r', '"', "'", '<', '>', '`', ')', ']', '}', ',', ';']);

/**
 * The URL-shaped sources a piece of text names (`https://…`, `git+ssh://…`, `git@host:path`, a
 * `.properties` file's `https\://…`). Scanned from each `://` and `git@`, so the work stays linear.
 */
export function sourcesIn(text: string): string[] {
  const found: { start: number; end: number }[] = [];
  const endFrom = (at: number) => {
    let end = at;
    while (end < text.length && !URL_END.has(text[end] as string)) end++;
    return end;
  };
  // Each scan resumes past the URL it found: URLs do not overlap, so every character is read a bounded number of times.
  for (let at = text.indexOf('://'); at >= 0;) {
    let start = text[at - 1] === '\\' ? at - 1 : at;
    const schemeEnd = start;
    while (start > 0 && start > schemeEnd - 32 && /[\w+.-]/.test(text[start - 1] as string)) start--;
    const end = endFrom(at + 3);
    if (start < schemeEnd && /[a-z]/i.test(text[start] as string)) found.push({ start, end });
    at = text.indexOf('://', Math.max(end, at + 3));
  }
  for (let at = text.indexOf('git@'); at >= 0;) {
    const end = endFrom(at);
    if (at === 0 || !/[\w.-]/.test(text[at - 1] as string)) found.push({ start: at, end });
    at = text.indexOf('git@', Math.max(end, at + 4));
  }
  return found.sort((a, b) => a.start - b.start).map(({ start, end }) => text.slice(start, end));
}
