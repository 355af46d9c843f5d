import { optionValues } from '../../facts/commands';
import { infraPolicy } from './infrastructure';
import { DEVELOPMENT_NAME, PRODUCTION_NAME } from './production-sql';

// The hosted platforms an app team deploys to and signs with keep what nothing else keeps: the
// deployment that serves production, a Firestore or Supabase database, the team's signing
// certificates, the login keychain. Their CLIs delete it in one line, so those lines ask a person.

/** What a CLI's subcommand does that asks (deletes for good, grants access), in words, or null. */
type SubcommandFinding = (positionals: string[], args: readonly string[]) => string | null;

const has = (args: readonly string[], ...flags: string[]) => args.some((a) => flags.includes(a.split('=')[0]!));

/** Per CLI, what its subcommand deletes for good, or null. */
const flyDestroys: SubcommandFinding = ([sub, second]) =>
  ['apps', 'volumes', 'postgres', 'machine', 'machines'].includes(sub ?? '') &&
  ['destroy', 'delete', 'remove', 'rm'].includes(second ?? '')
    ? `destroys ${sub}`
    : sub === 'destroy'
      ? 'destroys an app'
      : sub === 'secrets' && second === 'unset'
        ? 'removes secrets the app needs to boot (the app redeploys without them)'
        : null;

/** `hcloud server delete NAME`, `doctl compute droplet delete NAME`, `linode-cli linodes delete ID`. */
const serverCloudDeletes: SubcommandFinding = (positionals) => {
  const verb = positionals.slice(0, 3).findIndex((word) => word === 'delete' || word === 'destroy' || word === 'rm');
  return verb > 0 ? 'deletes it for good, with its disks and data' : null;
};

/** A secret key deleted from the keyring is gone for good: what it signed can no longer be signed again. */
const gpgDeletes: SubcommandFinding = (_, args) =>
  args.some((a) => /^--delete-secret(-and-public)?-keys?$/.test(a)) ? 'deletes a private key from the keyring' : null;

/**
 * A Shopify store's live theme is what every shopper sees, and its files hold the merchant's editor
 * settings: publishing, deleting or pushing over it is felt at once. An app release with `--force`
 * skips the prompt that lists the extensions it removes from every store that installed the app.
 */
const shopifyChanges: SubcommandFinding = ([sub, second], args) => {
  // `--development`: the person's own development theme, which `theme dev` makes again.
  if (sub === 'theme' && second === 'delete' && !has(args, '--development', '-d'))
    return "deletes a theme and the merchant's editor settings in it";
  if (sub === 'theme' && second === 'publish') return 'makes a theme live for every shopper';
  if (sub === 'theme' && second === 'push' && has(args, '--live', '-l', '--allow-live', '-a'))
    return "overwrites the live theme's files (without --nodelete, deletes those missing here)";
  if (sub === 'app' && (second === 'deploy' || second === 'release') && has(args, '--force', '-f'))
    return 'releases to every store that installed the app, without the prompt that lists what it removes';
  return null;
};

/** Heroku's subcommands that delete or replace data for good. */
const HEROKU_DELETES: Record<string, string> = {
  'apps:destroy': 'destroys an app',
  destroy: 'destroys an app',
  'pg:reset': 'resets a database',
  'pg:backups:delete': 'deletes a database backup',
  // A restore or a copy replaces the target database whole: what was written since is gone.
  'pg:backups:restore': 'replaces a live database with a backup, losing everything written since',
  'pg:copy': 'overwrites the target database with another',
  'addons:destroy': 'destroys an add-on and the data it holds (a database, a Redis)',
  'addons:remove': 'destroys an add-on and the data it holds (a database, a Redis)',
  // Heroku Connect: a mapping deleted drops its synced table and the sync state.
  'connect:mapping:delete': 'deletes a Heroku Connect mapping, its table and its sync state',
};

/** The org a Salesforce CLI command works on, when it names one (`-o prod`, `--target-org=prod`, sfdx's `-u`). */
function salesforceOrg(args: readonly string[]): string | undefined {
  return optionValues(args, ['o', 'u'], ['target-org', 'targetusername'])[0];
}

/**
 * Firebase: data deleted or replaced, a function, an app or the project deleted. A project named for
 * development (`ledgerly-dev`, `app-staging`) is made to be changed, except that deleting a whole project
 * is never small.
 */
const firebaseChanges: SubcommandFinding = ([sub], args) => {
  if (sub === 'projects:delete') return `${sub} deletes it for good`;
  const project = optionValues(args, ['P'], ['project'])[0];
  if (project !== undefined && DEVELOPMENT_NAME.test(project) && !PRODUCTION_NAME.test(project)) return null;
  if (sub === 'firestore:delete' || sub === 'database:remove' || sub === 'hosting:disable' || sub === 'auth:import')
    return `${sub} deletes or replaces data`;
  return sub === 'apps:delete' || sub === 'functions:delete' ? `${sub} deletes it for good` : null;
};

