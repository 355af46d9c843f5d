import { z } from 'zod';
import { secretBasenameKind } from '../../facts/sensitive-paths';
import type { SimpleCommand } from '../../shell';
import { dbusCallOf, dbusSecretAccess } from '../../facts/dbus';
import { classifySecretName } from '../../redaction/secret-names';
import { isIssuerHost, issuedElsewhere, issuerOf } from './shared/credential-hosts';
import { definePolicy } from '../types';
import { mcpToolOf } from './shared/mcp';
import type { PolicyHit, ToolCall } from '../types';
import { environmentPrinted } from './shared/printed-environment';
import { credentialValueSearch, seeksCredentialValues } from './shared/credential-search';
import { artisanArguments, djangoManageArguments, interpreterKind } from '../../facts/programs';
import { sqlTexts } from './database';
import { isLocalHost, urlHostsOf } from './shared/hosts';
import { KUBECTL_VALUE_LONG, KUBECTL_VALUE_SHORT } from './infrastructure';
import { GLOBAL_VALUE_OPTIONS, type ValueOptions } from '../../shell/cli-options';
import {
  argsOf,
  downstreamOf,
  downstreamStage,
  evidenceOf,
  isDynamicArg,
  optionValues,
  parseFlags,
  shellCommands,
  stageProgram,
  reachedBy,
} from '../../facts/commands';

// Commands whose output is a credential: CLIs that print tokens and passwords, password
// managers, git's credential helpers, and secret-named environment variables echoed out. What a
// command prints lands in the transcript and goes to the model, the same argument the .env
// policy makes for files.

interface CredentialCommand {
  /** The program. */
  name: string;
  /** The words after it, as a prefix of its non-option arguments (lower case). */
  words: readonly string[];
  /**
   * Options of which at least one must be present, when the subcommand alone is not enough; a long
   * option's value given as the next word is tested as `--name=value`.
   */
  anyOption?: readonly RegExp[];
  /** Options that make it print no secret (`doppler secrets --only-names`). */
  noOption?: readonly RegExp[];
  /** An operand after the subcommand words must be a secret-named key (`terraform output -raw db_password`). */
  secretOperand?: boolean;
  /** What it prints may be secret but often is not (all outputs of a stack): a person decides. */
  ask?: boolean;
  what: string;
}

/**
 * `docker compose [-f FILE…] config`: the compose file with every ${VAR} filled in from the environment
 * and .env. Only files may come between (a `compose exec … config` runs another program's config).
 */
function composeConfig(program: string, words: readonly string[]): boolean {
  const from = program === 'docker' && words[0] === 'compose' ? 1 : program === 'docker-compose' ? 0 : -1;
  const at = words.indexOf('config');
  return from >= 0 && at >= from && words.slice(from, at).every((w) => /[./]/.test(w));
}

/** `docker compose config` options that print names, a hash or nothing, or leave the variables as written. */
const COMPOSE_NAMES_ONLY =
  /^(--services|--volumes|--profiles|--images|--networks|--hash|-q|--quiet|--no-interpolate|--variables)(=|$)/;

