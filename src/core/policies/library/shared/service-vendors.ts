// The outside services a team uses on purpose, by what it uses them for. A host on one of these lists
// is the integration working as meant, not data or code going somewhere new. A host matches its entry
// or any subdomain of it.

/** Services a team sends its users' data to on purpose: analytics, messaging, CRM, forms. */
const DATA_SERVICES = [
  'segment.io',
  'segment.com',
  'mixpanel.com',
  'amplitude.com',
  'posthog.com',
  'hubapi.com',
  'hubspot.com',
  'intercom.io',
  'klaviyo.com',
  'mailchimp.com',
  'google-analytics.com',
  'facebook.com',
  'customer.io',
  'brevo.com',
  'resend.com',
  'formspree.io',
];

/** Hosts a team adds page scripts from on purpose: CDNs, and the scripts of payments, analytics and sign-in. */
const SCRIPT_HOSTS = [
  'cdn.jsdelivr.net',
  'unpkg.com',
  'cdnjs.cloudflare.com',
  'ajax.googleapis.com',
  'code.jquery.com',
  'esm.sh',
  'ga.jspm.io',
  'cdn.tailwindcss.com',
  'googletagmanager.com',
  'google-analytics.com',
  'google.com',
  'gstatic.com',
  'js.stripe.com',
  'challenges.cloudflare.com',
  'static.cloudflareinsights.com',
  'plausible.io',
  'sentry-cdn.com',
  'cdn.segment.com',
  'widget.intercom.io',
  'js.hs-scripts.com',
  'connect.facebook.net',
  'platform.twitter.com',
  'accounts.google.com',
  'apis.google.com',
  'cdn.auth0.com',
  'js.hcaptcha.com',
  'www.paypal.com',
  'maps.googleapis.com',
];

/** Tracing and observability vendors: their hosted endpoints are the integration, not a copy going out. */
const TRACE_VENDORS = [
  'langfuse.com',
  'langchain.com',
  'helicone.ai',
  'arize.com',
  'lunary.ai',
  'traceloop.com',
  'honeycomb.io',
  'datadoghq.com',
  'datadoghq.eu',
  'newrelic.com',
  'grafana.net',
  'lightstep.com',
  'dynatrace.com',
  'uptrace.dev',
  'axiom.co',
  'wandb.ai',
  'sentry.io',
];

export type ServiceUse = 'user-data' | 'page-scripts' | 'tracing';

const SERVICES_FOR: Record<ServiceUse, readonly string[]> = {
  'user-data': DATA_SERVICES,
  'page-scripts': SCRIPT_HOSTS,
  tracing: TRACE_VENDORS,
};

/** Whether the host is (or is under) a service teams use for that purpose. */
export function isServiceFor(use: ServiceUse, host: string): boolean {
  const lower = host.toLowerCase();
  return SERVICES_FOR[use].some((known) => lower === known || lower.endsWith(`.${known}`));
}
