import { isInside } from '../shell/paths';
import { own } from './own';
import { trimEndChars } from '../text/scan';

// Which files hold credentials. A read of one of these is what the secret-file
// policy refuses and what taints a session.

/** Templates that document variables without holding their values. */
const ENV_TEMPLATES =
  /^\.env\.(example|sample|template|dist|defaults|schema)$|^\.env\.[\w.-]*\.(example|sample|template)$/i;

const SECRET_BASENAMES: Record<string, string> = {
  '.netrc': 'netrc credentials',
  _netrc: 'netrc credentials',
  '.git-credentials': 'git credentials',
  '.pgpass': 'PostgreSQL passwords',
  '.my.cnf': 'MySQL credentials',
  '.vault-token': 'a Vault token',
  '.vault_pass': 'an Ansible vault password',
  '.vault_pass.txt': 'an Ansible vault password',
  '.vault-password': 'an Ansible vault password',
  '.erlang.cookie': 'the Erlang distribution cookie (a shell on every node that shares it)',
  'settings-security.xml': 'the Maven master password',
  'keystore.properties': 'an Android signing key store password',
  // Flutter's documented name for the same file (storePassword, keyPassword).
  'key.properties': 'an Android signing key store password',
  // The Sentry wizard writes the upload token into the mobile projects' sentry.properties.
  'sentry.properties': 'a Sentry auth token',
  'key3.db': 'the browser password key store',
  id_rsa: 'an SSH private key',
  id_dsa: 'an SSH private key',
  id_ecdsa: 'an SSH private key',
  id_ed25519: 'an SSH private key',
  id_ecdsa_sk: 'an SSH private key',
  id_ed25519_sk: 'an SSH private key',
  'credentials.tfrc.json': 'Terraform Cloud credentials',
  'terraform.tfstate': 'Terraform state (holds secrets in clear)',
  'terraform.tfstate.backup': 'Terraform state (holds secrets in clear)',
  'secrets.yml': 'a secrets file',
  'secrets.yaml': 'a secrets file',
  'secrets.json': 'a secrets file',
  '.envrc': 'a direnv file',
  // wrangler's local secrets for `wrangler dev` (CLOUDFLARE_API_TOKEN and the worker's own secrets).
  '.dev.vars': "a Cloudflare Worker's local secrets",
  '.bash_history': 'shell history (often holds pasted secrets)',
  // PowerShell's PSReadLine keeps every typed command here.
  'consolehost_history.txt': 'PowerShell history (often holds pasted secrets)',
  '.zsh_history': 'shell history (often holds pasted secrets)',
  '.histfile': 'shell history (often holds pasted secrets)',
  fish_history: 'shell history (often holds pasted secrets)',
  '.psql_history': 'database client history (often holds passwords)',
  '.mysql_history': 'database client history (often holds passwords)',
  '.sqlite_history': 'database client history',
  '.rediscli_history': 'database client history (often holds AUTH passwords)',
  '.dbshell': 'MongoDB shell history',
  '.mongosh_repl_history': 'MongoDB shell history',
  '.python_history': 'REPL history',
  '.node_repl_history': 'REPL history',
  '.irb_history': 'REPL history',
  'login data': 'saved browser passwords',
  'logins.json': 'saved browser passwords',
  // A self-hosted GitHub Actions runner's registration: whoever holds it runs as the runner.
  '.credentials': "a self-hosted runner's credentials",
  '.credentials_rsaparams': "a self-hosted runner's private key",
  'key4.db': 'the browser password key store',
};

const SECRET_EXTENSIONS: Record<string, string> = {
  '.pem': 'a PEM key or certificate',
  '.key': 'a private key',
  '.p12': 'a PKCS#12 key store',
  '.pfx': 'a PKCS#12 key store',
  '.jks': 'a Java key store',
  '.keystore': 'a key store',
  '.kdbx': 'a KeePass database',
  '.ppk': 'a PuTTY private key',
  // PKCS#8 private keys: App Store Connect's and Apple push keys (AuthKey_<key id>.p8).
  '.p8': 'a PKCS#8 private key',
  // A remote backend keeps a workspace's state as `<workspace>.tfstate` (`default.tfstate`).
  '.tfstate': 'Terraform state (holds secrets in clear)',
  // An Azure App Service publish profile holds its deployment user's password in clear text.
  '.publishsettings': 'an Azure publish profile (its deployment password)',
};