const CREDENTIAL_COMMANDS: readonly CredentialCommand[] = [
  { name: 'gh', words: ['auth', 'token'], what: "GitHub CLI's token" },
  { name: 'gh', words: ['auth', 'status'], anyOption: [/^--show-token$/, /^-\w*t$/], what: "GitHub CLI's token" },
  { name: 'aws', words: ['configure', 'get'], what: 'an AWS configuration value (keys included)' },
  { name: 'aws', words: ['configure', 'export-credentials'], what: 'AWS credentials' },
  { name: 'aws', words: ['ecr', 'get-login-password'], what: 'an ECR registry password' },
  { name: 'aws', words: ['codeartifact', 'get-authorization-token'], what: 'a CodeArtifact token' },
  { name: 'aws', words: ['sts', 'get-session-token'], what: 'temporary AWS credentials' },
  { name: 'aws', words: ['sts', 'assume-role'], what: 'temporary AWS credentials' },
  { name: 'gcloud', words: ['auth', 'print-access-token'], what: 'a Google Cloud access token' },
  { name: 'gcloud', words: ['auth', 'print-identity-token'], what: 'a Google Cloud identity token' },
  { name: 'gcloud', words: ['auth', 'application-default', 'print-access-token'], what: 'a Google Cloud token' },
  { name: 'gcloud', words: ['config', 'config-helper'], what: 'Google Cloud credentials' },
  { name: 'az', words: ['account', 'get-access-token'], what: 'an Azure access token' },
  { name: 'kubectl', words: ['config', 'view'], anyOption: [/^--raw$/, /^--flatten$/], what: 'kubeconfig credentials' },
  { name: 'vault', words: ['kv', 'get'], what: 'a Vault secret' },
  { name: 'vault', words: ['read'], what: 'a Vault secret' },
  { name: 'vault', words: ['print', 'token'], what: 'the Vault token' },
  { name: 'pass', words: ['show'], what: 'a password from pass' },
  { name: 'gopass', words: ['show'], what: 'a password from gopass' },
  { name: 'op', words: ['read'], what: 'a 1Password secret' },
  { name: 'op', words: ['item', 'get'], what: 'a 1Password item' },
  // A service account's token opens the vaults it is given to whoever holds it, and is printed once, here.
  { name: 'op', words: ['service-account', 'create'], what: 'a new 1Password service account token' },
  // chezmoi decrypts its age- or gpg-encrypted files, and its templates call the password managers.
  { name: 'chezmoi', words: ['decrypt'], what: 'a file chezmoi keeps encrypted' },
  {
    name: 'chezmoi',
    words: ['execute-template'],
    anyOption: [
      /\b(?:onepassword|bitwarden|pass|gopass|keepassxc|lastpass|vault|secret|keyring|awsSecretsManager|azureKeyVault|doppler|hcpVaultSecret)\w*\s/,
    ],
    what: 'a password-manager secret read by a chezmoi template',
  },
  { name: 'bw', words: ['get'], what: 'a Bitwarden secret' },
  { name: 'bw', words: ['list', 'items'], what: 'Bitwarden items' },
  { name: 'lpass', words: ['show'], what: 'a LastPass secret' },
  { name: 'keepassxc-cli', words: ['show'], what: 'a KeePassXC entry' },
  { name: 'secret-tool', words: ['lookup'], what: 'a keyring secret' },
  // Without -w (the password alone) or -g (with the attributes) it prints the item's attributes only.
  {
    name: 'security',
    words: ['find-generic-password'],
    anyOption: [/^-[a-zA-Z]*[wg]/],
    what: 'a keychain password',
  },
  {
    name: 'security',
    words: ['find-internet-password'],
    anyOption: [/^-[a-zA-Z]*[wg]/],
    what: 'a keychain password',
  },
  // Identities are certificates with their private keys (a signing identity), exported as a PKCS#12 file.
  {
    name: 'security',
    words: ['export'],
    anyOption: [/^(identities|privKeys)$/, /^pkcs12$/],
    what: "the keychain's private keys",
  },
  { name: 'git', words: ['credential', 'fill'], what: 'git credentials' },
  { name: 'imgtool', words: ['getpriv'], what: 'a private signing key' },
  { name: 'git', words: ['credential-store', 'get'], what: 'git credentials' },
  { name: 'git', words: ['credential-cache', 'get'], what: 'git credentials' },
  // The helpers git runs, run by hand: `get` prints the stored username and password (Windows' from WSL too).
  ...['manager', 'manager-core', 'wincred', 'osxkeychain', 'libsecret', 'store', 'cache'].map((helper) => ({
    name: `git-credential-${helper}`,
    words: ['get'],
    what: 'git credentials',
  })),
  { name: 'stripe', words: ['config'], anyOption: [/^--list$/], what: "the Stripe CLI's API keys (test and live)" },
  { name: 'heroku', words: ['auth:token'], what: 'the Heroku token' },
  // A new authorization is printed once, whole: a token that lasts until revoked.
  { name: 'heroku', words: ['authorizations:create'], what: 'a new Heroku API token' },
  { name: 'heroku', words: ['pg:backups:url'], what: "a signed link that downloads the whole database's backup" },
  // Firebase: a Cloud Functions secret's value (`secrets:get` shows only its versions); every account of the
  // project with its password hash and salt.
  { name: 'firebase', words: ['functions:secrets:access'], what: "a Cloud Functions secret's value" },
  { name: 'firebase', words: ['auth:export'], what: 'every user account of the project, with its password hash' },
  // The Salesforce CLI: --verbose adds the Sfdx auth URL (a refresh token) to the org's access token;
  // --url-only prints the front-door link, a live session for whoever opens it.
  ...['sf', 'sfdx'].flatMap((name) => [
    {
      name,
      words: ['org', 'display'],
      anyOption: [/^--verbose$/],
      what: "the org's access token and its auth URL (a refresh token)",
    },
    { name, words: ['org', 'open'], anyOption: [/^(--url-only|-r)$/], what: 'a login link carrying a live session' },
    { name, words: ['force:org:display'], anyOption: [/^--verbose$/], what: "the org's access token and auth URL" },
  ]),
  ...['fly', 'flyctl'].flatMap((name) => [
    { name, words: ['auth', 'token'], what: 'the Fly.io API token (every app of the organisation)' },
    { name, words: ['tokens', 'create'], what: 'a new Fly.io API token' },
  ]),
  { name: 'mix', words: ['hex.config', 'api_key'], what: 'the Hex API key' },
  { name: 'mix', words: ['hex.user', 'key', 'generate'], what: 'a new Hex API key' },
  {
    name: 'mix',
    words: ['hex.organization', 'key', 'generate'],
    what: "a new key to an organisation's private Hex packages",
  },
  // A release's values with --all: what was given at install, passwords included; a person decides.
  {
    name: 'helm',
    words: ['get', 'values'],
    anyOption: [/^(-a|--all)$/],
    ask: true,
    what: "a release's values, secrets passed at install included",
  },
  { name: 'doctl', words: ['auth', 'token'], what: 'the DigitalOcean token' },
  // Secret stores and the CLIs of cloud secret managers: reading one prints the secret's value.
  { name: 'aws', words: ['secretsmanager', 'get-secret-value'], what: 'an AWS Secrets Manager secret' },
  { name: 'aws', words: ['secretsmanager', 'batch-get-secret-value'], what: 'AWS Secrets Manager secrets' },
  ...['get-parameter', 'get-parameters', 'get-parameters-by-path'].map((sub) => ({
    name: 'aws',
    words: ['ssm', sub],
    anyOption: [/^--with-decryption$/],
    what: 'decrypted SSM parameters',
  })),
  { name: 'aws', words: ['kms', 'decrypt'], what: 'KMS-decrypted plaintext' },
  { name: 'aws', words: ['iam', 'create-access-key'], what: 'a new AWS secret access key' },
  { name: 'aws', words: ['iam', 'create-login-profile'], what: 'an AWS console password' },
  { name: 'gcloud', words: ['secrets', 'versions', 'access'], what: 'a Google Secret Manager secret' },
  { name: 'gcloud', words: ['iam', 'service-accounts', 'keys', 'create'], what: 'a new service-account key' },
  // Decrypted into the terminal: `--plaintext-file -` is standard output.
  {
    name: 'gcloud',
    words: ['kms', 'decrypt'],
    anyOption: [/^--plaintext-file=(-|\/dev\/stdout)$/],
    what: 'KMS-decrypted plaintext',
  },
  { name: 'firebase', words: ['login:ci'], what: 'a new long-lived Firebase token' },
  { name: 'az', words: ['keyvault', 'secret', 'show'], what: 'an Azure Key Vault secret' },
  { name: 'az', words: ['keyvault', 'secret', 'download'], what: 'an Azure Key Vault secret' },
  { name: 'az', words: ['storage', 'account', 'keys', 'list'], what: 'Azure storage account keys' },
  { name: 'az', words: ['storage', 'account', 'show-connection-string'], what: 'an Azure storage connection string' },
  { name: 'az', words: ['acr', 'credential', 'show'], what: 'container registry passwords' },
  {
    name: 'az',
    words: ['webapp', 'deployment', 'list-publishing-profiles'],
    what: "an App Service's deployment passwords",
  },
  {
    name: 'az',
    words: ['functionapp', 'deployment', 'list-publishing-profiles'],
    what: "a Function App's deployment passwords",
  },
  { name: 'az', words: ['cosmosdb', 'keys', 'list'], what: 'Cosmos DB account keys' },
  { name: 'az', words: ['ad', 'sp', 'create-for-rbac'], what: 'a new service principal password' },
  { name: 'az', words: ['ad', 'app', 'credential', 'reset'], what: 'a new secret of an app registration' },
  { name: 'az', words: ['ad', 'sp', 'credential', 'reset'], what: 'a new service principal secret' },
  { name: 'az', words: ['acr', 'token', 'create'], what: "a new registry token's passwords" },
  { name: 'az', words: ['acr', 'token', 'credential', 'generate'], what: "a registry token's new passwords" },
  // The MinIO client's aliases hold each server's access and secret key, printed in full.
  { name: 'mc', words: ['alias', 'list'], what: "the MinIO client's access and secret keys" },
  { name: 'mc', words: ['alias', 'ls'], what: "the MinIO client's access and secret keys" },
  { name: 'mc', words: ['admin', 'user', 'svcacct', 'add'], what: 'a new MinIO access key and secret' },
  { name: 'kubectl', words: ['create', 'token'], what: 'a Kubernetes service-account token' },
  { name: 'kubectl', words: ['set', 'env'], anyOption: [/^--resolve$/], what: 'resolved Kubernetes secrets' },
  { name: 'vault', words: ['token', 'create'], what: 'a new Vault token' },
  { name: 'p4', words: ['tickets'], what: 'the Perforce login tickets of every server' },
  { name: 'p4', words: ['login'], anyOption: [/^-\w*p/], what: 'a Perforce login ticket' },
  { name: 'firebase', words: ['functions:config:get'], what: "a Firebase project's runtime config (its API keys)" },
  { name: 'supabase', words: ['projects', 'api-keys'], what: "a Supabase project's API keys, service_role among them" },
  { name: 'doppler', words: ['secrets'], noOption: [/^--only-names$/], what: 'Doppler secrets' },
  { name: 'doppler', words: ['configs', 'tokens', 'create'], what: 'a new Doppler service token' },
  // The Shopify CLI prints the app's client secret with its environment.
  { name: 'shopify', words: ['app', 'env', 'show'], what: "a Shopify app's client secret (SHOPIFY_API_SECRET)" },
  { name: 'shopify', words: ['app', 'info'], anyOption: [/^--web-env$/], what: "a Shopify app's client secret" },
  { name: 'dotnet', words: ['user-secrets', 'list'], what: "a .NET project's user secrets" },
  { name: 'infisical', words: ['secrets'], what: 'Infisical secrets' },
  { name: 'infisical', words: ['export'], what: 'Infisical secrets' },
  { name: 'chamber', words: ['read'], what: 'a chamber secret' },
  { name: 'chamber', words: ['export'], what: 'chamber secrets' },
  { name: 'airflow', words: ['connections', 'get'], what: 'an Airflow connection, its password included' },
  { name: 'airflow', words: ['connections', 'export'], what: 'every Airflow connection, passwords included' },
  {
    name: 'airflow',
    words: ['variables', 'export'],
    ask: true,
    what: 'every Airflow variable (often keys and webhooks)',
  },
  {
    name: 'airflow',
    words: ['config', 'get-value'],
    secretOperand: true,
    what: 'an Airflow secret setting (the Fernet key decrypts every stored connection)',
  },
  { name: 'databricks', words: ['secrets', 'get-secret'], what: 'a Databricks secret' },
  { name: 'keyring', words: ['get'], what: 'a password from the desktop keyring' },
  // A wallet's private key, decrypted from its key store or derived from a mnemonic; Hardhat's stored variables.
  { name: 'cast', words: ['wallet', 'decrypt-keystore'], what: "a wallet's private key" },
  { name: 'cast', words: ['wallet', 'private-key'], what: "a wallet's private key" },
  { name: 'cast', words: ['wallet', 'derive-private-key'], what: "a wallet's private key" },
  { name: 'hardhat', words: ['vars', 'get'], what: 'a Hardhat configuration variable (deploy keys are kept there)' },
  { name: 'heroku', words: ['config'], what: "a Heroku app's config vars (its secrets)" },
  {
    name: 'wp',
    words: ['config', 'list'],
    noOption: [/^--fields?=name$/],
    ask: true,
    what: "wp-config.php's constants (the database password and the salts among them)",
  },
  { name: 'heroku', words: ['config:get'], what: 'a Heroku config var' },
  { name: 'railway', words: ['variables'], what: "a Railway service's variables" },
  { name: 'netlify', words: ['env:get'], what: 'a Netlify environment variable' },
  { name: 'glab', words: ['auth', 'status'], anyOption: [/^--show-token$/, /^-\w*t$/], what: "GitLab CLI's token" },
  ...['terraform', 'tofu', 'terragrunt'].flatMap((name) => [
    { name, words: ['state', 'pull'], what: 'Terraform state (secrets in clear)' },
    { name, words: ['show'], anyOption: [/^-json$/], what: 'Terraform state (secrets in clear)' },
  ]),
  {
    name: 'terraform',
    words: ['output'],
    anyOption: [/^-(raw|json)$/],
    secretOperand: true,
    what: 'a sensitive Terraform output in clear',
  },
  {
    name: 'terraform',
    words: ['output'],
    anyOption: [/^-json$/],
    ask: true,
    what: 'every Terraform output, sensitive ones in clear',
  },
  { name: 'pulumi', words: ['config'], anyOption: [/^--show-secrets$/], what: 'Pulumi secrets' },
  { name: 'pulumi', words: ['stack', 'output'], anyOption: [/^--show-secrets$/], what: 'Pulumi secret outputs' },
  { name: 'pulumi', words: ['stack', 'export'], anyOption: [/^--show-secrets$/], what: 'Pulumi secrets' },
  ...['npm', 'pnpm', 'yarn'].map((name) => ({
    name,
    words: ['config', 'get'],
    secretOperand: true,
    what: 'a registry token from the package manager config',
  })),
  {
    name: 'git',
    words: ['config'],
    anyOption: [/^--get(-all|-regexp|-urlmatch)?$/],
    secretOperand: true,
    what: 'a credential from git config',
  },
  { name: 'git', words: ['config', 'get'], secretOperand: true, what: 'a credential from git config' },
  { name: 'gpg', words: [], anyOption: [/^--export-secret-(sub)?keys$/], what: 'GPG private keys' },
  { name: 'gpg2', words: [], anyOption: [/^--export-secret-(sub)?keys$/], what: 'GPG private keys' },
  { name: 'sops', words: [], anyOption: [/^-d$/, /^--decrypt$/], what: 'SOPS-decrypted secrets' },
  ...['age', 'rage'].map((name) => ({
    name,
    words: [],
    anyOption: [/^-[a-ce-zA-Z]*d[a-zA-Z]*$/, /^--decrypt$/],
    what: 'age-decrypted secrets',
  })),
  { name: 'ansible-vault', words: ['view'], what: 'an Ansible Vault file decrypted' },
  {
    name: 'ansible-vault',
    words: ['decrypt'],
    anyOption: [/^--output=(-|\/dev\/stdout)$/, /^--output$/],
    what: 'an Ansible Vault file decrypted',
  },
  { name: 'security', words: ['dump-keychain'], what: 'the keychain' },
  { name: 'secret-tool', words: ['search'], what: 'keyring secrets' },
  { name: 'glab', words: ['config', 'get'], secretOperand: true, what: "GitLab CLI's token" },
  { name: 'argocd', words: ['account', 'generate-token'], what: 'a new Argo CD token' },
  { name: 'argocd', words: ['admin', 'initial-password'], what: "Argo CD's admin password" },
  // Stores that hold secrets among other data, and dumps that include password hashes: a person decides.
  { name: 'consul', words: ['kv', 'get'], ask: true, what: "Consul's key-value store (it often holds secrets)" },
  { name: 'etcdctl', words: ['get'], ask: true, what: "etcd's keys (Kubernetes keeps its secrets there)" },
  { name: 'pg_dumpall', words: [], ask: true, what: 'every database with its roles and their password hashes' },
  {
    name: 'mysqldump',
    words: [],
    anyOption: [/^(-A|--all-databases)$/],
    ask: true,
    what: 'every database, mysql.user included',
  },
  { name: 'rails', words: ['credentials:show'], what: 'Rails encrypted credentials' },
  // Laravel's resolved configuration prints the values it reads from .env (`config:show services`).
  ...['app', 'services', 'cashier', 'database', 'filesystems', 'mail', 'queue', 'broadcasting'].map((file) => ({
    name: 'artisan',
    words: ['config:show', file],
    what: `Laravel's ${file} configuration, with the secrets it reads from .env`,
  })),
  { name: 'rails', words: ['credentials:edit'], what: 'Rails encrypted credentials' },
  // Django's settings as they resolve: SECRET_KEY, the databases' passwords, every key read from the environment.
  { name: 'manage.py', words: ['diffsettings'], what: "Django's settings, SECRET_KEY and passwords included" },
  // Gradle's properties task prints every project property, those of ~/.gradle/gradle.properties (signing
  // and publishing passwords) among them; Maven's effective settings print servers' passwords when asked to.
  ...['gradle', 'gradlew'].map((name) => ({
    name,
    words: ['properties'],
    what: "Gradle's project properties, the signing and publishing passwords of gradle.properties included",
  })),
  ...['mvn', 'mvnw'].map((name) => ({
    name,
    words: ['help:effective-settings'],
    anyOption: [/^-DshowPasswords=true$/],
    what: "Maven's settings with the servers' passwords in clear",
  })),
];

