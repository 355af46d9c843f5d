import { z } from 'zod';
import { definePolicy } from '../types';
import type { SessionMemory, ToolCall } from '../types';
import { argsOf, evidenceOf, optionValues, parseFlags, shellCommands } from '../../facts/commands';
import { gitCommands } from '../../facts/git-invocation';
import { NETCATS, REQUEST_BODY_LONG, REQUEST_BODY_SHORT } from '../../facts/programs';
import { secretReads } from './shared/secret-reads';
import { readTargets } from '../../facts/targets';
import { onlyLocalTargets } from './shared/hosts';

// Cross-boundary taint: once a session has read a credential or content from
// outside the project, data may leave with the next network call. That call
// needs a person's answer for these exact bytes; no standing answer covers it.

const POLICY = 'tainted-network-egress';
const MAX_SOURCES = 20;

interface TaintSource {
  what: string;
  tool: string;
  kind: 'secret' | 'outside' | 'web';
}

function taintSourcesOf(call: ToolCall): TaintSource[] {
  const sources: TaintSource[] = secretReads(call).map((r) => ({
    what: `${r.path} (${r.kind})`,
    tool: call.toolName,
    kind: 'secret' as const,
  }));
  // A file read on another machine (`ssh host 'cat /proc/loadavg'`) is none of this machine's data.
  for (const target of readTargets(call)) {
    if (target.remote) continue;
    if (target.relation === 'system' || target.relation === 'outside-project-in-home' || target.relation === 'home') {
      sources.push({ what: `${target.absolute} (outside the project)`, tool: call.toolName, kind: 'outside' });
    }
  }
  if (call.face.family === 'network')
    sources.push({ what: `${call.url ?? 'web content'} (fetched from the web)`, tool: call.toolName, kind: 'web' });
  return sources;
}

function egressOf(call: ToolCall, knownRemotes: readonly string[]): string | null {
  if (call.face.family === 'network') return `${call.toolName} ${call.url ?? ''}`.trim();
  for (const cmd of shellCommands(call)) {
    const name = cmd.name.toLowerCase();
    const args = argsOf(cmd);
    // A request to this machine or its own network carries nothing off it.
    if (['curl', 'wget', 'http', 'https', 'xh'].includes(name) && onlyLocalTargets(cmd)) continue;
    if (name === 'curl') {
      const method = optionValues(args, ['X'], ['request'])[0]?.toUpperCase();
      if (
        optionValues(args, [...REQUEST_BODY_SHORT], [...REQUEST_BODY_LONG]).length ||
        (method && method !== 'GET' && method !== 'HEAD')
      )
        return `curl sending data`;
    }
    if (
      name === 'wget' &&
      args.some(
        (a) => /^--(post-data|post-file|body-data|body-file|method=(POST|PUT|PATCH))/i.test(a) || a === '--method',
      )
    )
      return 'wget sending data';
    if (
      (name === 'http' || name === 'https' || name === 'xh') &&
      (args.some((a) => /^(POST|PUT|PATCH|DELETE)$/.test(a)) || args.some((a) => /^[\w-]+(:?=|@)/.test(a)))
    )
      return `${name} sending data`;
    if (
      ['scp', 'rsync', 'sftp'].includes(name) &&
      args.some(
        (a) =>
          (/^(?:[\w.-]*@)?[\w.-]+:(?!\/\/)/.test(a) && !/^[A-Za-z]:[\\/]/.test(a)) || /^(rsync|sftp|scp):\/\//.test(a),
      )
    )
      return `${name} to a remote host`;
    if (NETCATS.has(name) && parseFlags(args, ['p', 'w', 'q', 's'], []).positionals.length)
      return `${name} to a remote host`;
    if (
      name === 'ssh' &&
      parseFlags(args, ['p', 'i', 'l', 'o', 'F', 'J', 'L', 'R', 'D', 'W', 'b', 'c', 'E', 'm', 'O', 'Q', 'S'], [])
        .positionals.length
    )
      return 'ssh to a remote host';
    if (
      name === 'aws' &&
      args[0] === 's3' &&
      ['cp', 'sync', 'mv'].includes(args[1] ?? '') &&
      (args[args.length - 1] ?? '').startsWith('s3://')
    )
      return 'aws s3 upload';
    if (
      name === 'gsutil' &&
      ['cp', 'rsync', 'mv'].includes(args[0] ?? '') &&
      (args[args.length - 1] ?? '').startsWith('gs://')
    )
      return 'gsutil upload';
    if (name === 'gh' && args[0] === 'gist' && args[1] === 'create') return 'gh gist create';
    if (name === 'glab' && args[0] === 'snippet' && (args[1] === 'create' || args[1] === 'new'))
      return 'glab snippet create';
  }
  for (const { git, cmd } of gitCommands(shellCommands(call))) {
    if (git.sub !== 'push') continue;
    const remote = parseFlags(git.args, ['o'], ['repo', 'push-option', 'receive-pack', 'exec']).positionals[0];
    if (remote && remote !== 'origin' && !knownRemotes.includes(remote))
      return `git push to ${remote} (${evidenceOf(cmd.text, 60)})`;
  }
  return null;
}

function remember(session: SessionMemory, sources: TaintSource[]): TaintSource[] {
  const known = session.get<TaintSource[]>(POLICY, 'sources') ?? [];
  const merged = [...known];
  for (const s of sources) if (!merged.some((m) => m.what === s.what)) merged.push(s);
  const kept = merged.slice(-MAX_SOURCES);
  session.set(POLICY, 'sources', kept);
  return kept;
}

export const taintedNetworkEgress = definePolicy({
  name: POLICY,
  category: 'taint',
  description:
    'Once a session has read a credential or content from outside the project, asks a person (for that exact call) before data goes out to the network.',
  defaultEnabled: true,
  decision: 'ask',
  events: ['PreToolUse'],
  params: z.object({
    /** Git remotes (besides origin) that pushing to is not egress: "upstream". */
    knownRemotes: z.array(z.string()).default([]),
  }),
  evaluate({ call, session, params }) {
    if (!call) return null;
    const before = session.get<TaintSource[]>(POLICY, 'sources') ?? [];
    const fresh = taintSourcesOf(call);
    const egress = egressOf(call, params.knownRemotes);
    // The fetch that taints is itself allowed; only what comes after it is egress.
    const sources = call.face.family === 'network' ? before : remember(session, fresh);
    if (call.face.family === 'network') remember(session, fresh);
    const first = sources.find((s) => s.kind !== 'web') ?? sources[0];
    if (!egress || !first) return null;
    // After web pages only, a plain page fetch carries nothing of this machine; a query string or data might.
    if (call.face.family === 'network' && sources.every((s) => s.kind === 'web') && !/[?#]/.test(call.url ?? ''))
      return null;
    const more = sources.length > 1 ? ` and ${sources.length - 1} more` : '';
    return {
      personOnly: true,
      reason: `This session read ${first.what} through ${first.tool}${more}; ${egress} could carry it off this machine. A person must approve this exact call.`,
      evidence: sources.map((s) => s.what).join('; '),
    };
  },
});