/** Paths under the home folder that hold credentials (a trailing slash covers the whole folder). */
export const HOME_SECRETS: [string, string][] = [
  ['.ssh/', 'SSH keys'],
  ['.aws/', 'AWS credentials'],
  ['.config/gcloud/', 'Google Cloud credentials'],
  ['.azure/', 'Azure credentials'],
  ['.kube/config', 'Kubernetes credentials'],
  ['.kube/', 'Kubernetes credentials'],
  ['.docker/config.json', 'Docker registry credentials'],
  ['.npmrc', 'npm registry token'],
  ['.yarnrc.yml', 'Yarn registry token'],
  ['.pypirc', 'PyPI token'],
  ['.gem/credentials', 'RubyGems token'],
  // Bundler keeps private gem servers' credentials in its user config (BUNDLE_GEMS__HOST__NAME: user:pass).
  ['.bundle/config', 'Bundler gem server credentials'],
  // Windows profile stores: NuGet's user config (feed passwords and PATs), .NET user secrets.
  ['AppData/Roaming/NuGet/NuGet.Config', 'NuGet feed credentials'],
  ['AppData/Roaming/Microsoft/UserSecrets/', '.NET user secrets'],
  ['.cargo/credentials', 'Cargo registry token'],
  ['.cargo/credentials.toml', 'Cargo registry token'],
  ['.config/gh/hosts.yml', 'GitHub CLI token'],
  ['.config/gh/', 'GitHub CLI token'],
  ['.hex/hex.config', 'Hex API key'],
  // Dart's pub: the OAuth tokens it publishes packages with (Linux and macOS places).
  ['.config/dart/pub-credentials.json', 'pub publishing credentials'],
  ['Library/Application Support/dart/pub-credentials.json', 'pub publishing credentials'],
  ['.appstoreconnect/', 'App Store Connect API keys'],
  ['.config/hub', 'GitHub token'],
  ['.gnupg/', 'GPG keys'],
  ['.password-store/', 'pass password store'],
  ['.local/share/keyrings/', 'the desktop keyring'],
  ['Library/Keychains/', 'the macOS keychain'],
  ['.terraform.d/credentials.tfrc.json', 'Terraform Cloud credentials'],
  ['.config/op/', '1Password CLI session'],
  ['.config/doctl/', 'DigitalOcean token'],
  ['.config/heroku/', 'Heroku credentials'],
  ['.heroku/', 'Heroku credentials'],
  // The Salesforce CLI's org logins (access and refresh tokens) and, without a keychain, the key to them.
  ['.sfdx/', 'Salesforce CLI org tokens'],
  ['.sf/', 'Salesforce CLI org tokens'],
  ['.boto', 'cloud storage credentials'],
  ['.s3cfg', 'S3 credentials'],
  ['.bash_history', 'shell history (often holds pasted secrets)'],
  ['.zsh_history', 'shell history (often holds pasted secrets)'],
  ['.claude/.credentials.json', 'Claude Code credentials'],
  ['.config/google-chrome/', 'a browser profile (cookies, saved passwords)'],
  ['.config/chromium/', 'a browser profile (cookies, saved passwords)'],
  ['.config/BraveSoftware/', 'a browser profile (cookies, saved passwords)'],
  ['.config/microsoft-edge/', 'a browser profile (cookies, saved passwords)'],
  ['.mozilla/firefox/', 'a browser profile (cookies, saved passwords)'],
  ['Library/Application Support/Google/Chrome/', 'a browser profile (cookies, saved passwords)'],
  ['Library/Application Support/Firefox/', 'a browser profile (cookies, saved passwords)'],
  ['Library/Cookies/', 'browser cookies'],
  // Windows profiles (read from WSL as /mnt/c/Users/<name>/AppData/…).
  ...['Google/Chrome', 'Microsoft/Edge', 'BraveSoftware/Brave-Browser', 'Chromium'].map((browser): [string, string] => [
    `AppData/Local/${browser}/User Data/`,
    'a browser profile (cookies, saved passwords)',
  ]),
  ['AppData/Roaming/Mozilla/Firefox/Profiles/', 'a browser profile (cookies, saved passwords)'],
  ['.local/share/fish/fish_history', 'shell history (often holds pasted secrets)'],
  ['.config/rclone/rclone.conf', 'rclone remotes credentials'],
  ['.config/hcloud/', 'Hetzner Cloud token'],
  ['.config/netlify/', 'Netlify token'],
  ['.config/vercel/', 'Vercel token'],
  ['Library/Application Support/com.vercel.cli/', 'Vercel token'],
  ['.local/share/com.vercel.cli/', 'Vercel token'],
  ['.fastlane/spaceship/', 'the Apple developer session (fastlane)'],
  ['Library/Application Support/netlify/', 'Netlify token'],
  ['.supabase/access-token', 'Supabase access token'],
  ['.expo/state.json', 'the Expo CLI session'],
  ['.sentryclirc', 'Sentry auth token'],
  // Perforce's login tickets and its environment file (P4PASSWD), Steam's cached logins, GitLab's CLI token.
  ['.p4tickets', 'Perforce login tickets'],
  ['.p4enviro', 'the Perforce environment (P4PASSWD)'],
  ['.steam/steam/config/config.vdf', 'the cached Steam login'],
  ['.steam/steam/config/loginusers.vdf', 'the cached Steam logins'],
  ['.local/share/Steam/config/config.vdf', 'the cached Steam login'],
  ['.config/glab-cli/config.yml', 'the GitLab CLI token'],
  ['.config/firebase/', 'Firebase CLI credentials'],
  ['.config/configstore/firebase-tools.json', 'Firebase CLI credentials'],
  ['.config/stripe/', 'Stripe CLI key'],
  // Laravel's deploy CLIs keep an API token that deploys and runs commands on the production servers.
  ['.laravel-vapor/config.json', 'the Vapor CLI token'],
  ['.laravel-forge/config.json', 'the Forge CLI token'],
  ['.config/argocd/config', "the Argo CD CLI's session tokens"],
  // A tunnel's credentials file (its TunnelSecret) and the origin certificate that makes new tunnels.
  ['.cloudflared/', 'Cloudflare Tunnel credentials'],
  ['.config/git/credentials', 'git credentials'],
  ['.m2/settings.xml', 'Maven repository credentials'],
  ['.gradle/gradle.properties', 'Gradle credentials'],
  // Dart's tokens for private pub servers and pub.dev, and the adb key every paired device trusts.
  ['.config/dart/pub-tokens.json', 'pub server tokens'],
  ['.pub-cache/credentials.json', 'pub.dev credentials'],
  ['.android/adbkey', 'the adb private key (every paired device trusts it)'],
  ['.composer/auth.json', 'Composer credentials'],
  ['.config/composer/auth.json', 'Composer credentials'],
  ['.nuget/NuGet/NuGet.Config', 'NuGet credentials'],
  ['.config/pip/pip.conf', 'pip index credentials'],
  ['.pip/pip.conf', 'pip index credentials'],
  ['.config/configstore/', 'CLI tokens (configstore)'],
  ['.wrangler/', 'Cloudflare token'],
  ['.config/.wrangler/', 'Cloudflare token'],
  ['Library/Preferences/.wrangler/', 'Cloudflare token'],
  // The Shopify CLI's session store: Partners and store sessions, with their tokens.
  ['Library/Preferences/shopify-cli-kit-nodejs/', 'Shopify CLI sessions'],
  ['.config/shopify-cli-kit-nodejs/', 'Shopify CLI sessions'],
  ['.fly/', 'Fly.io token'],
  ['.config/fly/config.yml', 'Fly.io token'],
  // cachix's auth token pushes store paths every machine using the cache trusts.
  ['.config/cachix/', 'the Cachix auth token'],
  ['.ngrok2/', 'ngrok token'],
  ['.config/ngrok/', 'ngrok token'],
  ['.oci/', 'Oracle Cloud credentials'],
  ['.config/sops/', 'SOPS keys'],
  ['.age/', 'age keys'],
  ['.config/age/', 'age keys'],
  ['.codex/auth.json', 'Codex credentials'],
  ['.gemini/oauth_creds.json', 'Gemini CLI credentials'],
  ['.terraformrc', 'Terraform CLI credentials'],
  ['.cache/huggingface/token', 'the Hugging Face token'],
  ['.cache/huggingface/stored_tokens', 'Hugging Face tokens'],
  ['.huggingface/token', 'the Hugging Face token'],
  ['.kaggle/kaggle.json', 'the Kaggle API key'],
  ['.config/kaggle/kaggle.json', 'the Kaggle API key'],
  ['.databrickscfg', 'Databricks tokens'],
  // Warehouse clients keep the account's password in their config.
  ['.snowsql/config', 'the SnowSQL account password'],
  ['.snowflake/connections.toml', 'Snowflake connection credentials'],
  ['.dbt/profiles.yml', "dbt's warehouse credentials"],
  // A running Jupyter server's token: whoever holds it runs code in its kernels.
  ['.local/share/jupyter/runtime/', "Jupyter servers' access tokens"],
  // The other agents' own logins and their MCP servers' keys.
  ['.cursor/mcp.json', "Cursor's MCP servers (their API keys)"],
  ['.config/github-copilot/', 'the Copilot OAuth token'],
  // restic's and borg's repository passwords and keys: whoever holds one opens every backup.
  ['.config/restic/', 'restic repository passwords'],
  ['.config/borg/', 'borg repository keys'],
  // Wallets: whoever holds a key store (and its password, or time to guess it) moves the funds.
  ['.foundry/keystores/', 'Foundry wallet key stores'],
  ['.ethereum/keystore/', 'Ethereum wallet key stores'],
  ['Library/Ethereum/keystore/', 'Ethereum wallet key stores'],
  ['.config/solana/id.json', 'the Solana wallet key pair'],
  ['.brownie/accounts/', 'Brownie wallet key stores'],
  ['.sui/sui_config/sui.keystore', 'the Sui wallet keys'],
  ['.near-credentials/', 'NEAR account keys'],
  // Research tools: NCBI's API key, Globus transfer tokens, the container library and registry tokens.
  ['.ncbirc', 'the NCBI API key'],
  ['.globus/', 'Globus transfer tokens'],
  ['.apptainer/remote.yaml', 'Apptainer library and registry tokens'],
  ['.singularity/remote.yaml', 'Singularity library and registry tokens'],
  ['.apptainer/docker-config.json', 'Apptainer registry credentials'],
  // File transfer clients keep each site's login, the password only base64-encoded.
  ['.config/filezilla/sitemanager.xml', "FileZilla's saved site logins"],
  ['.config/filezilla/recentservers.xml', "FileZilla's recent server logins"],
  ['.filezilla/sitemanager.xml', "FileZilla's saved site logins"],
  ['.filezilla/recentservers.xml', "FileZilla's recent server logins"],
  ['Library/Application Support/Transmit/', "Transmit's saved server logins"],
];