const CREDENTIAL_COMMANDS_BY_NAME = new Map<string, CredentialCommand[]>();
for (const entry of CREDENTIAL_COMMANDS)
  CREDENTIAL_COMMANDS_BY_NAME.set(entry.name, [...(CREDENTIAL_COMMANDS_BY_NAME.get(entry.name) ?? []), entry]);

/**
 * Whether `kubectl get secret` prints the secrets' data: any output format does (yaml, json, a jsonpath
 * or template over `.data`), but names, the wide table and columns or paths that never touch `data`.
 */
function showsSecretData(args: readonly string[]): boolean {
  const formats = optionValues(args, ['o'], ['output']);
  const joined = args.filter((a) => /^-o\S/.test(a)).map((a) => a.slice(2).replace(/^=/, ''));
  const all = [...formats, ...joined];
  if (all.length === 0) return false;
  return all.some(
    (format) =>
      !/^(name|wide)$/.test(format) &&
      (!/^(custom-columns|jsonpath|go-template)/.test(format) || readsSecretValues(format)),
  );
}

/** Keys of a TLS secret that hold certificates, which are public: `{.data.tls\.crt}` prints no secret. */
const PUBLIC_DATA_KEY = /^\.(string)?data\.(tls|ca)\\?\.crt$/i;

