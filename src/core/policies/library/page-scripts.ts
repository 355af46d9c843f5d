import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import { replacedTexts } from './shared/edited-file';
import { hostAndPath, isOwnSource } from './shared/own-sources';
import { isServiceFor } from './shared/service-vendors';

// A script a page loads from another host runs in every visitor's session, with their cookies and
// whatever the page shows them: a tag added to a template hands that to whoever runs the host. The
// well-known CDNs and vendors a team adds on purpose (package CDNs, analytics, payments, captchas)
// pass, and so do the organisation's own hosts; anything else waits for a person.

/** Files that are or render a page: HTML, templates, and components that write markup. */
const PAGE_FILE =
  /\.(html?|jsx|tsx|vue|svelte|astro|php|erb|hbs|ejs|njk|liquid|twig|jinja2?|j2|cshtml|razor|page|component)$/i;
/** A script tag's source when it names a host (`https://…`, `//…`); a path of the site itself is left out. */
const SCRIPT_SOURCE = /\bsrc\s*=\s*(?:\{\s*)?["'`]((?:https?:)?\/\/[^"'`\s>]+)/i;
const TAG_CHARS = 2000;

/** The script sources a text's `<script …>` tags (and Next.js's `<Script …>`) name by host. */
function scriptSources(text: string): string[] {
  const sources: string[] = [];
  const lower = text.toLowerCase();
  for (let at = lower.indexOf('<script'); at !== -1; at = lower.indexOf('<script', at + 7)) {
    const end = text.indexOf('>', at);
    const tag = text.slice(at, end === -1 ? at + TAG_CHARS : Math.min(end + 1, at + TAG_CHARS));
    const source = SCRIPT_SOURCE.exec(tag)?.[1];
    if (source !== undefined) sources.push(source.startsWith('//') ? `https:${source}` : source);
  }
  return sources;
}

/** The page files a call writes, each with the script sources its new text adds. */
function addedScriptSources(call: ToolCall): { file: string; source: string }[] {
  const found: { file: string; source: string }[] = [];
  const before = new Set(replacedTexts(call.input).flatMap(([old]) => scriptSources(old)));
  for (const { file, content } of writtenTexts(call)) {
    if (!PAGE_FILE.test(file)) continue;
    for (const source of scriptSources(content)) if (!before.has(source)) found.push({ file, source });
  }
  return found;
}

export const pageLoadsOutsideScript = definePolicy({
  name: 'page-loads-outside-script',
  category: 'dangerous-commands',
  description:
    "Asks before a page or template gets a script tag that loads code from a host that is neither the organisation's own nor a well-known CDN or vendor: it would run in every visitor's session.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /** More hosts (and their subdomains) whose scripts pages may load. */
    allowHosts: z.array(z.string().min(1)).default([]),
  }),
  evaluate({ call, params }) {
    if (!call) return null;
    for (const { file, source } of addedScriptSources(call)) {
      const host = hostAndPath(source)?.host;
      if (host === undefined || isServiceFor('page-scripts', host) || isOwnSource(source, params.allowHosts)) continue;
      return {
        reason: `${file} gets a script loaded from ${host}: it runs in every visitor's session, with their cookies and what the page shows them, as whoever runs that host decides. Approve this exact call if the host is one you trust, or add it to allowHosts.`,
        evidence: evidenceOf(source),
      };
    }
    return null;
  },
});
