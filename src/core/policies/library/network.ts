import { parseSshArgs, sshHost } from '../../shell/ssh-args';
import { isIP } from 'node:net';
import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import type { SimpleCommand } from '../../shell';
import { isInside, resolvePath } from '../../shell/paths';
import { argsOf, evidenceOf, optionValues, parseFlags, shellCommands } from '../../facts/commands';
import { KUBECTL_VALUE_LONG, KUBECTL_VALUE_SHORT } from './infrastructure';
import { DOWNLOADERS, NETCATS, interpreterKind, pythonModuleRun } from '../../facts/programs';
import { withoutLastSegmentFrom } from '../../text/scan';
import { dbusCallOf } from '../../facts/dbus';
import { onOwnNetwork } from './shared/own-sources';

// Where network traffic goes: paste and drop sites, webhook catchers, bare IP
// addresses and tunnels that expose this machine.

const DROP_SITES = [
  'pastebin.com',
  'paste.ee',
  'hastebin.com',
  'ghostbin.co',
  'dpaste.com',
  'dpaste.org',
  'termbin.com',
  'ix.io',
  'sprunge.us',
  '0x0.st',
  'transfer.sh',
  'file.io',
  'tmpfiles.org',
  'bashupload.com',
  'oshi.at',
  'catbox.moe',
  'temp.sh',
  'webhook.site',
  'requestbin.com',
  'requestbin.net',
  'pipedream.net',
  'beeceptor.com',
  'hookbin.com',
  'ngrok.io',
  'ngrok-free.app',
  'ngrok.app',
  'trycloudflare.com',
  'interact.sh',
  'oast.fun',
  'oast.live',
  'oast.pro',
  'oastify.com',
  'burpcollaborator.net',
  'dnslog.cn',
  'canarytokens.com',
  'serveo.net',
  'localhost.run',
];