/** Whether a jsonpath, template or column spec reads `.data` beyond its public certificate keys. */
function readsSecretValues(format: string): boolean {
  const paths = format.match(/\.(string)?data\b[\w.\\-]*/gi) ?? [];
  return paths.some((path) => !PUBLIC_DATA_KEY.test(path));
}

function operands(cmd: SimpleCommand): string[] {
  // Global options with values (aws --profile p, kubectl -n ns) may stand anywhere; skipping every
  // word after an option would lose subcommands, so only words that are not options count.
  return argsOf(cmd)
    .filter((a) => !a.startsWith('-'))
    .map((a) => a.toLowerCase());
}

// The subcommand words in order, from the first operand (values of options like --profile may sit between).
/** Whether an option word, or a long option and the value in the next word as one (`--out -` as `--out=-`), matches. */
function optionMatches(pattern: RegExp, word: string, next: string | undefined): boolean {
  if (pattern.test(word)) return true;
  return next !== undefined && /^--[^=]+$/.test(word) && pattern.test(`${word}=${next}`);
}

function startsWithInOrder(words: readonly string[], wanted: readonly string[]): boolean {
  if (wanted.length > 0 && words[0] !== wanted[0]) return false;
  let at = 0;
  for (const word of wanted) {
    const found = words.indexOf(word, at);
    if (found === -1) return false;
    at = found + 1;
  }
  return true;
}

// Keys whose value is a credential although the name is not secret-shaped (npm's `//host/:_auth`).
// Airflow's fernet_key decrypts every stored connection; its sql_alchemy_conn is a database URL with its password.
const CREDENTIAL_KEY =
  /(^|[:./_])_?(auth|authtoken|password|token)$|extraheader$|^credential\.|^(fernet_key|sql_alchemy_conn)$/i;

// git's credential settings that name a helper program, a user name or a matching rule, not a secret.
const CREDENTIAL_SETTING = /^credential\.(?:.*\.)?(helper|username|usehttppath)$/i;

function namesSecret(word: string): boolean {
  return classifySecretName(word) !== null || (CREDENTIAL_KEY.test(word) && !CREDENTIAL_SETTING.test(word));
}

// WordPress's keys and salts (they sign login cookies) and its database password, as PHP names them.
const WP_SECRET_CONSTANT = /\b(?:(?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)|DB_PASSWORD)\b/;
const PHP_PRINTS = /\b(?:echo|print|printf|print_r|var_dump|var_export|error_log|json_encode)\b/;
// Options where a shop keeps a payment gateway's or a service's keys (`woocommerce_stripe_settings`).
export const SECRET_OPTION =
  /stripe|paypal|ppcp|braintree|square|mollie|klarna|authorize_?net|api_?key|secret|token|password/i;
// Composer's stored logins: `composer config --global http-basic.HOST` with no value prints that login.
const COMPOSER_AUTH_KEY = /^(?:http-basic|bearer|github-oauth|gitlab-oauth|gitlab-token|bitbucket-oauth)\./;

function upper(word: string | undefined): string {
  return (word ?? '').toUpperCase();
}

/** A site's secrets printed: WordPress's salts or a gateway's keys through WP-CLI or PHP, a Composer login. */
function siteSecretPrinted(program: string, args: readonly string[], words: readonly string[]): string | undefined {
  // `wp config get DB_PASSWORD`, `… NONCE_SALT`: a secret-named constant, or one of WordPress's keys and salts.
  const constant = program === 'wp' && words[0] === 'config' && words[1] === 'get' ? words[2] : undefined;
  if (constant !== undefined && (namesSecret(constant) || WP_SECRET_CONSTANT.test(upper(constant))))
    return `WordPress's ${upper(constant)} from wp-config.php`;
  if (program === 'wp' && words[0] === 'option' && (words[1] === 'get' || words[1] === 'pluck')) {
    const option = words[2] ?? '';
    const keyPath = words.slice(3);
    const secret = SECRET_OPTION.test(option) && (keyPath.length === 0 || keyPath.some(namesSecret));
    return secret ? `the ${option} option (a payment gateway's or service's keys)` : undefined;
  }
  if (interpreterKind(program) === 'php') {
    const code = optionValues(args, ['r'], []).join('\n');
    if (WP_SECRET_CONSTANT.test(code) && PHP_PRINTS.test(code)) return "WordPress's keys, salts or database password";
  }
  if (program === 'composer' && words[0] === 'config') {
    const keys = words.slice(1);
    if (keys.length === 1 && COMPOSER_AUTH_KEY.test(keys[0]!)) return `Composer's stored login for ${keys[0]}`;
  }
  return undefined;
}

/** `bin/rails`, `./bin/rails`, `bundle exec rails`: the program by its last path segment. */
function programName(cmd: SimpleCommand): { name: string; args: readonly string[] } {
  const base = cmd.name.split('/').pop() ?? cmd.name;
  const args = argsOf(cmd);
  if (base === 'bundle' && args[0] === 'exec' && args[1] !== undefined)
    return { name: args[1].split('/').pop() ?? args[1], args: args.slice(2) };
  // WP-CLI's `@alias` only says which site: `wp @production config get DB_PASSWORD` is `config get` there.
  if (base === 'wp') return { name: base, args: args.filter((a) => !a.startsWith('@')) };
  // Laravel's console, however it is started (`php artisan …`, `sail artisan …`).
  const artisan = artisanArguments(cmd.name, args);
  if (artisan !== null) return { name: 'artisan', args: artisan };
  const django = djangoManageArguments(cmd.name, args);
  if (django !== null) return { name: 'manage.py', args: django };
  return { name: base, args };
}

const MAVEN_VALUED_OPTIONS: ValueOptions = {
  short: ['f', 's', 'gs', 'P', 'pl', 'rf', 'T', 'l', 'b'],
  long: [
    'file',
    'settings',
    'global-settings',
    'activate-profiles',
    'projects',
    'resume-from',
    'threads',
    'log-file',
    'builder',
  ],
};

