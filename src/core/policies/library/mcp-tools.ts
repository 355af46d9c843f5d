import { z } from 'zod';
import { SECRET_STORE_NAME } from '../../config/inferred-faces';
import { classifySecretName } from '../../redaction/secret-names';
import { definePolicy } from '../types';
import { serviceFinding, serviceTool, type ServiceTool } from './shared/mcp';

// An MCP server's tool that deletes on the service it fronts (a repository, a namespace, a bucket, an
// instance), grants someone access there, or hands back a stored secret does what `gh repo delete`,
// `aws iam attach-user-policy` or `aws secretsmanager get-secret-value` does, with no command line to
// read: the words of the tool's name, and a few of its arguments, are what say so. A person decides.
// Tools that work on this machine's files are read as reads and writes of their paths, and judged by
// the file policies.

const DELETING_VERBS = new Set([
  'delete',
  'drop',
  'destroy',
  'purge',
  'flush',
  'truncate',
  'wipe',
  'erase',
  'terminate',
  'uninstall',
  // Perforce's obliterate removes files and their whole history from the depot.
  'obliterate',
]);
// Boolean arguments that turn an ordinary call into a destructive one (`update_ref` with force, an
// apply with destroy).
const DESTRUCTIVE_FLAGS = ['destroy', 'force', 'purge'];
/** `wipe_maps: true`, `delete_data: true`: the call is told to remove what it names. */
const REMOVING_FLAG = /^(wipe|erase|purge|destroy|delete)_[a-z_]+$/;

function destructiveFlag(args: Record<string, unknown>): string | undefined {
  const named = DESTRUCTIVE_FLAGS.find((name) => args[name] === true);
  if (named) return `${named}: true`;
  const removing = Object.keys(args).find((key) => REMOVING_FLAG.test(key) && args[key] === true);
  return removing ? `${removing}: true` : undefined;
}

// A tool whose name grants access: it attaches a policy, binds a role, adds a member or collaborator,
// or makes a key (`iam_attach_user_policy`, `set_iam_policy_binding`, `add_collaborator`,
// `create_access_key`, `create_deploy_key`).
const GRANTING = /^(attach|put|set|add|grant|invite|create|share)$/;
/**
 * An app installed on a store or a workspace gets the scopes it asks for: `install_app` with scopes
 * grants them (an app installed on a simulator is a build, with none).
 */
const INSTALLED_APP = /^(app|apps|integration|integrations)$/;
const ACCESS_NOUNS =
  /^(policy|policies|role|roles|binding|bindings|iam|member|members|collaborator|collaborators|permission|permissions|admin|owner|key|keys|token|tokens|credential|credentials|user|guest|guests|staff|invitation|invitations|invite|webhook|webhooks|hook|hooks|forwarding|file|folder|drive|document)$/;
/** Nouns whose making is itself a way in, or a standing flow of data out (a webhook posts every event). */
const MADE_ACCESS =
  /^(key|keys|token|tokens|credential|credentials|binding|bindings|user|staff|invitation|invitations|invite|webhook|webhooks|hook|hooks|forwarding)$/;
// Rules that guard a branch or a repository: changing or removing them loosens who may push what.
const PROTECTION_NOUNS = /^(protection|protections|ruleset|rulesets)$/;
const CHANGING = /^(update|set|put|edit|patch|remove|delete|disable)$/;

// A tool that hands back a stored secret's value (`secretsmanager_get_secret_value`, a password
// manager's `item_get` with reveal, a cluster's secrets).
const READING = /^(get|read|reveal|show|fetch|retrieve|describe|export|dump|view)$/;
const SECRET_NOUNS = /^(secret|secrets|password|passwords|credential|credentials|vault|item|token|tokens|kubeconfig)$/;
/** A key is a secret when the name says which: `get_service_role_key`, `get_api_key` (not a cache's `get_key`). */
const KEY_KINDS = /^(service|role|api|access|private|signing|secret)$/;
/** Arguments that ask for stored values in the clear (`list_env_vars` with decrypt). */
const DECRYPTING = [
  'decrypt',
  'decrypted',
  'with_decryption',
  'withDecryption',
  'reveal',
  'show_values',
  'include_secret',
  'include_secrets',
  'includeSecret',
  'includeSecrets',
  'unmask',
  'plaintext',
];
// App platforms whose API hands back an app's config vars as they are: the app's secrets live there.
const CLEAR_CONFIG_PLATFORMS = /heroku|render|railway|flyio|fly-io|^fly$/i;

