import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { firstWrittenFinding, writtenTexts } from '../../facts/compute';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';

// A Kubernetes manifest grants what it describes the moment it is applied, by hand, by CI or by a GitOps
// controller watching the repository: binding cluster-admin, or a pod that owns its node (privileged,
// the node's process or network namespace, the node's root folder or container socket). Such a manifest
// is asked about when it is written into the project or handed to a cluster tool, whatever applies it.

const MANIFEST = /^[ \t]*apiVersion[ \t]*:/m;
const BINDING = /^[ \t]*kind[ \t]*:[ \t]*(Cluster)?RoleBinding\b/m;
const CLUSTER_ADMIN = /^[ \t]*name[ \t]*:[ \t]*["']?cluster-admin["']?[ \t]*$/m;
// A rule's list of every verb or every resource, inline (`verbs: ["*"]`) or as a block (`verbs:` then `- "*"`).
const EVERY_VERB = /^[ \t-]*verbs[ \t]*:[ \t]*(\[[ \t]*["']?\*["']?[ \t]*\]|\r?\n[ \t]*-[ \t]*["']?\*["']?[ \t]*$)/m;
const EVERY_RESOURCE =
  /^[ \t-]*resources[ \t]*:[ \t]*(\[[ \t]*["']?\*["']?[ \t]*\]|\r?\n[ \t]*-[ \t]*["']?\*["']?[ \t]*$)/m;
const MASTERS_ITEM = /^[ \t]*-[ \t]*["']?system:masters["']?[ \t]*$/m;
const FLOW_GROUPS = /\bgroups[ \t]*:[ \t]*\[/;

/** `groups:` then `- system:masters`, or `groups: [system:masters]`. */
function mapsIntoMasters(text: string): boolean {
  if (!text.includes('system:masters')) return false;
  return (
    MASTERS_ITEM.test(text) ||
    text.split('\n').some((line) => FLOW_GROUPS.test(line) && line.includes('system:masters'))
  );
}

const GRANTS: { pattern: Pick<RegExp, 'test'>; what: string; also?: RegExp[] }[] = [
  { pattern: BINDING, also: [CLUSTER_ADMIN], what: 'binds cluster-admin, every permission on the cluster' },
  {
    pattern: /^[ \t]*kind[ \t]*:[ \t]*ClusterRole[ \t]*$/m,
    also: [EVERY_VERB, EVERY_RESOURCE],
    what: 'makes a ClusterRole of every verb on every resource, cluster-admin under another name',
  },
  {
    pattern: /^[ \t-]*name[ \t]*:[ \t]*["']?system:(authenticated|unauthenticated|serviceaccounts)["']?[ \t]*$/m,
    what: 'grants a role to every account of the cluster (a system: group)',
  },
  {
    // EKS's aws-auth map (and any other identity mapping) putting a role or user in system:masters.
    pattern: { test: mapsIntoMasters },
    what: 'maps an identity into system:masters, every permission on the cluster past any RBAC rule',
  },
  { pattern: /^[ \t]*privileged[ \t]*:[ \t]*true\b/m, what: 'runs a privileged container, root on its node' },
  {
    pattern: /^[ \t]*host(PID|Network|IPC)[ \t]*:[ \t]*true\b/m,
    what: "shares its node's process, network or IPC namespace",
  },
  {
    // `hostPath:` then `path: /` on the next line, or `hostPath: {path: /}`; an Ingress's `path: /` is not one.
    pattern:
      /^[ \t]*hostPath[ \t]*:[ \t]*(\r?\n[ \t]*|\{[ \t]*)path[ \t]*:[ \t]*["']?(\/|\/etc|\/root|(?:\/var)?\/run\/docker\.sock|(?:\/var)?\/run\/containerd\/containerd\.sock)["']?[ \t]*([,}][ \t]*)?$/m,
    what: "mounts its node's root, /etc or container socket (hostPath)",
  },
];

/** What a manifest grants, or null; `fragment` is part of a manifest (an edit), read without its header. */
export function manifestGrant(text: string, fragment = false): string | null {
  if (!fragment && !MANIFEST.test(text)) return null;
  return (
    GRANTS.find((grant) => grant.pattern.test(text) && (grant.also ?? []).every((p) => p.test(text)))?.what ?? null
  );
}

// A compose file starts what it describes on the next `docker compose up`, as root on this machine.
const COMPOSE_FILE = /(^|\/)(docker-)?compose[\w.-]*\.ya?ml$/i;
const COMPOSE_GRANTS: { pattern: RegExp; what: string; whenPublished?: boolean }[] = [
  { pattern: /^[ \t]*privileged[ \t]*:[ \t]*true\b/m, what: 'runs a privileged container, root on this machine' },
  {
    pattern: /^[ \t]*(pid|network_mode|ipc)[ \t]*:[ \t]*["']?host\b/m,
    what: "shares this machine's process, network or IPC namespace",
  },
  {
    pattern:
      /^[ \t]*-[ \t]*["']?(\/|\/etc|\/root|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/run\/containerd\/containerd\.sock):/m,
    what: "mounts this machine's root, /etc or container socket into a container",
  },
  {
    // A database that lets anyone in without a password; only the published port below makes it reachable.
    pattern:
      /^[ \t-]*["']?(POSTGRES_HOST_AUTH_METHOD[ \t]*[:=][ \t]*["']?trust|MYSQL_ALLOW_EMPTY_PASSWORD[ \t]*[:=][ \t]*["']?(yes|true|1))\b/im,
    what: 'starts a database that lets anyone on the network in without a password',
    whenPublished: true,
  },
];
/** A port published on every interface (`"5432:5432"`, `0.0.0.0:5432:5432`), not only this machine's loopback. */
const PUBLISHED_TO_ALL = /^[ \t]*-[ \t]*["']?(0\.0\.0\.0:)?\d+:\d+/m;

/** What a compose file written by the call grants its containers, or null. */
function composeGrant(file: string, text: string): string | null {
  if (!COMPOSE_FILE.test(file)) return null;
  return (
    COMPOSE_GRANTS.find((g) => g.pattern.test(text) && (!g.whenPublished || PUBLISHED_TO_ALL.test(text)))?.what ?? null
  );
}

/** Folders that hold Kubernetes manifests and charts, where an edit's fragment is read as one. */
const MANIFEST_FOLDER = /\/(k8s|kube|kubernetes|manifests|deploy|helm|charts?|overlays|base)\//i;

/** Manifests the call hands to an MCP cluster tool (`manifest`, `yaml`, `resource` arguments). */
export function handedManifests(call: ToolCall): { where: string; text: string }[] {
  return ['manifest', 'yaml', 'resource', 'manifests']
    .map((key) => call.input[key])
    .filter((value): value is string => typeof value === 'string')
    .map((text) => ({ where: call.toolName, text }));
}

/** Manifests the call writes, or hands to an MCP cluster tool. */
function manifestsOf(call: ToolCall): { where: string; text: string }[] {
  const written = writtenTexts(call)
    .filter(({ file }) => /\.(ya?ml|json)$/i.test(file))
    .map(({ file, content }) => ({ where: file, text: content }));
  return [...written, ...handedManifests(call)];
}

// A Vault policy over every path (`path "*"`), or one that grants `sudo` (the root-protected paths: auth
// methods, policies, the seal): whoever holds a token with it reads and changes every secret.
const VAULT_WILDCARD_PATH = /\bpath\s+"(\*|\+\/\*)"/;
const VAULT_GRANTED = /"(create|read|update|delete|list|patch|sudo)"/;

/** What a Vault policy's text grants too much of, read stanza by stanza (each ends at its `}`). */
function vaultPolicyBreadth(text: string): string | undefined {
  const stanzas = text.split('}');
  if (stanzas.some((stanza) => VAULT_WILDCARD_PATH.test(stanza) && VAULT_GRANTED.test(stanza)))
    return 'over every path';
  if (stanzas.some((stanza) => stanza.includes('"sudo"'))) return 'with sudo (the root-protected paths)';
  return undefined;
}

/** `vault policy write NAME - <<EOF … EOF` (or a file this call writes): the policy's text, when it grants that much. */
function vaultPolicyGrant(call: ToolCall): { what: string; text: string } | undefined {
  for (const cmd of shellCommands(call)) {
    const args = argsOf(cmd);
    if (cmd.name !== 'vault' || args[0] !== 'policy' || args[1] !== 'write') continue;
    const source = args.filter((a) => !a.startsWith('-'))[3];
    const text =
      source === undefined || source === '-'
        ? cmd.redirects.find((r) => r.op.startsWith('<<'))?.target
        : writtenTexts(call).find(({ file }) => file.endsWith(`/${source.replace(/^\.\//, '')}`))?.content;
    const what = text === undefined ? undefined : vaultPolicyBreadth(text);
    if (what !== undefined && text !== undefined) return { what, text };
  }
  return undefined;
}

export const clusterPrivilegeGrant = definePolicy({
  name: 'cluster-privilege-grant',
  category: 'infrastructure',
  description:
    'Asks before a Kubernetes manifest or compose file that binds cluster-admin (or a wildcard ClusterRole) or runs a container that owns its host (privileged, host namespaces, host root or engine socket), or a Vault policy over every path.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const vault = vaultPolicyGrant(call);
    if (vault)
      return {
        reason: `Writes a Vault policy ${vault.what}: every token that holds it reads and changes every secret it reaches. A person should approve it.`,
        evidence: evidenceOf(vault.text),
      };
    const compose = firstWrittenFinding(call, composeGrant);
    if (compose)
      return {
        reason: `The compose file ${compose.file} ${compose.found}: the next \`docker compose up\` grants that. A person should approve it.`,
        evidence: evidenceOf(compose.content),
      };
    for (const { where, text } of manifestsOf(call)) {
      const grant = manifestGrant(text, call.toolName === 'Edit' && MANIFEST_FOLDER.test(where));
      if (grant)
        return {
          reason: `The Kubernetes manifest in ${where} ${grant}: whoever applies it grants that. A person should approve it.`,
          evidence: evidenceOf(text),
        };
    }
    return null;
  },
});
