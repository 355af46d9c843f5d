import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { gitCommands } from '../../facts/git-invocation';
import { isLocalHost } from './shared/hosts';
import { hostAndOwner, projectRemotes } from './shared/git-remotes';

// A remote's URL decides where every later `git push` goes. Changed to another host or owner (`git
// remote set-url --push origin git@203.0.113.45:…`, `remote.origin.pushurl`), the next push the person
// or the agent makes to the remote they know hands the repository to whoever runs that host, and no
// later command shows it. A new remote (`git remote add upstream …`) changes where nothing goes.

interface Redirect {
  remote: string;
  url: string;
  push: boolean;
  text: string;
}

/** `git remote set-url [--push] [--add] NAME URL` and `git config remote.NAME.(push)url URL`. */
function redirects(call: ToolCall): Redirect[] {
  const found: Redirect[] = [];
  for (const { cmd, git } of gitCommands(shellCommands(call))) {
    if (git.sub === 'remote') {
      const words = parseFlags(git.args, [], []).positionals;
      if (words[0] === 'set-url' && words[1] && words[2])
        found.push({ remote: words[1], url: words[2], push: git.args.includes('--push'), text: cmd.text });
    }
    if (git.sub === 'config') {
      const words = parseFlags(git.args, ['f'], ['file', 'blob', 'type']).positionals;
      const key = /^remote\.(.+)\.(url|pushurl)$/i.exec(words[0] ?? '');
      if (key?.[1] && words[1])
        found.push({ remote: key[1], url: words[1], push: key[2]!.toLowerCase() === 'pushurl', text: cmd.text });
    }
  }
  return found;
}

/** Whether the new URL keeps the remote where it was (same host and owner), or stays on this machine or network. */
function staysPut(call: ToolCall, redirect: Redirect): boolean {
  if (/^(\.{0,2}\/|~\/|file:)/.test(redirect.url)) return true;
  const next = hostAndOwner(redirect.url);
  if (next === undefined) return false;
  if (isLocalHost(next.host)) return true;
  return (projectRemotes(call).get(redirect.remote) ?? []).some((url) => {
    const now = hostAndOwner(url);
    return now?.host === next.host && now.owner === next.owner;
  });
}

export const gitRemoteRedirect = definePolicy({
  name: 'git-remote-redirect',
  category: 'git',
  description:
    "Asks before a remote's URL is changed to another host or owner (git remote set-url, remote.*.pushurl): every later push to it would go there.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const found = redirects(call).find((redirect) => !staysPut(call, redirect));
    if (!found) return null;
    return {
      reason: `Points ${found.push ? 'the pushes of the remote' : 'the remote'} ${found.remote} at ${found.url}: every later git push to ${found.remote} would send the repository there, with no command that shows it. Approve this exact change if the repository has moved.`,
      evidence: evidenceOf(found.text),
    };
  },
});