/** Files anywhere that hold a tool's credentials, by their place in a project (the name alone says less). */
const PROJECT_SECRETS: [RegExp, string][] = [[/(^|\/)\.dvc\/config\.local$/, "DVC's remote credentials"]];

export const SYSTEM_SECRETS: [string, string][] = [
  ['/etc/shadow', 'system password hashes'],
  ['/etc/gshadow', 'system password hashes'],
  ['/etc/sudoers', 'sudo rules'],
  ['/etc/ssl/private/', 'TLS private keys'],
  ['/etc/ssh/', 'SSH host keys'],
  ['/root/', 'the root account'],
  ['/var/run/secrets/', 'mounted service-account secrets'],
  ['/run/secrets/', 'mounted container secrets'],
  ['/etc/kubernetes/admin.conf', 'the cluster admin kubeconfig'],
  ['/etc/kubernetes/pki/', 'the cluster certificate authority keys'],
  // An AKS node's cloud provider config holds the cluster's service principal secret.
  ['/etc/kubernetes/azure.json', "the node's cloud config (the cluster's service principal secret)"],
  ['/etc/kubernetes/kubelet.conf', "the kubelet's kubeconfig"],
  ['/var/lib/kubelet/kubeconfig', "the kubelet's kubeconfig"],
  ['/etc/rancher/k3s/k3s.yaml', 'the k3s admin kubeconfig'],
];

