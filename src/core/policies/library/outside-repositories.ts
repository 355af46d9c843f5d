import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { mcpToolOf } from './shared/mcp';
import { hostAndOwner, projectRemotes } from './shared/git-remotes';
import { onOwnNetwork } from './shared/own-sources';

// A GitHub server's tools write straight into any repository the person's token reaches: files pushed
// to a personal or a stranger's account (`push_files` to `dev-sideproj/scratch`), or the project's own
// repository forked into another account, copy the organisation's code out with no `git push` to see.
// Whose repositories are the project's own is read from `.git/config` (the owners of its GitHub
// remotes) and from `ownOwners`; when neither names one, nothing here can tell, and the call passes.

/** Tools that put files into a repository. */
const WRITES_FILES = new Set(['create_or_update_file', 'push_files']);

/** The owners of the project's GitHub remotes, lower case. */
function remoteOwners(call: ToolCall): Set<string> {
  const owners = new Set<string>();
  for (const urls of projectRemotes(call).values())
    for (const url of urls) {
      const where = hostAndOwner(url);
      if (where?.host.includes('github') && where.owner) owners.add(where.owner);
    }
  return owners;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

interface OutsideCopy {
  what: string;
  destination: string;
}

function outsideCopy(call: ToolCall, own: Set<string>): OutsideCopy | undefined {
  const owner = text(call.input['owner']);
  const repo = text(call.input['repo']);
  const tool = mcpToolOf(call.toolName)?.tool;
  if (tool !== undefined && WRITES_FILES.has(tool) && owner && !own.has(owner.toLowerCase()))
    return { what: tool === 'push_files' ? 'pushes files' : 'writes a file', destination: `${owner}/${repo}` };
  if (tool === 'fork_repository' && own.has(owner.toLowerCase())) {
    const into = text(call.input['organization']);
    if (into && own.has(into.toLowerCase())) return undefined;
    return {
      what: `forks the project's repository ${owner}/${repo}`,
      destination: into ? `the account ${into}` : "the token's own account",
    };
  }
  return undefined;
}

/** Repository hosts whose MCP servers can copy a repository somewhere else. */
const REPOSITORY_HOST = /github|gitlab|bitbucket|gitea|forgejo/i;

/**
 * A repository host's tool that sets up a mirror (`create_project_mirror`, `create_push_mirror`) to a URL
 * that is neither on the organisation's own network nor one of the project's remotes: every later push is
 * copied there by the host itself.
 */
function outsideMirror(call: ToolCall): string | undefined {
  const mcp = mcpToolOf(call.toolName);
  if (!mcp || !REPOSITORY_HOST.test(mcp.server) || !/mirror/i.test(mcp.tool)) return undefined;
  const remotes = [...projectRemotes(call).values()].flat().map((url) => hostAndOwner(url));
  return Object.values(call.input)
    .map(text)
    .find((value) => {
      const where = /^[a-z][\w+.-]*:\/\//i.test(value) ? hostAndOwner(value) : undefined;
      if (!where || onOwnNetwork(where.host)) return false;
      return !remotes.some((r) => r?.host === where.host && r.owner === where.owner);
    });
}

export const codeToOutsideRepository = definePolicy({
  name: 'code-to-outside-repository',
  category: 'network',
  description:
    "Asks before a GitHub server's tool writes files into a repository of an owner other than the project's own (from .git/config and ownOwners), forks it into another account, or a repository host mirrors it to an outside URL.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /** More owners (organisations, users) whose repositories count as the project's own. */
    ownOwners: z.array(z.string().min(1)).default([]),
  }),
  evaluate({ call, params }) {
    const mirror = call ? outsideMirror(call) : undefined;
    if (call && mirror)
      return {
        reason: `${call.toolName} mirrors the repository to ${mirror}, neither on the organisation's own network nor one of the project's remotes: the host copies every later push there. Approve this exact call if that mirror is the team's.`,
        evidence: evidenceOf(`${call.toolName} ${mirror}`),
      };
    const server = call ? mcpToolOf(call.toolName)?.server : undefined;
    if (!call || !server?.toLowerCase().includes('github')) return null;
    const own = new Set([...remoteOwners(call), ...params.ownOwners.map((o) => o.toLowerCase())]);
    if (own.size === 0) return null;
    const copy = outsideCopy(call, own);
    if (!copy) return null;
    return {
      reason: `${call.toolName} ${copy.what} into ${copy.destination}, outside the project's own repositories (${[...own].join(', ')}): the code leaves with no push to see. Approve this exact call if that account is the project's, or add it to ownOwners.`,
      evidence: evidenceOf(`${call.toolName} ${copy.destination}`),
    };
  },
});
