import { z } from 'zod';
import { knownPasswordSet } from './shared/known-password';
import { DDEV_CONFIG } from '../../facts/project-runs';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { writtenTexts } from '../../facts/compute';
import { replacedBefore } from './shared/edited-file';
import { argsOf, evidenceOf, optionValues, parseFlags, shellCommands } from '../../facts/commands';
import { hostOfUrl, isLocalHost, isPrivateAddress, urlHostsOf } from './shared/hosts';
import { secretBasenameKind } from '../../facts/sensitive-paths';
import { mcpToolOf } from './shared/mcp';
import { handedManifests } from './cluster-grants';
import { isOwnSource } from './shared/own-sources';
import { downloadExecution, encodedExecution } from './remote-code';

// A container image is a program: pulling one from a registry nobody here chose runs its code with
// whatever the container is given (the project mounted, a database URL, the host network), and
// pushing one there hands the project's built code over. The well-known public registries and the
// clouds' own pass; any other host, an address written as an IP, is asked about. So are code sources
// fetched by a URL that a tool then runs: a remote build context, a helm plugin, a krew manifest, a
// terraform module.

/** Registries whose images are everyday work: Docker Hub, GitHub, Quay, the clouds' own, the big vendors'. */
const KNOWN_REGISTRY =
  /^(docker\.io|index\.docker\.io|registry-1\.docker\.io|ghcr\.io|quay\.io|gcr\.io|[a-z0-9-]+\.gcr\.io|[a-z0-9-]+-docker\.pkg\.dev|registry\.k8s\.io|k8s\.gcr\.io|mcr\.microsoft\.com|public\.ecr\.aws|[0-9]{12}\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com|[a-z0-9]+\.azurecr\.io|registry\.gitlab\.com|docker\.elastic\.co|nvcr\.io|cgr\.dev|registry\.access\.redhat\.com|registry\.redhat\.io)$/;

/**
 * A name or address of the organisation's own network (`registry.acme.internal`, 10.0.0.5): names under
 * the private-use suffixes and the private IPv4 ranges reach only the team's own machines.
 */
function isPrivateNetworkHost(host: string): boolean {
  return /\.(internal|local|lan|corp|intranet|localdomain|home\.arpa)$/.test(host) || isPrivateAddress(host);
}

/** The registry an image reference names, or undefined for Docker Hub's short form (`node:20`, `bitnami/redis`). */
export function registryOf(image: string): string | undefined {
  const slash = image.indexOf('/');
  if (slash < 0) return undefined;
  const first = image.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost' ? first.toLowerCase() : undefined;
}

/** Why an image from this reference is asked about, or null when its registry is known or local. */
function unknownRegistry(image: string): string | null {
  if (image.startsWith('$') || image === '' || image.startsWith('-')) return null;
  const registry = registryOf(image);
  if (registry === undefined) return null;
  const host = registry.replace(/:\d+$/, '');
  if (isLocalHost(host) || KNOWN_REGISTRY.test(host) || isPrivateNetworkHost(host)) return null;
  return registry;
}

const ENGINES = new Set(['docker', 'podman', 'nerdctl']);
// `docker run`'s options that take a value, so that value is not read as the image.
const RUN_VALUE_SHORT = ['v', 'e', 'p', 'w', 'u', 'm', 'l', 'h', 'a', 'c'];
const RUN_VALUE_LONG = [
  ...['volume', 'env', 'env-file', 'publish', 'name', 'workdir', 'user', 'network', 'net', 'entrypoint', 'mount'],
  ...['label', 'label-file', 'platform', 'memory', 'cpus', 'restart', 'add-host', 'cap-add', 'cap-drop', 'device'],
  ...['hostname', 'log-driver', 'log-opt', 'pull', 'volumes-from', 'link', 'dns', 'shm-size', 'ulimit', 'tmpfs'],
  ...['gpus', 'ipc', 'pid', 'cidfile', 'health-cmd', 'stop-signal', 'runtime', 'security-opt', 'group-add'],
  ...['expose', 'attach', 'isolation', 'cpu-shares', 'memory-swap', 'userns', 'uts', 'cgroupns', 'annotation'],
];

