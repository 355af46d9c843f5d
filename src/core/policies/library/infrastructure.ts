import { AWS_VALUE_LONG } from '../../shell/cli-options';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { AnyPolicy } from '../types';
import { argsOf, evidenceOf, optionValues, parseFlags, shellCommands } from '../../facts/commands';
import { matchesAny } from './shared/patterns';
import { isPrivateAddress } from './shared/hosts';
import { isWorkingCopyName } from '../../facts/database-targets';
import { inspectsInPod } from '../../facts/root-inspection';

// Cloud and cluster CLIs: the commands that change shared infrastructure ask a
// person; read-only ones pass. `allowPatterns` (prefixes or globs over the
// command, such as "kubectl apply -f k8s/dev/*") lets a user wave through their own routine.

interface InfraSpec {
  name: string;
  description: string;
  tools: string[];
  /** Options (before the subcommand) that take a value, so the value is not read as the subcommand. */
  valueShort?: string[];
  valueLong?: string[];
  /** Why a person should see it, after the command's `what` (defaults to: it changes shared infrastructure). */
  why?: string;
  /** What the command would change, or null for a read-only one; `tool` is which of `tools` it is. */
  action(positionals: string[], args: readonly string[], tool: string): { what: string; deny?: boolean } | null;
  /** A command that `action` names but that only looks after all (`kubectl exec … -- cat …`), given the call's commands. */
  onlyLooks?(cmd: SimpleCommand, commands: readonly SimpleCommand[]): boolean;
  /** A command aimed at a throwaway cluster on this machine (`--context kind-dev`): it changes nothing others use. */
  onThisMachine?(args: readonly string[], tool: string): boolean;
}

/** kubectl's options that take a value, which may stand before its verb (`kubectl -n api get …`). */
export const KUBECTL_VALUE_SHORT = ['n', 's', 'l', 'c', 'o', 'f'];
export const KUBECTL_VALUE_LONG = [
  ...['context', 'namespace', 'kubeconfig', 'cluster', 'user', 'server', 'token', 'as', 'as-group'],
  ...['output', 'selector', 'field-selector', 'filename', 'container', 'request-timeout'],
];

function commandLine(cmd: SimpleCommand): string {
  return [cmd.name, ...argsOf(cmd)].join(' ');
}

const SHARED_INFRASTRUCTURE = 'it changes shared infrastructure that others depend on';

export function infraPolicy(spec: InfraSpec): AnyPolicy {
  return definePolicy({
    name: spec.name,
    category: 'infrastructure',
    description: spec.description,
    defaultEnabled: true,
    decision: 'ask',
    params: z.object({
      /** Commands that pass without a question: plain prefixes ("kubectl get") or globs ("kubectl * -n dev *"). */
      allowPatterns: z.array(z.string()).default([]),
    }),
    evaluate({ call, params }) {
      if (!call?.shell) return null;
      for (const cmd of shellCommands(call)) {
        if (!spec.tools.includes(cmd.name)) continue;
        const args = argsOf(cmd);
        const positionals = parseFlags(args, spec.valueShort ?? [], spec.valueLong ?? []).positionals;
        // A dry run (kubectl apply --dry-run=client, helm upgrade --dry-run) changes nothing.
        if (args.some((a) => /^--dry-run(=(client|server|true))?$/.test(a))) continue;
        const found = spec.action(positionals, args, cmd.name);
        if (!found || spec.onlyLooks?.(cmd, shellCommands(call)) || spec.onThisMachine?.(args, cmd.name)) continue;
        const line = commandLine(cmd);
        if (matchesAny(line, params.allowPatterns)) continue;
        return {
          ...(found.deny ? { decision: 'deny' as const } : {}),
          reason: `${found.what}: ${spec.why ?? SHARED_INFRASTRUCTURE}; a person should approve it (or add an allowPatterns entry for routine commands).`,
          evidence: evidenceOf(line),
        };
      }
      return null;
    },
  });
}

const KUBE_MUTATING = new Set([
  'delete',
  'apply',
  'create',
  'replace',
  'patch',
  'scale',
  'drain',
  'cordon',
  'uncordon',
  'taint',
  'edit',
  'set',
  'autoscale',
  'run',
  'exec',
  'cp',
  'label',
  'annotate',
  'expose',
]);

