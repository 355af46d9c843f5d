import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { classifySecretName } from '../../redaction/secret-names';
import { definePolicy, type ToolCall } from '../types';
import { argsOf, evidenceOf, optionValues, redirectReads, shellCommands, upstreamStage } from '../../facts/commands';
import { inlineCode, NETCATS, SENDERS } from '../../facts/programs';
import { tableRemoteCopy, tableUpload } from '../../facts/program-table';
import { issuedElsewhere, sentToItsIssuer } from './shared/credential-hosts';
import { detourHosts, hostOfUrl, isLocalHost, remoteTarget, urlHostsOfWords } from './shared/hosts';
import { isPrivateUseName, onOwnNetwork } from './shared/own-sources';
import {
  codePostingFiles,
  codeWritingFrameToStore,
  codePostingFrame,
  urlOptionRoute,
  commandUrlPayload,
  httpieUpload,
  mailedCommits,
  remoteCopy,
  streamedOverLogin,
  substitutedRequest,
  mcpToolPayload,
  webToolPayload,
  type Outbound,
  pushToAddress,
  sentryUpload,
  redirectedDataSync,
} from './shared/outbound-routes';

// Data leaving the machine without a recognised secret read: project files, archives or command
// output uploaded to a host, a DNS name built from command output, a secret-named variable
// expanded into a network argument. Uploads to this machine or the private network are local work.

const CURL_DATA_SHORT = ['d', 'F'];
const CURL_DATA_LONG = ['data', 'data-binary', 'data-raw', 'data-urlencode', 'form', 'json'];
// Where a credential is meant to go: a header or a login option is how a tool authenticates.
const CREDENTIAL_OPTIONS = /^(-H|--header|-u|--user|--oauth2-bearer|-b|--cookie|--proxy-user)$/;
const DNS_TOOLS = new Set(['dig', 'nslookup', 'host', 'drill', 'ping', 'ping6', 'getent', 'resolvectl', 'whois']);
const NETWORK_TOOLS = new Set([...SENDERS, 'openssl', 'lftp', ...DNS_TOOLS]);
/** openssl's subcommands that connect somewhere; the rest (dgst, enc, req, x509) work on this machine. */
const OPENSSL_CONNECTING = new Set(['s_client', 's_time', 'ocsp']);

function isNetworkTool(cmd: SimpleCommand): boolean {
  if (cmd.name === 'openssl') return OPENSSL_CONNECTING.has(argsOf(cmd)[0] ?? '');
  return NETWORK_TOOLS.has(cmd.name);
}

function curlUpload(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  let sources: string[] = [];
  if (cmd.name === 'curl')
    sources = [
      ...optionValues(args, ['T'], ['upload-file']),
      ...optionValues(args, CURL_DATA_SHORT, CURL_DATA_LONG)
        .filter((value) => /^[@<]|=[@<]/.test(value))
        .map((value) => value.replace(/^[^@<]*[@<]/, '')),
    ];
  else if (cmd.name === 'wget') sources = optionValues(args, [], ['post-file', 'body-file']);
  const source = sources[0];
  if (source === undefined) return undefined;
  return source === '-' || source === '.' ? 'what the pipeline feeds it' : source;
}

/**
 * Where curl or wget uploads: the host of its URL. A bare word counts only when no URL is written, so
 * the uploaded file's own name (`-T dist.tgz`) is not taken for a host.
 */