/** `get_config_vars`, `list_env_vars` on such a platform's server, unless it asks only for names that hold no secret. */
function clearConfigVars(found: ServiceTool): boolean {
  const { words } = found;
  const asked = ['keys', 'names', 'key', 'name'].map((p) => found.args[p]).find((v) => v !== undefined);
  const names = typeof asked === 'string' ? [asked] : Array.isArray(asked) ? asked : undefined;
  if (names?.length && names.every((n) => typeof n === 'string' && classifySecretName(n) === null)) return false;
  return (
    CLEAR_CONFIG_PLATFORMS.test(found.server) &&
    words.some((w) => READING.test(w) || w === 'list') &&
    words.some((w) => w === 'config' || w === 'env' || w === 'environment') &&
    words.some((w) => /^(vars?|variables?|config)$/.test(w))
  );
}

// Orchestrators keep each connection's login and password with it: reading one hands those back.
const CONNECTION_KEEPERS = /airflow|dagster|prefect|composer|mwaa/i;

export const mcpDeletingTool = definePolicy({
  name: 'mcp-deleting-tool',
  category: 'dangerous-commands',
  description:
    "Asks before an MCP server's tool that deletes on the service it fronts (delete_repository, kubectl_delete, s3_delete_bucket, terminate_instances, flush…), or is told to force or destroy.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = serviceTool(call);
    if (!found) return null;
    // A plan (terraform plan with destroy) or a dry run only says what the change would do. (`confirm: false`
    // is no such promise: a server may read it as "do not ask first".)
    const onlyShows = found.words.some((w) => w === 'plan' || w === 'preview') || found.args['dry_run'] === true;
    const flag = onlyShows ? undefined : destructiveFlag(found.args);
    const deleting =
      found.words.find((w) => DELETING_VERBS.has(w)) ??
      (found.words.includes('factory') && found.words.includes('reset') ? 'factory reset' : undefined) ??
      (flag ? `call with ${flag}` : undefined);
    if (!deleting) return null;
    return serviceFinding(
      found,
      `a ${deleting} on that service that nothing on this machine brings back. A person decides.`,
    );
  },
});

// Making a key again: routine, unless the new one is broader or lasts for ever.
const REISSUING = /^(rotate|regenerate|reissue|reset|renew|roll)$/;
const POWERFUL_SCOPE = /^(admin|administrator|owner|root|superuser|\*|all|full|full[_-]?access|[\w-]+:\*)$/i;
const EXPIRY_KEY = /^(expires?(_in|_at|_after)?(_days|_hours|_seconds)?|expiry|expiration|ttl|lifetime|valid_for)$/i;

/** What makes a re-issued key lasting or broad (`scopes: ["admin"]`, `expires_in_days: null`), if anything. */
function broadenedKey(found: ServiceTool): string | undefined {
  if (!found.words.some((w) => REISSUING.test(w)) || !found.words.some((w) => MADE_ACCESS.test(w))) return undefined;
  for (const [key, value] of Object.entries(found.args)) {
    const values = Array.isArray(value) ? value : [value];
    if (
      /^(scopes?|permissions?|roles?|access)$/i.test(key) &&
      values.some((v) => typeof v === 'string' && POWERFUL_SCOPE.test(v))
    )
      return `${key}: ${JSON.stringify(value)}`;
    if (EXPIRY_KEY.test(key) && (value === null || value === 0 || value === 'never' || value === '0'))
      return `${key}: ${JSON.stringify(value)}`;
  }
  return undefined;
}

export const mcpAccessGrantingTool = definePolicy({
  name: 'mcp-access-granting-tool',
  category: 'dangerous-commands',
  description:
    "Asks before an MCP server's tool that grants access on the service it fronts: attaches a policy, binds a role, adds a member, invites, shares, makes something public, a key or a webhook, loosens branch protection, forks elsewhere.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = serviceTool(call);
    if (!found) return null;
    const opened = madePublic(found.args);
    if (opened && !found.words.some((w) => LOOKING.test(w)))
      return serviceFinding(
        found,
        `it makes what it touches public (${opened}): anyone can read and copy it, and copies outlive making it private again. A person decides.`,
      );
    // `unprotect_branch`: the protection removed outright.
    if (found.words.includes('unprotect'))
      return serviceFinding(found, "it removes the rules that guard the repository's branches. A person decides.");
    if (found.words.some((w) => PROTECTION_NOUNS.test(w)) && found.words.some((w) => CHANGING.test(w)))
      return serviceFinding(found, "it changes the rules that guard the repository's branches. A person decides.");
    const fork = forkedElsewhere(found.args);
    if (found.words.includes('fork') && fork)
      return serviceFinding(found, `it copies the repository into ${fork}, outside its owner. A person decides.`);
    const broadened = broadenedKey(found);
    if (broadened)
      return serviceFinding(
        found,
        `it makes the key again with ${broadened}: a way in that is broader or lasts longer than the one it replaces. A person decides.`,
      );
    const scoped = Object.keys(found.args).some((key) => /^(scopes?|permissions?|access)$/i.test(key));
    if (found.words.includes('install') && found.words.some((w) => INSTALLED_APP.test(w)) && scoped)
      return serviceFinding(
        found,
        'it installs an app there with the access it asks for, which stays after this session. A person decides.',
      );
    const verb = found.words.find((w) => GRANTING.test(w));
    const nouns = found.words.filter((w) => ACCESS_NOUNS.test(w));
    // `create_access_key` makes a way in; `create_issue` grants nothing; `share_file` gives someone the file.
    const made = nouns.some((noun) => MADE_ACCESS.test(noun));
    if (!verb || !nouns.length || (verb === 'create' && !made)) return null;
    if (verb !== 'share' && nouns.every((noun) => /^(file|folder|drive|document)$/.test(noun))) return null;
    if (verb === 'share' && !widensShare(found.args)) return null;
    // A payment service's test mode carries no customer's data: its webhooks are for development.
    if (nouns.some((noun) => /^(webhook|webhooks|hook|hooks)$/.test(noun)) && found.args['livemode'] === false)
      return null;
    return serviceFinding(found, 'it grants access on that service, which stays after this session. A person decides.');
  },
});