/**
 * `kubectl exec POD -- cat /etc/nginx/nginx.conf`: every command it runs in the pod only looks (see
 * facts/pod-inspection). What those commands read is judged on its own (a mounted token is a secret).
 */
function execOnlyLooks(cmd: SimpleCommand, commands: readonly SimpleCommand[]): boolean {
  const at = commands.indexOf(cmd);
  const inside = commands.filter((other) => descendsFrom(other, at, commands));
  return inside.length > 0 && inside.every(inspectsInPod);
}

function descendsFrom(cmd: SimpleCommand, ancestor: number, commands: readonly SimpleCommand[]): boolean {
  for (let parent = cmd.parent; parent !== undefined; parent = commands[parent]?.parent)
    if (parent === ancestor) return true;
  return false;
}

export const kubectlMutation = infraPolicy({
  name: 'kubectl-mutation',
  description:
    'Asks before kubectl/oc commands that change a cluster (delete, apply, scale, patch, rollout restart, drain, exec, …).',
  tools: ['kubectl', 'oc', 'k', 'microk8s.kubectl'],
  valueShort: KUBECTL_VALUE_SHORT,
  valueLong: KUBECTL_VALUE_LONG,
  action(pos, args) {
    const [sub, next] = pos;
    if (sub && KUBE_MUTATING.has(sub)) return { what: `kubectl ${sub} ${next ?? ''}`.trim() };
    // A port-forward listening beyond loopback hands the cluster's service to the whole network.
    const address = optionValues(args, [], ['address']);
    if (
      sub === 'port-forward' &&
      address.some((a) => a.split(',').some((one) => !/^(localhost|127\.0\.0\.1|::1)$/.test(one)))
    )
      return { what: `kubectl port-forward --address ${address.join(',')} (open to the network)` };
    if (sub === 'rollout' && next && ['restart', 'undo', 'pause', 'resume'].includes(next))
      return { what: `kubectl rollout ${next}` };
    return null;
  },
  onlyLooks: (cmd, commands) => argsOf(cmd).includes('exec') && execOnlyLooks(cmd, commands),
  onThisMachine: (args) => optionValues(args, [], ['context']).some((context) => LOCAL_CLUSTER_CONTEXT.test(context)),
});

/**
 * Contexts that the local cluster tools create and name themselves: kind, k3d, minikube, Docker
 * Desktop, Rancher Desktop, OrbStack, Colima. A remote cluster's context is named by whoever set it up.
 */
const LOCAL_CLUSTER_CONTEXT =
  /^(kind-[\w.-]+|k3d-[\w.-]+|minikube|docker-desktop|docker-for-desktop|rancher-desktop|orbstack|colima)$/;

export const terraformApplyDestroy = infraPolicy({
  name: 'terraform-apply-destroy',
  description: 'Asks before terraform/tofu/terragrunt apply, destroy, import, taint and state surgery.',
  tools: ['terraform', 'tofu', 'terragrunt'],
  valueLong: ['chdir'],
  action(pos, args) {
    const subs = pos.filter((p) => !p.startsWith('-chdir'));
    const [sub, next] = subs[0] === 'run-all' ? subs.slice(1) : subs;
    if (!sub) return null;
    if (sub === 'destroy' || (sub === 'apply' && args.includes('-destroy')))
      return {
        what: `terraform ${sub === 'destroy' ? 'destroy' : 'apply -destroy'} tears down every resource of the configuration`,
      };
    if (['apply', 'import', 'taint', 'untaint', 'force-unlock'].includes(sub)) return { what: `terraform ${sub}` };
    if (sub === 'state' && next && ['rm', 'mv', 'push', 'replace-provider'].includes(next))
      return { what: `terraform state ${next}` };
    if (sub === 'workspace' && next === 'delete') return { what: 'terraform workspace delete' };
    return null;
  },
});

const AWS_ACCESS_CHANGES =
  /^(attach-(user|role|group)-policy|put-(user|role|group)-policy|create-(user|login-profile|policy-version|service-specific-credential)|add-user-to-group|add-permission|modify-[a-z-]*-attribute|set-repository-policy|put-(registry|repository|key|resource|bucket-replication|bucket-ownership-controls|public-access-block)[a-z-]*|put-bucket-website|create-grant|share-[a-z-]+|create-access-entry|associate-access-policy)$/;