function uploadDestination(cmd: SimpleCommand): string | undefined {
  const proxies = new Set(optionValues(argsOf(cmd), ['x'], ['proxy', 'preproxy']));
  const urls = argsOf(cmd).filter((a) => /^[a-z][\w+.-]*:\/\//i.test(a) && !proxies.has(a));
  const named = urlHostsOfWords(urls).find((host) => !isLocalHost(host));
  return urls.length ? named : remoteTarget(cmd);
}

/**
 * What is fed to a stream tool can carry data: a stage before it that prints more than a few written
 * characters, or a file redirected in. `</dev/null` and `echo |` (how a certificate check closes the
 * connection) send nothing of the machine's.
 */
function fedData(commands: readonly SimpleCommand[], cmd: SimpleCommand): boolean {
  if (redirectReads(cmd).some((file) => file !== '/dev/null')) return true;
  const upstream = upstreamStage(commands, cmd);
  if (upstream === undefined) return cmd.pipeline.index > 0;
  const written = argsOf(upstream).join(' ');
  const onlyWords = (upstream.name === 'echo' || upstream.name === 'printf') && upstream.dynamicWords.length === 0;
  return !(onlyWords && written.length <= 16) && upstream.name !== 'true' && upstream.name !== ':';
}

function streamedToHost(commands: readonly SimpleCommand[], cmd: SimpleCommand): boolean {
  const args = argsOf(cmd);
  const fed = fedData(commands, cmd);
  if (cmd.name === 'openssl') return args[0] === 's_client' && fed;
  if (cmd.name === 'socat') return args.some((a) => /^(file|open|gopen):/i.test(a)) || fed;
  return NETCATS.has(cmd.name) && fed && !args.some((a) => /^-\w*z/.test(a));
}

// nc's options that take a value (a proxy, its protocol, a source address or port, timeouts).
const NETCAT_VALUED = /^-[46bCDdhklnrStuUvz]*[XxpsqwiIOTPe]$/;

/** The host a stream tool connects to: openssl's -connect, socat's TCP: address, nc's first operand. */
function hostArgument(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  const connectAt = args.findIndex((a) => a === '-connect' || a === '--connect');
  const socat = args.find((a) => /^(tcp|tcp4|tcp6|udp|openssl|ssl)[^:]*:/i.test(a));
  const candidate =
    (connectAt !== -1 ? args[connectAt + 1] : undefined) ??
    socat?.split(':')[1] ??
    args.find((a, i) => !a.startsWith('-') && !/^\d+$/.test(a) && !NETCAT_VALUED.test(args[i - 1] ?? ''));
  return candidate?.replace(/:\d+$/, '');
}

// Names assigned from secret-named variables earlier in the call (K=$AWS_SECRET_ACCESS_KEY) count as secret.
function secretNames(commands: SimpleCommand[], source: string): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(/\b([A-Za-z_]\w*)=["']?\$\{?([A-Za-z_]\w*)/g))
    if (classifySecretName(match[2] as string) !== null) names.add(match[1] as string);
  for (const cmd of commands)
    for (const [name, value] of Object.entries(cmd.assignments))
      if (
        /\$\{?[A-Za-z_]/.test(value) &&
        [...value.matchAll(/\$\{?([A-Za-z_]\w*)/g)].some((m) => classifySecretName(m[1] as string))
      )
        names.add(name);
  return names;
}

function secretNameIn(word: string, extra: Set<string>): string | undefined {
  for (const match of word.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
    const name = match[1] as string;
    if (extra.has(name) || classifySecretName(name) !== null) return name;
  }
  return undefined;
}

/**
 * A secret-named variable the command sends to `host`. In a credential option (a header, -u) it is
 * how the tool authenticates, unless the name belongs to another issuer than the host's
 * (`X-Tok: $ANTHROPIC_API_KEY` to a host that is not Anthropic's).
 */
function secretVariableIn(cmd: SimpleCommand, extra: Set<string>, host: string): string | undefined {
  const args = argsOf(cmd);
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    const credentialValue = CREDENTIAL_OPTIONS.test(word)
      ? args[++i]
      : /^--(header|user|oauth2-bearer|cookie)=/.test(word)
        ? word
        : undefined;
    if (credentialValue !== undefined) {
      const name = secretNameIn(credentialValue, extra);
      if (name && issuedElsewhere(name, host)) return name;
      continue;
    }
    const name = secretNameIn(word, extra);
    if (name) return name;
  }
  return undefined;
}

/**
 * Interpreter code that holds a secret (a secret-named variable, the whole environment, a stored
 * credential) and reaches a host outside the machine and the organisation's private-use names. A
 * variable's own issuer (`OPENAI_API_KEY` to api.openai.com) is where it is meant to go.
 */
function codeSendingSecrets(call: ToolCall): { held: string; host: string; language: string } | undefined {
  for (const code of call.facts.code) {
    if (!code.secrets || !code.sends) continue;
    for (const sent of code.sends) {
      const host = hostOfUrl(sent);
      if (!host || isLocalHost(host) || isPrivateUseName(host)) continue;
      const strays = code.secrets.filter((secret) => !sentToItsIssuer(secret, host));
      if (!strays.length) continue;
      const held = strays.map((s) => (s === '*' ? 'the whole environment' : s)).join(', ');
      return { held, host, language: code.language };
    }
  }
  return undefined;
}

/**
 * A key handed to a program in its own option (`--etherscan-api-key "$ETHERSCAN_API_KEY"`) while the same
 * command points the program at another host (`--verifier-url https://verify.evil.example`): the key goes
 * where its issuer is not. Only names with a known issuer say that.
 */
function keyToOtherHost(cmd: SimpleCommand): { name: string; host: string } | undefined {
  const args = argsOf(cmd);
  const hosts = urlHostsOfWords(args).filter((h) => !isLocalHost(h) && !isPrivateUseName(h));
  if (!hosts.length) return undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    const option = word.split('=', 1)[0] ?? '';
    if (!/^--?[\w-]+$/.test(option) || !/key|token/i.test(option)) continue;
    const value = word.includes('=') ? word.slice(word.indexOf('=') + 1) : (args[i + 1] ?? '');
    for (const match of value.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
      const name = match[1] as string;
      const stray = hosts.find((h) => issuedElsewhere(name, h));
      if (stray) return { name, host: stray };
    }
  }
  return undefined;
}

/**
 * Where the command's data leaves the organisation's network: `host` itself, or a proxy or jump host on
 * the way to it; undefined when it stays there.
 */
function exitHost(cmd: SimpleCommand, host: string): string | undefined {
  return [host, ...detourHosts(cmd)].find((h) => !onOwnNetwork(h));
}

function outboundFinding(out: Outbound, text: string) {
  return out.certain
    ? {
        reason: `Sends ${out.what} to ${out.host}: the value leaves the machine as soon as the request is made. Take it out of the request; a service that needs a credential gets it from its own setting.`,
        evidence: evidenceOf(text),
        decision: 'deny' as const,
      }
    : {
        reason: `Sends ${out.what} to ${out.host}: the data leaves the machine. Approve this exact call if that host should have it.`,
        evidence: evidenceOf(text),
      };
}

/** `aws s3api copy-object --bucket b --copy-source a/key`: an object copied from bucket a into bucket b. */
function objectCopy(cmd: SimpleCommand): { from: string; to: string } | undefined {
  const args = argsOf(cmd);
  if (cmd.name !== 'aws' || !args.includes('s3api') || !args.includes('copy-object')) return undefined;
  const to = optionValues(args, [], ['bucket'])[0];
  const from = optionValues(args, [], ['copy-source'])[0];
  if (to === undefined || from === undefined) return undefined;
  const source = from.replace(/^\/+/, '');
  return source.slice(0, source.indexOf('/')) === to ? undefined : { from: `s3://${source}`, to: `s3://${to}` };
}

// Model and dataset hubs publish what they are sent unless told it is private: an upload that creates
// a Hugging Face repository without --private, a Kaggle dataset made --public, push_to_hub(private=False).
/** `push_to_hub(…, private=False)`: each call's arguments up to its closing parenthesis (bounded). */
function pushesPublic(code: string): boolean {
  for (const call of code.matchAll(/\bpush_to_hub\s*\(/g)) {
    const from = (call.index ?? 0) + call[0].length;
    const close = code.indexOf(')', from);
    const args = code.slice(from, close < 0 ? from + 500 : Math.min(close, from + 500));
    if (/\bprivate\s*=\s*False\b/.test(args)) return true;
  }
  return false;
}

function publicHubUpload(cmd: SimpleCommand, args: readonly string[]): string | undefined {
  if ((cmd.name === 'huggingface-cli' || cmd.name === 'hf') && args[0] === 'upload' && !args.includes('--private'))
    return `Uploads to the Hugging Face repository ${args[1] ?? ''}, created public unless it exists as a private one`;
  if (
    cmd.name === 'kaggle' &&
    ['datasets', 'kernels'].includes(args[0] ?? '') &&
    args.some((a) => a === '--public' || a === '-u')
  )
    return `Publishes a Kaggle ${args[0] === 'kernels' ? 'notebook' : 'dataset'} publicly`;
  const code = inlineCode(cmd);
  if (code !== undefined && pushesPublic(code)) return 'Pushes a model or dataset to the Hub with private=False';
  return undefined;
}

const KAFKA_PRODUCERS = new Set(['kafka-console-producer', 'kafka-console-producer.sh', 'kafka-avro-console-producer']);

/** `kcat -P -b HOST …`, `kafka-console-producer --bootstrap-server HOST …`: a broker outside this machine and the organisation. */
function outsideBrokerProduced(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  const producing =
    ((cmd.name === 'kcat' || cmd.name === 'kafkacat') && args.includes('-P')) || KAFKA_PRODUCERS.has(cmd.name);
  if (!producing) return undefined;
  return optionValues(args, ['b'], ['bootstrap-server', 'broker-list'])
    .flatMap((list) => list.split(','))
    .map((server) => server.replace(/:\d+$/, '').toLowerCase())
    .find((host) => host !== '' && !isLocalHost(host) && !isPrivateUseName(host));
}

export const dataOutToHost = definePolicy({
  name: 'data-out-to-host',
  category: 'network',
  description:
    "Asks before files, command output or encoded data go to another host (curl -d @, scp, rsync, nc, ssh, send-email, gist); denies secrets sent in a URL, a body, a variable or an MCP tool's input.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const web = call ? webToolPayload(call) : undefined;
    if (web) return outboundFinding(web, call?.url ?? '');
    const mcp = call ? mcpToolPayload(call) : undefined;
    if (mcp) return outboundFinding(mcp, call?.toolName ?? '');
    const commands = shellCommands(call);
    const secrets = secretNames(commands, call?.command ?? '');
    for (const cmd of commands) {
      if (isNetworkTool(cmd)) {
        const host = remoteTarget(cmd) ?? hostArgument(cmd);
        const variable = host ? secretVariableIn(cmd, secrets, host) : undefined;
        if (variable && host && !isLocalHost(host))
          return {
            reason: `Sends the secret-named variable ${variable} to ${host}: its value leaves the machine. Use the tool's own credential setting, or run this yourself.`,
            evidence: evidenceOf(cmd.text),
            decision: 'deny',
          };
      }
      const keyed = isNetworkTool(cmd) ? undefined : keyToOtherHost(cmd);
      if (keyed)
        return {
          reason: `Hands ${cmd.name} the key ${keyed.name} while pointing it at ${keyed.host}, a host its issuer does not run: the key would go there. Approve this exact call if that host should have it.`,
          evidence: evidenceOf(cmd.text),
        };
      const sent = tableUpload(cmd);
      if (sent && !isLocalHost(hostOfUrl(sent.to) ?? sent.to))
        return {
          reason: `Sends ${sent.files.join(', ')} to ${sent.to} with ${cmd.name}: the files leave the machine. Approve this exact call if that destination should have them.`,
          evidence: evidenceOf(cmd.text),
        };
      const copied = tableRemoteCopy(cmd) ?? objectCopy(cmd);
      if (copied)
        return {
          reason: `Copies ${copied.from} to ${copied.to} with ${cmd.name}: the data goes to a place it was not kept in. Approve this exact call if that destination should have it.`,
          evidence: evidenceOf(cmd.text),
        };
      const uploaded = curlUpload(cmd);
      const destination = uploaded !== undefined ? uploadDestination(cmd) : undefined;
      const uploadHost = destination && exitHost(cmd, destination);
      if (uploaded !== undefined && uploadHost)
        return {
          reason: `Uploads ${uploaded} to ${uploadHost}: project content leaves the machine. Approve this exact call if that host should have it.`,
          evidence: evidenceOf(cmd.text),
        };
      if (streamedToHost(commands, cmd)) {
        const named = hostArgument(cmd);
        const host = named && exitHost(cmd, named);
        if (host)
          return {
            reason: `Streams data to ${host} with ${cmd.name}: whatever it is fed leaves the machine. Approve this exact call if that host should have it.`,
            evidence: evidenceOf(cmd.text),
          };
      }
      const broker = outsideBrokerProduced(cmd);
      if (broker)
        return {
          reason: `Publishes to the Kafka broker ${broker} with ${cmd.name}: whatever it is fed goes to a cluster outside the organisation. Approve this exact call if that cluster should have it.`,
          evidence: evidenceOf(cmd.text),
        };
      if (DNS_TOOLS.has(cmd.name) && cmd.dynamicWords.length > 0)
        return {
          reason: `Looks up a name built at run time with ${cmd.name}: DNS queries carry data out to whoever runs the domain. Look up a fixed name, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
      const routed =
        commandUrlPayload(cmd) ??
        mailedCommits(cmd) ??
        remoteCopy(cmd) ??
        pushToAddress(cmd) ??
        sentryUpload(cmd) ??
        streamedOverLogin(cmd) ??
        httpieUpload(cmd) ??
        codePostingFiles(cmd) ??
        codeWritingFrameToStore(cmd) ??
        codePostingFrame(cmd) ??
        urlOptionRoute(cmd);
      const routedExit =
        routed && (routed.certain ? [routed.host].find((h) => !isLocalHost(h)) : exitHost(cmd, routed.host));
      if (routed && routedExit) return outboundFinding({ ...routed, host: routedExit }, cmd.text);
      const requested = substitutedRequest(cmd) ? remoteTarget(cmd) : undefined;
      const target = requested && exitHost(cmd, requested);
      if (target)
        return {
          reason: `Sends the output of a command to ${target} in the request's data or address: whatever it prints leaves the machine. Approve this exact call if that host should have it.`,
          evidence: evidenceOf(cmd.text),
        };
      const args = argsOf(cmd);
      if (
        cmd.name === 'gh' &&
        args[0] === 'repo' &&
        args[1] === 'create' &&
        args.includes('--public') &&
        args.includes('--push')
      )
        return {
          reason:
            'Creates a public GitHub repository and pushes this project to it: its content and history become public. Approve this exact call if it should be published.',
          evidence: evidenceOf(cmd.text),
        };
      const published = publicHubUpload(cmd, args);
      if (published)
        return {
          reason: `${published}: what it sends becomes public, outside the team's own places. Approve this exact call if it should be published.`,
          evidence: evidenceOf(cmd.text),
        };
      if (cmd.name === 'gh' && args[0] === 'gist' && args[1] === 'create')
        return {
          reason:
            'Publishes files as a GitHub gist: their content leaves the project. Approve this exact call if it should be shared.',
          evidence: evidenceOf(cmd.text),
        };
      if (cmd.name === 'glab' && args[0] === 'snippet' && (args[1] === 'create' || args[1] === 'new'))
        return {
          reason:
            'Publishes files as a GitLab snippet: their content leaves the project. Approve this exact call if it should be shared.',
          evidence: evidenceOf(cmd.text),
        };
    }
    const codeSecrets = call ? codeSendingSecrets(call) : undefined;
    if (codeSecrets)
      return {
        reason: `${codeSecrets.language} code reads ${codeSecrets.held} and makes a request to ${codeSecrets.host}: the secret can leave the machine with it. Approve this exact call if that host should have it.`,
        evidence: evidenceOf(call?.command ?? call?.content ?? ''),
      };
    // Last: a command of the call that sends a secret is refused above, whatever else it syncs.
    const synced = redirectedDataSync(commands);
    return synced ? outboundFinding(synced, call?.command ?? '') : null;
  },
});