/**
 * The Salesforce CLI on an org's data and metadata. A hard delete skips the recycle bin wherever it
 * runs; the rest asks only where the target org is named for production, since scratch orgs and
 * sandboxes are made to be changed (a sandbox itself deleted is days of set-up, so that asks too).
 */
const salesforceChanges: SubcommandFinding = (positionals, args) => {
  const [area, verb, third] = positionals;
  const org = salesforceOrg(args);
  const production = org !== undefined && PRODUCTION_NAME.test(org);
  const checkOnly = has(args, '--dry-run', '--check-only');
  if (area === 'data' && verb === 'delete' && has(args, '--hard-delete'))
    return 'hard-deletes records, past the recycle bin (they cannot be restored)';
  if (area === 'org' && verb === 'delete' && third === 'sandbox')
    return 'deletes a sandbox and everything set up in it';
  if (!production) return null;
  if (area === 'data' && ['delete', 'upsert', 'update', 'import'].includes(verb ?? ''))
    return `${verb === 'delete' ? 'deletes' : 'overwrites'} production records`;
  if (area === 'project' && verb === 'delete' && third === 'source')
    return 'deletes metadata from production (an object or a field takes its records with it)';
  if (
    area === 'project' &&
    verb === 'deploy' &&
    !checkOnly &&
    has(args, '--pre-destructive-changes', '--post-destructive-changes', '--purge-on-delete')
  )
    return 'deletes the components its destructive manifest lists from production, with their data';
  if (area === 'apex' && verb === 'run' && third !== 'test')
    return "runs anonymous Apex in production with the logged-in user's rights";
  return null;
};

const PLATFORM_DELETES: Record<string, SubcommandFinding> = {
  vercel: ([sub, second]) =>
    sub === 'remove' || sub === 'rm'
      ? 'removes deployments (the one serving production too)'
      : ['project', 'projects', 'domains', 'env'].includes(sub ?? '') && (second === 'rm' || second === 'remove')
        ? `removes a ${sub === 'env' ? 'environment variable' : sub!.replace(/s$/, '')}`
        : null,
  netlify: ([sub]) => (sub === 'sites:delete' ? 'deletes a site' : null),
  heroku: ([sub]) => HEROKU_DELETES[sub ?? ''] ?? null,
  sf: salesforceChanges,
  sfdx: salesforceChanges,
  // The Stripe CLI works in test mode unless told `--live`: then a delete removes real customers' data.
  // `stripe subscriptions cancel … --live` ends a paying customer's subscription as surely as a delete.
  stripe: ([, verb], args) =>
    (verb === 'delete' || verb === 'cancel') && args.includes('--live') ? `${verb}s live-mode data` : null,
  // Unregistering a WSL distribution deletes its whole file system: the home folder and every project in it.
  wsl: (_, args) => (has(args, '--unregister') ? 'unregisters a WSL distribution, deleting its file system' : null),
  // Laravel Vapor: `database:delete`, `env:delete`, `cache:delete`, `project:delete` remove the AWS resource too.
  vapor: ([sub]) => (sub !== undefined && /^[a-z-]+:delete$/.test(sub) ? `${sub} deletes it for good` : null),
  // Argo CD deletes an application's live resources with it unless told `--cascade=false`.
  argocd: ([sub, second], args) =>
    (sub === 'app' || sub === 'apps') && second === 'delete' && !args.includes('--cascade=false')
      ? 'deletes an Argo CD application and every resource it deployed'
      : null,
  fly: flyDestroys,
  flyctl: flyDestroys,
  // Virtual-server clouds: a server, a volume or a managed database deleted takes its disks with it.
  hcloud: serverCloudDeletes,
  doctl: serverCloudDeletes,
  'linode-cli': serverCloudDeletes,
  'vultr-cli': serverCloudDeletes,
  scw: serverCloudDeletes,
  firebase: firebaseChanges,
  supabase: ([sub, second], args) =>
    sub === 'db' && second === 'reset' && has(args, '--linked', '--db-url')
      ? 'resets the linked (remote) database, not the local one'
      : (sub === 'projects' && second === 'delete') || (sub === 'storage' && second === 'rm')
        ? `${sub} ${second} deletes it for good`
        : null,
  // `--local` works on wrangler dev's own copy of the bindings, on this machine.
  wrangler: ([sub, second, third], args) =>
    sub === 'delete' ||
    (['d1', 'kv', 'r2', 'queues'].includes(sub ?? '') && [second, third].includes('delete') && !has(args, '--local'))
      ? 'deletes a worker or its data'
      : null,
  shopify: shopifyChanges,
  // A named tunnel deleted: the hostnames routed to it stop answering, and its credentials are void.
  cloudflared: ([sub, second]) =>
    sub === 'tunnel' && (second === 'delete' || second === 'cleanup') ? `${second}s a named tunnel` : null,
  // fastlane match nuke revokes every certificate of the kind and deletes the profiles, for the whole team.
  fastlane: ([sub, second]) =>
    sub === 'match' && second === 'nuke' ? "revokes the team's signing certificates" : null,
  // 1Password: an item, a vault or a document deleted is gone for everyone who shares it.
  op: ([sub, second]) =>
    ['item', 'vault', 'document'].includes(sub ?? '') && second === 'delete'
      ? `deletes a shared 1Password ${sub}`
      : null,
  // chezmoi purge deletes its source folder (every managed dotfile and script) and its state.
  chezmoi: ([sub], args) =>
    sub === 'purge' && has(args, '--force') ? 'deletes the dotfiles source, scripts and state' : null,
  gpg: gpgDeletes,
  gpg2: gpgDeletes,
  // A Java keystore's entry deleted: an app's release signing key cannot be made again.
  keytool: (_, args) => (has(args, '-delete') ? 'deletes a key or certificate from a Java keystore' : null),
  security: ([sub]) =>
    sub === 'delete-keychain'
      ? 'deletes a keychain and every password and key in it'
      : sub === 'delete-identity'
        ? 'deletes a signing identity, its private key with it'
        : null,
};

