import { isIP } from 'node:net';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { redisToolCommand } from './shared/mcp';
import { isLoopback, isPrivateAddress, urlHostsOfWords } from './shared/hosts';
import { isPrivateUseName } from './shared/own-sources';
import type { ToolCall } from '../types';
import {
  argsOf,
  evidenceOf,
  forLoops,
  literalStdin,
  optionValues,
  parseFlags,
  shellCommands,
} from '../../facts/commands';
import { secretFileKind } from '../../facts/sensitive-paths';
import { executesStdin, HTTP_CLIENTS, inlineCode, REQUEST_BODY_LONG, REQUEST_BODY_SHORT } from '../../facts/programs';
import { secretKindOfPath } from '../../facts/sensitive';
import { isInside } from '../../shell/paths';

// Cloud metadata services hand out the machine's cloud credentials to any local process; the
// container engine's socket is root on the host; file:// URLs read local files through a
// downloader. Hosts are compared as the network stack reads them: WHATWG URL parsing turns
// 2852039166, 0xa9fea9fe, 0251.0376.0251.0376 and 169.254.43518 into 169.254.169.254, IPv4
// addresses mapped into IPv6 are unwrapped, and wildcard-DNS names that embed an address
// (169.254.169.254.nip.io, 169-254-169-254.sslip.io) count as that address.

const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '168.63.129.16',
  'fd00:ec2::254',
  'fd00:ec2::23',
]);
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);
// Wildcard DNS services: any name under them resolves to the address written in its labels.
const WILDCARD_DNS = ['nip.io', 'sslip.io', 'xip.io', 'nip.direct', 'traefik.me', '1u.ms', 'rbndr.us', 'lvh.me'];
const ENGINE_SOCKET = /(^|\/)(docker|podman|containerd|crio|cri-dockerd)\.sock$/;
// Local admin APIs: Docker's TCP API, the kubelet, etcd.
// Local services that hand out control or secrets to whoever connects: Docker's TCP API, the
// kubelet, etcd, Consul's and Vault's HTTP APIs, a browser's or Node's debugging port, Redis, memcached.
const ADMIN_PORTS = new Map([
  ['2375', "Docker's TCP API"],
  ['2376', "Docker's TCP API"],
  ['10250', 'the kubelet'],
  ['10255', 'the kubelet'],
  ['2379', 'etcd'],
  ['2380', 'etcd'],
  ['4001', 'etcd'],
  ['8500', "Consul's API (its key-value store holds secrets)"],
  ['8200', "Vault's API"],
  ['9222', "a browser's debugging port (its cookies and sessions)"],
  ['9229', "Node's inspector (runs code in that process)"],
  ['6379', 'Redis'],
  ['11211', 'memcached'],
  ['15000', "Envoy's admin API in an Istio sidecar (its config dump holds the mesh's secrets)"],
  ['9901', "Envoy's admin API (its config dump holds the proxy's secrets)"],
  ['2019', "Caddy's admin API (a config it loads can serve or proxy any folder)"],
  ['4646', "Nomad's API (a job it is sent runs commands)"],
  ['6443', 'the Kubernetes API server'],
  ['15672', "RabbitMQ's management API (its definitions hold users and password hashes)"],
]);
/** Admin ports whose service answers a cluster's other machines too: reached on a private address, still the node's. */
const NODE_ADMIN_PORTS = new Set(['10250', '10255', '2379', '2380', '2375', '2376']);
// A Spring Boot actuator's endpoints that hand out the environment (with its secrets), the whole heap,
// or control of the process, on whatever port the application listens.
const ACTUATOR_PATH =
  /^\/(?:actuator|manage|management)\/(env|heapdump|configprops|threaddump|jolokia|gateway|shutdown|restart|loggers)(?:\/|$)/i;
