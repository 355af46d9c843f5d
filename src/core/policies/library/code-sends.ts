import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { codeSends, type CodeSend } from '../../text/code-sends';
import { issuedElsewhere, isKnownServiceHost } from './shared/credential-hosts';
import { isSourceOrTemplate } from '../../text/source-files';
import { textBefore, writtenOverReplaced } from './shared/edited-file';
import { isOwnSource, onOwnNetwork } from './shared/own-sources';
import { isServiceFor } from './shared/service-vendors';

// Application code that sends what is not its own to a host written into it: middleware that copies
// each request's Authorization header or cookies out, a login handler that posts the password, a web
// pixel that ships the checkout, a job that uploads customers. It runs once deployed, for every user,
// long after the call that wrote it; nothing at the shell shows it. A request that carries none of that
// (a health ping, a fetch of a public page) passes, and so do the organisation's own hosts and the
// services a team calls on purpose with its own key, except through a webhook anyone can own.

/** What a request may carry that belongs to someone else, with how the reason names it. */
const CARRIED: readonly { pattern: RegExp; what: string }[] = [
  {
    pattern:
      /\b(?:req|request|ctx|event|context)\.(?:req\.)?(?:headers|header\s*\(|cookies)|\bheaders\.get\(\s*["'](?:authorization|cookie)["']|\.header\(\s*["'](?:authorization|cookie)["']|\bdocument\.cookie\b|\bcookies\.getAll\(|\$_COOKIE\b|\$_SERVER\s*\[\s*["']HTTP_(?:AUTHORIZATION|COOKIE)/i,
    what: "the request's credentials (its Authorization header or cookies)",
  },
  {
    pattern:
      /\bprocess\.env\b(?!\s*(?:\.|\[|\?\.))|\bos\.environ\b(?!\s*(?:\[|\.get))|\bENV\.to_h\b|\$_ENV\b(?!\s*\[)|\bSystem\.getenv\(\s*\)|\bos\.Environ\(\)/,
    what: 'the whole environment, secrets included',
  },
  {
    pattern:
      /\b(?:e-?mail|phone|billing|shipping_?address|street|iban|card_?number|ssn|date_?of_?birth)\b|\bcustomers?\b|\bcheckout\b|\bbuyer\b|\bget_address\(/i,
    what: "people's personal details",
  },
  {
    pattern:
      /\b(?:access|refresh|id|session)_?token\b|\bsession\.(?:token|id)\b|\bpass(?:word|wd)\b|\$_POST\s*\[\s*["'](?:pwd|pass(?:word)?)["']|\b(?:localStorage|sessionStorage)\b/i,
    what: 'passwords or session tokens',
  },
];

/** A credential read by name from the environment (`process.env.STRIPE_KEY`, `os.environ["HF_TOKEN"]`, a Worker's `env.X`). */
const NAMED_VARIABLE =
  /(?:process\.env|import\.meta\.env|\benv)\.([A-Z][A-Z0-9_]{2,})|(?:environ|ENV|getenv|GetEnvironmentVariable|Getenv)\s*(?:\[|\(|\.get\(|\.fetch\()\s*["']([A-Z][A-Z0-9_]{2,})["']/g;

/** Code that records what people type into a page, to send on: a typing listener that reads the value or key. */
const TYPING_LISTENER = /addEventListener\(\s*["'](?:input|keydown|keyup|keypress|change)["']/;
const TYPED = /\.(?:value|key)\b/;

/** A webhook URL: whoever made the webhook owns what it receives, whichever service hosts it. */
const WEBHOOK = /^(?:https?:\/\/)?hooks\.|\/(?:webhooks?|bot\d)/i;

function isServiceTheTeamUses(send: CodeSend): boolean {
  if (WEBHOOK.test(send.url)) return false;
  return isKnownServiceHost(send.host) || isServiceFor('user-data', send.host);
}

/** What the send carries that is not the code's own, or undefined. */
function carriedBy(send: CodeSend, text: string): string | undefined {
  const found = CARRIED.find(({ pattern }) => pattern.test(send.payload));
  if (found) return found.what;
  for (const match of send.payload.matchAll(NAMED_VARIABLE)) {
    const name = (match[1] ?? match[2])!;
    if (issuedElsewhere(name, send.host)) return `the ${name} credential`;
  }
  return TYPING_LISTENER.test(text) && TYPED.test(text)
    ? 'what people type into the page, passwords included'
    : undefined;
}

/** An error reporter told to attach the people behind each error (`send_default_pii=True`, `sendDefaultPii: true`). */
const REPORTS_PERSONAL_DATA = /\bsend_?default_?pii\s*[:=]\s*true\b|\bmax_request_body_size\s*=\s*["']always["']/i;

/** The hosts the file's code already sent to before this call: an edit around them adds nothing new. */
function hostsBefore(call: ToolCall, file: string): Set<string> {
  return new Set(codeSends(textBefore(call, file)).map((send) => send.host));
}

export const codeSendsDataOut = definePolicy({
  name: 'code-sends-data-out',
  category: 'network',
  description:
    "Asks before source code is written that sends request credentials, passwords or tokens, personal details or the environment to a host neither the organisation's nor a service the team uses, or turns on an error reporter's PII.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /** Hosts (and their subdomains) the organisation's code may send such data to. */
    allowHosts: z.array(z.string().min(1)).default([]),
  }),
  evaluate({ call, params }) {
    if (!call) return null;
    for (const { file, content, replaced } of writtenOverReplaced(call)) {
      if (!isSourceOrTemplate(file)) continue;
      const pii = REPORTS_PERSONAL_DATA.exec(content)?.[0];
      if (pii !== undefined && !replaced.includes(pii))
        return {
          reason: `${file} tells the error reporter to send personal data with each report (${pii}): users' addresses, cookies and request bodies go to the reporting service, outside the data's boundary. Approve this exact call if that service may hold them.`,
          evidence: evidenceOf(pii),
        };
      const sends = codeSends(content).filter(
        (send) => !onOwnNetwork(send.host) && !isOwnSource(send.url, params.allowHosts) && !isServiceTheTeamUses(send),
      );
      if (sends.length === 0) continue;
      const known = hostsBefore(call, file);
      for (const send of sends) {
        if (known.has(send.host)) continue;
        const what = carriedBy(send, content);
        if (what === undefined) continue;
        return {
          reason: `${file} gets code that sends ${what} to ${send.host}: once it runs, that leaves for whoever runs the host, for every user it serves. Approve this exact call if ${send.host} should have it, or add it to allowHosts.`,
          evidence: evidenceOf(send.call),
        };
      }
    }
    return null;
  },
});