function hostOf(url: string): string | null {
  try {
    return new URL(/^[a-z][\w+.-]*:\/\//i.test(url) ? url : `http://${url}`).hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase();
  } catch {
    return null;
  }
}

function isPublicIp(host: string): boolean {
  const kind = isIP(host);
  if (kind === 4) {
    const [a = 0, b = 0] = host.split('.').map(Number);
    return !(
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (kind === 6) return !/^(::1|fe80:|fc|fd|::ffff:(127|10|192\.168)\.)/i.test(host);
  return false;
}

function destinations(call: ToolCall): string[] {
  const urls: string[] = [];
  if (call.url) urls.push(call.url);
  for (const cmd of shellCommands(call)) {
    const name = cmd.name.toLowerCase();
    if (!DOWNLOADERS.has(name) && !NETCATS.has(name) && !['ssh', 'scp', 'rsync', 'git', 'ftp', 'sftp'].includes(name))
      continue;
    const args = argsOf(cmd);
    if (NETCATS.has(name)) {
      const host = parseFlags(args, ['p', 'w', 'e', 'c', 's', 'i', 'q', 'x', 'X'], []).positionals[0];
      if (host) urls.push(host);
      continue;
    }
    urls.push(
      ...args.filter(
        (a) =>
          /^[a-z][\w+.-]*:\/\//i.test(a) ||
          /^[\w.-]+@[\w.-]+:/.test(a) ||
          /^\d{1,3}(\.\d{1,3}){3}(:\d+)?(\/|$)/.test(a),
      ),
    );
  }
  return urls;
}

export const suspiciousNetworkDestination = definePolicy({
  name: 'suspicious-network-destination',
  category: 'network',
  description:
    'Asks before traffic to paste and file-drop sites, webhook catchers, tunnels and bare public IP addresses.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /** Hosts that are fine although they match (your own IP-addressed server). */
    allowHosts: z.array(z.string()).default([]),
  }),
  evaluate({ call, params }) {
    if (!call) return null;
    for (const url of destinations(call)) {
      const host = hostOf(withoutLastSegmentFrom(url.replace(/^[\w.-]+@/, ''), ':'));
      if (!host || params.allowHosts.includes(host)) continue;
      const drop = DROP_SITES.find((site) => host === site || host.endsWith(`.${site}`));
      if (drop)
        return {
          reason: `Talks to ${host}, a paste, drop or webhook service often used to move data out or code in; use the project's own services, or approve this exact call.`,
          evidence: evidenceOf(call.command ?? url),
        };
      if (isPublicIp(host))
        return {
          reason: `Talks to the bare IP address ${host}: no name says whose machine it is; use a named host you trust, or approve this exact call.`,
          evidence: evidenceOf(call.command ?? url),
        };
    }
    return null;
  },
});

const ALL_INTERFACES = /^(0\.0\.0\.0|::|\[::\]|\*)$/;

/**
 * A file server started on this machine: the folder it serves and the address it binds.
 * python -m http.server, php -S, ruby -run -e httpd, busybox httpd, npx http-server/serve.
 */
function fileServer(cmd: SimpleCommand): { folder: string; bind?: string } | undefined {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  const module = pythonModuleRun(cmd);
  if (module && /^(http\.server|SimpleHTTPServer)$/.test(module.module)) {
    const bind = optionValues(module.args, ['b'], ['bind'])[0];
    return { folder: optionValues(module.args, ['d'], ['directory'])[0] ?? '.', ...(bind ? { bind } : {}) };
  }
  if (interpreterKind(name) === 'php' && args.includes('-S')) {
    const listen = optionValues(args, ['S'], [])[0] ?? '';
    return { folder: optionValues(args, ['t'], [])[0] ?? '.', bind: listen.replace(/:\d+$/, '') };
  }
  if (interpreterKind(name) === 'ruby' && args.join(' ').includes('-run -e httpd')) {
    const bind = optionValues(args, ['b'], ['bind-address'])[0];
    const words = parseFlags(args.slice(args.indexOf('httpd') + 1), ['p', 'b'], ['port', 'bind-address']).positionals;
    return { folder: words[0] ?? '.', ...(bind ? { bind } : {}) };
  }
  if (name === 'busybox' && args[0] === 'httpd') return { folder: optionValues(args, ['h'], [])[0] ?? '.' };
  const tool = ['npx', 'pnpx', 'bunx'].includes(name) ? 1 : 0;
  if (tool === 1 && /^(http-server|serve|live-server)(@|$)/.test(args.find((a) => !a.startsWith('-')) ?? '')) {
    const rest = args.slice(args.findIndex((a) => !a.startsWith('-')) + 1);
    const bind = optionValues(rest, ['a', 'l'], ['host', 'listen'])[0];
    const folder = parseFlags(rest, ['a', 'p', 'l', 'c'], ['host', 'port', 'listen']).positionals[0] ?? '.';
    return { folder, ...(bind ? { bind } : {}) };
  }
  return undefined;
}

/** Why a file server exposes what it should not: bound to every interface, or serving a folder outside the project. */
function exposedFolder(cmd: SimpleCommand, call: ToolCall): string | null {
  const server = fileServer(cmd);
  if (!server) return null;
  const folder = resolvePath(server.folder, call.cwd, call.home);
  const outside = !isInside(folder, call.projectRoot);
  const everywhere = server.bind !== undefined && ALL_INTERFACES.test(server.bind);
  if (!outside && !everywhere) return null;
  return `${cmd.name} serving ${outside ? folder : 'the project'}${everywhere ? ' on every network interface' : ''}`;
}

/**
 * `ssh -A user@host`, `ssh -o ForwardAgent=yes host`: the far host may sign with every key the agent holds
 * for as long as the session lasts. The host, when it is a name with a dot or an address; a one-word name
 * is an alias of the person's ssh config, which is theirs to know.
 */
function agentForwardedTo(args: readonly string[]): string | undefined {
  const ssh = parseSshArgs(args);
  const forwards =
    ssh.flags.has('A') ||
    ssh.values.some(({ letter, value }) => letter === 'o' && /^ForwardAgent[= ]\s*yes$/i.test(value));
  if (!forwards || ssh.destination === undefined) return undefined;
  const host = sshHost(ssh.destination);
  // One word without a dot is an alias of the person's own ssh config, not a host named here.
  return host.includes('.') || host.includes(':') ? host : undefined;
}

function outsideAgentForward(args: readonly string[]): boolean {
  const host = agentForwardedTo(args);
  return host !== undefined && !onOwnNetwork(host);
}

/** `redis-server --protected-mode no` reachable from the network: a Redis that answers anyone, with no password. */
function redisUnprotected(name: string, args: readonly string[]): boolean {
  if (name !== 'redis-server' && !args.includes('redis-server')) return false;
  const at = args.indexOf('--protected-mode');
  if (at < 0 || args[at + 1] !== 'no') return false;
  const bind = optionValues(args, [], ['bind'])[0];
  if (bind !== undefined && bind.split(/\s+/).every((address) => listensOnLoopback(address))) return false;
  if (name !== 'docker' && name !== 'podman') return true;
  return publishedBeyondLoopback(args);
}

/** A container's published port that is not bound to this machine alone (`-p 5432:5432`, `-p 0.0.0.0:80:80`). */
function publishedBeyondLoopback(args: readonly string[]): boolean {
  return optionValues(args, ['p'], ['publish']).some((port) => !/^(127\.0\.0\.1|localhost|\[::1\]):/.test(port));
}

/**
 * A database container told to let anyone in without a password (`POSTGRES_HOST_AUTH_METHOD=trust`,
 * `MYSQL_ALLOW_EMPTY_PASSWORD=yes`) on a port published beyond this machine: Docker's published ports
 * answer the network, and Docker Desktop's the host's network too.
 */
function passwordlessDatabasePublished(name: string, args: readonly string[]): string | undefined {
  if (name !== 'docker' && name !== 'podman') return undefined;
  const open = optionValues(args, ['e'], ['env']).find((value) =>
    /^(POSTGRES_HOST_AUTH_METHOD=trust|(MYSQL|MARIADB)_ALLOW_EMPTY_(ROOT_)?PASSWORD=(yes|true|1))$/i.test(value),
  );
  return open !== undefined && publishedBeyondLoopback(args) ? open : undefined;
}

/** ssh's -L or -D bound to every interface (`0.0.0.0:1080`, `*:8080`), or -g: others on the network may use it. */
function forwardsOnEveryInterface(args: readonly string[]): boolean {
  const ssh = parseSshArgs(args);
  return (
    ssh.flags.has('g') ||
    ssh.values.some(
      ({ letter, value }) => (letter === 'L' || letter === 'D') && /^(0\.0\.0\.0|\*|\[::\]|::):/.test(value),
    )
  );
}

// Where a relay sends what it receives: another socket, a local one (the ssh agent's, a daemon's), or a program.
const SOCKET_ADDRESS =
  /^((tcp|tcp4|tcp6|udp|udp4|udp6|openssl|ssl|sctp)(-connect)?|unix(-connect|-client)?|abstract-connect|exec|system):/i;
const LISTEN_ADDRESS = /^(tcp|tcp4|tcp6|udp|udp4|udp6|openssl|ssl|sctp)-listen:/i;
const LOOPBACK_ONLY = /^(bind=(127\.|localhost|\[?::1\]?$)|range=127\.)/i;

/** An address a server given it listens on only for this machine (none given: the program's loopback default). */
function listensOnLoopback(address: string | undefined): boolean {
  return address === undefined || /^(127\.|localhost$|::1$|\[::1\]$)/.test(address);
}

/** `netsh interface portproxy add … listenaddress=0.0.0.0` (or none, which is every address). */
function windowsPortProxy(args: readonly string[]): boolean {
  const lower = args.map((a) => a.toLowerCase());
  if (!lower.includes('portproxy') || !lower.includes('add')) return false;
  const listen = lower.find((a) => a.startsWith('listenaddress='))?.slice('listenaddress='.length);
  return listen === undefined || !listensOnLoopback(listen);
}

/** socat listening on every interface and relaying to another address (`TCP-LISTEN:15432,fork TCP:db:5432`). */
function socatRelay(args: readonly string[]): string | undefined {
  const listen = args.find((a) => LISTEN_ADDRESS.test(a));
  if (listen === undefined || listen.split(',').some((option) => LOOPBACK_ONLY.test(option))) return undefined;
  const target = args.find((a) => SOCKET_ADDRESS.test(a));
  if (target === undefined) return undefined;
  const port = listen.split(',')[0]!.split(':')[1] ?? '';
  return `socat relaying port ${port} on every interface to ${target.split(',')[0]} (a way into that service for anyone nearby)`;
}

interface Listener {
  short: string[];
  long: string;
  what: string;
  /** The listener is this subcommand of the program (`remix vite:dev`); any when absent. */
  subcommand?: RegExp;
  /** The option given without a value means every interface (Vite's bare `--host`). */
  bareMeansEveryInterface?: boolean;
}

const VITE: Listener = {
  short: [],
  long: 'host',
  bareMeansEveryInterface: true,
  what: "Vite's dev server, which serves the project's source and any file by /@fs/ path,",
};

/**
 * Proxies that reach a service with the person's cloud identity, and dev servers that run commands or
 * serve files, where an option sets their listening address (their default is this machine alone).
 */
const LISTENERS: Readonly<Record<string, Listener>> = {
  'cloud-sql-proxy': { short: ['a'], long: 'address', what: 'the Cloud SQL proxy, signed in as you,' },
  'alloydb-auth-proxy': { short: ['a'], long: 'address', what: 'the AlloyDB proxy, signed in as you,' },
  tilt: { short: [], long: 'host', what: "Tilt's UI and API, which run the Tiltfile's commands," },
  vite: VITE,
  remix: { ...VITE, subcommand: /^vite:(dev|preview)$/ },
};

/** The address the listener is told to listen on, if any; a bare option that means every interface is 0.0.0.0. */
function listeningAddress(args: readonly string[], listener: Listener): string | undefined {
  if (!listener.bareMeansEveryInterface) return optionValues(args, listener.short, [listener.long])[0];
  const option = `--${listener.long}`;
  const at = args.findIndex((a) => a === option || a.startsWith(`${option}=`));
  if (at < 0) return undefined;
  const given = args[at] === option ? args[at + 1] : args[at]!.slice(option.length + 1);
  return given === undefined || given.startsWith('-') || given === 'true' ? '0.0.0.0' : given;
}

function listensBeyondLoopback(args: readonly string[], listener: Listener): boolean {
  if (listener.subcommand && !listener.subcommand.test(args[0] ?? '')) return false;
  const address = listeningAddress(args, listener);
  return address !== undefined && !listensOnLoopback(address);
}

/** `gdbserver :2345 prog`, `gdbserver 0.0.0.0:2345 prog`: the debugger's port on every interface runs anyone's code. */
function gdbserverEverywhere(args: readonly string[]): boolean {
  const address = args.find((a) => !a.startsWith('-'));
  return address !== undefined && /^(0\.0\.0\.0|\*|\[::\]|::)?:\d+$/.test(address);
}

// Services that let others log in to this machine: an SSH server, remote desktops, a web console.
const REMOTE_LOGIN_UNIT =
  /^(sshd?|openssh-server|xrdp|x11vnc|vncserver@[^/]*|tigervnc[\w@-]*|telnet|cockpit)(\.service|\.socket)?$/;
const STARTS_UNIT = new Set(['start', 'restart', 'enable', 'reenable', 'reload-or-restart', 'try-restart']);
const SYSTEMD_START_METHODS = /^(StartUnit|RestartUnit|ReloadOrRestartUnit|EnableUnitFiles|TryRestartUnit)$/;

/** `systemctl start sshd`, or the same asked of systemd over D-Bus (`busctl call … StartUnit ss sshd.service …`). */
function remoteLoginStarted(cmd: SimpleCommand): string | null {
  const args = argsOf(cmd);
  if (cmd.name === 'systemctl') {
    const words = args.filter((a) => !a.startsWith('-'));
    const unit = STARTS_UNIT.has(words[0] ?? '') ? words.slice(1).find((w) => REMOTE_LOGIN_UNIT.test(w)) : undefined;
    return unit ? `systemctl ${words[0]} ${unit} (a service others log in to this machine through)` : null;
  }
  const dbus = dbusCallOf(cmd);
  if (dbus?.destination !== 'org.freedesktop.systemd1') return null;
  if (!SYSTEMD_START_METHODS.test(dbus.method.replace(/^.*\./, ''))) return null;
  const unit = dbus.rest.find((w) => REMOTE_LOGIN_UNIT.test(w));
  return unit ? `systemd asked over D-Bus to start ${unit} (a service others log in to this machine through)` : null;
}

/**
 * `podman system service tcp:0.0.0.0:8080`, `dockerd -H tcp://0.0.0.0:2375`: the container engine's API
 * without authentication on a port other machines reach.
 */
function engineApiEverywhere(name: string, args: readonly string[]): boolean {
  const listens =
    name === 'podman' && args[0] === 'system' && args[1] === 'service'
      ? args.slice(2).filter((a) => !a.startsWith('-'))
      : name === 'dockerd'
        ? optionValues(args, ['H'], ['host'])
        : [];
  return listens.some((address) => {
    const host = /^tcp:(?:\/\/)?(\[[^\]]*\]|[^:]*):\d+/.exec(address)?.[1];
    return host !== undefined && !listensOnLoopback(host);
  });
}