export const mcpSecretReadingTool = definePolicy({
  name: 'mcp-secret-reading-tool',
  category: 'secrets',
  description:
    "Asks before an MCP server's tool hands back a stored secret (get_secret_value, a password manager's item, an API or service key, values asked for decrypted): it lands in the transcript and goes to the model.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = serviceTool(call);
    if (!found) return null;
    const decrypting = DECRYPTING.some((name) => found.args[name] === true);
    if (decrypting)
      return serviceFinding(
        found,
        'it hands back stored values in the clear, which land in the transcript and go to the model.',
      );
    if (clearConfigVars(found))
      return serviceFinding(
        found,
        "it hands back the app's config vars in the clear (its database URL, keys and passwords), which land in the transcript and go to the model.",
      );
    if (!found.words.some((w) => READING.test(w))) return null;
    const namedKey = found.words.some((w) => w === 'key' || w === 'keys') && found.words.some((w) => KEY_KINDS.test(w));
    const named =
      namedKey ||
      found.words.some((w) => SECRET_NOUNS.test(w)) ||
      SECRET_STORE_NAME.test(found.server) ||
      (CONNECTION_KEEPERS.test(found.server) && found.words.some((w) => w === 'connection' || w === 'connections')) ||
      Object.values(found.args).some((v) => typeof v === 'string' && /^secrets?$/i.test(v)) ||
      // `get_project_variable` of a CI variable whose name says it holds a credential (a masked one, as like as not).
      (found.words.some((w) => /^variables?$/.test(w)) && secretNamedKey(found.args));
    if (!named || (found.words.includes('item') && !SECRET_STORE_NAME.test(found.server))) return null;
    return serviceFinding(
      found,
      'it hands back a stored secret, which lands in the transcript and goes to the model. Let the tool that needs it read it itself, or run this yourself.',
    );
  },
});

/** A `key` or `name` argument that names a credential (`STEAM_BUILD_PASSWORD`). */
function secretNamedKey(input: Record<string, unknown>): boolean {
  return ['key', 'name', 'variable', 'variable_name'].some((arg) => {
    const value = input[arg];
    return typeof value === 'string' && classifySecretName(value) !== null;
  });
}

/** Tools that only look: `list_repos({ visibility: 'public' })` filters, it opens nothing. */
const LOOKING = /^(get|read|list|search|find|query|show|describe|view|fetch|count)$/;

/** The argument that opens a repository, dataset, gist or object to everyone (`private: false`, `public: true`). */
function madePublic(input: Record<string, unknown>): string | undefined {
  if (input['private'] === false) return 'private: false';
  for (const key of ['public', 'is_public', 'isPublic']) if (input[key] === true) return `${key}: true`;
  for (const key of ['visibility', 'acl', 'access'])
    if (typeof input[key] === 'string' && /^public(-read(-write)?)?$/i.test(input[key] as string))
      return `${key}: ${input[key] as string}`;
  return undefined;
}

/** The account a fork is made in, when it is not the source's owner (`organization`, `target_owner`). */
function forkedElsewhere(input: Record<string, unknown>): string | undefined {
  const owner = typeof input['owner'] === 'string' ? input['owner'] : undefined;
  for (const key of ['organization', 'org', 'target_owner', 'namespace']) {
    const into = input[key];
    if (typeof into === 'string' && into !== '' && into !== owner) return into;
  }
  return undefined;
}

/**
 * A share that opens a file to anyone with the link (or a whole domain), or lets someone change or own it.
 * Letting a named person read or comment on a document is how a team works.
 */
function widensShare(input: Record<string, unknown>): boolean {
  const type = typeof input['type'] === 'string' ? input['type'].toLowerCase() : '';
  const role = typeof input['role'] === 'string' ? input['role'].toLowerCase() : '';
  return type === 'anyone' || type === 'domain' || /^(writer|owner|organizer|fileorganizer|editor)$/.test(role);
}
