// Planted secrets of every kind the redactor knows, each in the context it is met in. Values are
// generated from a seeded generator at run time, so no file in the repository holds a real-looking
// credential, and every run plants the same ones.
import { generateKeyPairSync } from 'node:crypto';
import { ALNUM, BASE64, BASE64URL, HEX, randomString, seededRandom } from './inputs';

export interface PlantedSecret {
  /** What kind of secret, unique per entry. */
  kind: string;
  /** The label narrow mode gives it. */
  label: string;
  /** The text as an agent would send it, with the secret inside. */
  text: string;
  /** Every piece of the secret that must not survive redaction. */
  secrets: string[];
  /** The file it would live in, for scanners that look at names (`.npmrc`, `package.json`). */
  file: string;
}

const DIGITS = '0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

let keyMaterial: { pkcs8: string; rsa: string; ec: string; encrypted: string } | undefined;

/** Real PEM keys (generated once per process): the oracle's private-key rule wants real structure. */
function keys(): { pkcs8: string; rsa: string; ec: string; encrypted: string } {
  if (keyMaterial) return keyMaterial;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
  keyMaterial = {
    pkcs8: ec.export({ type: 'pkcs8', format: 'pem' }).toString(),
    rsa: rsa.export({ type: 'pkcs1', format: 'pem' }).toString(),
    ec: ec.export({ type: 'sec1', format: 'pem' }).toString(),
    encrypted: ec
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'planted-passphrase' })
      .toString(),
  };
  return keyMaterial;
}

/** The base64 lines of a PEM block: the part that is the key. */
function pemBodyLines(pem: string): string[] {
  return pem.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----') && !line.includes(':'));
}

function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Standard base64 of a JSON object padded so that it ends in `fQ==`, as 1Password's tokens do. */
function paddedBase64Json(value: Record<string, unknown>): string {
  const candidates = [JSON.stringify(value), ...[1, 2, 3].map((n) => JSON.stringify({ ...value, pad: 'x'.repeat(n) }))];
  const json = candidates.find((candidate) => candidate.length % 3 === 1) ?? candidates[0]!;
  return Buffer.from(json).toString('base64');
}

/** A secret with digits and both cases, so that it is never mistaken for a word or a mask. */
function password(random: () => number, length = 20): string {
  return (
    randomString(random, 'abcdefghjkmnpqrstuvwxyz', 4) +
    randomString(random, DIGITS, 2) +
    randomString(random, ALNUM, length - 6)
  );
}

