import { nameWords } from '../../../redaction/secret-names';

// A credential named after its issuer (OPENAI_API_KEY, GITHUB_TOKEN) belongs to that issuer's
// hosts. Sent in a header to one of them it is how the tool authenticates; sent to any other host
// it is the credential leaving. Names without a known issuer (API_TOKEN) say nothing either way.

const ISSUER_HOSTS: Record<string, readonly string[]> = {
  openai: ['openai.com', 'openai.azure.com'],
  etherscan: ['etherscan.io'],
  alchemy: ['alchemy.com'],
  infura: ['infura.io'],
  anthropic: ['anthropic.com', 'claude.ai'],
  github: ['github.com', 'githubusercontent.com', 'ghcr.io', 'github.io'],
  gh: ['github.com', 'githubusercontent.com', 'ghcr.io'],
  gitlab: ['gitlab.com'],
  aws: ['amazonaws.com', 'aws.amazon.com', 'amazonaws.com.cn'],
  stripe: ['stripe.com'],
  slack: ['slack.com'],
  // A package registry token serves whichever registry the person configured, which its name does not
  // tell: no host is its issuer's by name, so any host it is sent to is judged as someone else's.
  npm: [],
  hf: ['huggingface.co', 'hf.co'],
  huggingface: ['huggingface.co', 'hf.co'],
  google: ['googleapis.com', 'google.com'],
  gemini: ['googleapis.com'],
  gcp: ['googleapis.com'],
  azure: ['azure.com', 'windows.net', 'microsoft.com', 'azure.net'],
  sentry: ['sentry.io'],
  datadog: ['datadoghq.com', 'datadoghq.eu'],
  twilio: ['twilio.com'],
  sendgrid: ['sendgrid.com', 'sendgrid.net'],
  cloudflare: ['cloudflare.com'],
  cf: ['cloudflare.com'],
  digitalocean: ['digitalocean.com'],
  heroku: ['heroku.com'],
  vercel: ['vercel.com'],
  netlify: ['netlify.com'],
  mistral: ['mistral.ai'],
  groq: ['groq.com'],
  cohere: ['cohere.ai', 'cohere.com'],
  replicate: ['replicate.com'],
  pinecone: ['pinecone.io'],
  supabase: ['supabase.co', 'supabase.com'],
  docker: ['docker.io', 'docker.com'],
  dockerhub: ['docker.io', 'docker.com'],
  linear: ['linear.app'],
  notion: ['notion.com', 'notion.so'],
  atlassian: ['atlassian.net', 'atlassian.com'],
  jira: ['atlassian.net', 'atlassian.com'],
  shopify: ['myshopify.com', 'shopify.com'],
  discord: ['discord.com', 'discordapp.com'],
  telegram: ['telegram.org'],
  circleci: ['circleci.com'],
  codecov: ['codecov.io'],
  snyk: ['snyk.io'],
  fly: ['fly.io'],
  railway: ['railway.app'],
  render: ['render.com'],
  mailgun: ['mailgun.net', 'mailgun.org'],
  postmark: ['postmarkapp.com'],
  algolia: ['algolia.net', 'algolia.com', 'algolianet.com'],
  openrouter: ['openrouter.ai'],
  deepseek: ['deepseek.com'],
  together: ['together.xyz', 'together.ai'],
};

/** The issuer a credential's name points at, with its hosts, or undefined when the name names none. */
export function issuerOf(variable: string): { issuer: string; hosts: readonly string[] } | undefined {
  for (const word of nameWords(variable)) {
    const hosts = Object.hasOwn(ISSUER_HOSTS, word) ? ISSUER_HOSTS[word] : undefined;
    if (hosts) return { issuer: word, hosts };
  }
  return undefined;
}

/** A credential whose name points at an issuer, sent to a host that issuer does not run. */
export function issuedElsewhere(variable: string, host: string): boolean {
  const issuer = issuerOf(variable);
  return issuer !== undefined && !isIssuerHost(host, issuer.hosts);
}

/** A credential sent to its own issuer's host (a name with no known issuer never is). */
export function sentToItsIssuer(variable: string, host: string): boolean {
  const issuer = issuerOf(variable);
  return issuer !== undefined && isIssuerHost(host, issuer.hosts);
}

/** Whether a host is one of the issuer's (the domain or a name under it). */
export function isIssuerHost(host: string, hosts: readonly string[]): boolean {
  const bare = host.toLowerCase();
  return hosts.some((domain) => bare === domain || bare.endsWith(`.${domain}`));
}

/** A host one of the known issuers runs: a service a team calls on purpose with its own key. */
export function isKnownServiceHost(host: string): boolean {
  return Object.values(ISSUER_HOSTS).some((hosts) => isIssuerHost(host, hosts));
}