/** Options that take a value, per program, so the value is not read as a subcommand (`helm --kube-context prod get …`). */
const VALUED_OPTIONS: Record<string, ValueOptions> = {
  git: GLOBAL_VALUE_OPTIONS.git!,
  helm: { short: GLOBAL_VALUE_OPTIONS.helm!.short, long: [...GLOBAL_VALUE_OPTIONS.helm!.long, 'revision', 'output'] },
  etcdctl: { short: [], long: ['cacert', 'cert', 'key', 'endpoints', 'user', 'password', 'command-timeout'] },
  argocd: { short: ['n'], long: ['namespace', 'server', 'auth-token', 'context', 'kube-context'] },
  mvn: MAVEN_VALUED_OPTIONS,
  mvnw: MAVEN_VALUED_OPTIONS,
  kubectl: { short: KUBECTL_VALUE_SHORT, long: KUBECTL_VALUE_LONG },
  aws: GLOBAL_VALUE_OPTIONS.aws!,
};

/** The words of a command past its options, lower-cased. */
function wordsOf(program: string, args: readonly string[]): string[] {
  const valued = Object.hasOwn(VALUED_OPTIONS, program) ? VALUED_OPTIONS[program] : undefined;
  const words = valued
    ? parseFlags(args, valued.short, valued.long).positionals
    : args.filter((a) => !a.startsWith('-'));
  return words.map((a) => a.toLowerCase());
}

function credentialPrinted(cmd: SimpleCommand): { what: string; ask?: boolean } | undefined {
  const program = programName(cmd);
  // Docker's credential helpers print the stored registry password for the server on their input.
  if (/^docker-credential-[a-z0-9-]+$/.test(program.name) && program.args[0] === 'get')
    return { what: `a registry password from ${program.name}` };
  const args = program.args;
  // Help text prints no secret; a metadata read (`vault kv metadata get`) prints versions and times only.
  if (args.includes('--help') || args[0] === 'help') return undefined;
  const words = wordsOf(program.name, args);
  if (program.name === 'vault' && words[1] === 'metadata') return undefined;
  for (const entry of CREDENTIAL_COMMANDS_BY_NAME.get(program.name) ?? []) {
    if (!startsWithInOrder(words, entry.words)) continue;
    if (
      entry.anyOption &&
      !args.some((a, at) => entry.anyOption?.some((pattern) => optionMatches(pattern, a, args[at + 1])))
    )
      continue;
    if (entry.noOption && args.some((a) => entry.noOption?.some((pattern) => pattern.test(a)))) continue;
    if (
      entry.secretOperand &&
      !args
        .filter((a) => !a.startsWith('-'))
        .slice(entry.words.length)
        .some(namesSecret)
    )
      continue;
    // `rails credentials:edit` prints only through an editor that prints (EDITOR=cat).
    if (entry.words[0] === 'credentials:edit' && !/^(cat|less|more|head|tail|tee)\b/.test(cmd.assignments.EDITOR ?? ''))
      continue;
    return entry.ask ? { what: entry.what, ask: true } : { what: entry.what };
  }
  if (composeConfig(program.name, words) && !args.some((a) => COMPOSE_NAMES_ONLY.test(a)))
    return { what: "the compose file with its variables filled in from .env (a service's keys among them)", ask: true };
  // git credential-store, credential-cache, credential-osxkeychain, credential-libsecret, credential-manager…
  if (program.name === 'git' && /^credential-/.test(words[0] ?? '') && words.includes('get'))
    return { what: 'git credentials from a credential helper' };
  if (['docker', 'podman', 'nerdctl'].includes(program.name) && (words[0] === 'inspect' || words[1] === 'inspect')) {
    const format = optionValues(args, ['f'], ['format']).join(' ');
    if (/\.Env\b|\.Config\b(?!\.)|^\{\{\s*json\s*\.\s*\}\}$/.test(format))
      return { what: "a container's environment (its secrets)" };
  }
  const site = siteSecretPrinted(program.name, args, words);
  if (site) return { what: site };
  const stored = storedSecretPrinted(program.name, args, words);
  if (stored) return { what: stored };
  const legacy = operandShapedCredential(cmd, operands(cmd), argsOf(cmd));
  return legacy ? { what: legacy } : undefined;
}

/**
 * A secret file kept in an object store, printed: `gsutil cat gs://…/default.tfstate`, `gcloud storage cat`,
 * `aws s3 cp s3://…/terraform.tfstate -`. What the file holds is what its name says, wherever it is kept.
 */
function storedSecretPrinted(program: string, args: readonly string[], words: readonly string[]): string | undefined {
  const printing =
    (program === 'gsutil' && words[0] === 'cat') ||
    (program === 'gcloud' && words[0] === 'storage' && words[1] === 'cat') ||
    (program === 'aws' && words[0] === 's3' && words[1] === 'cp' && args.includes('-'));
  if (!printing) return undefined;
  for (const url of args.filter((a) => /^(gs|s3):\/\/./.test(a))) {
    const kind = secretBasenameKind(url.slice(url.lastIndexOf('/') + 1));
    if (kind) return `${url} (${kind})`;
  }
  return undefined;
}