export const awsDestructive = infraPolicy({
  name: 'aws-destructive',
  description:
    'Asks before aws calls that delete, terminate, stop or revoke, change who can reach a resource (a policy attached, a snapshot shared, a bucket or port opened to all, a presigned link past a day), set lifecycle rules, s3 rm/rb/sync --delete.',
  tools: ['aws', 'awslocal'],
  valueLong: [...AWS_VALUE_LONG],
  action(pos, args) {
    const [service, op] = pos;
    if (!service || !op) return null;
    if (service === 's3' && (op === 'rm' || op === 'rb' || op === 'mv'))
      return { what: `aws s3 ${op}${args.includes('--recursive') || args.includes('--force') ? ' (recursive)' : ''}` };
    if (service === 's3' && op === 'sync' && args.includes('--delete')) return { what: 'aws s3 sync --delete' };
    // A presigned link lets whoever holds it download the object, with no AWS login, until it expires.
    const expires = Number(optionValues(args, [], ['expires-in'])[0] ?? 3600);
    if (service === 's3' && op === 'presign' && expires > 24 * 3600)
      return { what: `aws s3 presign (a download link anyone can use for ${Math.round(expires / 3600)} hours)` };
    if (
      /^(delete|batch-delete|terminate|remove|deregister|revoke|disable|stop|reboot|detach|purge|cancel|reset|schedule-key-deletion|put-bucket-policy|put-bucket-acl|put-bucket-lifecycle|update-assume-role-policy|create-access-key)/.test(
        op,
      )
    )
      return { what: `aws ${service} ${op}` };
    // Who may use what: a policy attached, a snapshot or image shared, a bucket opened or replicated.
    if (AWS_ACCESS_CHANGES.test(op)) return { what: `aws ${service} ${op} (changes who can reach it)` };
    // IMDSv1 allowed again (or more hops): whatever runs on the instance, a pod included, can take its role's credentials.
    const tokens = optionValues(args, [], ['http-tokens'])[0];
    if (
      op === 'modify-instance-metadata-options' &&
      (tokens === 'optional' ||
        optionValues(args, [], ['http-put-response-hop-limit']).some((hops) => Number(hops) > 1))
    )
      return { what: `aws ${service} ${op} (weakens the metadata service's protection of the instance's credentials)` };
    // A port opened to every address (as `--cidr` or inside `--ip-permissions`); one range is routine.
    if (/^authorize-security-group-ingress$/.test(op) && args.some((a) => /(^|[^\d.])0\.0\.0\.0\/0|::\/0/.test(a)))
      return { what: `aws ${service} ${op} (opens a port to the whole internet)` };
    return null;
  },
});

