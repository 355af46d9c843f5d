import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { urlsInText } from '../../text/urls';
import { hostOfUrl } from './shared/hosts';
import { onOwnNetwork } from './shared/own-sources';
import { replacedTexts } from './shared/edited-file';
import { writtenTexts } from '../../facts/compute';
import type { ToolCall } from '../types';
import { isServiceFor } from './shared/service-vendors';

// A service's configuration names where it sends what it produces: traces, logs, metrics, copies of
// webhooks. An edit that swaps the organisation's own endpoint for an outside host reads as a one-line
// config change, and from the next deploy on hands all of that (request attributes, identifiers, payment
// details) to whoever runs the host. Only a swap counts: a config that names an outside service from the
// start (an error tracker's DSN, a payment provider's API) is the team's integration, not a redirect.
// One more is read where it is written: an LLM tracer's or an OpenTelemetry exporter's endpoint set to a
// host that is neither the organisation's nor the tracing vendor's. An LLM proxy sends it every prompt
// and completion, and a new collector is how that traffic gets copied out.

/** Configuration files a service or a deployment reads its endpoints from. */
const CONFIG_FILE = /\.(ya?ml|json|properties|xml|toml|conf|ini|env|tfvars|hcl)$/i;

function hostsIn(text: string): string[] {
  return urlsInText(text)
    .map((url) => hostOfUrl(url))
    .filter((host): host is string => host !== undefined);
}

/** The own-network host an edit replaces and the outside host it puts in its place, or undefined. */
function endpointSwap(before: string, after: string): { own: string; outside: string } | undefined {
  const was = hostsIn(before);
  const own = was.find(onOwnNetwork);
  if (own === undefined) return undefined;
  const outside = hostsIn(after).find((host) => !onOwnNetwork(host) && !was.includes(host));
  return outside === undefined ? undefined : { own, outside };
}

/** Keys that name where traces, prompts and completions are exported (`LANGFUSE_HOST`, `OTEL_EXPORTER_OTLP_ENDPOINT`). */
const TRACE_EXPORT_KEY =
  /\b(?:LANGFUSE|LANGSMITH|LANGCHAIN|HELICONE|PHOENIX|ARIZE|LUNARY|TRACELOOP|OTEL_EXPORTER_OTLP(?:_TRACES|_LOGS|_METRICS)?)_(?:HOST|ENDPOINT|BASE_URL|URL|COLLECTOR_ENDPOINT)["']?\s*[:=]\s*["']?(https?:\/\/[^\s"',}]+)/g;
/** An error reporter's DSN (`SENTRY_DSN=…`, `dsn: "https://key@host/1"`): every error report, with its request data, goes there. */
const ERROR_REPORT_DSN = /\b(?:SENTRY_DSN|dsn)["']?\s*[:=]\s*["'`]?(https?:\/\/[^\s"'`,}]+)/g;
/** Prose that shows a setting rather than sets one. */
const PROSE_FILE = /\.(md|mdx|rst|txt|adoc)$/i;

/** A self-hosted Sentry is named for it (`sentry.acme.com`, `o1.ingest.sentry.acme.com`). */
function sentryNamed(host: string): boolean {
  return host.split('.').includes('sentry');
}

/** A trace export endpoint the call writes into a config file, on a host neither own nor a vendor's. */
function outsideTraceExport(call: ToolCall): { file: string; key: string; host: string } | undefined {
  for (const { file, content } of writtenTexts(call)) {
    if (PROSE_FILE.test(file)) continue;
    // A DSN is written into code as often as into config (`Sentry.init({ dsn: "…" })`).
    const traces =
      CONFIG_FILE.test(file) || /(^|\/)\.env(\.[\w-]+)?$/.test(file) ? [...content.matchAll(TRACE_EXPORT_KEY)] : [];
    const reports = [...content.matchAll(ERROR_REPORT_DSN)].filter((m) => !sentryNamed(hostOfUrl(m[1] ?? '') ?? ''));
    for (const match of [...traces, ...reports]) {
      const host = hostOfUrl(match[1] ?? '');
      if (host !== undefined && !onOwnNetwork(host) && !isServiceFor('tracing', host))
        return { file, key: match[0].split(/["'\s:=]/)[0] ?? '', host };
    }
  }
  return undefined;
}

export const serviceEndpointMovedOutside = definePolicy({
  name: 'service-endpoint-moved-outside',
  category: 'network',
  description:
    "Asks before a config edit swaps an own-network endpoint for an outside host (trace collector, log sink, webhook relay), or sets a tracer's endpoint (LANGFUSE_HOST, OTLP) or a Sentry DSN to a host neither own nor a vendor's.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const tracer = outsideTraceExport(call);
    if (tracer)
      return {
        reason: `${tracer.file}: ${tracer.key} sends traces or error reports to ${tracer.host}, which is neither on the organisation's own network nor a tracing or error-reporting vendor's: every prompt, completion, request attribute or error (with its request data) the service reports would go to whoever runs it. Approve it if the team runs its collector there.`,
        evidence: evidenceOf(`${tracer.key} ${tracer.host}`),
      };
    if (call.face.family !== 'edit') return null;
    const file = call.paths.find((p) => p.access === 'write')?.absolute;
    if (file === undefined || !CONFIG_FILE.test(file)) return null;
    for (const [before, after] of replacedTexts(call.input)) {
      const swap = endpointSwap(before, after);
      if (swap)
        return {
          reason: `${file}: this edit replaces ${swap.own}, on the organisation's own network, with ${swap.outside}: whatever the service sends there (traces, logs, events) would go to whoever runs that host from the next deploy on. Approve it if the team moved to that service.`,
          evidence: evidenceOf(after),
        };
    }
    return null;
  },
});