function operandShapedCredential(
  cmd: SimpleCommand,
  words: readonly string[],
  args: readonly string[],
): string | undefined {
  if (
    cmd.name === 'pass' &&
    words.length === 1 &&
    !['ls', 'list', 'init', 'git', 'grep', 'find'].includes(words[0] ?? '')
  )
    return 'a password from pass';
  if (cmd.name === 'kubectl') {
    const [verb, kind] = parseFlags(args, KUBECTL_VALUE_SHORT, KUBECTL_VALUE_LONG).positionals;
    if (verb === 'get' && /^secrets?$|^secret\//i.test(kind ?? '') && showsSecretData(args))
      return 'Kubernetes secrets';
  }
  return undefined;
}

const PRINTERS = new Set(['echo', 'printf', 'print']);

// `export GH_TOKEN=$(gh auth token)`, `curl -H "Authorization: Bearer $(gh auth token)" …`: a
// substitution captures what the command prints, so it reaches the transcript only if something
// prints it on. Kept in a variable, it is printed when the call echoes a variable; handed to one of
// these programs as an argument, it is used, not shown. Any other program (an interpreter, a
// printer) may show its arguments, and keeps the finding.
const VARIABLE_KEEPERS = new Set(['export', 'declare', 'local', 'typeset', 'readonly']);
const CREDENTIAL_USERS = new Set([
  ...['curl', 'wget', 'http', 'https', 'xh'],
  ...['docker', 'podman', 'nerdctl', 'helm', 'oras', 'skopeo', 'crane'],
  ...['git', 'gh', 'glab', 'npm', 'pnpm', 'yarn', 'twine', 'terraform', 'kubectl', 'aws', 'gcloud', 'az'],
]);
/** Options with which an HTTP client prints the request's headers, the credential among them. */
const SHOWS_REQUEST =
  /^(-v|--verbose|--trace(-ascii)?(=.*)?|-d|--debug|--print=[^Hh]*[Hh].*)$|^-[a-uw-zA-Z]*v[a-zA-Z]*$/;
/** The issuer of the credential a CLI prints, where the program's name is not the issuer's. */
const PROGRAM_ISSUERS: Record<string, string> = {
  gcloud: 'google',
  az: 'azure',
  glab: 'gitlab',
  doctl: 'digitalocean',
};

/** `issuerKnown`: the host is certainly not the credential's own service; else only not known to be. */
/**
 * `… -o json | jq keys`: the next stage keeps only the key names of what the command prints;
 * `manage.py diffsettings | grep -E '^(DEBUG|TIME_ZONE)'`: only the lines of settings it names, none a secret's.
 */
function namesOnly(cmd: SimpleCommand, commands: SimpleCommand[]): boolean {
  if (stdoutRedirected(cmd)) return false;
  const next = downstreamStage(commands, cmd);
  // Only where each setting is a line of its own: a one-line JSON print would match whole on any word.
  const oneSettingPerLine = djangoManageArguments(cmd.name, argsOf(cmd))?.[0] === 'diffsettings';
  if (next !== undefined && oneSettingPerLine && grepKeepsOnlyNamed(next)) return true;
  if (next?.name !== 'jq') return false;
  const filter = parseFlags(argsOf(next), [], ['arg', 'argjson', 'slurpfile', 'rawfile', 'indent']).positionals[0];
  return /^\s*(\.[\w.]+\s*\|\s*)?(keys|keys_unsorted)(\[\])?\s*$/.test(filter ?? '');
}

/** A grep that keeps only lines with the plain words it names (`^(DEBUG|ALLOWED_HOSTS)`), none secret-sounding. */
function grepKeepsOnlyNamed(filter: SimpleCommand): boolean {
  if (filter.name !== 'grep' && filter.name !== 'egrep' && filter.name !== 'rg') return false;
  const args = argsOf(filter);
  const flags = parseFlags(args, ['e', 'f', 'm', 'A', 'B', 'C'], ['regexp', 'file']);
  if (flags.short.has('v') || flags.long.has('invert-match') || flags.short.has('f') || flags.long.has('file'))
    return false;
  // Lines around a match may be anything: a secret among them.
  if (['A', 'B', 'C'].some((letter) => flags.short.has(letter))) return false;
  const explicit = optionValues(args, ['e'], ['regexp']);
  const patterns = explicit.length ? explicit : flags.positionals.slice(0, 1);
  return (
    patterns.length > 0 &&
    patterns.every((pattern) => /^\^?\(?\w+(\|\w+)*\)?[ =:]?$/.test(pattern) && !SECRET_WORDS.test(pattern))
  );
}

type CapturedCredential = { shown: true } | { shown: false; sentTo?: { host: string; issuerKnown: boolean } };

/** What becomes of a credential command's output that a substitution captures; undefined when none does. */
function capturedCredential(cmd: SimpleCommand, commands: readonly SimpleCommand[]): CapturedCredential | undefined {
  const reached = reachedBy(commands, cmd);
  if (reached.via !== 'command-substitution' || stdoutRedirected(cmd)) return undefined;
  const user = reached.from;
  if (user === undefined || VARIABLE_KEEPERS.has(user.name)) {
    const echoesVariable = commands.some(
      (other) => (PRINTERS.has(other.name) && other.dynamicWords.length > 0) || other.name === 'printenv',
    );
    if (echoesVariable) return { shown: true };
    // Any command given a run-time value may be given this one.
    const stranger = commands
      .filter((other) => other.dynamicWords.length > 0)
      .map((other) => strangerHost(cmd, other))
      .find((host) => host !== undefined);
    return stranger ? { shown: false, sentTo: stranger } : { shown: false };
  }
  if (!CREDENTIAL_USERS.has(user.name) || argsOf(user).some((a) => SHOWS_REQUEST.test(a))) return { shown: true };
  const stranger = strangerHost(cmd, user);
  return stranger ? { shown: false, sentTo: stranger } : { shown: false };
}

/** A remote host `user` reaches that is not the issuer's of what `credential` prints (any, when the issuer is unknown). */
function strangerHost(
  credential: SimpleCommand,
  user: SimpleCommand,
): { host: string; issuerKnown: boolean } | undefined {
  const program = programName(credential).name;
  const issuer = issuerOf(PROGRAM_ISSUERS[program] ?? program);
  const host = urlHostsOf(user).find((h) => !isLocalHost(h) && !(issuer && isIssuerHost(h, issuer.hosts)));
  return host === undefined ? undefined : { host, issuerKnown: issuer !== undefined };
}
const VARIABLE_REFERENCE = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;

function stdoutRedirected(cmd: SimpleCommand): boolean {
  return cmd.redirects.some((r) => (r.op.startsWith('>') || r.op === '&>') && (r.fd === undefined || r.fd === 1));
}

// Connection strings carry their password: DATABASE_URL=postgres://user:pass@host/db.
const CONNECTION_STRING_NAME =
  /^(DATABASE|DB|POSTGRES(QL)?|PG|MYSQL|MARIADB|MONGO(DB)?|REDIS|AMQP|RABBITMQ|CELERY_BROKER|BROKER|SENTRY|ELASTICSEARCH|KAFKA|SQLALCHEMY_DATABASE)_?(URL|URI|DSN|CONNECTION_STRING|CONN)$/;

function isSecretVariable(name: string): boolean {
  return classifySecretName(name) !== null || CONNECTION_STRING_NAME.test(name);
}

const SECRET_STORE_SERVER =
  /vault|secret|1password|onepassword|bitwarden|keychain|keyring|doppler|infisical|keeper|lastpass/i;
const READING_VERB = /^(read|get|reveal|show|fetch|retrieve|export|dump)(?=$|[_-]|[A-Z])/;

/** An MCP tool of a secret store (Vault, 1Password, a keychain) that hands a secret's value back. */
function secretStoreRead(call: ToolCall | undefined): string | undefined {
  if (!call) return undefined;
  const mcp = mcpToolOf(call.toolName);
  if (!mcp || !SECRET_STORE_SERVER.test(mcp.server)) return undefined;
  return READING_VERB.test(mcp.tool) ? `${mcp.server}'s ${mcp.tool}` : undefined;
}

/**
 * The command's output goes straight into a program that takes a credential on its standard input
 * (`aws ecr get-login-password | docker login --password-stdin`, `echo "$GH_TOKEN" | gh auth login
 * --with-token`): that is how those programs are meant to get one, and nothing reaches the transcript.
 * A credential named after its issuer must go to that issuer's host: `$AWS_SECRET_ACCESS_KEY` fed to a
 * login at another registry is the credential leaving.
 */
/**
 * A credential piped into a program that logs in with it (`… | docker login --password-stdin`): not
 * printed. `stranger` is the host it logs in to when the credential's name says another issuer's.
 */
function fedToCredentialReader(
  cmd: SimpleCommand,
  commands: SimpleCommand[],
): { stranger?: string; reader: SimpleCommand } | undefined {
  if (stdoutRedirected(cmd)) return undefined;
  const next = downstreamStage(commands, cmd);
  const host = next ? credentialReaderHost(next) : undefined;
  if (next === undefined || host === undefined) return undefined;
  const names = [...cmd.text.matchAll(VARIABLE_REFERENCE)].map((m) => m[1] as string);
  if (cmd.name === 'aws') names.push('AWS');
  const foreign = names.some((name) => issuedElsewhere(name, host));
  return foreign ? { stranger: host || 'a host it names', reader: next } : { reader: next };
}

/** The host a program that reads a credential on its standard input logs in to ('' when it names none). */
function credentialReaderHost(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  const words = args.filter((a) => !a.startsWith('-'));
  const host = [...words]
    .reverse()
    .map((w) => w.split(/[:/]/)[0] ?? '')
    .find((bare) => bare.includes('.') && /^[\w.-]+$/.test(bare));
  if (args.includes('--password-stdin')) return host ?? (cmd.name === 'docker' ? 'docker.io' : '');
  if (cmd.name === 'gh' && words[0] === 'auth' && words[1] === 'login' && args.includes('--with-token'))
    return optionValues(args, ['h'], ['hostname'])[0] ?? 'github.com';
  if (cmd.name === 'vault' && words[0] === 'login' && (words[1] === '-' || words[1] === 'token=-')) return '';
  return undefined;
}

function secretVariablePrinted(cmd: SimpleCommand): string | undefined {
  if (stdoutRedirected(cmd)) return undefined;
  if (cmd.name === 'printenv') return argsOf(cmd).find((a) => !a.startsWith('-') && isSecretVariable(a));
  if (!PRINTERS.has(cmd.name)) return undefined;
  for (const match of cmd.text.matchAll(VARIABLE_REFERENCE)) {
    const name = match[1] as string;
    if (isSecretVariable(name)) return name;
  }
  return undefined;
}

const SECRET_WORDS = /key|token|secret|pass|pwd|auth|cred|session|cookie/i;

// curl's -v and --trace print the request's headers, and so the credential it sends.
function tracesRequest(word: string): boolean {
  return (/^-[a-zA-Z]+$/.test(word) && word.includes('v')) || /^--(verbose|trace|trace-ascii)$/.test(word);
}

/** A header that carries a credential: Authorization, Cookie, or a name with token, key, auth or secret in it. */
function credentialHeader(header: string): boolean {
  const name = header.slice(0, header.indexOf(':')).trim().toLowerCase();
  return header.includes(':') && (name === 'cookie' || /auth|token|key|secret/.test(name));
}

/**
 * `curl -v -H "Authorization: Bearer $(cat ~/.token)" …`: a credential filled in at run time (a variable,
 * a file read) and sent by a curl that prints its request. What the words show is only its name; the
 * trace shows its value.
 */
function tracedCredential(cmd: SimpleCommand): string | undefined {
  if (cmd.name !== 'curl') return undefined;
  const args = argsOf(cmd);
  if (!args.some(tracesRequest)) return undefined;
  const headers = optionValues(args, ['H'], ['header']).filter(credentialHeader);
  const logins = optionValues(args, ['u', 'b'], ['user', 'oauth2-bearer', 'cookie', 'proxy-user']);
  return [...headers, ...logins].find((value) => value.includes('$') || isDynamicArg(cmd, value));
}

function tracedFinding(cmd: SimpleCommand): PolicyHit | undefined {
  const traced = tracedCredential(cmd);
  return traced === undefined
    ? undefined
    : {
        reason: `curl prints the request it sends, and with it the credential filled in at run time (${evidenceOf(traced, 60)}). Drop -v/--trace, or approve this exact call.`,
        evidence: evidenceOf(cmd.text),
        decision: 'ask',
      };
}

/**
 * Variables that commonly hold a credential, by name: a filter of the environment that would keep one of
 * them (`printenv | grep AWS`, `env | grep -i warden`) prints its value, whatever the filter's own words say.
 * Not NODE_AUTH_TOKEN: `env | grep -i node` is how NODE_ENV and NODE_OPTIONS are checked, and that token is
 * CI's (setup-node), seldom set on a person's machine.
 */
const SECRET_VARIABLES = [
  ...['AGENT_WARDEN_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN', 'GITLAB_TOKEN'],
  ...['NPM_TOKEN', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'HF_TOKEN', 'DATABASE_URL', 'PGPASSWORD'],
  ...['MYSQL_PWD', 'VAULT_TOKEN', 'AZURE_CLIENT_SECRET', 'SLACK_BOT_TOKEN', 'STRIPE_SECRET_KEY', 'DOCKER_PASSWORD'],
  ...['CLAUDE_CODE_OAUTH_TOKEN', 'GOOGLE_API_KEY', 'SENTRY_AUTH_TOKEN', 'CLOUDFLARE_API_TOKEN', 'DIGITALOCEAN_TOKEN'],
];

/** What secret-bearing variables a grep filter of the environment keeps (a plain word within a name, or -v), if any. */
function keptSecretVariable(filter: SimpleCommand): string | undefined {
  if (filter.name !== 'grep' && filter.name !== 'egrep' && filter.name !== 'rg') return undefined;
  const args = argsOf(filter);
  const flags = parseFlags(args, ['e', 'f', 'm', 'A', 'B', 'C'], ['regexp', 'file']);
  // An inverted filter keeps every line but the ones it names: the secrets among them.
  if (flags.short.has('v') || flags.long.has('invert-match'))
    return 'every variable it does not name, secrets among them';
  const explicit = optionValues(args, ['e'], ['regexp']);
  const patterns = explicit.length ? explicit : flags.positionals.slice(0, 1);
  const ignoreCase = flags.short.has('i') || flags.long.has('ignore-case');
  for (const pattern of patterns) {
    const word = pattern.replace(/^\^/, '');
    if (word === '' || !/^\w+$/.test(word)) continue;
    const kept = SECRET_VARIABLES.find((name) =>
      ignoreCase ? name.includes(word.toUpperCase()) : name.includes(word),
    );
    if (kept !== undefined) return `${kept}, a variable that holds a credential`;
  }
  return undefined;
}

function environmentDump(
  cmd: SimpleCommand,
  commands: SimpleCommand[],
): 'filtered-secrets' | 'all' | { keeps: string } | undefined {
  const args = argsOf(cmd);
  // The shell's history and the process list, filtered for secrets, print the secrets typed or passed there.
  const filteredOnly = cmd.name === 'history' || cmd.name === 'ps';
  const dumps =
    filteredOnly ||
    ((cmd.name === 'env' || cmd.name === 'printenv') && args.every((a) => a.startsWith('-'))) ||
    (cmd.name === 'export' && args.length === 1 && args[0] === '-p') ||
    (cmd.name === 'declare' && args.length === 1 && /^-[px]$/.test(args[0] ?? '')) ||
    (cmd.name === 'set' && args.length === 0) ||
    // bitbake -e prints the whole build environment, the variables exported into it included.
    (cmd.name === 'bitbake' && args.some((a) => a === '-e' || a === '--environment'));
  if (!dumps || stdoutRedirected(cmd)) return undefined;
  const downstream = downstreamOf(commands, cmd);
  if (downstream.length === 0) return filteredOnly ? undefined : 'all';
  const filter = downstream[0] && stageProgram(commands, downstream[0]);
  if (filter && ['grep', 'rg', 'egrep', 'awk', 'sed'].includes(filter.name)) {
    if (argsOf(filter).some((a) => SECRET_WORDS.test(a))) return 'filtered-secrets';
    if (filteredOnly) return undefined;
    const kept = keptSecretVariable(filter);
    return kept === undefined ? undefined : { keeps: kept };
  }
  if (filteredOnly) return undefined;
  return ['sort', 'cat', 'less', 'more', 'head', 'tail', 'tee'].includes(filter?.name ?? '') ? 'all' : undefined;
}

// Tables and functions that hold or hand out database credentials: password hashes, user mappings with
// their passwords, files read by the server (pg_read_file, LOAD_FILE).
const CREDENTIAL_SQL =
  /\b(pg_shadow|pg_authid|pg_user_mappings|pg_read_file|pg_read_binary_file|sys\.sql_logins|sys\.syslogins|dba_users|sys\.user\$|load_file)\b|\bmysql\s*\.\s*user\b|\bauthentication_string\b/i;

function credentialSql(call: Parameters<typeof sqlTexts>[0]): string | undefined {
  return sqlTexts(call).find((text) => CREDENTIAL_SQL.test(text));
}

/** The pattern of a content search, by a command or a search tool in content mode, that seeks credentials by format. */
function credentialSearchOf(call: ToolCall | undefined): string | undefined {
  for (const cmd of shellCommands(call)) {
    const pattern = stdoutRedirected(cmd) ? undefined : credentialValueSearch(cmd);
    if (pattern !== undefined) return pattern;
  }
  const pattern = call?.input.pattern;
  if (call?.face.family !== 'search' || call.input.output_mode !== 'content' || typeof pattern !== 'string')
    return undefined;
  return seeksCredentialValues(pattern) ? pattern : undefined;
}

// Processes that hold unlocked keys and cached passphrases, and the tools that read or trace another
// process's memory and system calls.
const SECRET_DAEMON =
  /^(gpg-agent|ssh-agent|gnome-keyring-daemon|keepassxc|kwalletd[56]?|ksecretd|1password|op|bitwarden|bw|pinentry[\w-]*|seahorse|vault)$/;
const ATTACHING_TOOLS = new Set([
  'gdb',
  'strace',
  'ltrace',
  'gcore',
  'lldb',
  'bpftrace',
  'frida',
  'frida-trace',
  'dtruss',
]);

/**
 * `gdb -p $(pgrep -x gpg-agent) -ex gcore`, `strace -p $(pidof ssh-agent)`: a debugger or tracer on a process
 * that holds secrets, named to it or to the pgrep that finds its pid.
 */
function secretProcessAttached(
  commands: readonly SimpleCommand[],
): { tool: SimpleCommand; daemon: string } | undefined {
  const tool = commands.find((cmd) => ATTACHING_TOOLS.has(cmd.name.replace(/^.*\//, '')));
  if (!tool) return undefined;
  const daemon = commands
    .filter((cmd) => cmd === tool || ['pgrep', 'pidof'].includes(cmd.name))
    .flatMap((cmd) => argsOf(cmd))
    .map((word) => word.replace(/^.*\//, ''))
    .find((word) => SECRET_DAEMON.test(word));
  return daemon === undefined ? undefined : { tool, daemon };
}

export const credentialPrintingCommands = definePolicy({
  name: 'credential-printing-commands',
  category: 'secrets',
  description:
    'Denies commands that print credentials into the session (token CLIs, kubectl secrets, password managers, git credential fill, secret-named variables); asks before an environment dump.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    const sql = credentialSql(call);
    if (sql)
      return {
        reason: `Queries the database's credential tables (${evidenceOf(CREDENTIAL_SQL.exec(sql)?.[0] ?? sql, 40)}): password hashes and server files would go into the transcript. Query the application's own tables instead.`,
        evidence: evidenceOf(sql),
      };
    const store = secretStoreRead(call);
    if (store)
      return {
        reason: `Reads a secret through ${store} into the transcript, as \`vault kv get\` would print it. Let the program that needs it read it from the store itself.`,
        evidence: evidenceOf(`${call?.toolName ?? ''} ${JSON.stringify(call?.input ?? {})}`),
      };
    const searched = credentialSearchOf(call);
    if (searched)
      return {
        reason: `Searches for credentials by their format (${evidenceOf(searched, 40)}) and prints what it finds: each key found goes into the transcript. List the files with -l, or run the search yourself.`,
        evidence: evidenceOf(call?.command ?? searched),
        decision: 'ask',
      };
    const commands = shellCommands(call);
    for (const cmd of commands) {
      const dbus = dbusCallOf(cmd);
      const access = dbus ? dbusSecretAccess(dbus) : null;
      if (dbus && access)
        return {
          reason: `Calls the desktop's password store over D-Bus (${dbus.destination}, ${dbus.method}): ${access === 'deny' ? 'the secrets it hands out would go into the transcript' : 'searching, unlocking or opening it is the way to its secrets'}. Let the program that needs a secret read it itself.`,
          evidence: evidenceOf(cmd.text),
          ...(access === 'ask' ? { decision: 'ask' as const } : {}),
        };
    }
    const attached = secretProcessAttached(commands);
    if (attached)
      return {
        reason: `Attaches ${attached.tool.name} to ${attached.daemon}, a process that holds unlocked keys and cached passphrases: its memory, or what it reads and writes, would be dumped or traced. Debug it without the agent, or with a throwaway key.`,
        evidence: evidenceOf(attached.tool.text),
      };
    let traced: PolicyHit | undefined;
    for (const cmd of commands) {
      const fed = fedToCredentialReader(cmd, commands);
      if (fed?.stranger !== undefined)
        return {
          reason: `Logs in to ${fed.stranger} with a credential another service issued: a credential goes only to its own service.`,
          evidence: evidenceOf(`${cmd.text} | ${fed.reader.text}`),
        };
      if (fed) continue;
      const printed = namesOnly(cmd, commands) ? undefined : credentialPrinted(cmd);
      const captured = printed ? capturedCredential(cmd, commands) : undefined;
      if (printed && captured?.shown === false) {
        if (captured.sentTo === undefined) continue;
        const { host, issuerKnown } = captured.sentTo;
        return issuerKnown
          ? {
              reason: `Sends ${printed.what} to ${host}, which did not issue it: a credential goes only to its own service.`,
              evidence: evidenceOf(commands[cmd.parent ?? -1]?.text ?? cmd.text),
            }
          : {
              reason: `Sends ${printed.what} to ${host}: approve this exact call if that host is the service it belongs to.`,
              evidence: evidenceOf(commands[cmd.parent ?? -1]?.text ?? cmd.text),
              decision: 'ask' as const,
            };
      }
      // What only may hold a secret, written to a file rather than printed, stays out of the transcript.
      if (printed?.ask && stdoutRedirected(cmd)) continue;
      if (printed)
        return {
          reason: `Prints ${printed.what}: whatever a command prints goes into the transcript and to the model. Let the tool that needs the credential read it itself (most CLIs do), or run this yourself.`,
          evidence: evidenceOf(cmd.text),
          ...(printed.ask ? { decision: 'ask' as const } : {}),
        };
      const variable = secretVariablePrinted(cmd);
      if (variable)
        return {
          reason: `Prints the secret-named variable ${variable} into the transcript; pass it to the program that needs it instead of printing it.`,
          evidence: evidenceOf(cmd.text),
        };
      const env = environmentPrinted(cmd, call?.command ?? '');
      if (env)
        return {
          reason: env.whole
            ? `Prints ${env.what}, secrets included, into the transcript; print the one variable you need if it isn't secret.`
            : `Prints ${env.what} into the transcript; pass it to the program that needs it instead of printing it.`,
          evidence: evidenceOf(cmd.text),
          ...(env.whole ? { decision: 'ask' as const } : {}),
        };
      // Judged after the rest: what fills the credential in (`$(gh auth token)`) may be refused outright.
      traced ??= stdoutRedirected(cmd) ? undefined : tracedFinding(cmd);
      const dump = environmentDump(cmd, commands);
      if (typeof dump === 'object')
        return {
          reason: `Lists the environment through a filter that keeps ${dump.keeps}: the value would go into the transcript. Print the one variable you need by name if it isn't secret.`,
          evidence: evidenceOf(cmd.text),
          decision: 'ask' as const,
        };
      if (dump)
        return {
          reason:
            dump === 'filtered-secrets'
              ? 'Lists the environment filtered for secret-looking names: their values would go into the transcript.'
              : "Prints the whole environment, secrets included, into the transcript; print the one variable you need if it isn't secret.",
          evidence: evidenceOf(cmd.text),
          ...(dump === 'all' ? { decision: 'ask' as const } : {}),
        };
    }
    return traced ?? null;
  },
});