interface Found {
  what: string;
  evidence: string;
}

const APPTAINERS = new Set(['apptainer', 'singularity']);

/** The image a `docker run|create|pull|push` names, with the verb; Apptainer's `docker://` and `oras://` images. */
function engineImage(cmd: SimpleCommand): { verb: string; image: string } | undefined {
  if (APPTAINERS.has(cmd.name)) {
    const args = argsOf(cmd);
    const image = args.map((a) => /^(?:docker|oras):\/\/(.+)$/.exec(a)?.[1]).find((i) => i !== undefined);
    return image === undefined ? undefined : { verb: args.find((a) => !a.startsWith('-')) ?? 'run', image };
  }
  // Fly deploys or starts a machine from a prebuilt image (`fly deploy --image …`, `fly machine run IMAGE`).
  if (cmd.name === 'fly' || cmd.name === 'flyctl') {
    const args = argsOf(cmd);
    const image = optionValues(args, ['i'], ['image'])[0];
    if (args[0] === 'deploy' && image !== undefined) return { verb: 'deploy', image };
    const machine = args[0] === 'machine' || args[0] === 'machines' || args[0] === 'm';
    if (machine && args[1] === 'run') {
      const named = parseFlags(
        args.slice(2),
        ['a', 'e', 'p', 'r', 'v'],
        ['app', 'env', 'port', 'region', 'volume', 'name'],
      ).positionals[0];
      return named === undefined ? undefined : { verb: 'machine run', image: named };
    }
    return undefined;
  }
  if (!ENGINES.has(cmd.name)) return undefined;
  const args = argsOf(cmd);
  const at = args.findIndex((a) => !a.startsWith('-'));
  let verb = args[at];
  let rest = args.slice(at + 1);
  if ((verb === 'container' || verb === 'image') && rest[0] !== undefined) {
    verb = rest[0];
    rest = rest.slice(1);
  }
  if (verb !== 'run' && verb !== 'create' && verb !== 'pull' && verb !== 'push') return undefined;
  const image = parseFlags(rest, RUN_VALUE_SHORT, RUN_VALUE_LONG).positionals[0];
  return image === undefined ? undefined : { verb, image };
}