/** cloudflared's tunnel subcommands that list, name or route tunnels: none of them serves anything. */
const TUNNEL_BOOKKEEPING = new Set([
  'list',
  'info',
  'login',
  'create',
  'delete',
  'cleanup',
  'route',
  'token',
  'ingress',
]);

function afterWord(args: readonly string[], word: string): string {
  return args.slice(args.indexOf(word) + 1).find((a) => !a.startsWith('-')) ?? '';
}

export const exposeLocalService = definePolicy({
  name: 'expose-local-service',
  category: 'network',
  description:
    'Asks before exposing this machine: tunnels (ngrok, cloudflared, ssh -R, tailscale funnel), socat relays, ssh agent forwarding outside; gdbserver, Vite, an open Redis, a file server or engine API on every interface.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    for (const cmd of shellCommands(call)) {
      const args = argsOf(cmd);
      const name = cmd.name.toLowerCase();
      let what: string | null = null;
      let passwordless: string | undefined;
      if (name === 'ngrok' && args.some((a) => /^(http|tcp|tls|start)$/.test(a))) what = `ngrok ${args.join(' ')}`;
      else if (name === 'cloudflared' && args.includes('tunnel') && !TUNNEL_BOOKKEEPING.has(afterWord(args, 'tunnel')))
        what = 'cloudflared tunnel';
      else if (
        name === 'lt' ||
        name === 'localtunnel' ||
        (['npx', 'pnpx', 'bunx'].includes(name) && args.some((a) => /^(localtunnel|ngrok)(@|$)/.test(a)))
      )
        what = 'localtunnel';
      else if (name === 'ssh' && args.some((a) => /^-\w*R/.test(a))) what = 'ssh -R remote port forwarding';
      else if (name === 'ssh' && outsideAgentForward(args))
        what = `ssh agent forwarding to ${agentForwardedTo(args)} (that host may sign with every key your agent holds)`;
      else if (redisUnprotected(name, args))
        what = 'Redis with protected mode off on a reachable port (it answers anyone, with no password)';
      else if ((passwordless = passwordlessDatabasePublished(name, args)) !== undefined)
        what = `a database that takes no password (${passwordless}) on a port published beyond this machine`;
      else if (name === 'ssh' && forwardsOnEveryInterface(args))
        what = 'ssh forwarding that listens on every interface (a tunnel into the far network for anyone nearby)';
      else if (name === 'tailscale' && (args[0] === 'funnel' || args[0] === 'serve')) what = `tailscale ${args[0]}`;
      // Tailscale SSH lets the tailnet's users log in to this machine; an exit node carries their traffic out through it.
      else if (
        name === 'tailscale' &&
        (args[0] === 'up' || args[0] === 'set') &&
        args.some((a) => a === '--ssh' || a === '--ssh=true' || a === '--advertise-exit-node')
      )
        what = `tailscale ${args[0]} ${args.filter((a) => /^--(ssh|advertise-exit-node)/.test(a)).join(' ')} (logins into this machine from the tailnet)`;
      else if (name === 'socat') what = socatRelay(args) ?? null;
      else if (name === 'gdbserver' && gdbserverEverywhere(args))
        what = 'gdbserver listening on every interface (whoever connects runs code as you)';
      else if (
        (name === 'fly' || name === 'flyctl') &&
        args[0] === 'proxy' &&
        !listensOnLoopback(optionValues(args, ['b'], ['bind-addr'])[0])
      )
        what = "fly proxy serving an app's private port (a database's too) on every interface";
      else if (
        name === 'kubectl' &&
        parseFlags(args, KUBECTL_VALUE_SHORT, KUBECTL_VALUE_LONG).positionals[0] === 'proxy' &&
        !listensOnLoopback(optionValues(args, [], ['address'])[0])
      )
        what = "kubectl proxy serving the cluster's API, with your credentials, on every interface";
      else if (Object.hasOwn(LISTENERS, name) && listensBeyondLoopback(args, LISTENERS[name]!))
        what = `${LISTENERS[name]!.what} on an address others can reach`;
      else if (engineApiEverywhere(name, args))
        what = `${name}'s engine API on a network port (whoever reaches it runs containers as you, with the host mounted)`;
      else if (/^netsh(\.exe)?$/.test(name) && windowsPortProxy(args))
        what = 'a netsh port proxy listening on every interface';
      else if (
        (name === 'nc' || name === 'ncat' || name === 'netcat') &&
        args.some((a) => /^-\w*l/.test(a)) &&
        args.some((a) => /^-\w*[ec]$|^--(exec|sh-exec)/.test(a))
      )
        what = `${name} listening with a program attached`;
      what ??= remoteLoginStarted(cmd);
      const served = exposedFolder(cmd, call);
      if (served)
        return {
          reason: `${served}: anyone who can reach this machine can download those files (keys and tokens included when the folder holds them). Serve only a build folder on 127.0.0.1, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
      if (what)
        return {
          reason: `${what} opens this machine to the internet, past its firewall; a person should approve what is exposed and for how long.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});
