import { z } from 'zod';
import { COMPOSE_FILE, DOCKERFILE } from '../../facts/written-runs';
import { definePolicy } from '../types';
import type { SimpleCommand } from '../../shell';
import { argsOf, evidenceOf, optionValues, shellCommands } from '../../facts/commands';
import { firstWrittenFinding } from '../../facts/compute';
import { linesAdded } from './shared/edited-file';
import { isSourceCode, isTestFile } from '../../text/source-files';
import { JVM_OPTION_VARIABLES } from '../../shell/option-hops';

// A service that lets anyone in without a login hands over what it can do to whoever reaches it:
// Grafana's anonymous access given the Admin or Editor role (every visitor may change dashboards, data
// sources and their stored credentials), a Jupyter server on every interface with no token and no
// password (every visitor runs code as its user). Anonymous viewers, and a local-only server, pass.

/** Grafana's anonymous access: its section's keys, or the environment variables that stand for them. */
const ENABLED = /(?:^|\s)enabled["']?[ \t]*[:=][ \t]*["']?true\b/im;
const ROLE = /(?:^|\s)org_role["']?[ \t]*[:=][ \t]*["']?(Admin|Editor)\b/im;
const ENABLED_VARIABLE = /GF_AUTH_ANONYMOUS_ENABLED["']?[ \t]*[:=][ \t]*["']?true\b/i;
const ROLE_VARIABLE = /GF_AUTH_ANONYMOUS_ORG_ROLE["']?[ \t]*[:=][ \t]*["']?(Admin|Editor)\b/i;
/** How far after `auth.anonymous` its keys may stand (a section or a YAML block of a few keys). */
const SECTION_CHARS = 200;

function anonymousAdmin(text: string): string | null {
  const variableRole = ENABLED_VARIABLE.test(text) ? ROLE_VARIABLE.exec(text)?.[1] : undefined;
  const at = text.toLowerCase().indexOf('auth.anonymous');
  const section = at === -1 ? '' : text.slice(at, at + SECTION_CHARS);
  const sectionRole = ENABLED.test(section) ? ROLE.exec(section)?.[1] : undefined;
  const role = variableRole ?? sectionRole;
  return role === undefined ? null : `Grafana's anonymous access with the ${role} role`;
}

const JUPYTER = new Set(['jupyter', 'jupyter-lab', 'jupyter-notebook', 'jupyter-server']);
const EVERY_INTERFACE = new Set(['0.0.0.0', '*', '::', '[::]']);

/** `jupyter lab --ip 0.0.0.0 --ServerApp.token='' --ServerApp.password=''`: open to every interface, no login. */
function openJupyter(cmd: SimpleCommand): boolean {
  if (!JUPYTER.has(cmd.name)) return false;
  const args = argsOf(cmd);
  const setting = (name: string) =>
    args
      .filter((a) => a.startsWith(`--ServerApp.${name}=`) || a.startsWith(`--NotebookApp.${name}=`))
      .map((a) => a.slice(a.indexOf('=') + 1));
  const noToken = setting('token').some((v) => v === '');
  const noPassword = setting('password').every((v) => v === '');
  const ips = [...optionValues(args, [], ['ip']), ...setting('ip')];
  return noToken && noPassword && ips.some((ip) => EVERY_INTERFACE.has(ip));
}

const hostOf = (address: string) => (address.includes(':') ? address.slice(0, address.lastIndexOf(':')) : address);
const onEveryInterface = (address: string) => EVERY_INTERFACE.has(hostOf(address));

/**
 * A debugger that takes connections on every interface: Node's inspector (`--inspect=0.0.0.0:9229`, also
 * through NODE_OPTIONS), Python's debugpy (`--listen 0.0.0.0:5678`), the JVM's JDWP (`address=*:5005`),
 * Chromium's `--remote-debugging-address=0.0.0.0`, WebKit's `WEBKIT_INSPECTOR_SERVER=0.0.0.0:PORT`, Dart's
 * VM service (`--observe=PORT/0.0.0.0`). None has a login (the VM service at most a token in its URL, which
 * `--disable-service-auth-codes` drops), and an attached debugger runs any code in the process.
 */
function openDebugger(cmd: SimpleCommand): string | null {
  const args = argsOf(cmd);
  const nodeOptions = (cmd.assignments['NODE_OPTIONS'] ?? '').split(/\s+/);
  // Electron's main process takes Node's inspector switches.
  const inspect = [...(cmd.name === 'node' || cmd.name === 'electron' ? args : []), ...nodeOptions].find((a) =>
    /^--inspect(-brk|-wait)?=/.test(a),
  );
  if (inspect && onEveryInterface(inspect.slice(inspect.indexOf('=') + 1))) return "Node's inspector";
  if (/^python[\d.]*$/.test(cmd.name) && args.includes('debugpy')) {
    const listen = optionValues(args, [], ['listen'])[0];
    if (listen !== undefined && onEveryInterface(listen)) return "Python's debugpy";
  }
  // Also inside another option's value: `-Dspring-boot.run.jvmArguments="-agentlib:jdwp=…"`, `-DargLine=…`.
  const jdwp = [...args, ...JVM_OPTION_VARIABLES.map((name) => cmd.assignments[name] ?? '')]
    .map((a) => /(?:^|[\s"'=])(-(?:agentlib:jdwp|Xrunjdwp:)\S*)/.exec(a)?.[1])
    .find((a) => a !== undefined);
  const address = jdwp ? /address=([^,\s"']+)/.exec(jdwp)?.[1] : undefined;
  if (address !== undefined && address.includes(':') && onEveryInterface(address)) return "the JVM's debugger (JDWP)";
  // Chromium's DevTools protocol (a headless browser, Electron) and WebKitGTK's inspector (a Tauri or GTK
  // app's web view, set through the environment): each hands the page and its cookies to whoever attaches.
  const devtools = optionValues(args, [], ['remote-debugging-address'])[0];
  if (devtools !== undefined && onEveryInterface(devtools)) return "the browser's DevTools protocol";
  const webkit = [cmd.assignments['WEBKIT_INSPECTOR_SERVER'], cmd.assignments['WEBKIT_INSPECTOR_HTTP_SERVER']];
  if (webkit.some((value) => value !== undefined && onEveryInterface(value))) return "WebKit's inspector";
  // Dart's VM service (`--observe=8181/0.0.0.0`, `--enable-vm-service=…`): PORT/ADDRESS, evaluation included.
  const vmService = args.find((a) => /^--(observe|enable-vm-service)=\d*\/./.test(a));
  if (vmService !== undefined && EVERY_INTERFACE.has(vmService.slice(vmService.indexOf('/') + 1)))
    return "Dart's VM service";
  return null;
}

/** `wrangler dev --remote --ip 0.0.0.0`: a local server in front of the deployed worker's data. */
function remoteBindingsOnEveryInterface(cmd: SimpleCommand): boolean {
  if (cmd.name !== 'wrangler') return false;
  const args = argsOf(cmd);
  if (args[0] !== 'dev' || !args.includes('--remote')) return false;
  return optionValues(args, [], ['ip']).some((ip) => EVERY_INTERFACE.has(ip));
}

// A server's own switches for where it listens and whether it asks who is calling.
const BIND_OPTIONS = ['host', 'bind', 'bind-address', 'listen', 'listen-address', 'ip', 'address', 'addr'];
const NO_LOGIN = /^--(no-?auth|disable-auth|auth-disabled|skip-auth|without-auth|allow-anonymous|anonymous)$/;
const LOGIN_OFF = /^--(auth|authentication|auth-mode|auth-type)=(none|off|false|disabled|no|0|anonymous)$/i;

/**
 * `serve --host 0.0.0.0 --auth=none`: any server told to listen on every interface with its login turned
 * off, also as the program a runner starts after `--` (`bazel run //api:dev -- --host 0.0.0.0 …`).
 */
function openServer(cmd: SimpleCommand): boolean {
  const args = argsOf(cmd);
  if (!args.some((a) => NO_LOGIN.test(a) || LOGIN_OFF.test(a))) return false;
  const after = args.indexOf('--');
  const readings = after === -1 ? [args] : [args, args.slice(after + 1)];
  return readings.some((words) => optionValues(words, [], BIND_OPTIONS).some(onEveryInterface));
}

/**
 * Servers with no login of their own, told to listen on every interface: Ray's dashboard (its job API runs
 * any command on the cluster), an MLflow tracking server without its basic-auth app (every run, model and
 * artifact store it fronts), Triton with explicit model control (any caller loads models, Python backends
 * included; Triton listens on every interface unless told otherwise).
 */
function openUnguardedServer(cmd: SimpleCommand): string | null {
  const args = argsOf(cmd);
  const everywhere = (options: string[], short: string[] = [], byDefault = false) => {
    const given = optionValues(args, short, options);
    return given.length ? given.some(onEveryInterface) : byDefault;
  };
  if (cmd.name === 'ray' && args[0] === 'start' && everywhere(['dashboard-host']))
    return "Ray's dashboard, whose job API runs any command on the cluster,";
  if (
    cmd.name === 'mlflow' &&
    (args[0] === 'server' || args[0] === 'ui') &&
    !optionValues(args, [], ['app-name']).includes('basic-auth') &&
    everywhere(['host'], ['h'])
  )
    return 'an MLflow server, with every run, model and artifact store it fronts,';
  // SGLang's custom logit processors are pickled Python callables each request may send, run by the server.
  const keyed = optionValues(args, [], ['api-key']).length > 0;
  if (
    args.includes('sglang.launch_server') &&
    args.includes('--enable-custom-logit-processor') &&
    !keyed &&
    everywhere(['host'])
  )
    return 'SGLang with custom logit processors (each request may send Python the server runs)';
  const explicit = optionValues(args, [], ['model-control-mode']).includes('explicit');
  if (cmd.name === 'tritonserver' && explicit && everywhere(['http-address', 'grpc-address'], [], true))
    return 'Triton with explicit model control, which loads any model (Python backends included) a caller names,';
  return null;
}

// Folders whose files are the machine's own or every user's: a server that hands them to any request hands
// over keys, configs and tokens.
const WIDE_FOLDER = /^(\/|\/(etc|home|root|var|proc|Users)\/?|~\/?|\$HOME\/?)$/;

/** `vllm serve … --allowed-local-media-path /`: every request may read the machine's files as `file://` images. */
function servesHostFiles(cmd: SimpleCommand): string | null {
  if (cmd.name !== 'vllm') return null;
  const folder = optionValues(argsOf(cmd), [], ['allowed-local-media-path']).find((path) => WIDE_FOLDER.test(path));
  return folder === undefined ? null : folder;
}

// Application code that lets anyone in: Django REST framework's default permission set to AllowAny opens
// every view that names none of its own; a password compared with a literal is a master password.
const LITERAL_PASSWORD =
  /\b(?:password|passwd|pwd)\s*={2,3}\s*["'][^"'\n]{4,}["']|["'][^"'\n]{4,}["']\s*={2,3}\s*(?:password|passwd|pwd)\b/i;

/** What the text a call adds to application code opens to anyone, or null. */
function loginBypassAdded(file: string, added: string): string | null {
  if (!isSourceCode(file) || isTestFile(file)) return null;
  const permissions = added.indexOf('DEFAULT_PERMISSION_CLASSES');
  if (permissions >= 0 && added.slice(permissions, permissions + 120).includes('AllowAny'))
    return "REST framework's default permission AllowAny (every view that sets none of its own is open to anyone)";
  const password = LITERAL_PASSWORD.exec(added)?.[0];
  return password === undefined
    ? null
    : `a password compared with a fixed string (\`${password}\`: whoever knows it logs in as anyone)`;
}

export const loginTurnedOff = definePolicy({
  name: 'login-turned-off',
  category: 'network',
  description:
    "Asks before a service is opened to anyone without a login: Grafana's anonymous Admin, a Jupyter server with no token, a debugger or --auth=none server on every interface, DRF's AllowAny default, a master password.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const jupyter = shellCommands(call).find(openJupyter);
    if (jupyter)
      return {
        reason: `Starts a Jupyter server on every interface with no token and no password: whoever reaches the port runs code as this user. Keep a token, or bind it to 127.0.0.1, or approve this exact call.`,
        evidence: evidenceOf(jupyter.text),
      };
    // Inside a container a debugger must listen on every interface for its published port to reach
    // it: commands a compose file or a Dockerfile runs are not this machine's.
    const inContainer =
      call.runsLater !== undefined && (COMPOSE_FILE.test(call.runsLater) || DOCKERFILE.test(call.runsLater));
    for (const cmd of inContainer ? [] : shellCommands(call)) {
      if (remoteBindingsOnEveryInterface(cmd))
        return {
          reason: `Serves the worker on every interface with its deployed bindings (--remote: the real databases, buckets and secrets): wrangler dev has no login, so whoever reaches the port reads and changes them. Bind it to 127.0.0.1, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
      const hostFiles = servesHostFiles(cmd);
      if (hostFiles !== null)
        return {
          reason: `Lets every request to the server read files under ${hostFiles} as file:// media: keys, configs and tokens there go to whoever calls it. Name the folder of the media it needs instead, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
      const unguarded = openUnguardedServer(cmd);
      if (unguarded)
        return {
          reason: `Starts ${unguarded} on every interface: it has no login, so whoever reaches the port uses it. Bind it to 127.0.0.1 (forward the port over ssh when needed), or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
      if (openServer(cmd))
        return {
          reason: `Starts a server on every interface with its login turned off: whoever reaches the port does what it does, with its data. Keep the login, or bind it to 127.0.0.1, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
      const debuggerName = openDebugger(cmd);
      if (debuggerName)
        return {
          reason: `Starts ${debuggerName} on every interface: it has no login, and whoever reaches the port can attach and run any code in the process. Bind it to 127.0.0.1 (forward the port over ssh when needed), or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    for (const { file, lines } of linesAdded(call)) {
      const bypass = loginBypassAdded(file, lines.join('\n'));
      if (bypass)
        return {
          reason: `${file} gets ${bypass}. Keep the login in the code's path, or approve this exact call.`,
          evidence: evidenceOf(bypass),
        };
    }
    const written = firstWrittenFinding(call, (_file, content) => anonymousAdmin(content));
    if (!written) return null;
    return {
      reason: `${written.file} turns on ${written.found}: every visitor, logged in or not, may change what that role may. Use the Viewer role, or approve this exact call.`,
      evidence: evidenceOf(written.found),
    };
  },
});
