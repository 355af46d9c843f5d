import { isIP } from 'node:net';
import type { SimpleCommand } from '../../../shell';
import { argsOf, optionValues } from '../../../facts/commands';
import { NETCATS } from '../../../facts/programs';
import { hasUrlScheme } from '../../../text/urls';

// Where a network command sends: this machine and the private network are local work, anything else
// leaves the machine.

/** Loopback, the private ranges and link-local IPv6: hosts on this machine or its own network. */
export function isLocalHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || bare === '0.0.0.0') return true;
  if (isIP(bare) === 4) {
    const [a = 0, b = 0] = bare.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  return isIP(bare) === 6 && /^(fc|fd|fe80)/.test(bare);
}

export function hostOfUrl(word: string): string | undefined {
  return parsedUrl(word)?.hostname;
}

/** The host of a URL written with its scheme (`https://h/p`); a path or an address (`a/b`, `x@h`) has none. */
export function hostOfSchemedUrl(word: string): string | undefined {
  return hasUrlScheme(word) ? hostOfUrl(word) : undefined;
}

function parsedUrl(word: string): URL | undefined {
  try {
    return new URL(hasUrlScheme(word) ? word : `http://${word}`);
  } catch {
    return undefined;
  }
}

/** The hosts of the command's URL-shaped words (`https://x/y`, `localhost:3000/y`, `api.example.com/y`). */
export function urlHostsOf(cmd: SimpleCommand): string[] {
  return urlHostsOfWords(argsOf(cmd));
}

export function urlHostsOfWords(words: readonly string[]): string[] {
  return urlsOfWords(words)
    .map((url) => url.hostname)
    .filter((host) => host !== '');
}

/** The URL-shaped words parsed, a scheme-less one (`api.example.com/y`, as httpie and xh take) as http. */
export function urlsOfWords(words: readonly string[]): URL[] {
  const urls: URL[] = [];
  for (const word of words) {
    if (word.startsWith('-')) continue;
    const urlShaped =
      /^[a-z][\w+.-]*:\/\//i.test(word) ||
      /^[\w.-]+\.[a-z]{2,}(\/|:|$)/i.test(word) ||
      /^localhost(:\d+)?(\/|$)/i.test(word);
    const url = urlShaped ? parsedUrl(word) : undefined;
    if (url) urls.push(url);
  }
  return urls;
}

/** The first host the command reaches that is not local. */
export function remoteTarget(cmd: SimpleCommand): string | undefined {
  return urlHostsOf(cmd).find((host) => !isLocalHost(host));
}

/** This machine itself: a loopback name or address (not its private network). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || bare.startsWith('127.') || bare === '::1';
}

/** Every URL the command names is on this machine or its network (and it names one). */
export function onlyLocalTargets(cmd: SimpleCommand): boolean {
  const hosts = urlHostsOf(cmd);
  return hosts.length > 0 && hosts.every(isLocalHost);
}

/** An address of the private IPv4 ranges (10/8, 172.16/12, 192.168/16): the team's own network. */
export function isPrivateAddress(host: string): boolean {
  const ip = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (!ip) return false;
  const [a, b] = [Number(ip[1]), Number(ip[2])];
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

const SSH_FAMILY = new Set(['ssh', 'scp', 'sftp']);
const CURL_PROXIES = ['proxy', 'preproxy', 'socks4', 'socks4a', 'socks5', 'socks5-hostname'];

/** `user@host:port`, `host:port`, `[v6]:port` as the bare host. */
function bareHost(value: string): string {
  return value
    .replace(/^[^@]*@/, '')
    .replace(/^\[([^\]]+)\].*$/, '$1')
    .replace(/:\d*$/, '')
    .toLowerCase();
}

/** ssh's own detours: `-J a,b`, `-o HostName=x`, `-o ProxyJump=x` (also written `-oHostName x`). */
function sshDetours(args: readonly string[]): string[] {
  const hosts = optionValues(args, ['J'], []).flatMap((list) => list.split(','));
  for (const option of optionValues(args, ['o'], [])) {
    const setting = /^(hostname|proxyjump)[=\s]+(\S+)/i.exec(option.trim());
    if (setting) hosts.push(...(setting[2] as string).split(','));
  }
  return hosts.map(bareHost).filter((h) => h !== '' && h !== 'none');
}

/**
 * Hosts a command reaches instead of, or on the way to, the one it names: curl's proxies, `--resolve`
 * and `--connect-to`; nc's `-x`; ssh's jump hosts and `HostName` (also in scp, sftp and rsync's `-e "ssh …"`). A
 * private-looking destination says nothing about where the bytes go when one of these points elsewhere.
 */
export function detourHosts(cmd: SimpleCommand): string[] {
  const args = argsOf(cmd);
  if (cmd.name === 'curl') {
    const proxies = optionValues(args, ['x'], CURL_PROXIES).map((p) => hostOfUrl(p) ?? bareHost(p));
    const resolved = optionValues(args, [], ['resolve']).flatMap((r) => r.split(':').slice(2).join(':').split(','));
    const connected = optionValues(args, [], ['connect-to']).map((c) => c.split(':')[2] ?? '');
    return [...proxies, ...resolved.map(bareHost), ...connected.map(bareHost)].filter((h) => h !== '');
  }
  if (SSH_FAMILY.has(cmd.name)) return sshDetours(args);
  if (NETCATS.has(cmd.name)) return optionValues(args, ['x'], ['proxy']).map(bareHost);
  if (cmd.name === 'rsync')
    return optionValues(args, ['e'], ['rsh']).flatMap((shell) => sshDetours(shell.split(/\s+/).slice(1)));
  return [];
}