function normalize(p: string): string {
  return p.replace(/\\/g, '/');
}

function basenameOf(p: string): string {
  const n = trimEndChars(normalize(p), '/');
  return n.slice(n.lastIndexOf('/') + 1);
}

/** `flash_encryption_key.bin`, `hmac-key.der`, `key.raw`: a binary whose name has the word key in it. */
function isRawKeyFile(lower: string): boolean {
  const dot = lower.lastIndexOf('.');
  if (!['.bin', '.der', '.raw'].includes(lower.slice(dot))) return false;
  return lower.slice(0, dot).split(/[._-]/).includes('key');
}

// A data file (or one with no extension) named for what it holds: `.zenodo_token`, `api-key.txt`,
// `db_password`, `token.json`. Source files (`token.go`), design tokens (`tokens.json`) and files about
// secrets (`password_policy.yaml`) are not.
// Not passwd: /etc/passwd lists accounts, readable by every user.
const SECRET_WORDS_IN_NAMES = new Set(['token', 'secret', 'secrets', 'apikey', 'password', 'passphrase']);
const DATA_EXTENSIONS = new Set(['', '.txt', '.json', '.yaml', '.yml', '.toml', '.ini', '.cfg', '.conf']);

function isNamedSecretFile(lower: string): boolean {
  const dot = lower.lastIndexOf('.');
  const extension = dot > 0 ? lower.slice(dot) : '';
  if (!DATA_EXTENSIONS.has(extension)) return false;
  // The last word says what the file is (`github_token`); one earlier says what it is about (`token_permissions`).
  const words = (extension ? lower.slice(0, dot) : lower).split(/[._-]/);
  const last = words[words.length - 1] ?? '';
  return SECRET_WORDS_IN_NAMES.has(last) || (last === 'key' && words[words.length - 2] === 'api');
}