/** A URL a tool fetches and then runs: a remote build context, a plugin, a krew manifest, a terraform module. */
function fetchedCode(cmd: SimpleCommand): { how: string; source: string } | undefined {
  const args = argsOf(cmd);
  if (ENGINES.has(cmd.name) && (args[0] === 'build' || (args[0] === 'buildx' && args[1] === 'build'))) {
    const context = parseFlags(
      args.slice(args[0] === 'build' ? 1 : 2),
      ['t', 'f'],
      ['tag', 'file', 'build-arg', 'target', 'platform', 'label', 'secret', 'ssh', 'cache-from', 'cache-to', 'output'],
    ).positionals[0];
    return context === undefined ? undefined : { how: `${cmd.name} build from`, source: context };
  }
  if (cmd.name === 'helm' && args[0] === 'plugin' && args[1] === 'install' && args[2] !== undefined)
    return { how: 'helm plugin install', source: args[2] };
  if (cmd.name === 'kubectl' && args.includes('krew')) {
    const manifest = optionValues(args, [], ['manifest-url'])[0];
    return manifest === undefined ? undefined : { how: 'kubectl krew install --manifest-url', source: manifest };
  }
  // A workflow, a notebook or a container image fetched by URL and run (Nextflow pulls a repository by URL,
  // papermill executes every cell, Snakemake's wrapper prefix serves each wrapper rule's script).
  const url = args.find((a) => /^https?:\/\//.test(a));
  if ((cmd.name === 'nextflow' && (args[0] === 'run' || args[0] === 'pull')) || cmd.name === 'papermill')
    return url === undefined
      ? undefined
      : { how: cmd.name === 'papermill' ? 'papermill' : `nextflow ${args[0]}`, source: url };
  if (APPTAINERS.has(cmd.name) && url !== undefined) return { how: `${cmd.name} ${args[0] ?? ''}`, source: url };
  // A podspec is Ruby that CocoaPods evaluates; fastlane's import_from_git evaluates another repository's Fastfile.
  if (cmd.name === 'pod' && args[0] === 'spec' && args[1] === 'lint' && url !== undefined)
    return { how: 'pod spec lint', source: url };
  const imported =
    cmd.name === 'fastlane' && args.includes('import_from_git') ? args.find((a) => a.startsWith('url:')) : undefined;
  if (imported !== undefined) return { how: 'fastlane import_from_git', source: imported.slice('url:'.length) };
  // chezmoi init --apply clones a dotfiles repository and at once runs its run_ scripts and writes its files into home.
  if (cmd.name === 'chezmoi' && args[0] === 'init' && (args.includes('--apply') || args.includes('-a'))) {
    const repository = parseFlags(args.slice(1), ['S', 'b', 'd'], ['source', 'branch', 'depth', 'config'])
      .positionals[0];
    if (repository !== undefined && /^(?:https?|ssh|git):\/\/|^git@/.test(repository))
      return { how: 'chezmoi init --apply', source: repository };
  }
  const wrappers = cmd.name === 'snakemake' ? optionValues(args, [], ['wrapper-prefix'])[0] : undefined;
  if (wrappers !== undefined) return { how: 'snakemake --wrapper-prefix', source: wrappers };
  if (cmd.name === 'terraform' || cmd.name === 'tofu') {
    const module = args.map((a) => /^-from-module=(.+)$/.exec(a)?.[1]).find((s) => s !== undefined);
    return module === undefined ? undefined : { how: `${cmd.name} init -from-module`, source: module };
  }
  return undefined;
}

/** A source on another machine: a URL or git address (`git::https://…`, `git@host:…`) whose host is not this one. */
function isRemoteSource(source: string): boolean {
  const url = /^(?:git::)?((?:https?|git|ssh):\/\/.*)$/.exec(source)?.[1];
  if (url !== undefined) return !isOwnSource(url, []);
  return /^git@|^github\.com\//.test(source);
}

/** `docker run --env-file .env.local someone/tool`: the project's secrets handed to an image of another account. */
function secretsToAccountImage(cmd: SimpleCommand, named: { verb: string; image: string }): string | null {
  if (named.verb !== 'run' && named.verb !== 'create') return null;
  if (registryOf(named.image) !== undefined || !named.image.includes('/')) return null;
  const envFile = optionValues(argsOf(cmd), [], ['env-file']).find((file) => namesSecretFile(file));
  return envFile === undefined
    ? null
    : `${cmd.name} ${named.verb} hands the secrets of ${envFile} to ${named.image}, an image of a Docker Hub account rather than an official one`;
}

function shellFinding(call: ToolCall): Found | null {
  for (const cmd of shellCommands(call)) {
    const named = engineImage(cmd);
    const handed = named ? secretsToAccountImage(cmd, named) : null;
    if (handed) return { what: handed, evidence: cmd.text };
    const registry = named ? unknownRegistry(named.image) : null;
    if (named && registry)
      return {
        what:
          named.verb === 'push'
            ? `${cmd.name} push sends the image ${named.image} to ${registry}, a registry Warden does not know: the project's built code goes with it`
            : `${cmd.name} ${named.verb} takes the image ${named.image} from ${registry}, a registry Warden does not know: its code runs with what the container is given`,
        evidence: cmd.text,
      };
    const fetched = fetchedCode(cmd);
    if (fetched && isRemoteSource(fetched.source))
      return {
        what: `${fetched.how} ${fetched.source} fetches code from outside the project and runs it`,
        evidence: cmd.text,
      };
  }
  return null;
}

const YAML_IMAGE = /^[ \t-]*image[ \t]*:[ \t]*["']?([^\s"'#{}]+)/gm;
// Helm charts' values name the image by `repository:`. Only a move is judged there: a team's own registry
// under its public domain (`registry.acme.example`) is written so every day. A chart's `repository:` URL
// (Chart.yaml's dependencies) is where charts come from, not an image.
const YAML_REPOSITORY = /^[ \t-]*repository[ \t]*:[ \t]*["']?(?![a-z][\w+.-]*:\/\/)([^\s"'#{}]+)/gm;

/** Images a Dockerfile (`FROM`), an Apptainer definition, a compose, Kubernetes or Helm values file names. */
function imagesIn(file: string, content: string, repositories = false): string[] {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const found: string[] = [];
  if (/(^|\.)(Dockerfile|Containerfile)(\.|$)/i.test(base))
    for (const m of content.matchAll(/^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)/gim)) found.push(m[1]!);
  // An Apptainer definition bootstrapped from a registry: `Bootstrap: docker` then `From: image`.
  if (/\.def$/i.test(base) && /^[ \t]*Bootstrap:[ \t]*(docker|oras)\b/im.test(content))
    for (const m of content.matchAll(/^[ \t]*From:[ \t]*(\S+)/gim)) found.push(m[1]!);
  if (/\.ya?ml$/i.test(base))
    for (const pattern of repositories ? [YAML_IMAGE, YAML_REPOSITORY] : [YAML_IMAGE])
      for (const m of content.matchAll(pattern)) found.push(m[1]!);
  // DDEV's own images, replaced in its config: the web and database containers every `ddev start` runs.
  if (DDEV_CONFIG.test(file))
    for (const m of content.matchAll(/^[ \t]*(?:webimage|dbimage)[ \t]*:[ \t]*["']?([^\s"'#]+)/gm)) found.push(m[1]!);
  return found;
}

/** Images a written file names, and those of a manifest handed to an MCP cluster tool, which runs them as it applies it. */
function writtenImages(call: ToolCall): { file: string; image: string }[] {
  const found = writtenTexts(call).flatMap(({ file, content }) =>
    imagesIn(file, content).map((image) => ({ file, image })),
  );
  for (const { where, text } of handedManifests(call))
    for (const m of text.matchAll(YAML_IMAGE)) found.push({ file: where, image: m[1]! });
  return found;
}

/** Where an image comes from: its registry, or Docker Hub's account (`bitnami`), or Docker Hub's own images. */
function imageSource(image: string): string {
  const registry = registryOf(image);
  if (registry !== undefined) return registry;
  const slash = image.indexOf('/');
  return slash < 0 ? 'Docker Hub' : `the Docker Hub account ${image.slice(0, slash)}`;
}

/** An image's own name, without its registry, path, tag or digest: `orbit-backend`. */
function imageName(image: string): string {
  const name = image.slice(image.lastIndexOf('/') + 1);
  const end = name.search(/[@:]/);
  return end < 0 ? name : name.slice(0, end);
}

/**
 * An edit that keeps an image's name and takes it from another source (`nexus.acme.internal/orbit/api`
 * to `someone/api`): whoever deploys runs the new publisher's build under the name everyone reviews by.
 * A move onto the organisation's own network (a mirror) is not asked about.
 */
function movedImage(call: ToolCall): { file: string; image: string; from: string } | undefined {
  if (call.face.family !== 'edit') return undefined;
  const replaced = replacedBefore(call.input);
  for (const { file, content } of writtenTexts(call)) {
    const before = imagesIn(file, replaced, true);
    for (const image of imagesIn(file, content, true)) {
      const to = registryOf(image)?.replace(/:\d+$/, '');
      if (to !== undefined && (isLocalHost(to) || isPrivateNetworkHost(to))) continue;
      const same = before.filter((old) => imageName(old) === imageName(image));
      if (same.length > 0 && !same.some((old) => imageSource(old) === imageSource(image)))
        return { file, image, from: imageSource(same[0]!) };
    }
  }
  return undefined;
}

/**
 * A written Dockerfile's RUN step that runs a download or decoded text: whoever builds the image runs
 * it, and the image ships what it did. Vendor installers are piped so too, so it asks rather than refuses.
 */
/** Whether a path's file name marks a secret (`.env.local`, `id_rsa`; a template does not). */
function namesSecretFile(file: string): boolean {
  return secretBasenameKind(file.slice(file.lastIndexOf('/') + 1)) !== null;
}

/**
 * A build step that sends a secret file of the build context (`curl -d @.env.local`, `-T .env`), or a build
 * secret BuildKit mounts under /run/secrets, to a host.
 */
function secretSentFromBuild(build: ToolCall): string | null {
  for (const cmd of shellCommands(build)) {
    if (cmd.name !== 'curl' && cmd.name !== 'wget') continue;
    const args = argsOf(cmd);
    const sent = args
      .map((arg, at) =>
        arg.startsWith('@') ? arg.slice(1) : /^-(T|-upload-file)$/.test(args[at - 1] ?? '') ? arg : '',
      )
      .find((file) => file !== '' && (namesSecretFile(file) || file.startsWith('/run/secrets/')));
    const host = sent === undefined ? undefined : urlHostsOf(cmd).find((h) => !isLocalHost(h));
    if (sent !== undefined && host !== undefined) return `a step that sends ${sent} to ${host}`;
  }
  return null;
}

function imageBuildRun(call: ToolCall): Found | null {
  if (!call.imageBuild) return null;
  const build: ToolCall = { ...call, shell: call.imageBuild };
  const password = knownPasswordSet(build);
  const how =
    downloadExecution(build)?.how ??
    encodedExecution(build) ??
    secretSentFromBuild(build) ??
    (password ? `a command that sets ${password.account}'s password to one written in the file` : null);
  if (!how) return null;
  const file = call.paths.find((p) => p.access === 'write')?.absolute ?? 'the Dockerfile';
  const step = /^[ \t]*RUN[ \t].*$/im.exec(call.content ?? '')?.[0] ?? '';
  return { what: `A RUN step of ${file} runs ${how} while the image builds`, evidence: step.trim() };
}

/** Where code and charts are commonly fetched from: the big code hosts and GitHub Pages chart repositories. */
const KNOWN_SOURCE =
  /^(github\.com|gitlab\.com|bitbucket\.org|raw\.githubusercontent\.com|[a-z0-9-]+\.github\.io|charts\.bitnami\.com|helm\.releases\.hashicorp\.com|charts\.jetstack\.io|registry-1\.docker\.io)$/;

/** A kustomization's remote resources and a chart's dependency repositories, in files the call writes. */
function writtenSources(call: ToolCall): { file: string; url: string }[] {
  const found: { file: string; url: string }[] = [];
  for (const { file, content } of writtenTexts(call)) {
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (/^kustomization\.ya?ml$/i.test(base))
      for (const m of content.matchAll(/^[ \t]*-[ \t]*["']?((?:https?|git|ssh):\/\/[^\s"']+)/gm))
        found.push({ file, url: m[1]! });
    if (/^Chart\.ya?ml$/.test(base))
      for (const m of content.matchAll(/^[ \t-]*repository[ \t]*:[ \t]*["']?((?:https?|oci):\/\/[^\s"']+)/gm))
        found.push({ file, url: m[1]! });
  }
  return found.filter(({ url }) => {
    const host = hostOfUrl(url.replace(/^oci:/, 'https:')) ?? '';
    return !KNOWN_SOURCE.test(host) && !isLocalHost(host) && !isPrivateNetworkHost(host);
  });
}

/** An MCP container tool that pulls, runs or pushes an image (`mcp__docker__run_container {"image": …}`). */
function toolImage(call: ToolCall): { verb: string; image: string } | undefined {
  const mcp = mcpToolOf(call.toolName.toLowerCase());
  if (!mcp || !/docker|podman|container/.test(mcp.server)) return undefined;
  const push = /push/.test(mcp.tool);
  if (!push && !/run|create|pull|start/.test(mcp.tool)) return undefined;
  const value = push ? (call.input['target'] ?? call.input['image']) : call.input['image'];
  return typeof value === 'string' ? { verb: push ? 'push' : 'run', image: value } : undefined;
}

/** An MCP cluster tool told to fetch what it applies or installs from a URL (`{"url": …}`, `{"repo": …}`). */
function toolFetch(call: ToolCall): string | undefined {
  const mcp = mcpToolOf(call.toolName.toLowerCase());
  if (!mcp || !/kube|k8s|helm/.test(mcp.server + mcp.tool)) return undefined;
  for (const key of ['url', 'repo', 'repository', 'manifest_url', 'manifestUrl']) {
    const value = call.input[key];
    const host = typeof value === 'string' ? hostOfUrl(value) : undefined;
    if (host && !isLocalHost(host)) return `${call.toolName} fetches ${value} and applies or installs it`;
  }
  return undefined;
}

export const containerImageFromUnknownRegistry = definePolicy({
  name: 'container-image-source',
  category: 'dangerous-commands',
  description:
    'Asks before an image from or to a little-known registry (docker run/pull/push, FROM, image:, MCP tools), an image moved to another publisher, code fetched by URL is run (docker build URL, helm plugin, papermill), or a RUN step downloads.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const shell = shellFinding(call);
    if (shell)
      return {
        reason: `${shell.what}. Approve this exact call if that source is trusted.`,
        evidence: evidenceOf(shell.evidence),
      };
    for (const { file, image } of writtenImages(call)) {
      const registry = unknownRegistry(image);
      if (registry)
        return {
          reason: `${file} takes the image ${image} from ${registry}, a registry Warden does not know: whoever builds or deploys it runs that code. Approve it if that registry is trusted.`,
          evidence: evidenceOf(image),
        };
    }
    const moved = movedImage(call);
    if (moved)
      return {
        reason: `${moved.file} now takes ${moved.image} from ${imageSource(moved.image)} instead of ${moved.from}: the same image name from another publisher runs wherever this deploys. Approve it if that source is trusted.`,
        evidence: evidenceOf(moved.image),
      };
    const built = imageBuildRun(call);
    if (built)
      return {
        reason: `${built.what}: the image ships whatever that code did. Approve it if that source is trusted.`,
        evidence: evidenceOf(built.evidence),
      };
    const source = writtenSources(call)[0];
    if (source)
      return {
        reason: `${source.file} fetches ${source.url}, a source Warden does not know: whoever builds or deploys it applies what is there. Approve it if that source is trusted.`,
        evidence: evidenceOf(source.url),
      };
    const tool = toolImage(call);
    const registry = tool ? unknownRegistry(tool.image) : null;
    if (tool && registry)
      return {
        reason: `${call.toolName} ${tool.verb === 'push' ? 'sends' : 'runs'} the image ${tool.image} ${tool.verb === 'push' ? 'to' : 'from'} ${registry}, a registry Warden does not know. Approve it if that registry is trusted.`,
        evidence: evidenceOf(tool.image),
      };
    const fetched = toolFetch(call);
    if (fetched)
      return {
        reason: `${fetched}: code from outside the project. Approve it if that source is trusted.`,
        evidence: evidenceOf(fetched),
      };
    return null;
  },
});
