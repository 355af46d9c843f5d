// Front-end builds copy some variables into the JavaScript every visitor downloads: those with a public
// prefix (NEXT_PUBLIC_, VITE_, REACT_APP_, …) and those a Next.js config lists under `env`. A secret put
// there (a Stripe secret key, Supabase's service-role key) is published with the next deploy, with no
// request that shows it leaving.
import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { classifySecretName } from '../../redaction/secret-names';
import { linesAdded } from './shared/edited-file';

const PUBLIC_PREFIX = /^(NEXT_PUBLIC_|NUXT_PUBLIC_|VITE_|REACT_APP_|EXPO_PUBLIC_|PUBLIC_|GATSBY_|STORYBOOK_)/;
// Keys made to be public: a publishable or anonymous key, a site key, a client id, an error-reporting DSN.
const MEANT_PUBLIC = /PUBLISHABLE|ANON|PUBLIC_KEY|SITE_KEY|CLIENT_ID|DSN|MEASUREMENT_ID|APP_ID|PROJECT_ID|_URL$/;

const ENV_FILE = /(^|\/)\.env(\.[\w.-]+)?$/;
const VITE_CONFIG = /(^|\/)vite\.config\.[cm]?[jt]s$/;
/** Vite's `envPrefix: ["VITE_", "SHOPIFY_"]`: every variable whose name starts with one goes into the bundle. */
const ENV_PREFIX_OPTION = /\benvPrefix\s*:\s*(\[[^\]\n]*\]?|["'`][^"'`\n]*["'`])/;
const QUOTED_WORD = /["'`]([^"'`]*)["'`]/g;
// Server code that hands the whole environment to a response (`return json({ env: process.env })`):
// a loader's or a handler's data is serialised into the page every visitor gets.
const WHOLE_ENVIRONMENT = /(?<!keys\()\bprocess\.env\b(?!\s*(?:\.|\[|\?\.))/;
const RESPONDS = /\b(?:json|send)\s*\(|\bprops\s*:/;
const CODE_FILE = /\.(m?[jt]sx?|cjs|mts|cts|vue|svelte|astro)$/;
const NEXT_CONFIG = /(^|\/)next\.config\.[cm]?[jt]s$/;
const ENV_LINE = /^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)[ \t]*=/;
// `STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY` under a Next.js config's `env`.
const NEXT_ENV_ENTRY = /^[ \t]*["']?\w+["']?[ \t]*:[ \t]*process\.env\.(\w+)/;

// Supabase's service-role key bypasses every row-level rule; the redaction names do not call it a secret.
const SERVICE_ROLE = /SERVICE_ROLE/;

function isSecret(name: string): boolean {
  return !MEANT_PUBLIC.test(name) && (classifySecretName(name) !== null || SERVICE_ROLE.test(name));
}

/** The secret a line publishes: a public-prefixed variable with a secret's name, or a Next.js `env` entry. */
function publishedSecret(file: string, line: string): string | undefined {
  if (ENV_FILE.test(file)) {
    const name = ENV_LINE.exec(line)?.[1];
    const prefix = name === undefined ? undefined : PUBLIC_PREFIX.exec(name)?.[0];
    if (name !== undefined && prefix !== undefined && isSecret(name.slice(prefix.length))) return name;
    return undefined;
  }
  if (VITE_CONFIG.test(file)) {
    const listed = ENV_PREFIX_OPTION.exec(line)?.[1];
    const prefixes = listed === undefined ? [] : [...listed.matchAll(QUOTED_WORD)].map((m) => m[1]!);
    const exposed = prefixes.find((prefix) => !PUBLIC_PREFIX.test(prefix) && !/PUBLIC/.test(prefix));
    if (exposed !== undefined) return exposed === '' ? 'every variable' : `every variable named ${exposed}…`;
  }
  if (CODE_FILE.test(file) && RESPONDS.test(line) && WHOLE_ENVIRONMENT.test(line))
    return 'the whole server environment';
  if (NEXT_CONFIG.test(file)) {
    const name = NEXT_ENV_ENTRY.exec(line)?.[1];
    return name !== undefined && !PUBLIC_PREFIX.test(name) && isSecret(name) ? name : undefined;
  }
  return undefined;
}

export const clientBundleSecrets = definePolicy({
  name: 'secret-in-client-bundle',
  category: 'secrets',
  description:
    "Asks before a secret is put where a front-end build or a page publishes it: a public-prefixed variable named for a secret, a Next.js config's env, Vite's envPrefix, process.env in a response.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, lines } of linesAdded(call))
      for (const line of lines) {
        const secret = publishedSecret(file, line);
        if (secret !== undefined)
          return {
            reason: `Writes ${file} so that ${secret} goes into the JavaScript every visitor downloads: a secret there is published with the next build. Keep it server-side, or a person decides.`,
            evidence: evidenceOf(line),
          };
      }
    return null;
  },
});
