import { join } from 'node:path';
import type { ToolCall } from '../../types';
import { hostAndPath } from './own-sources';

// The project's remotes as `.git/config` names them now, read through the call's fact source: where its
// pushes go, and so whose repositories are the project's own.

const GIT_CONFIG_LIMIT = 64 * 1024;

/** Each remote's URLs (url and pushurl), by remote name. */
export function projectRemotes(call: ToolCall): Map<string, string[]> {
  const remotes = new Map<string, string[]>();
  const text = call.io.readText(join(call.projectRoot, '.git', 'config'), GIT_CONFIG_LIMIT);
  if (text === null) return remotes;
  let remote: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]*)"\s*\]/.exec(line);
    if (section || /^\s*\[/.test(line)) remote = section?.[1];
    const value = remote !== undefined ? /^\s*(url|pushurl)\s*=\s*(\S+)/i.exec(line) : null;
    if (remote !== undefined && value?.[2]) remotes.set(remote, [...(remotes.get(remote) ?? []), value[2]]);
  }
  return remotes;
}

/** Host and owner of a remote URL (`https://github.com/acme/x.git`, `git@github.com:acme/x.git`): what a switch of protocol keeps. */
export function hostAndOwner(url: string): { host: string; owner: string } | undefined {
  const where = hostAndPath(url);
  return where && { host: where.host, owner: where.path.split('/').filter(Boolean)[0] ?? '' };
}