const SPRING_PRODUCTION_PROFILE = /^(application|bootstrap)-(prod|production|prd|live)\.(ya?ml|properties)$/;

/** Why a file name alone marks a secret (`.env`, `id_rsa`, `*.pem`), or null. */
export function secretBasenameKind(name: string): string | null {
  const lower = name.toLowerCase();
  if (ENV_TEMPLATES.test(name)) return null;
  // React Native's .xcode.env only tells Xcode's build phases where node is.
  if (lower === '.xcode.env') return null;
  if (lower === '.env' || lower.startsWith('.env.') || (lower.endsWith('.env') && lower.length > 4))
    return 'an environment file';
  const exact = own(SECRET_BASENAMES, lower);
  if (exact) return exact;
  // `root-ec-p256.pub.pem`, `signing_pub.pem`, `public.key`: the public half, named so.
  if (lower.endsWith('.pub') || /(^|[._-])(pub|public)[._-]/.test(lower)) return null;
  // `ca.cert.pem`, `fullchain.pem`, `server-crt.pem`: a certificate, named so, with no key or private part named.
  if (
    lower.endsWith('.pem') &&
    /(^|[._-])(ca|cert|crt|certificate|chain|fullchain)[._-]/.test(lower) &&
    !/key|priv|secret/.test(lower)
  )
    return null;
  for (const [ext, kind] of Object.entries(SECRET_EXTENSIONS)) if (lower.endsWith(ext)) return kind;
  // Raw key bytes (`flash_encryption_key.bin`, `hmac-key.der`): a binary whose name says key.
  if (isRawKeyFile(lower)) return 'raw key material';
  if (isNamedSecretFile(lower)) return 'a file named for a secret';
  if (/^(service[-_]?account|gcp[-_]?key|credentials)[\w.-]*\.json$/.test(lower)) return 'a cloud service-account key';
  // Spring Boot's production profile: the live datasource, broker and API credentials, most often in clear.
  if (SPRING_PRODUCTION_PROFILE.test(lower)) return "a production Spring profile (the live services' credentials)";
  // `gcp-service-account.json`, `prod_serviceaccount.json`: the words anywhere in a JSON file's name.
  if (lower.endsWith('.json') && /service[-_]?account/.test(lower)) return 'a cloud service-account key';
  return null;
}