/** The first word of a BigQuery table or bucket name (`acme` of `acme-analytics-prod:core.t`, `gs://acme-x/…`). */
function ownerWord(name: string): string {
  return (
    name
      .replace(/^gs:\/\//, '')
      .split(/[-_.:/]/, 1)[0]
      ?.toLowerCase() ?? ''
  );
}

/**
 * BigQuery's CLI: rm deletes a table or a dataset (-r, with its tables), set-iam-policy opens one, cp -f
 * overwrites its destination, update --expiration sets a table to delete itself, and extract copies a
 * table into a bucket, which asks when the bucket is not named like the table's project.
 */
function bigQueryChange(pos: readonly string[], args: readonly string[]): { what: string } | null {
  const [sub, ...operands] = pos;
  const last = operands[operands.length - 1] ?? '';
  // A table removed from a scratch or dev dataset loses nothing shared; a dataset removed with its tables (-r) may.
  const workingTable =
    operands.length > 0 && operands.every(isWorkingCopyName) && !args.some((a) => /^-[a-z]*r/.test(a));
  if (sub === 'rm' && workingTable) return null;
  if (['rm', 'set-iam-policy', 'add-iam-policy-binding'].includes(sub ?? '')) return { what: `bq ${sub}` };
  if (sub === 'cp' && args.some((a) => a === '-f' || a === '--force') && !isWorkingCopyName(last))
    return { what: `bq cp -f overwrites ${last}` };
  if (
    sub === 'update' &&
    args.some((a) => /^--(expiration|default_table_expiration|default_partition_expiration)\b/.test(a))
  )
    return isWorkingCopyName(last) ? null : { what: `bq update sets ${last} to delete itself` };
  if (sub === 'extract' && operands.length >= 2 && ownerWord(operands[0] ?? '') !== ownerWord(last))
    return { what: `bq extract copies ${operands[0]} into ${last}, a bucket not named like its project` };
  return null;
}

// Settings under which what is kept goes: backups off or pruned, history cut to days, objects set to
// delete themselves, deletion protection taken off.
const GCLOUD_ERASING_OPTION =
  /^--(no-backup|retained-backups-count|retention-days|lifecycle-file|no-deletion-protection|clear-soft-delete)(=|$)/;

/** Cloud Run, Cloud Functions and App Engine hosts: a push subscription's usual endpoint in the same cloud. */
function onGoogleServerless(url: string): boolean {
  const host = /^https:\/\/([^/:?#]+)/.exec(url)?.[1]?.toLowerCase() ?? '';
  return /\.(run\.app|cloudfunctions\.net|appspot\.com)$/.test(host);
}

/** The bucket or project a log sink's destination names (`storage.googleapis.com/BUCKET`, `…/projects/P/…`). */
function sinkDestinationOwner(destination: string): string {
  return /\/projects\/([^/]+)/.exec(destination)?.[1] ?? destination.slice(destination.indexOf('/') + 1);
}

/**
 * Changes that last past the call: a key of the caller's making on a service account, a database opened to
 * an address range outside the private ones, messages or logs sent on to an endpoint from now on.
 */
function gcloudLastingChange(pos: readonly string[], args: readonly string[]): string | undefined {
  const path = pos.join(' ');
  if (/^iam service-accounts keys upload\b/.test(path))
    return 'gcloud iam service-accounts keys upload (a lasting login)';
  const networks = optionValues(args, [], ['authorized-networks'])
    .flatMap((list) => list.split(','))
    .filter((range) => range !== '' && !isPrivateAddress(range.replace(/\/\d+$/, '')));
  if (networks.length > 0)
    return `gcloud ${path} --authorized-networks=${networks.join(',')} (open to those addresses)`;
  // A workload identity provider's condition is what keeps other repositories or tenants of the same
  // issuer out; one that always holds lets every one of them sign in as the pool's accounts.
  const condition = optionValues(args, [], ['attribute-condition'])[0];
  if (condition !== undefined && /^\s*(true|1\s*==\s*1)\s*$/i.test(condition))
    return `gcloud ${path} --attribute-condition=${condition} (any identity of the issuer signs in)`;
  const push = optionValues(args, [], ['push-endpoint'])[0];
  if (push !== undefined && !onGoogleServerless(push))
    return `gcloud ${path} --push-endpoint=${push} (every message sent there from now on)`;
  const sinkOwner = /^logging sinks (create|update) \S+ (\S+)/.exec(path)?.[2];
  const project = optionValues(args, [], ['project'])[0];
  if (
    sinkOwner !== undefined &&
    (project === undefined || ownerWord(sinkDestinationOwner(sinkOwner)) !== ownerWord(project))
  )
    return `gcloud ${path} (logs copied to ${sinkOwner} from now on)`;
  // A seek to a time still to come acknowledges every message before it, unread; one to the past replays.
  const seekTime = /^pubsub subscriptions seek\b/.test(path) ? optionValues(args, [], ['time'])[0] : undefined;
  if (seekTime !== undefined && !(Date.parse(seekTime) <= Date.now()))
    return `gcloud ${path} --time=${seekTime} (the backlog before it acknowledged unread)`;
  return undefined;
}

export const gcloudDestructive = infraPolicy({
  name: 'gcloud-destructive',
  description:
    'Asks before gcloud/gsutil/bq commands that delete, destroy, restore, deploy, stop, reset, change IAM or cut backups and retention, overwrite or expire a table, or extract one into a bucket not named like its project.',
  tools: ['gcloud', 'gsutil', 'bq'],
  valueLong: [
    'project',
    'account',
    'configuration',
    'format',
    'region',
    'zone',
    'impersonate-service-account',
    'verbosity',
  ],
  action(pos, args, name) {
    if (name === 'bq') return bigQueryChange(pos, args);
    // `gcloud storage rm`, `gcloud storage buckets delete` (below), a sync that deletes what the source lacks.
    if (name === 'gcloud' && pos[0] === 'storage' && pos[1] === 'rm') return { what: 'gcloud storage rm' };
    if (name === 'gcloud' && pos[0] === 'storage' && args.includes('--delete-unmatched-destination-objects'))
      return { what: 'gcloud storage rsync --delete-unmatched-destination-objects' };
    if (pos[0] === 'rm' || pos[0] === 'rb' || (pos[0] === 'rsync' && args.includes('-d')))
      return { what: `gsutil ${pos[0]}` };
    // `gsutil iam ch allUsers:objectViewer gs://b`, `gsutil acl ch -u AllUsers:R`: the bucket opens.
    if ((pos[0] === 'iam' || pos[0] === 'acl' || pos[0] === 'defacl') && ['ch', 'set'].includes(pos[1] ?? ''))
      return { what: `gsutil ${pos[0]} ${pos[1]}` };
    if (pos[0] === 'lifecycle' && pos[1] === 'set') return { what: 'gsutil lifecycle set (objects delete themselves)' };
    const lasting = gcloudLastingChange(pos, args);
    if (lasting) return { what: lasting };
    // destroy: a secret's or a key's version gone for good; restore: a backup over the live instance.
    const verb = pos.find((p) =>
      /^(delete|deploy|undeploy|stop|reset|suspend|set-iam-policy|add-iam-policy-binding|remove-iam-policy-binding|disable|purge|export|destroy|restore)$/.test(
        p,
      ),
    );
    if (verb) return { what: `gcloud ${pos.slice(0, pos.indexOf(verb) + 1).join(' ')}` };
    const erasing = args.find((a) => GCLOUD_ERASING_OPTION.test(a));
    return erasing ? { what: `gcloud ${pos.join(' ')} ${erasing}` } : null;
  },
});

/** Whether an address range reaches past the private ranges (`0.0.0.0`-`0.0.0.0` is Azure's own services). */
function azureRangeOpen(start: string | undefined, end: string | undefined): boolean {
  if (start === undefined || end === undefined || (start === '0.0.0.0' && end === '0.0.0.0')) return false;
  return !isPrivateAddress(start) || !isPrivateAddress(end);
}

/**
 * Changes that last past the call or open data up: a container anyone can read, a vault's secrets granted,
 * a database firewall opened to public addresses, backups dropped with their data, a registry's images
 * purged through `acr run`.
 */
function azureLastingChange(pos: readonly string[], args: readonly string[]): string | undefined {
  const path = pos.join(' ');
  const value = (name: string) => optionValues(args, [], [name])[0];
  const access = value('public-access');
  if (/^storage container (create|set-permission)\b/.test(path) && (access === 'blob' || access === 'container'))
    return `az storage container --public-access ${access} (anyone on the internet reads it)`;
  if (/^storage account (create|update)\b/.test(path) && value('allow-blob-public-access') === 'true')
    return 'az storage account --allow-blob-public-access true (its containers can be opened to anyone)';
  if (/^keyvault set-policy\b/.test(path))
    return "az keyvault set-policy (lasting access to the vault's keys and secrets)";
  if (
    /\bfirewall-rule (create|update)\b/.test(path) &&
    azureRangeOpen(value('start-ip-address'), value('end-ip-address'))
  )
    return `az … firewall-rule (the server opened to ${value('start-ip-address')}-${value('end-ip-address')})`;
  if (/^backup protection disable\b/.test(path) && value('delete-backup-data') === 'true')
    return 'az backup protection disable --delete-backup-data true (the backups deleted)';
  const task = /^acr run\b/.test(path) ? value('cmd') : undefined;
  if (task !== undefined && /\bacr purge\b/.test(task) && !/\s--dry-run\b/.test(task))
    return `az acr run --cmd "${task}" (images purged)`;
  return undefined;
}

export const azureDestructive = infraPolicy({
  name: 'azure-destructive',
  description:
    'Asks before az commands that delete, purge, stop, deallocate, deploy or assign roles, grant a vault, open a container to everyone or a firewall to public addresses, or drop backups.',
  tools: ['az'],
  // --only-show-errors, --debug and --verbose take no value: read as taking one, they swallowed the group.
  valueLong: ['subscription', 'output', 'query', 'resource-group', 'name'],
  valueShort: ['g', 'n', 'o'],
  action(pos, args) {
    const lasting = azureLastingChange(pos, args);
    if (lasting) return { what: lasting };
    // `az storage blob delete-batch` deletes every blob of a container that matches (all of them, with no pattern).
    const verb = pos.find((p) => /^(delete|delete-batch|purge|stop|deallocate|restart|deploy|redeploy)$/.test(p));
    if (verb) return { what: `az ${pos.slice(0, pos.indexOf(verb) + 1).join(' ')}` };
    if (pos[0] === 'deployment' && pos.includes('create'))
      return { what: `az ${pos.slice(0, pos.indexOf('create') + 1).join(' ')}` };
    if (pos[0] === 'role' && pos[1] === 'assignment' && pos[2] === 'create')
      return { what: 'az role assignment create' };
    return null;
  },
});

export const helmReleaseChange = infraPolicy({
  name: 'helm-release-change',
  description: 'Asks before helm install, upgrade, rollback and uninstall.',
  tools: ['helm', 'helmfile'],
  valueShort: ['n', 'f'],
  valueLong: ['namespace', 'kube-context', 'kubeconfig', 'values', 'set', 'version', 'file', 'environment'],
  action(pos) {
    const sub = pos[0];
    if (
      sub &&
      ['install', 'upgrade', 'rollback', 'uninstall', 'delete', 'del', 'un', 'apply', 'sync', 'destroy'].includes(sub)
    )
      return { what: `helm ${sub} ${pos[1] ?? ''}`.trim() };
    return null;
  },
});

// Endpoints whose POST gives someone access or sends the repository's events out: deploy keys, a user's
// SSH keys, collaborators, members and invitations, webhooks, access tokens, a self-hosted runner's
// registration token (the runner then takes the repository's jobs, their secrets with them).
const ACCESS_ENDPOINT =
  /(^|\/)(keys|deploy_keys|collaborators|invitations|members|memberships|hooks|access_tokens|registration-token)(\/|\?|$)/;

/**
 * `gh api` / `glab api` calls that change things: DELETE, PUT and PATCH, and a POST (sent explicitly,
 * or by default once fields are given) to an endpoint that grants access.
 */
function apiCallChange(tool: string, endpoint: string | undefined, args: readonly string[]): { what: string } | null {
  const named =
    args.find((_, i) => args[i - 1] === '-X' || args[i - 1] === '--method') ??
    args.find((a) => a.startsWith('--method='))?.slice(9);
  const hasFields = args.some((a) => /^(-[fF]|--field|--raw-field|--input)(=|$)/.test(a) || /^-[fF]./.test(a));
  const method = (named ?? (hasFields ? 'POST' : 'GET')).toUpperCase();
  if (/^(DELETE|PUT|PATCH)$/.test(method)) return { what: `${tool} api -X ${method}` };
  if (method === 'POST' && endpoint !== undefined && ACCESS_ENDPOINT.test(endpoint.replace(/^\//, '')))
    return { what: `${tool} api POST ${endpoint}, which grants access to the repository or sends its events out` };
  return null;
}

export const ghWorkflowAndRepo = infraPolicy({
  name: 'gh-workflow-and-repo',
  description:
    'Asks before gh commands that run CI, change a repository or grant access (workflow run, pr merge, secret set, ssh-key add, extension install, api calls that change or grant access); refuses repo delete.',
  tools: ['gh', 'glab'],
  valueShort: ['R', 'X', 'H', 'f', 'F'],
  valueLong: ['repo', 'method', 'header', 'field', 'raw-field', 'hostname', 'jq', 'template'],
  action(pos, args, tool) {
    const [group, verb] = pos;
    if (tool === 'glab') return group === 'api' ? apiCallChange('glab', verb, args) : null;
    if (group === 'repo' && verb === 'delete')
      return { what: 'gh repo delete removes the repository with its issues and history', deny: true };
    if (group === 'workflow' && (verb === 'run' || verb === 'disable' || verb === 'enable'))
      return { what: `gh workflow ${verb}` };
    if (group === 'run' && (verb === 'rerun' || verb === 'cancel' || verb === 'delete'))
      return { what: `gh run ${verb}` };
    if (group === 'pr' && verb === 'merge') return { what: 'gh pr merge' };
    // `gh auth refresh -s admin:org,delete_repo`: the stored token gains the power to delete repositories or run the organisation.
    if (group === 'auth' && (verb === 'refresh' || verb === 'login')) {
      const scopes = args
        .flatMap((a, i) =>
          a === '-s' || a === '--scopes' ? [args[i + 1] ?? ''] : a.startsWith('--scopes=') ? [a.slice(9)] : [],
        )
        .flatMap((list) => list.split(','));
      const wide = scopes.find((scope) => /^(admin:|delete_repo$|site_admin$|delete:packages$)/.test(scope.trim()));
      if (wide) return { what: `gh auth ${verb} with the ${wide.trim()} scope, which the stored token keeps` };
    }
    if (
      group === 'repo' &&
      (verb === 'archive' || verb === 'rename' || (verb === 'edit' && args.some((a) => a.startsWith('--visibility'))))
    )
      return { what: `gh repo ${verb}` };
    if (
      (group === 'release' || group === 'secret' || group === 'variable' || group === 'ruleset') &&
      verb &&
      ['delete', 'set', 'create', 'edit'].includes(verb) &&
      !(group === 'release' && verb === 'create')
    )
      return { what: `gh ${group} ${verb}` };
    if (group === 'api') return apiCallChange('gh', verb, args);
    // A deploy key lets whoever holds its private half read the repository, or push to it with --allow-write.
    if (group === 'repo' && verb === 'deploy-key' && pos[2] === 'add')
      return {
        what: `gh repo deploy-key add, which lets whoever holds that key ${args.some((a) => a === '--allow-write' || a === '-w') ? 'push to' : 'read'} the repository`,
      };
    // A key added to the account lets whoever holds its private half push (or sign) as the person.
    if ((group === 'ssh-key' || group === 'gpg-key') && verb === 'add')
      return { what: `gh ${group} add, which lets whoever holds that key act as this GitHub account` };
    // An extension is a program from its repository, run with the person's GitHub token.
    if (group === 'extension' && (verb === 'install' || verb === 'upgrade')) {
      const source = pos[2];
      if (source !== undefined && !source.startsWith('.') && !source.startsWith('/'))
        return { what: `gh extension ${verb} ${source}, a program from that repository run with this GitHub token` };
    }
    return null;
  },
});

export const pulumiUpdateDestroy = infraPolicy({
  name: 'pulumi-update-destroy',
  description: 'Asks before pulumi up, destroy, import, refresh and stack or state removal.',
  tools: ['pulumi'],
  valueShort: ['s', 'C'],
  valueLong: ['stack', 'cwd'],
  action(pos, args) {
    const [sub, next] = pos;
    // `--preview-only` shows what would change and changes nothing (up, destroy, refresh take it).
    if (args.includes('--preview-only')) return null;
    if (sub && ['up', 'update', 'destroy', 'import', 'refresh', 'cancel'].includes(sub))
      return { what: `pulumi ${sub}` };
    if ((sub === 'stack' && next === 'rm') || (sub === 'state' && (next === 'delete' || next === 'unprotect')))
      return { what: `pulumi ${sub} ${next}` };
    return null;
  },
});

export const cdkDeployDestroy = infraPolicy({
  name: 'cdk-deploy-destroy',
  description:
    "Asks before the AWS CDK's or CDK for Terraform's deploy and destroy (cdk destroy --all tears down every stack of the app).",
  tools: ['cdk', 'cdktf'],
  valueShort: ['a', 'c', 'o'],
  valueLong: ['app', 'context', 'output', 'profile', 'role-arn', 'toolkit-stack-name'],
  action(pos, args, name) {
    const [sub] = pos;
    if (sub === 'destroy')
      return {
        what: `${name} destroy tears down ${args.includes('--all') ? 'every stack of the app' : 'the stacks it names'}`,
      };
    return sub === 'deploy' ? { what: `${name} deploy` } : null;
  },
});

/** Per registry CLI, whether its subcommand deletes an image, a tag or a manifest from the registry. */
const REGISTRY_DELETES: Record<string, (pos: string[]) => boolean> = {
  skopeo: (pos) => pos[0] === 'delete',
  crane: (pos) => pos[0] === 'delete',
  regctl: (pos) => ['image', 'tag', 'manifest', 'blob'].includes(pos[0] ?? '') && pos[1] === 'delete',
  oras: (pos) => (pos[0] === 'manifest' || pos[0] === 'blob') && pos[1] === 'delete',
};

export const dockerDestructiveCleanup = infraPolicy({
  name: 'docker-destructive-cleanup',
  description:
    "Asks before docker/podman system prune -a/--volumes, volume removal and compose down -v, which delete images and data volumes, and before a registry's image is deleted (skopeo, crane, regctl, oras).",
  tools: ['docker', 'podman', 'docker-compose', ...Object.keys(REGISTRY_DELETES)],
  valueShort: ['H', 'c', 'f', 'p'],
  valueLong: ['host', 'context', 'config', 'file', 'project-name', 'log-level'],
  action(pos, args, tool) {
    const [a, b] = pos;
    if (REGISTRY_DELETES[tool]?.(pos))
      return {
        what: `${tool} ${pos.slice(0, tool === 'skopeo' || tool === 'crane' ? 1 : 2).join(' ')} deletes an image from its registry: whatever pulls it from there breaks`,
      };
    if (tool in REGISTRY_DELETES) return null;
    const all = args.some((x) => /^-\w*a$|^--all$|^--volumes$/.test(x));
    if (a === 'system' && b === 'prune' && all) return { what: 'docker system prune -a/--volumes' };
    if (
      (a === 'volume' && (b === 'rm' || b === 'prune')) ||
      (a === 'image' && b === 'prune' && all) ||
      (a === 'container' && b === 'prune')
    )
      return { what: `docker ${a} ${b}` };
    const composeDown = (a === 'compose' && b === 'down') || (a === 'down' && args[0] !== undefined);
    if (composeDown && args.some((x) => /^-\w*v$|^--volumes$/.test(x)))
      return { what: 'docker compose down -v deletes the data volumes' };
    return null;
  },
});

const DUPLICITY_REMOVALS = new Set(['remove-older-than', 'remove-all-but-n-full', 'remove-all-inc-of-but-n-full']);
const BORG_DELETES = (pos: string[]) => ['delete', 'prune', 'compact'].includes(pos[0] ?? '');

/** Per backup tool, whether its subcommand (and options) delete backups. */
const BACKUP_DELETES: Record<string, (pos: string[], args: readonly string[]) => boolean> = {
  restic: (pos, args) => (pos[0] === 'forget' || pos[0] === 'prune') && !args.includes('-n'),
  borg: BORG_DELETES,
  borgbackup: BORG_DELETES,
  kopia: (pos) => pos[0] === 'snapshot' && (pos[1] === 'delete' || pos[1] === 'expire'),
  duplicity: (pos) => DUPLICITY_REMOVALS.has(pos[0] ?? ''),
  tarsnap: (_pos, args) => args.includes('-d'),
  rclone: (pos) => ['purge', 'delete', 'deletefile'].includes(pos[0] ?? ''),
  // Data and experiment versions are kept for the same reason: DVC's remote, MLflow's deleted runs.
  dvc: (pos, args) => pos[0] === 'gc' && args.some((a) => a === '--cloud' || (/^-[a-z]+$/.test(a) && a.includes('c'))),
  mlflow: (pos) => pos[0] === 'gc',
  // Time Machine: its backups, local snapshots, and thinning that purges them.
  tmutil: (pos) => ['delete', 'deletelocalsnapshots', 'thinlocalsnapshots'].includes(pos[0] ?? ''),
};

// Backups are what an accident is undone from: deleting snapshots or pruning a repository cannot be undone.
export const backupDeletion = infraPolicy({
  name: 'backup-deletion',
  description:
    'Asks before deleting backups or kept versions: restic forget and prune, borg delete and prune, kopia snapshot delete, duplicity remove-*, tarsnap -d, rclone purge, dvc gc --cloud, mlflow gc, tmutil delete.',
  tools: Object.keys(BACKUP_DELETES),
  valueShort: ['r', 'p', 'o', 'f'],
  valueLong: [
    'repo',
    'repository',
    'password-file',
    'password-command',
    'cache-dir',
    'config',
    'option',
    'repository-file',
  ],
  action(pos, args, tool) {
    if (!BACKUP_DELETES[tool]?.(pos, args)) return null;
    const what =
      tool === 'rclone'
        ? 'deletes files in remote storage'
        : tool === 'dvc' || tool === 'mlflow'
          ? 'deletes kept data or run versions'
          : 'deletes backups';
    return { what: `${[tool, ...pos.slice(0, tool === 'kopia' ? 2 : 1)].join(' ')} ${what} for good` };
  },
});
