import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { writtenTexts } from '../../facts/compute';
import { evidenceOf } from '../../facts/commands';

// A Kubernetes manifest grants what it describes the moment it is applied, by hand, by CI or by a GitOps
// controller watching the repository: binding cluster-admin, or a pod that owns its node (privileged,
// the node's process or network namespace, the node's root folder or container socket). Such a manifest
// is asked about when it is written into the project or handed to a cluster tool, whatever applies it.

const MANIFEST = /^[ \t]*apiVersion[ \t]*:/m;
const BINDING = /^[ \t]*kind[ \t]*:[ \t]*(Cluster)?RoleBinding\b/m;
const CLUSTER_ADMIN = /^[ \t]*name[ \t]*:[ \t]*["']?cluster-admin["']?[ \t]*$/m;
const GRANTS: { pattern: RegExp; what: string; also?: RegExp }[] = [
  { pattern: BINDING, also: CLUSTER_ADMIN, what: 'binds cluster-admin, every permission on the cluster' },
  {
    pattern: /^[ \t-]*name[ \t]*:[ \t]*["']?system:(authenticated|unauthenticated|serviceaccounts)["']?[ \t]*$/m,
    what: 'grants a role to every account of the cluster (a system: group)',
  },
  { pattern: /^[ \t]*privileged[ \t]*:[ \t]*true\b/m, what: 'runs a privileged container, root on its node' },
  {
    pattern: /^[ \t]*host(PID|Network|IPC)[ \t]*:[ \t]*true\b/m,
    what: "shares its node's process, network or IPC namespace",
  },
  {
    // `hostPath:` then `path: /` on the next line, or `hostPath: {path: /}`; an Ingress's `path: /` is not one.
    pattern:
      /^[ \t]*hostPath[ \t]*:[ \t]*(\r?\n[ \t]*|\{[ \t]*)path[ \t]*:[ \t]*["']?(\/|\/etc|\/root|\/var\/run\/docker\.sock|\/run\/containerd\/containerd\.sock)["']?[ \t]*([,}][ \t]*)?$/m,
    what: "mounts its node's root, /etc or container socket (hostPath)",
  },
];

/** What a manifest grants, or null. */
export function manifestGrant(text: string): string | null {
  if (!MANIFEST.test(text)) return null;
  return GRANTS.find((grant) => grant.pattern.test(text) && (grant.also?.test(text) ?? true))?.what ?? null;
}

/** Manifests the call writes, or hands to an MCP cluster tool (`manifest`, `yaml`, `resource` arguments). */
function manifestsOf(call: ToolCall): { where: string; text: string }[] {
  const written = writtenTexts(call)
    .filter(({ file }) => /\.(ya?ml|json)$/i.test(file))
    .map(({ file, content }) => ({ where: file, text: content }));
  const handed = ['manifest', 'yaml', 'resource', 'manifests']
    .map((key) => call.input[key])
    .filter((value): value is string => typeof value === 'string')
    .map((text) => ({ where: call.toolName, text }));
  return [...written, ...handed];
}

export const clusterPrivilegeGrant = definePolicy({
  name: 'cluster-privilege-grant',
  category: 'infrastructure',
  description:
    'Asks before writing or applying a Kubernetes manifest that binds cluster-admin or a system: group, or runs a pod that owns its node (privileged, hostPID/hostNetwork/hostIPC, hostPath of / or the container socket).',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { where, text } of manifestsOf(call)) {
      const grant = manifestGrant(text);
      if (grant)
        return {
          reason: `The Kubernetes manifest in ${where} ${grant}: whoever applies it grants that. A person should approve it.`,
          evidence: evidenceOf(text),
        };
    }
    return null;
  },
});