/** What kind of credential an absolute path holds, or null for an ordinary file. */
export function secretFileKind(absPath: string, home: string): string | null {
  const byName = secretBasenameKind(basenameOf(absPath));
  if (byName) return byName;
  const path = normalize(absPath);
  const caseless = /^[a-z]:\//i.test(path);
  const cmp = (s: string) => (caseless ? s.toLowerCase() : s);
  if (isInside(absPath, home)) {
    const rel = cmp(normalize(absPath).slice(trimEndChars(normalize(home), '/').length + 1));
    for (const [prefix, kind] of HOME_SECRETS) {
      const p = cmp(prefix);
      if (p.endsWith('/') ? rel === p.slice(0, -1) || rel.startsWith(p) : rel === p) {
        // Host lists, public keys and the client's host settings hold no key material.
        if (
          prefix === '.ssh/' &&
          (/(^|\/)(known_hosts(\.old)?|[^/]+\.pub|authorized_keys)$/.test(rel) || rel === cmp('.ssh/config'))
        )
          return null;
        // gcloud's named configurations hold a project, an account and a region; its tokens sit beside them.
        if (
          prefix === '.config/gcloud/' &&
          /^\.config\/gcloud\/(active_config|configurations\/config_[\w.-]+)$/.test(rel)
        )
          return null;
        // The Azure CLI's settings file holds defaults (output, group, location); its tokens sit beside it.
        if (prefix === '.azure/' && rel === cmp('.azure/config')) return null;
        // cloudflared's config names the tunnel and its routes; its credentials sit beside it.
        if (prefix === '.cloudflared/' && /^\.cloudflared\/config\.ya?ml$/.test(rel)) return null;
        // The Salesforce CLI's aliases and settings name orgs and usernames; the tokens and their key sit beside them.
        if ((prefix === '.sfdx/' || prefix === '.sf/') && /^\.sfdx?\/(alias|config|sf-config)\.json$/.test(rel))
          return null;
        // pass's recipient list names the keys the store is encrypted to, nothing secret.
        if (prefix === '.password-store/' && /(^|\/)\.gpg-id$/.test(rel)) return null;
        return kind;
      }
    }
    // A folder the user named for secrets (`~/secrets/play-publisher.json`): a file in it, not a glob
    // over the home folder's folders (`~/*/README.md`), is one.
    if (/^\.?secrets\/[^*?[]+$/.test(rel)) return 'a file in a folder of secrets';
  }
  for (const [prefix, kind] of SYSTEM_SECRETS) {
    if (prefix.endsWith('/') ? path === prefix.slice(0, -1) || path.startsWith(prefix) : path === prefix) {
      // The server's and client's settings, public host keys and the moduli hold no key material.
      if (
        prefix === '/etc/ssh/' &&
        /^\/etc\/ssh\/(sshd?_config(\.d\/[^/]+)?|[^/]+\.pub|moduli|ssh_known_hosts)$/.test(path)
      )
        return null;
      return kind;
    }
  }
  if (/^\/proc\/[^/]+\/environ$/.test(path)) return 'a process environment';
  return PROJECT_SECRETS.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

/** A glob pattern (Glob tool, `grep --include`) that names secret files: `**\/.env*`, `*.pem`. */
export function globNamesSecrets(pattern: string): string | null {
  const last = basenameOf(pattern);
  if (/^\.env(\*|\.\*)?$/.test(last) || /^\*\.env$/.test(last)) return 'environment files';
  const candidate = trimEndChars(last.replace(/^\*+/, 'x'), '*');
  return /[*?[]/.test(candidate) ? null : secretBasenameKind(candidate);
}

/**
 * A credential store this folder holds somewhere below it (the home folder holds ~/.ssh, ~/.config
 * holds gcloud's and gh's tokens, / holds everything), or null: a recursive read of it reads that store.
 */
export function credentialStoreUnder(dir: string, home: string): string | null {
  const base = trimEndChars(normalize(dir), '/');
  const within = (path: string) => base === '' || path.startsWith(`${base}/`);
  const homeBase = trimEndChars(normalize(home), '/');
  for (const [entry, kind] of HOME_SECRETS)
    if (within(`${homeBase}/${trimEndChars(entry, '/')}`)) return `${kind}, ~/${entry}`;
  for (const [entry, kind] of SYSTEM_SECRETS) if (within(trimEndChars(entry, '/'))) return `${kind}, ${entry}`;
  // Another account's home (/home, /Users) holds that account's stores.
  if (/^\/(home|Users)$/.test(base)) return "other accounts' home folders";
  return null;
}