// Local endpoints that run code or hand out secrets, whatever port they listen on (`what` names the
// endpoint from the path's match).
const CONTROL_PATHS: {
  path: RegExp;
  /** What the query must hold as well (Consul's `?recurse`). */
  query?: RegExp;
  localOnly?: boolean;
  what: (match: RegExpExecArray) => string;
}[] = [
  {
    path: ACTUATOR_PATH,
    what: (m) =>
      `a Spring Boot actuator's ${m[1]} endpoint, which hands out the application's environment, heap or control to any local process`,
  },
  {
    path: /^(\/computer\/[^/]+)?\/script(Text)?(\/|\?|$)/,
    what: () => "Jenkins' script console, which runs Groovy as Jenkins",
  },
  {
    path: /^\/api\/v1\/(namespaces\/[^/]+\/)?secrets(\/|\?|$)/,
    what: () => "the Kubernetes API's secrets (a kubectl proxy)",
  },
  { path: /^(\/v[\d.]+)?\/containers\/create(\?|$)/, what: () => "a container engine's API, which starts containers" },
  {
    path: /^\/api\/(terminals|kernels\/[^/]+\/channels)(\/|\?|$)/,
    what: () => "a Jupyter server's terminals or kernel channels, which run commands and code as that server",
  },
  {
    // JupyterHub's REST API mints tokens for any user (an admin's token signs in as them) and runs servers.
    path: /^\/hub\/api\/users\/[^/]+\/(tokens|server)(\/|\?|$)/,
    what: () => "JupyterHub's API for a user's tokens or server, which signs in and runs code as that user",
  },
  {
    // React Native's Metro forwards its inspector socket to the app's JavaScript engine: a debugger
    // connected there evaluates code in the running app, with the signed-in user's session.
    path: /^\/inspector\/(debug|device)(\/|\?|$)/,
    what: () => "Metro's inspector proxy, which runs code inside the running app",
  },
  {
    // Vite (and Storybook on it) serves any file of the machine under /@fs/ to whoever asks the dev server.
    path: /^\/@fs\//,
    what: () => "a Vite dev server's /@fs/ route, which serves any file on this machine",
  },
  {
    // Ignition's solutions run as the application (the route that CVE-2021-3129 turned into code execution).
    path: /^\/_ignition\/execute-solution(\?|$)/,
    what: () => "Laravel Ignition's execute-solution route, which runs a solution's code as the application",
  },
  {
    path: /^(?:\/actuator)?\/jolokia\/exec(\/|\?|$)/,
    what: () => "Jolokia's exec endpoint, which calls any MBean operation of the JVM (diagnostic commands included)",
  },
  {
    // Spark's standalone master (port 6066) runs the application a submission names, from any URL.
    path: /^\/v1\/submissions\/create(\/|\?|$)/,
    what: () => "a Spark master's REST submission API, which runs the application a request names on the cluster",
  },
  {
    // Airflow's stable REST API: connections and variables hold the pipelines' passwords and keys, its config
    // the Fernet key that decrypts them and the metadata database's login; users, who may run them.
    path: /^\/api\/v[12]\/(connections|variables|users|roles|config)(\/|\?|$)/,
    what: (m) =>
      `Airflow's ${m[1]} API, which ${m[1] === 'users' || m[1] === 'roles' ? 'grants access to every pipeline' : m[1] === 'config' ? 'hands out the Fernet key and the metadata database login' : "hands out the pipelines' stored credentials"}`,
  },
  {
    // A connector's config names any class and any file: a file sink writes topic data wherever it says.
    path: /^\/connectors\/[^/?]+\/config\/?(\?|$)/,
    localOnly: true,
    what: () => "Kafka Connect's connector API, which runs any connector class and writes where its config says",
  },
  {
    path: /^\/api\/requests(\/|\?|$)/,
    what: () => "ngrok's inspection API, which replays captured requests with their bodies and headers",
  },
  {
    path: /^\/api\/pg-meta\/[^/]+\/query(\/|\?|$)/,
    what: () => "Supabase Studio's SQL API, which runs any statement as the database's owner",
  },
  {
    path: /^\/(_{1,2})?debug\/(eval|exec|run|shell|console)(\/|\?|$)/i,
    what: (m) => `a development server's debug ${m[2]!.toLowerCase()} endpoint, which runs code it is sent`,
  },
  {
    path: /^\/api\/v1\/admin\/tsdb\/(delete_series|clean_tombstones)(\?|$)/,
    what: () => "Prometheus's admin API, which deletes stored metrics for good",
  },
  {
    path: /^\/v1\/kv(\/|$)/,
    query: /[?&]recurse\b/,
    what: () => "Consul's whole key-value store (it holds service credentials beside the settings)",
  },
  {
    path: /^\/v1\/(secret|kv|cubbyhole|auth\/token)\//,
    // On the network, Vault asks for the caller's token; a local agent's listener hands secrets to anyone.
    localOnly: true,
    what: () => "Vault's API (or its agent's listener), which hands out secrets to any local process",
  },
];
// Redis told to write its dump file into a chosen folder or file (planting an ssh key or a cron job),
// to copy from another server, or to load a module (code in the server).
const REDIS_TAKEOVER = /^(?:config\s+set\s+(?:dir|dbfilename)|(?:slaveof|replicaof)\s+(?!no\b)|module\s+load)\b/i;
// Schemes that let a URL speak raw bytes to a service (smuggling commands to Redis or SMTP).
const RAW_SCHEMES = new Set(['gopher:', 'dict:', 'ldap:', 'tftp:', 'telnet:']);
/** The data stores among ADMIN_PORTS, with the URL schemes of their own protocol. */
const STORE_SCHEMES = new Map([
  ['6379', ['redis:', 'rediss:']],
  ['11211', ['memcache:', 'memcached:']],
]);
// A metadata address written literally anywhere, including inside interpreter code.
const METADATA_LITERAL =
  /(?:^|[^\d.])(169\.254\.169\.254|169\.254\.170\.2|169\.254\.170\.23|100\.100\.100\.200|168\.63\.129\.16)(?![\d])|metadata\.google\.internal|metadata\.azure\.internal/i;

