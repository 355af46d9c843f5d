import { infraPolicy } from './infrastructure';
import { isLoopback, urlHostsOfWords } from './shared/hosts';

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

export const httpDeleteRequest = infraPolicy({
  name: 'http-delete-request',
  description:
    "Asks before an HTTP client sends a DELETE to another host (curl -X DELETE, wget --method=DELETE, http DELETE): a service's API removes what it keeps. Requests to this machine pass.",
  tools: ['curl', 'wget', 'http', 'https', 'xh', 'xhs'],
  action(_positionals, args, tool) {
    if (requestMethod(tool, args) !== 'DELETE') return null;
    const host = urlHostsOfWords(args).find((name) => !isLoopback(name));
    return host === undefined ? null : { what: `${tool} sends a DELETE request to ${host}` };
  },
});