export function plantedSecrets(seed = 1): PlantedSecret[] {
  const random = seededRandom(seed);
  const an = (n: number): string => randomString(random, ALNUM, n);
  const pem = keys();
  const list: PlantedSecret[] = [];
  const plantIn = (file: string, kind: string, label: string, text: string, ...secrets: string[]): void => {
    list.push({ kind, label, text, secrets, file });
  };
  const plant = (kind: string, label: string, text: string, ...secrets: string[]): void =>
    plantIn('command.txt', kind, label, text, ...secrets);

  const ghp = `ghp_${an(36)}`;
  plant('github-classic-pat', 'github-token', `export GITHUB_TOKEN=${ghp}`, ghp);
  const gho = `gho_${an(36)}`;
  plant('github-oauth', 'github-token', `{"oauth": {"token": "${gho}"}}`, gho);
  const ghu = `ghu_${an(36)}`;
  plant(
    'github-user-to-server',
    'github-token',
    `git clone https://x-access-token:${ghu}@github.com/acme/app.git`,
    ghu,
  );
  const ghs = `ghs_${an(36)}`;
  plant(
    'github-server-to-server',
    'github-token',
    `curl -H "Authorization: token ${ghs}" https://api.github.com/user`,
    ghs,
  );
  const ghr = `ghr_${an(36)}`;
  plant('github-refresh', 'github-token', `refresh with ${ghr} then retry`, ghr);
  const pat = `github_pat_${an(22)}_${an(59)}`;
  plant('github-fine-grained-pat', 'github-token', `gh auth login --with-token <<< ${pat}`, pat);
  const glpat = `glpat-${randomString(random, BASE64URL, 20)}`;
  plant(
    'gitlab-pat',
    'gitlab-token',
    `git remote add origin https://oauth2@gitlab.example.com/g/p.git # ${glpat}`,
    glpat,
  );
  const xoxb = `xoxb-${randomString(random, DIGITS, 11)}-${randomString(random, DIGITS, 12)}-${an(24)}`;
  plant('slack-bot-token', 'slack-token', `SLACK_BOT=${xoxb}`, xoxb);
  const xoxo = `xoxo-${randomString(random, DIGITS, 10)}-${an(24)}`;
  plant('slack-legacy-token', 'slack-token', `token: "${xoxo}"`, xoxo);
  const ghpUnderscore = `ghp_${an(12)}_${an(23)}`;
  plant('github-token-with-underscore', 'github-token', `GH_TOKEN=${ghpUnderscore}`, ghpUnderscore);
  const xoxp = `xoxp-${randomString(random, DIGITS, 11)}-${randomString(random, DIGITS, 12)}-${randomString(random, DIGITS, 12)}-${randomString(random, HEX, 32)}`;
  plant('slack-user-token', 'slack-token', `client = WebClient(token="${xoxp}")`, xoxp);
  const hookPath = `T${randomString(random, UPPER_DIGITS, 8)}/B${randomString(random, UPPER_DIGITS, 8)}/${an(24)}`;
  plant(
    'slack-webhook',
    'slack-webhook',
    `curl -X POST -d '{"text":"hi"}' https://hooks.slack.com/services/${hookPath}`,
    hookPath,
  );
  const discordPath = `${randomString(random, DIGITS, 18)}/${randomString(random, BASE64URL, 68)}`;
  plant('discord-webhook', 'discord-webhook', `WEBHOOK=https://discord.com/api/webhooks/${discordPath}`, discordPath);
  const stripe = `sk_live_${an(24)}`;
  plant('stripe-live-key', 'stripe-key', `stripe.api_key = "${stripe}"`, stripe);
  const stripeTest = `sk_test_${an(24)}`;
  plant(
    'stripe-test-key',
    'stripe-key',
    `curl https://api.stripe.example/v1/charges -d amount=100 # ${stripeTest}`,
    stripeTest,
  );
  const whsec = `whsec_${an(32)}`;
  plant('stripe-webhook-secret', 'stripe-key', `endpoint secret ${whsec}`, whsec);
  const openai = `sk-${an(20)}T3BlbkFJ${an(20)}`;
  plant('openai-legacy-key', 'openai-key', `openai.api_key = '${openai}'`, openai);
  const openaiProject = `sk-proj-${randomString(random, BASE64URL, 74)}T3BlbkFJ${randomString(random, BASE64URL, 74)}`;
  plant('openai-project-key', 'openai-key', `OPENAI_API_KEY=${openaiProject} python run.py`, openaiProject);
  const anthropic = `sk-ant-api03-${randomString(random, BASE64URL, 93)}AA`;
  plant('anthropic-key', 'anthropic-key', `client = Anthropic(api_key="${anthropic}")`, anthropic);
  const npm = `npm_${an(36)}`;
  plant('npm-token', 'npm-token', `echo "//npm.example.com/:_authToken=${npm}" > .npmrc`, npm);
  const pypi = `pypi-AgE${randomString(random, BASE64URL, 120)}`;
  plant('pypi-token', 'pypi-token', `twine upload -u __token__ dist/* # token ${pypi}`, pypi);
  const hf = `hf_${an(34)}`;
  plant('huggingface-token', 'huggingface-token', `huggingface-cli login --token ${hf}`, hf);
  const aiza = `AIza${randomString(random, BASE64URL, 35)}`;
  plant('gcp-api-key', 'gcp-api-key', `fetch("https://maps.example.com/api/js?callback=init&key=${aiza}")`, aiza);
  const serviceAccount = JSON.stringify(
    {
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: randomString(random, HEX, 40),
      private_key: pem.pkcs8,
      client_email: 'robot@demo-project.iam.example.com',
    },
    null,
    2,
  );
  plantIn(
    'service-account.json',
    'gcp-service-account-json',
    'private-key',
    serviceAccount,
    ...pemBodyLines(pem.pkcs8),
  );
  plant('pem-pkcs8', 'private-key', `cat > key.pem <<'EOF'\n${pem.pkcs8}EOF`, ...pemBodyLines(pem.pkcs8));
  plant('pem-rsa', 'private-key', pem.rsa, ...pemBodyLines(pem.rsa));
  plant('pem-ec', 'private-key', `printf '%s' '${pem.ec}' > ec.pem`, ...pemBodyLines(pem.ec));
  plant('pem-encrypted', 'private-key', pem.encrypted, ...pemBodyLines(pem.encrypted));
  const openssh = `b3BlbnNzaC1rZXktdjEAAAAA${randomString(random, BASE64, 46)}\n${randomString(random, BASE64, 70)}\n${randomString(random, BASE64, 70)}`;
  plant(
    'pem-openssh',
    'private-key',
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${openssh}\n-----END OPENSSH PRIVATE KEY-----\n`,
    ...openssh.split('\n'),
  );
  const akia = `AKIA${randomString(random, UPPER_DIGITS, 16)}`;
  plant('aws-access-key-id', 'aws-access-key', `aws_access_key_id = ${akia}`, akia);
  const awsSecret = randomString(random, BASE64, 40);
  plant('aws-secret-in-config', 'aws-secret-key', `[default]\naws_secret_access_key = ${awsSecret}`, awsSecret);
  const asia = `ASIA${randomString(random, UPPER_DIGITS, 16)}`;
  const awsSecret2 = `${randomString(random, ALNUM, 10)}/${randomString(random, BASE64, 29)}`;
  plant(
    'aws-key-pair-csv',
    'aws-secret-key',
    `Access key ID,Secret access key\n${asia},${awsSecret2}`,
    asia,
    awsSecret2,
  );
  const azureKey = `${randomString(random, BASE64, 86)}==`;
  plant(
    'azure-storage-connection-string',
    'azure-storage-key',
    `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${azureKey};EndpointSuffix=core.windows.net"`,
    azureKey,
  );
  const jwt = `${base64Json({ alg: 'HS256', typ: 'JWT' })}.${base64Json({ sub: an(8), name: 'Dev', iat: 1700000000 })}.${randomString(random, BASE64URL, 43)}`;
  plant('jwt', 'jwt', `Cookie-less call: ?access=${jwt}&debug=1`, jwt);
  const pg = password(random);
  plant('postgres-url', 'connection-string-password', `psql postgres://admin:${pg}@db.internal:5432/app`, pg);
  const my = password(random);
  plant('mysql-url', 'connection-string-password', `DATABASE_URL=mysql://root:${my}@localhost:3306/shop`, my);
  const mongo = password(random);
  plant(
    'mongodb-srv-url',
    'connection-string-password',
    `mongosh "mongodb+srv://app:${mongo}@cluster0.example.net/prod"`,
    mongo,
  );
  const redis = password(random);
  plant('redis-url', 'connection-string-password', `REDIS_URL=redis://:${redis}@cache:6379/0`, redis);
  const amqp = password(random);
  plant('amqp-url', 'connection-string-password', `broker_url = "amqp://worker:${amqp}@mq.internal:5672/vhost"`, amqp);
  const basic = password(random);
  plant('https-userinfo', 'url-password', `wget https://alice:${basic}@files.example.com/report.pdf`, basic);
  const oauthUser = randomString(random, HEX, 40);
  plantIn(
    'package.json',
    'url-token-as-user',
    'url-credential',
    `{"repository": "git+https://${oauthUser}:x-oauth-basic@github.com/acme/lib.git"}`,
    oauthUser,
  );
  const legacyNpm = `${randomString(random, HEX, 8)}-${randomString(random, HEX, 4)}-${randomString(random, HEX, 4)}-${randomString(random, HEX, 4)}-${randomString(random, HEX, 12)}`;
  plantIn(
    '.npmrc',
    'npmrc-legacy-auth-token',
    'secret-assignment',
    `//npm.example.com/:_authToken=${legacyNpm}\nalways-auth=true`,
    legacyNpm,
  );
  const bearer = randomString(random, BASE64URL, 48);
  plant('bearer-header', 'bearer-token', `GET /v1/me HTTP/1.1\nAuthorization: Bearer ${bearer}\nAccept: */*`, bearer);
  const basicPair = Buffer.from(`deploy:${password(random, 14)}`).toString('base64');
  plant(
    'basic-header',
    'basic-auth',
    `curl -H 'Authorization: Basic ${basicPair}' https://ci.example.com/api`,
    basicPair,
  );
  const curlPass = password(random, 14);
  plant(
    'curl-user-flag',
    'cli-credential-flag',
    `curl -u admin:${curlPass} https://jenkins.example.com/api/json`,
    curlPass,
  );
  const mysqlPass = password(random, 14);
  plant('mysql-p-flag', 'cli-credential-flag', `mysqldump -u root -p${mysqlPass} shop > dump.sql`, mysqlPass);
  const sshpass = password(random, 14);
  plant('sshpass-flag', 'cli-credential-flag', `sshpass -p '${sshpass}' ssh deploy@10.0.0.5 uptime`, sshpass);
  const tokenFlag = password(random, 24);
  plant(
    'token-flag',
    'cli-credential-flag',
    `vault login --token=${tokenFlag} -address=https://vault.internal`,
    tokenFlag,
  );
  const apiKeyFlag = password(random, 24);
  plant('api-key-flag', 'cli-credential-flag', `mycli deploy --api-key ${apiKeyFlag} --region eu`, apiKeyFlag);
  const headerKey = password(random, 24);
  plant(
    'api-key-header',
    'secret-header',
    `curl -H 'X-Api-Key: ${headerKey}' https://api.example.com/v2/items`,
    headerKey,
  );
  const assigned = password(random, 24);
  plant('env-assignment', 'secret-assignment', `API_KEY=${assigned} npm run sync`, assigned);
  const exported = password(random, 18);
  plant('export-password', 'secret-assignment', `export DB_PASSWORD="${exported}"`, exported);
  const clientSecret = password(random, 32);
  plant(
    'json-client-secret',
    'secret-assignment',
    `{"client_id": "web", "client_secret": "${clientSecret}"}`,
    clientSecret,
  );
  const yaml = password(random, 16);
  plant('yaml-password', 'secret-assignment', `database:\n  user: app\n  password: ${yaml}\n  host: db`, yaml);
  const entropy = randomString(random, BASE64, 44);
  plant('high-entropy-token', 'high-entropy', `echo ${entropy} | base64 -d > blob.bin`, entropy);
  const sendgrid = `SG.${an(22)}.${an(43)}`;
  plant('sendgrid-key', 'sendgrid-key', `sg = SendGridAPIClient("${sendgrid}")`, sendgrid);
  const shopify = `shpat_${randomString(random, HEX, 32)}`;
  plant('shopify-token', 'shopify-token', `X-Shopify-Access-Token ${shopify}`, shopify);
  const shopifyAlnum = `shpss_${an(40)}`;
  plant('shopify-shared-secret', 'shopify-token', `shopify app secret ${shopifyAlnum}`, shopifyAlnum);
  const awsNoPrefix = randomString(random, BASE64, 40);
  plant('secret-access-key-no-aws-prefix', 'secret-assignment', `SecretAccessKey: '${awsNoPrefix}'`, awsNoPrefix);
  const linear = `lin_api_${an(40)}`;
  plant('linear-key', 'linear-key', `const linear = new LinearClient({ apiKey: "${linear}" })`, linear);
  const onePassword = `ops_${paddedBase64Json({ signInAddress: 'my.example.com', userAuth: { method: 'SRPg-4096', alg: 'PBES2g-HS256', iterations: 650000, salt: an(22) }, email: 'robot@example.com', srpX: randomString(random, HEX, 64), muk: { alg: 'A256GCM', ext: true, k: randomString(random, BASE64URL, 43), key_ops: ['encrypt', 'decrypt'], kty: 'oct', kid: 'mp' }, secretKey: `A3-${randomString(random, UPPER_DIGITS, 6)}-${randomString(random, UPPER_DIGITS, 6)}`, deviceUuid: an(26) })}`;
  plant('onepassword-service-account', 'onepassword-token', `OP_SERVICE_ACCOUNT=${onePassword}`, onePassword);
  const digitalocean = `dop_v1_${randomString(random, HEX, 64)}`;
  plant('digitalocean-token', 'digitalocean-token', `doctl auth init -t ${digitalocean}`, digitalocean);
  const vault = `hvs.${randomString(random, BASE64URL, 90)}`;
  plant('vault-token', 'vault-token', `vault token lookup ${vault}`, vault);
  const dockerPass = password(random, 16);
  plant(
    'docker-login-flag',
    'cli-credential-flag',
    `docker login -u ci -p ${dockerPass} registry.example.com`,
    dockerPass,
  );
  const redisCli = password(random, 16);
  plant('redis-cli-flag', 'cli-credential-flag', `redis-cli -h cache -a ${redisCli} ping`, redisCli);
  const xmlPass = password(random, 16);
  plant(
    'xml-password',
    'secret-assignment',
    `<datasource><username>app</username><password>${xmlPass}</password></datasource>`,
    xmlPass,
  );
  const opensslPass = password(random, 16);
  plant(
    'openssl-passin',
    'cli-credential-flag',
    `openssl rsa -in key.pem -passin pass:${opensslPass} -out plain.pem`,
    opensslPass,
  );
  return list;
}