export const appPlatformDestructive = infraPolicy({
  name: 'app-platform-destructive',
  description:
    'Asks before a platform CLI deletes for good or changes what is live: vercel remove, heroku apps:destroy, fly destroy, firestore:delete, supabase db reset --linked, stripe --live, sf data delete --hard-delete, argocd, wsl.',
  tools: Object.keys(PLATFORM_DELETES),
  valueShort: ['P', 'p', 'a', 'c'],
  valueLong: ['project', 'scope', 'token', 'team', 'app', 'config', 'cwd', 'env', 'workdir', 'profile'],
  action(positionals, args, tool) {
    const what = PLATFORM_DELETES[tool]?.(positionals, args);
    return what ? { what: `${tool} ${positionals.slice(0, 2).join(' ')} ${what}` } : null;
  },
});

// Access to the platform itself: whoever is invited deploys, reads the apps' secrets and opens a console
// on their machines, long after the task that invited them.
const flyInvites: SubcommandFinding = ([sub, second]) =>
  ['orgs', 'org'].includes(sub ?? '') && second === 'invite' ? 'invites a member' : null;

/** A permission set (or its licence) assigned in production: rights that stay with the user after the task. */
const salesforceGrants: SubcommandFinding = ([area, verb, third], args) => {
  const org = salesforceOrg(args);
  return area === 'org' &&
    verb === 'assign' &&
    (third === 'permset' || third === 'permsetlicense') &&
    org !== undefined &&
    PRODUCTION_NAME.test(org)
    ? 'assigns a permission set in production'
    : null;
};

const PLATFORM_GRANTS: Record<string, SubcommandFinding> = {
  fly: flyInvites,
  flyctl: flyInvites,
  heroku: ([sub]) =>
    sub === 'access:add' || sub === 'members:add' || sub === 'apps:transfer' || sub === 'sharing:add'
      ? sub === 'apps:transfer'
        ? 'hands the app to another owner'
        : 'gives someone access to the app'
      : null,
  vercel: ([sub, second]) =>
    ['teams', 'team'].includes(sub ?? '') && (second === 'invite' || second === 'add') ? 'invites a team member' : null,
  sf: salesforceGrants,
  sfdx: salesforceGrants,
};

export const appPlatformAccessGrant = infraPolicy({
  name: 'app-platform-access-grant',
  description:
    'Asks before an app platform CLI gives someone access that outlasts the task: fly orgs invite, heroku access:add or apps:transfer, vercel teams invite.',
  tools: Object.keys(PLATFORM_GRANTS),
  why: 'it gives someone lasting access to the app or the team, beyond this task',
  valueShort: ['a', 'r'],
  valueLong: ['app', 'team', 'scope', 'org', 'permissions', 'role', 'token'],
  action(positionals, args, tool) {
    const what = PLATFORM_GRANTS[tool]?.(positionals, args);
    return what ? { what: `${tool} ${positionals.slice(0, 2).join(' ')} ${what}` } : null;
  },
});
