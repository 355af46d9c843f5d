import { infraPolicy } from './infrastructure';
import { isLoopback, urlHostsOfWords, urlsOfWords } from './shared/hosts';
import { HTTP_CLIENTS } from '../../facts/programs';

// A DELETE request is how a service's HTTP API removes what it keeps: a repository on an artifact
// server, a bucket, an index, a release. Sent by hand with an HTTP client, it skips the CLI that
// would have named what goes. A request to this machine (an emulator, a dev server) is local work.

/** The method the client is told to send, upper-cased: `-X DELETE`, `-XDELETE`, `--method=DELETE`, `http DELETE url`. */
export function requestMethod(tool: string, args: readonly string[]): string | undefined {
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if ((tool === 'curl' && (word === '-X' || word === '--request')) || (tool === 'wget' && word === '--method'))
      return args[at + 1]?.toUpperCase();
    const joined = /^(?:-X|--request=|--method=)(.+)$/.exec(word);
    if (joined && (tool === 'curl' || word.startsWith('--method='))) return joined[1]!.toUpperCase();
  }
  // httpie and xh take the method as their first word (`http DELETE example.org/x`, `xh delete …`).
  const first = args.find((word) => !word.startsWith('-'));
  return tool !== 'curl' && tool !== 'wget' && /^delete$/i.test(first ?? '') ? 'DELETE' : undefined;
}

// APIs that remove by sending to an action rather than with DELETE: Jenkins's `job/NAME/doDelete`,
// `…/items/5/delete`, `…/workspace/doWipeOutWorkspace`.
const DELETE_ACTION = /^(do)?(delete|destroy|purge|wipe[a-z]*)$/i;
const CURL_BODY = /^(-d|--data(-\w+)?|-F|--form(-string)?|--json|-T|--upload-file)(=|$)|^-[dF]./;

/** The method a request goes out with: the one named, else POST when it carries a body, else GET. */
function effectiveMethod(tool: string, args: readonly string[]): string {
  const named = requestMethod(tool, args);
  if (named) return named;
  if (tool === 'curl') return args.some((word) => CURL_BODY.test(word)) ? 'POST' : 'GET';
  if (tool === 'wget') return args.some((word) => /^--(post|body)-(data|file)(=|$)/.test(word)) ? 'POST' : 'GET';
  const first = args.find((word) => !word.startsWith('-'));
  return /^(post|put|patch)$/i.test(first ?? '') ? first!.toUpperCase() : 'GET';
}

/** The host of a URL whose last path segment is a delete action, when the request changes something there. */
function deleteActionHost(tool: string, args: readonly string[]): string | undefined {
  const method = effectiveMethod(tool, args);
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return undefined;
  const action = urlsOfWords(args).find(
    (url) => DELETE_ACTION.test(url.pathname.split('/').filter(Boolean).pop() ?? '') && !isLoopback(url.hostname),
  );
  return action?.hostname;
}

export const httpDeleteRequest = infraPolicy({
  name: 'http-delete-request',
  description:
    "Asks before an HTTP client sends a DELETE to another host (curl -X DELETE, http DELETE) or posts to a delete action (Jenkins's doDelete): a service's API removes what it keeps. Requests to this machine pass.",
  tools: [...HTTP_CLIENTS],
  action(_positionals, args, tool) {
    const action = deleteActionHost(tool, args);
    if (action !== undefined) return { what: `${tool} sends a request to a delete action on ${action}` };
    if (requestMethod(tool, args) !== 'DELETE') return null;
    const host = urlHostsOfWords(args).find((name) => !isLoopback(name));
    return host === undefined ? null : { what: `${tool} sends a DELETE request to ${host}` };
  },
});
