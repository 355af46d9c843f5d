import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { urlsInText } from '../../text/urls';
import { hostOfUrl } from './shared/hosts';
import { onOwnNetwork } from './shared/own-sources';
import { replacedTexts } from './shared/edited-file';

// A service's configuration names where it sends what it produces: traces, logs, metrics, copies of
// webhooks. An edit that swaps the organisation's own endpoint for an outside host reads as a one-line
// config change, and from the next deploy on hands all of that (request attributes, identifiers, payment
// details) to whoever runs the host. Only a swap counts: a config that names an outside service from the
// start (an error tracker's DSN, a payment provider's API) is the team's integration, not a redirect.

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

export const serviceEndpointMovedOutside = definePolicy({
  name: 'service-endpoint-moved-outside',
  category: 'network',
  description:
    "Asks before an edit of a config file replaces an endpoint on the organisation's own network with an outside host (a trace collector, a log sink, a webhook relay): what the service sends there would leave the organisation.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call || call.face.family !== 'edit') return null;
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
