// Secrets of many kinds, planted in a call, a transcript and the environment by the leak test and the
// bench. Values are made up, shaped like the real formats (random-looking bodies, right lengths).

export interface PlantedSecret {
  kind: string;
  /** The value that must not reach the judge. */
  value: string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A made-up body: deterministic per seed, so every secret is distinct and the test is repeatable. */
function body(seed: number, length: number, alphabet = ALNUM): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

const pem = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo',
  '9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvre',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

export const SECRETS = {
  awsKeyId: 'AKIAQ3EGRTWXZ7M4KJ2P',
  awsSecret: body(2, 40),
  githubClassic: 'ghp_' + body(3, 36),
  githubFineGrained: 'github_pat_11' + body(4, 20) + '_' + body(5, 59),
  githubOauth: 'gho_' + body(6, 36),
  gitlab: 'glpat-' + body(7, 20),
  slackBot: 'xoxb-2847561902-5938472610384-' + body(8, 24),
  slackWebhook: 'T04AB7CD9/B05EF2GH1/' + body(9, 24),
  stripe: 'sk_live_51' + body(10, 30),
  openai: 'sk-proj-' + body(11, 20) + '4' + body(12, 19),
  anthropic: 'sk-ant-api03-' + body(13, 40) + '7-' + body(14, 8) + 'AA',
  npm: 'npm_' + body(15, 35) + '1',
  pypi: 'pypi-AgEIcHlwaS5vcmcCJ' + body(16, 60),
  huggingFace: 'hf_' + body(17, 34),
  googleApi: 'AIzaSy' + body(18, 33),
  sendgrid: 'SG.' + body(19, 22) + '.' + body(20, 43),
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFsaWNlIn0.' + body(21, 43),
  pemKey: pem,
  postgresPassword: 'Pg-' + body(22, 14),
  urlPassword: 'Url-' + body(23, 14),
  bearer: body(24, 30),
  basicAuth: 'YWxpY2U6czNjcmV0LXBhc3N3b3Jk',
  mysqlPassword: 'My-' + body(26, 14),
  curlPassword: 'Curl-' + body(27, 14),
  sshpassPassword: 'Ssh-' + body(28, 14),
  exportedPassword: 'Export-' + body(29, 12),
  fileApiKey: 'file-' + body(30, 24),
  envApiKey: 'Fv9QkT3mZx7LpW2nR8sD4',
  highEntropy: body(32, 40),
  apiKeyHeader: 'hdr-' + body(33, 22),
  jsonToken: 'json-' + body(34, 22),
  cookie: 'sessionid=' + body(35, 26),
  dockerPassword: 'Docker-' + body(36, 14),
  commentSecret: 'ghp_' + body(37, 36),
  agentEcho: 'Agent-' + body(38, 14),
} as const;

/** Every planted value, with the kind it stands for. */
export function plantedSecrets(): PlantedSecret[] {
  return Object.entries(SECRETS).map(([kind, value]) => ({ kind, value }));
}

/** The process environment of the test: a secret-named variable whose value shows up in the texts. */
export const PLANTED_ENV = { FOO_API_KEY: SECRETS.envApiKey, HOME: '/home/dev', PATH: '/usr/bin' };

/** A shell command that carries many of the secrets, as an agent might write it. */
export function plantedCommand(): string {
  const s = SECRETS;
  return [
    `export AWS_ACCESS_KEY_ID=${s.awsKeyId} AWS_SECRET_ACCESS_KEY=${s.awsSecret}`,
    `export DB_PASSWORD='${s.exportedPassword}'`,
    `git remote add origin https://oauth2:${s.githubClassic}@github.com/acme/app.git`,
    `curl -H "Authorization: Bearer ${s.bearer}" -H 'X-Api-Key: ${s.apiKeyHeader}' -H "Cookie: ${s.cookie}" https://api.example.com/v1`,
    `curl -H "Authorization: Basic ${s.basicAuth}" -u deploy:${s.curlPassword} https://ci.example.com`,
    `mysql -u root -p${s.mysqlPassword} -h db.internal prod`,
    `sshpass -p '${s.sshpassPassword}' ssh deploy@host`,
    `PGPASSWORD='${s.agentEcho}' pg_dump app > dump.sql`,
    `psql "postgres://app:${s.postgresPassword}@db.internal:5432/app"`,
    `git clone https://alice:${s.urlPassword}@git.example.com/x.git`,
    `docker login -u bot --password ${s.dockerPassword} registry.example.com`,
    `curl -X POST -d '{"text":"hi"}' https://hooks.slack.com/services/${s.slackWebhook}`,
    `GITLAB_TOKEN=${s.gitlab} NPM_TOKEN=${s.npm} glab ci run`,
    `echo ${s.envApiKey} # ${s.commentSecret}`,
  ].join('\n');
}

/** File content (a Write call) with more of them. */
export function plantedFileContent(): string {
  const s = SECRETS;
  return [
    'STRIPE_SECRET_KEY=' + s.stripe,
    'OPENAI_API_KEY=' + s.openai,
    'ANTHROPIC_API_KEY=' + s.anthropic,
    `api_key = "${s.fileApiKey}"`,
    `hf = "${s.huggingFace}"`,
    `google = "${s.googleApi}"`,
    `sendgrid = "${s.sendgrid}"`,
    `pypi_token = "${s.pypi}"`,
    `token: ${s.jwt}`,
    s.pemKey,
    `fine_grained = "${s.githubFineGrained}"`,
    `slack = "${s.slackBot}"`,
  ].join('\n');
}
