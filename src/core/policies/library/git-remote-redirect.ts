import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { gitCommands } from '../../facts/git-invocation';
import { onOwnNetwork } from './shared/own-sources';
import { hostAndOwner, projectRemotes } from './shared/git-remotes';
import { currentText, replacedTexts } from './shared/edited-file';

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
    // `git submodule set-url PATH URL`: the next `git submodule update` checks out that code.
    if (git.sub === 'submodule') {
      const words = parseFlags(git.args, [], []).positionals;
      if (words[0] === 'set-url' && words[1] && words[2])
        found.push({ remote: `submodule ${words[1]}`, url: words[2], push: false, text: cmd.text });
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

/** A path or a file URL: a repository on this machine, or one beside the project's own on its server. */
const LOCAL_URL = /^(\.{0,2}\/|~\/|file:)/;
const SUBMODULE_URL = /^\s*url\s*=\s*(\S+)/;

/** The `url = …` lines of a .gitmodules text (or part of one), in order. */
function submoduleUrls(text: string): string[] {
  return text.split('\n').flatMap((line) => SUBMODULE_URL.exec(line)?.[1] ?? []);
}

const sameHostAndOwner = (a: string, b: string) => {
  const [was, now] = [hostAndOwner(a), hostAndOwner(b)];
  return was !== undefined && now !== undefined && was.host === now.host && was.owner === now.owner;
};

/**
 * A submodule's URL in .gitmodules changed to another host or owner (an edit, or a write over the file):
 * the next `git submodule update` builds that code into the project. A submodule added is not a redirect.
 */
function submoduleRedirect(call: ToolCall): Redirect | undefined {
  const file = call.paths.find((p) => p.access === 'write' && /(^|\/)\.gitmodules$/.test(p.absolute))?.absolute;
  if (!file) return undefined;
  const now = call.face.family === 'write' ? currentText(call, file) : null;
  const pairs: [string, string][] =
    call.face.family === 'edit' ? replacedTexts(call.input) : now !== null && call.content ? [[now, call.content]] : [];
  for (const [before, after] of pairs) {
    const [was, will] = [submoduleUrls(before), submoduleUrls(after)];
    const moved = will.find(
      (url, at) =>
        was[at] !== undefined && !was.includes(url) && !LOCAL_URL.test(url) && !sameHostAndOwner(was[at]!, url),
    );
    if (moved !== undefined) return { remote: 'a submodule', url: moved, push: false, text: `url = ${moved}` };
  }
  return undefined;
}

/** Whether the new URL keeps the remote where it was (same host and owner), or stays on this machine or network. */
function staysPut(call: ToolCall, redirect: Redirect): boolean {
  if (LOCAL_URL.test(redirect.url)) return true;
  const next = hostAndOwner(redirect.url);
  if (next === undefined) return false;
  if (onOwnNetwork(next.host)) return true;
  return (projectRemotes(call).get(redirect.remote) ?? []).some((url) => {
    const now = hostAndOwner(url);
    return now?.host === next.host && now.owner === next.owner;
  });
}

export const gitRemoteRedirect = definePolicy({
  name: 'git-remote-redirect',
  category: 'git',
  description:
    "Asks before a remote's URL is changed to another host or owner (git remote set-url, remote.*.pushurl), or a submodule's in .gitmodules: every later push, or submodule update, would go there. The organisation's own servers pass.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const submodule = submoduleRedirect(call);
    if (submodule && !onOwnNetwork(hostAndOwner(submodule.url)?.host ?? ''))
      return {
        reason: `Points a submodule of .gitmodules at ${submodule.url}, another host or owner: the next git submodule update checks out that code, and the build runs it. Approve this exact change if the submodule has moved.`,
        evidence: evidenceOf(submodule.text),
      };
    const found = redirects(call).find((redirect) => !staysPut(call, redirect));
    if (!found) return null;
    if (found.remote.startsWith('submodule '))
      return {
        reason: `Points the ${found.remote} at ${found.url}: the next git submodule update checks out that code, and the build runs it. Approve this exact change if the submodule has moved.`,
        evidence: evidenceOf(found.text),
      };
    return {
      reason: `Points ${found.push ? 'the pushes of the remote' : 'the remote'} ${found.remote} at ${found.url}: every later git push to ${found.remote} would send the repository there, with no command that shows it. Approve this exact change if the repository has moved.`,
      evidence: evidenceOf(found.text),
    };
  },
});