// What a metadata request looks like whatever host it names: a DNS name the caller controls can
// resolve to 169.254.169.254, so the path, the headers and the endpoint variables give it away.
const METADATA_PATH =
  /^\/(latest|\d{4}-\d{2}-\d{2})\/(meta-data|user-data|dynamic\/instance-identity|api\/token)|^\/computeMetadata\/v1|^\/metadata\/(instance|identity|attested|v1(\/|\.json|$))|^\/opc\/v[12]\/|^\/openstack\/(latest|\d{4}-\d{2}-\d{2})\/|^\/hetzner\/v1\/metadata/i;
const METADATA_HEADER =
  /^\s*(metadata-flavor\s*:\s*google|x-google-metadata-request\s*:|metadata\s*:\s*true|x-aws-ec2-metadata-token(-ttl-seconds)?\s*:|authorization\s*:\s*bearer\s+oracle\s*$)/i;
// Variables that hold a metadata or workload-identity endpoint (ECS, App Service, GitHub's OIDC token URL).
const METADATA_ENDPOINT_VARIABLE =
  /\$\{?(ECS_CONTAINER_METADATA_URI(_V4)?|AWS_CONTAINER_CREDENTIALS_(FULL|RELATIVE)_URI|IDENTITY_ENDPOINT|MSI_ENDPOINT|IMDS_ENDPOINT|AWS_EC2_METADATA_SERVICE_ENDPOINT|GCE_METADATA_(HOST|IP)|ACTIONS_ID_TOKEN_REQUEST_URL)\b/;

function metadataShape(call: ToolCall, texts: readonly string[]): string | undefined {
  for (const text of texts) {
    // A URL has `://` and an endpoint variable a `$`: most words have neither, and skip the patterns.
    if (text.includes('://'))
      for (const match of text.matchAll(URL_IN_TEXT)) {
        try {
          const url = new URL(match[0]);
          if (METADATA_PATH.test(url.pathname)) return `the metadata path ${url.pathname}`;
        } catch {
          continue;
        }
      }
    const variable = text.includes('$') ? METADATA_ENDPOINT_VARIABLE.exec(text)?.[1] : undefined;
    if (variable) return `the endpoint in $${variable}`;
  }
  for (const cmd of shellCommands(call)) {
    const header = optionValues(argsOf(cmd), ['H'], ['header']).find((h) => METADATA_HEADER.test(h));
    if (header) return `the metadata header "${header.trim()}"`;
  }
  return undefined;
}

interface Destination {
  host: string;
  port: string;
  path: string;
  query: string;
  text: string;
  scheme: string;
}

function parseDestination(raw: string): Destination | undefined {
  const withScheme = /^[a-z][\w+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  try {
    // `http://169.254.170.2$RELATIVE_URI`: the host ends where a run-time value begins.
    const url = new URL(withScheme.replace(/[$`].*$/s, ''));
    if (url.protocol === 'file:') return undefined;
    return {
      host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(),
      port: url.port,
      path: url.pathname,
      query: url.search,
      text: raw,
      scheme: url.protocol,
    };
  } catch {
    return undefined;
  }
}

// ::ffff:a9fe:a9fe and ::ffff:169.254.169.254 carry an IPv4 address in their last 32 bits.
function unwrapMappedIpv4(host: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex) return host;
  const high = parseInt(hex[1] as string, 16);
  const low = parseInt(hex[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

// 169.254.169.254.nip.io, 169-254-169-254.sslip.io, a9fea9fe.nip.io, app.169.254.169.254.nip.io
function embeddedAddress(host: string): string | undefined {
  const service = WILDCARD_DNS.find((name) => host === name || host.endsWith(`.${name}`));
  if (!service) return undefined;
  const labels = host.slice(0, -service.length - 1);
  const dotted = /(\d{1,3}[.-]\d{1,3}[.-]\d{1,3}[.-]\d{1,3})$/.exec(labels)?.[1];
  if (dotted) return dotted.replace(/-/g, '.');
  const hex = /(?:^|[.-])([0-9a-f]{8})$/.exec(labels)?.[1];
  if (hex) return [0, 2, 4, 6].map((at) => parseInt(hex.slice(at, at + 2), 16)).join('.');
  return service === 'lvh.me' ? '127.0.0.1' : undefined;
}

function effectiveHost(host: string): string {
  return unwrapMappedIpv4(embeddedAddress(host) ?? host);
}

/**
 * The link-local blocks where clouds put host services beside the metadata service (169.254.169.x: AWS
 * time and DNS, 169.254.170.x: container and pod credentials) and IPv6 link-local. The rest of
 * 169.254/16 is what a device answers on a direct cable (a board's USB Ethernet, a camera): no cloud there.
 */
function isLinkLocal(host: string): boolean {
  return (isIP(host) === 4 && /^169\.254\.(169|170)\./.test(host)) || (isIP(host) === 6 && /^fe[89ab]/.test(host));
}

const URL_IN_TEXT = /[a-z][a-z0-9+.-]{0,15}:\/\/[^\s'"`<>()\\]+/gi;

/** URLs anywhere in a word (interpreter code included) and the host arguments of downloaders. */
function destinationsOf(cmd: SimpleCommand): Destination[] {
  const found: Destination[] = [];
  for (const word of argsOf(cmd)) {
    if (word.includes('://'))
      for (const match of word.matchAll(URL_IN_TEXT)) {
        const destination = parseDestination(match[0]);
        if (destination) found.push(destination);
      }
    // These clients take a URL without its scheme: `curl localhost:2375/…`, `wget 10.0.0.1:8500/…`, `curl [::1]:9229`.
    if (
      ['curl', 'wget', 'http', 'xh'].includes(cmd.name) &&
      /^(?:\d[\d.x]*[\d:/]|localhost(?:[:/]|$)|\[)/i.test(word)
    ) {
      const destination = parseDestination(word);
      if (destination) found.push(destination);
    }
  }
  return found;
}

function fileUrlsOf(texts: readonly string[]): string[] {
  const paths: string[] = [];
  for (const text of texts)
    if (text.includes('://'))
      for (const match of text.matchAll(/file:\/\/(?:localhost)?(\/[^\s'"`<>()]*)/gi))
        paths.push(decodeURIComponent(match[1] as string));
  return paths;
}

/**
 * The path an engine socket's name ends, in code: found by its name, then walked back over the
 * path's characters (a pattern that matched the path first retried at every start of a long run).
 */
function engineSocketInCode(code: string): string {
  const name = /(?:docker|podman|containerd|crio)\.sock\b/.exec(code);
  if (!name) return '';
  let start = name.index;
  while (start > 0 && /[\w/.-]/.test(code[start - 1]!)) start--;
  return code.slice(start, name.index + name[0].length);
}

// A platform's per-machine API socket, which hands out the machine's identity tokens (Fly's OIDC tokens
// assume the app's cloud roles), as a metadata service does.
const MACHINE_API_SOCKETS = new Set(['/.fly/api']);

function machineApiSocketOf(cmd: SimpleCommand): string | undefined {
  return optionValues(argsOf(cmd), [], ['unix-socket']).find((socket) => MACHINE_API_SOCKETS.has(socket));
}

// Local daemons that run as root and take orders over their socket: tailscaled's local API (its settings,
// its keys), snapd (installs), libvirt, LXD and Incus (a container with the host mounted).
const ROOT_DAEMON_SOCKET =
  /(^|\/)(tailscaled\.sock|snapd(-snap)?\.socket|libvirt-sock|(lxd|incus)\/(unix\.socket|unix\.socket\.user))$/;

function rootDaemonSocketOf(cmd: SimpleCommand): string | undefined {
  return optionValues(argsOf(cmd), [], ['unix-socket']).find((socket) => ROOT_DAEMON_SOCKET.test(socket));
}

/** Clients of a container engine, whose -H (docker, podman) or -a and -r (ctr, crictl) name its socket. */
const ENGINE_CLIENTS = new Set(['docker', 'podman', 'nerdctl', 'ctr', 'crictl', 'docker-compose']);

function engineSocketOf(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  const candidates = [
    ...optionValues(args, [], ['unix-socket', 'abstract-unix-socket']),
    // Short options mean the socket only to the engines' own clients (`ls -la` is no address).
    ...optionValues(args, ENGINE_CLIENTS.has(cmd.name) ? ['H'] : [], ['host']),
    ...args.filter((a) => /^(unix-connect|unix-client|unix):/i.test(a)).map((a) => a.replace(/^[^:]+:/, '')),
    ...(['nc', 'ncat', 'netcat'].includes(cmd.name) && args.some((a) => /^-\w*U/.test(a)) ? args : []),
    cmd.assignments.DOCKER_HOST ?? '',
    cmd.assignments.CONTAINER_HOST ?? '',
    // ctr --address, crictl --runtime-endpoint, and a socket path named in interpreter code.
    ...optionValues(args, ENGINE_CLIENTS.has(cmd.name) ? ['a', 'r'] : [], [
      'address',
      'runtime-endpoint',
      'image-endpoint',
    ]),
    engineSocketInCode(inlineCode(cmd) ?? ''),
  ];
  // Docker Desktop on Windows listens on the named pipe //./pipe/docker_engine.
  return candidates.find(
    (c) =>
      ENGINE_SOCKET.test(c.replace(/^unix:\/\//, '')) ||
      /^tcp:\/\/[^/]*:237[56]/.test(c) ||
      /^npipe:[/\\]*\.[/\\]+pipe[/\\]+docker/i.test(c),
  );
}

// Ray's job API runs the entrypoint a POST names, on every node of the cluster; listing jobs is read only.
const RAY_JOBS = /^\/api\/jobs\/?$/;
const SENDS_BODY = /^(-d|--data(-\w+)?|--json|-F|--form)(=|$)|^-X(POST)?$|^--request(=POST)?$/;

/** A raw request that submits a job to a local Ray dashboard (`ray job submit` names its entrypoint plainly). */
function rayJobSubmission(cmd: SimpleCommand, destinations: Destination[]): boolean {
  const toRay = destinations.some(
    (d) => d.port === '8265' && RAY_JOBS.test(d.path) && (isLoopback(effectiveHost(d.host)) || d.host === '0.0.0.0'),
  );
  return toRay && argsOf(cmd).some((arg) => SENDS_BODY.test(arg));
}

function judgeHost(destination: Destination): { reason: string; deny: boolean } | undefined {
  const host = effectiveHost(destination.host);
  if (METADATA_ADDRESSES.has(host) || METADATA_NAMES.has(host))
    return {
      reason: `Reaches the cloud metadata service (${host}${host === destination.host ? '' : `, written as ${destination.host}`}), which hands out this machine's cloud credentials to any local process.`,
      deny: true,
    };
  // The kubelet's run and exec API runs commands in any pod of its node, by whatever name the node goes.
  if (destination.port === '10250' && /^\/(run|exec|attach|cri)\//.test(destination.path))
    return {
      reason: `Reaches the kubelet's ${destination.path.split('/')[1]} API on ${host}, which runs commands in the node's pods past the cluster's API server and its audit log.`,
      deny: false,
    };
  if (NODE_ADMIN_PORTS.has(destination.port) && isPrivateAddress(host))
    return {
      reason: `Reaches ${ADMIN_PORTS.get(destination.port)} on ${host} directly, past the cluster's API server and its audit log.`,
      deny: false,
    };
  if (isLinkLocal(host))
    return { reason: `Reaches the link-local address ${host}, where metadata and host services live.`, deny: false };
  const service = ADMIN_PORTS.get(destination.port);
  // An application's own connection string (`redis://localhost:6379/0`) uses the store as it is meant
  // to be used; the hazard is another protocol smuggled to it (HTTP, gopher).
  const ownProtocol = STORE_SCHEMES.get(destination.port)?.includes(destination.scheme) === true;
  if ((isLoopback(host) || host === '0.0.0.0') && service && !ownProtocol)
    return {
      reason: `Reaches a local service on port ${destination.port} (${service}), which hands control or secrets to any local process.`,
      deny: false,
    };
  const local = isLoopback(host) || host === '0.0.0.0';
  // The organisation's own services answer their own network as they answer this machine.
  if (local || isPrivateAddress(host) || isPrivateUseName(host))
    for (const control of CONTROL_PATHS) {
      const match =
        (local || !control.localOnly) && (control.query?.test(destination.query) ?? true)
          ? control.path.exec(destination.path)
          : null;
      if (match)
        return {
          reason: `Reaches ${control.what(match)}, ${local ? 'on this machine' : `on ${host}, a service of the organisation's own network`}.`,
          deny: false,
        };
    }
  if (RAW_SCHEMES.has(destination.scheme))
    return {
      reason: `Uses a ${destination.scheme}// URL, which speaks raw bytes to whatever listens there (a way to send commands to local services).`,
      deny: false,
    };
  return undefined;
}

/**
 * `redis-cli [options] CONFIG SET dir …` and its kin, as the words after the client's options say, or
 * as lines of what it reads on its input (`redis-cli <<EOF`, `printf '…' | redis-cli`).
 */
function redisTakeover(cmd: SimpleCommand, commands: readonly SimpleCommand[]): string | undefined {
  if (cmd.name !== 'redis-cli') return undefined;
  const words = parseFlags(
    argsOf(cmd),
    ['h', 'p', 'a', 's', 'u', 'n', 'r', 'i', 'd'],
    ['user', 'pass', 'tls'],
  ).positionals;
  const fed = literalStdin(commands, cmd)?.split('\n') ?? [];
  const statement = [words.join(' '), ...fed].map((line) => line.trim()).find((line) => REDIS_TAKEOVER.test(line));
  return statement?.split(/\s+/).slice(0, 3).join(' ');
}

/** The same statements handed to a Redis server's MCP tool (`mcp__redis__execute {"command": …}`). */
function redisToolTakeover(call: ToolCall): string | undefined {
  const statement = redisToolCommand(call)?.statement;
  return statement !== undefined && REDIS_TAKEOVER.test(statement)
    ? statement.split(/\s+/).slice(0, 3).join(' ')
    : undefined;
}

function redisFinding(what: string, text: string) {
  return {
    reason: `Tells Redis to ${what}: the server then writes its data where the caller chose (an ssh key, a cron job) or runs code it loads; Warden refuses this.`,
    evidence: evidenceOf(text),
  };
}

// A text search's words are patterns, not places it goes: `grep -rn 169.254.169.254 infra/` reaches nothing.
const TEXT_SEARCHES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'zgrep']);

function searchesText(cmd: SimpleCommand): boolean {
  return TEXT_SEARCHES.has(cmd.name) || (cmd.name === 'git' && argsOf(cmd)[0] === 'grep') || asksRouteOnly(cmd);
}

/** `ip route get ADDR`: the kernel says which interface a packet would leave by; nothing is sent. */
function asksRouteOnly(cmd: SimpleCommand): boolean {
  const words = parseFlags(argsOf(cmd)).positionals;
  return cmd.name === 'ip' && /^r(o(u(te?)?)?)?$/.test(words[0] ?? '') && words[1] === 'get';
}

function urlTexts(call: ToolCall): string[] {
  return [
    ...(call.url ? [call.url] : []),
    ...shellCommands(call)
      .filter((cmd) => !searchesText(cmd))
      .flatMap((cmd) => [
        ...argsOf(cmd),
        // Code an interpreter reads from a here-document (`python3 - <<'PY' … PY`).
        ...(executesStdin(cmd) ? cmd.redirects.filter((r) => r.op.startsWith('<<')).map((r) => r.target) : []),
      ]),
  ];
}

const PORT_SCANNERS = new Set(['nmap', 'masscan', 'rustscan', 'zmap', 'naabu']);

/**
 * A port scanner swept over the private network (`nmap -sV 192.168.1.0/24`): it finds the other
 * machines' databases and admin consoles on the office or café network, for later calls to reach.
 */
function networkSweep(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  // A ping sweep (`nmap -sn`) lists the machines that answer, and no service on them.
  if (!PORT_SCANNERS.has(cmd.name) || args.some((a) => a === '-sn' || a === '-sP')) return undefined;
  return args.find((word) => {
    const range = /^([\d.]+)\/(\d{1,2})$/.exec(word);
    return range !== null && Number(range[2]) < 32 && isPrivateAddress(range[1]!);
  });
}

/** A port scanner pointed at this machine (`nmap -p- 127.0.0.1`), or nc probing a range of its ports. */
function localPortScan(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  if (PORT_SCANNERS.has(cmd.name)) {
    // A port or two named outright is a check of known services, not a search for unknown ones.
    const ports = optionValues(args, ['p'], ['ports', 'port']);
    if (ports.length > 0 && ports.every((list) => /^\d+(,\d+){0,2}$/.test(list))) return undefined;
    return args.find((word) => isLoopback(word));
  }
  if ((cmd.name === 'nc' || cmd.name === 'ncat' || cmd.name === 'netcat') && args.some((a) => /^-\w*z/.test(a))) {
    const host = args.find((word) => isLoopback(word));
    const range = args.find((word) => /^\d+-\d+$/.test(word));
    return host !== undefined && range !== undefined ? `${host} ${range}` : undefined;
  }
  return undefined;
}

const LOOP_READ = /\bwhile\s+read\s+(?:-r\s+)?([A-Za-z_]\w{0,63})/g;
const LOCAL_PORT_WORD = /\b(?:localhost|127\.0\.0\.1|\[::1\]):\$\{?([A-Za-z_]\w{0,63})/g;

/** `for p in …; do curl http://127.0.0.1:$p/; done`: a request to each of this machine's ports in turn. */
function loopedLocalPorts(command: string | undefined, commands: readonly SimpleCommand[]): string | undefined {
  // LOCAL_PORT_WORD needs a port taken from a variable (`:$p`): without one there is nothing to look for.
  if (command === undefined || !command.includes(':$')) return undefined;
  const variables = new Set([
    ...forLoops(commands).map((loop) => loop.variable),
    ...[...command.matchAll(LOOP_READ)].map((match) => match[1]),
  ]);
  return [...command.matchAll(LOCAL_PORT_WORD)].find((match) => variables.has(match[1]))?.[0];
}

/** `kubectl get --raw /api/v1/nodes/NODE/proxy/pods`: the node's kubelet API, through the API server; the node's name. */
function kubeletThroughApiServer(cmd: SimpleCommand): string | undefined {
  if (!['kubectl', 'oc', 'k'].includes(cmd.name)) return undefined;
  const raw = optionValues(argsOf(cmd), [], ['raw'])[0];
  // Its pod list (with their environments), its run, exec and attach APIs, its logs and config; not its metrics.
  return raw === undefined
    ? undefined
    : /^\/api\/v1\/nodes\/([^/]+)\/proxy\/(pods|run|exec|attach|portForward|cri|checkpoint|logs|configz)\b/.exec(
        raw,
      )?.[1];
}

/**
 * `jcmd PID GC.heap_dump FILE`, `jmap -dump:…`, `jhsdb jmap --binaryheap`, `gcore PID`, `dotnet-dump collect`,
 * `procdump`: a running process's memory written out (as an actuator's /heapdump hands it out).
 */
function processMemoryDump(cmd: SimpleCommand): string | undefined {
  const name = cmd.name.replace(/^.*\//, '');
  const args = argsOf(cmd);
  if (name === 'jcmd' && args.some((a) => /^GC\.heap_dump$/i.test(a))) return "a JVM's heap, by jcmd";
  if (name === 'jmap' && args.some((a) => /^-dump(:|$)/.test(a))) return "a JVM's heap, by jmap";
  if (name === 'jhsdb' && args[0] === 'jmap' && args.includes('--binaryheap')) return "a JVM's heap, by jhsdb";
  if (name === 'gcore') return 'a core dump, by gcore';
  if (name === 'dotnet-dump' && args[0] === 'collect') return "a .NET process's memory, by dotnet-dump";
  if (name === 'procdump') return "a process's memory, by procdump";
  return undefined;
}

// A path of this machine written into a request body: `/home/dev/.aws/credentials`, `~/.ssh/id_rsa`.
const BODY_PATH = /(?:~|\/(?:home|Users|root|etc))(?:\/[\w.@+-]+)+/g;

/**
 * A secret file of this machine named in a request to a service on it (a Kafka Connect file source, a
 * plugin that loads a path): the service reads the file for whoever asked, past any check of a file read.
 */
function secretNamedToLocalService(cmd: SimpleCommand, home: string): string | undefined {
  if (!HTTP_CLIENTS.has(cmd.name)) return undefined;
  const args = argsOf(cmd);
  const host = urlHostsOfWords(args)[0];
  if (host === undefined || !isLoopback(host)) return undefined;
  // curl's and wget's bodies are option values; httpie's and xh's are its `key=value` and `key:=json` items.
  const bodies =
    cmd.name === 'curl' || cmd.name === 'wget'
      ? optionValues(args, REQUEST_BODY_SHORT, [...REQUEST_BODY_LONG, 'post-data'])
      : args.filter((word) => !word.startsWith('-') && /=/.test(word));
  for (const body of bodies)
    for (const [path] of body.matchAll(BODY_PATH)) {
      const kind = secretKindOfPath(path.startsWith('~') ? home + path.slice(1) : path, home);
      if (kind) return `${path} (${kind}), handed to the service at ${host}`;
    }
  return undefined;
}

export const metadataAndLocalServices = definePolicy({
  name: 'metadata-and-local-services',
  category: 'network',
  description:
    'Denies cloud metadata services (169.254.169.254 in any encoding, metadata.google.internal) and container engine sockets; asks for link-local services, local admin APIs, file:// URLs, a secret file named to a local service, memory dumps.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const destinations: Destination[] = [];
    if (call.url) {
      const destination = parseDestination(call.url);
      if (destination) destinations.push(destination);
    }
    const toolTakeover = redisToolTakeover(call);
    if (toolTakeover) return redisFinding(toolTakeover, toolTakeover);
    const commands = shellCommands(call);
    const looped = loopedLocalPorts(call.command, commands);
    if (looped)
      return {
        reason: `Scans this machine's ports (${looped} in a loop): it finds every local service, Warden's own endpoint among them, for later calls to reach. Approve this exact call if you want the scan.`,
        evidence: evidenceOf(call.command ?? looped),
        decision: 'ask' as const,
      };
    for (const cmd of commands) {
      const scanned = localPortScan(cmd);
      if (scanned)
        return {
          reason: `Scans this machine's ports (${scanned}): it finds every local service, Warden's own endpoint among them, for later calls to reach. Approve this exact call if you want the scan.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      const swept = networkSweep(cmd);
      if (swept)
        return {
          reason: `Scans the private network ${swept} with ${cmd.name}: it finds other people's machines and the services they run (databases, admin consoles) for later calls to reach. Approve this exact call if you want the scan.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      const takeover = redisTakeover(cmd, commands);
      if (takeover) return redisFinding(takeover, cmd.text);
      const handed = secretNamedToLocalService(cmd, call.home);
      if (handed)
        return {
          reason: `Asks a service on this machine to read ${handed}: the service reads the file for the caller, and its contents come back or go on where it sends them. Approve this exact call if that service should have it.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      const dump = processMemoryDump(cmd);
      if (dump)
        return {
          reason: `Writes the memory of a running process to a file (${dump}): every secret, token and customer record it holds is in the dump, for whoever reads the file. Approve this exact call if you need the dump.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      const kubelet = kubeletThroughApiServer(cmd);
      if (kubelet)
        return {
          reason: `Reaches the kubelet of node ${kubelet} through the API server's node proxy: its API lists every pod of the node with their environment, and runs commands in them, past the cluster's audit of pod access. Approve this exact call if you need it.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      const reached = destinationsOf(cmd);
      if (rayJobSubmission(cmd, reached))
        return {
          reason: `Submits a job to the local Ray dashboard's API: its entrypoint runs as a command on the cluster, written where Warden does not read it. Use \`ray job submit -- <command>\`, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      destinations.push(...reached);
      const machineApi = machineApiSocketOf(cmd);
      if (machineApi)
        return {
          reason: `Talks to the machine's platform API socket (${machineApi}), which hands out this machine's identity tokens, and with them its cloud roles. Warden refuses this.`,
          evidence: evidenceOf(cmd.text),
        };
      const daemon = rootDaemonSocketOf(cmd);
      if (daemon)
        return {
          reason: `Talks straight to a local daemon that runs as root (${daemon}), past its command-line tool's checks: its API changes the machine's settings and keys. Use the tool's own CLI, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      const socket = engineSocketOf(cmd);
      if (socket)
        return {
          reason: `Talks to the container engine (${socket}): whoever reaches it can start a container with the host's root file system mounted. Use the docker CLI for ordinary work, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    const texts = urlTexts(call);
    const literal = [call.url ?? '', ...texts].map((text) => METADATA_LITERAL.exec(text)?.[0]).find(Boolean);
    if (literal)
      return {
        reason: `Names the cloud metadata service (${literal.replace(/^[^\dm]/i, '')}), which hands out this machine's cloud credentials to any local process. Warden refuses this.`,
        evidence: evidenceOf(call.command ?? call.url ?? literal),
      };
    const shaped = metadataShape(call, texts);
    if (shaped)
      return {
        reason: `Sends a request shaped for a cloud metadata service (${shaped}): whatever name it uses may resolve to the metadata address, which hands out this machine's cloud credentials. Warden refuses this.`,
        evidence: evidenceOf(call.command ?? call.url ?? shaped),
      };
    const computed = shellCommands(call).find((cmd) => /:\/\/["']?(\$\(|`)/.test(cmd.text));
    if (computed)
      return {
        reason: `Fetches from a host computed at run time (${evidenceOf(computed.text)}): Warden cannot tell where it goes, and metadata or local services could be behind it. Write the host literally, or approve this exact call.`,
        evidence: evidenceOf(computed.text),
        decision: 'ask' as const,
      };
    for (const destination of destinations) {
      const verdict = judgeHost(destination);
      if (verdict)
        return {
          reason: `${verdict.reason} ${verdict.deny ? 'Warden refuses this.' : 'Approve this exact call if it is intended.'}`,
          evidence: evidenceOf(call.command ?? destination.text),
          ...(verdict.deny ? {} : { decision: 'ask' as const }),
        };
    }
    const file = fileUrlsOf(texts)[0];
    if (file !== undefined) {
      const secret = secretFileKind(file, call.home);
      // An editor or language-server tool names the project's files by file:// URI; no downloader reads them.
      if (!secret && call.command === undefined && isInside(file, call.projectRoot)) return null;
      return {
        reason: secret
          ? `Reads ${file} (${secret}) through a file:// URL; secrets read into the session end up in the transcript and the model.`
          : `Reads the local file ${file} through a file:// URL; use the Read tool for files, or approve this exact call.`,
        evidence: evidenceOf(call.command ?? file),
        ...(secret ? {} : { decision: 'ask' as const }),
      };
    }
    return null;
  },
});
