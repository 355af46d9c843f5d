import { infraPolicy } from './infrastructure';
import { requestMethod } from './http-deletes';
import { hostOfUrl, isLoopback } from './shared/hosts';
import { optionValues, parseFlags } from '../../facts/commands';
import { HTTP_CLIENTS } from '../../facts/programs';

// Access handed out through a service's HTTP API rather than its CLI: a collaborator or member added, an
// invitation sent, a deploy or account key registered, an API token minted. Whoever receives it keeps it
// after the task (a forge, Cloudflare, App Store Connect, GitLab, Vercel, Heroku). Listing members is a GET.

/** API paths whose write adds a person, a key or a token. */
const GRANT_PATH =
  /\/(?:collaborators|outside_collaborators|invitations|userInvitations|members|memberships|deploy_keys|keys|tokens)(?:\/|$|\?)/;
/** curl's options that send a body, which makes its request a POST unless told otherwise. */
const SENDS_BODY = /^(?:-d|-F|--data(?:-\w+)?|--json|--form(?:-string)?)(?:=|$)|^-[dF]./;

/** `gh api PATH` with a write method, or with fields (which make it a POST). */
function ghApiWrite(args: readonly string[]): string | undefined {
  if (args[0] !== 'api') return undefined;
  const method = optionValues(args, ['X'], ['method'])[0]?.toUpperCase();
  const fields = optionValues(args, ['f', 'F'], ['field', 'raw-field', 'input']).length > 0;
  const writes = method !== undefined ? ['POST', 'PUT', 'PATCH'].includes(method) : fields;
  const path = parseFlags(
    args.slice(1),
    ['X', 'f', 'F', 'H', 'q', 't', 'p'],
    [...['method', 'field', 'raw-field', 'input', 'header', 'jq', 'template', 'preview', 'hostname', 'cache']],
  ).positionals[0];
  return writes && path !== undefined && GRANT_PATH.test(`/${path.replace(/^\//, '')}`) ? path : undefined;
}

function sendsWrite(tool: string, args: readonly string[]): boolean {
  const method = requestMethod(tool, args);
  if (method !== undefined) return ['POST', 'PUT', 'PATCH'].includes(method);
  if (tool === 'curl') return args.some((a) => SENDS_BODY.test(a)) && !args.includes('-G') && !args.includes('--get');
  const first = args.find((word) => !word.startsWith('-'));
  return /^(?:post|put|patch)$/i.test(first ?? '');
}

export const apiAccessGrant = infraPolicy({
  name: 'api-access-grant',
  description:
    'Asks before an HTTP client writes to a service API path that adds a collaborator or member, sends an invitation, registers a key or mints a token (GitHub, Cloudflare, App Store Connect, GitLab…).',
  tools: [...HTTP_CLIENTS, 'gh'],
  why: 'it gives someone lasting access to the service, beyond this task',
  action(_positionals, args, tool) {
    if (tool === 'gh') {
      const path = ghApiWrite(args);
      return path === undefined ? null : { what: `gh api writes to ${path}` };
    }
    if (!sendsWrite(tool, args)) return null;
    for (const word of args) {
      if (!/^https?:\/\//i.test(word)) continue;
      const host = hostOfUrl(word);
      const path = word.replace(/^https?:\/\/[^/]*/i, '');
      if (host !== undefined && !isLoopback(host) && GRANT_PATH.test(path))
        return { what: `${tool} writes to ${host}${path.split('?')[0]}` };
    }
    return null;
  },
});
