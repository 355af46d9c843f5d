import { createHash } from 'node:crypto';
import { z } from 'zod';
import { definePolicy } from '../types';
import type { HookEvent } from '../../types';

// Loops and loose ends: the same call over and over, and stopping with work
// that is neither committed nor pushed.

/** JSON with object keys sorted, so the same input always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Most calls are short and kept as they are; a long one (a Write's whole file) is kept as its digest. */
const MAX_PLAIN_KEY = 512;

function streakKey(text: string): string {
  return text.length <= MAX_PLAIN_KEY ? text : `sha256:${createHash('sha256').update(text).digest('base64')}`;
}

interface Streak {
  /** The tool and its input: the session keeps it between calls, and crosses threads with it. */
  key: string;
  count: number;
}

export const repeatedIdenticalCalls = definePolicy({
  name: 'repeated-identical-calls',
  category: 'workflow',
  description:
    'Warns when the agent makes the same tool call with the same input several times in a row (default 5), and refuses past a higher count (default 8).',
  defaultEnabled: true,
  decision: 'instruct',
  events: ['PreToolUse'],
  params: z
    .object({
      instructAt: z.number().int().min(2).default(5),
      denyAt: z.number().int().min(2).default(8),
    })
    .refine((p) => p.denyAt > p.instructAt, { message: 'denyAt must be larger than instructAt', path: ['denyAt'] }),
  evaluate({ event, session, params }) {
    if (!event.toolName) return null;
    const key = streakKey(`${event.toolName}\u0000${canonical(event.toolInput ?? {})}`);
    const previous = session.get<Streak>('repeated-identical-calls', 'streak');
    const streak: Streak = previous && previous.key === key ? { key, count: previous.count + 1 } : { key, count: 1 };
    session.set('repeated-identical-calls', 'streak', streak);
    if (streak.count >= params.denyAt) {
      return {
        decision: 'deny',
        reason: `${event.toolName} has been called ${streak.count} times in a row with the same input: the agent is stuck in a loop; stop, explain what fails, and ask the person how to proceed.`,
      };
    }
    if (streak.count >= params.instructAt) {
      return {
        reason: `${event.toolName} has been called ${streak.count} times in a row with the same input and will not give a different answer; change the approach or ask the person.`,
      };
    }
    return null;
  },
});

/** Claude Code sets stop_hook_active when it already continued once because of a Stop hook. */
function alreadyContinued(event: HookEvent): boolean {
  return event.raw.stop_hook_active === true;
}

export const stopWithUncommittedWork = definePolicy({
  name: 'stop-with-uncommitted-work',
  category: 'workflow',
  description: 'At Stop: keeps the agent going while the project has uncommitted changes (off by default).',
  defaultEnabled: false,
  decision: 'deny',
  events: ['Stop'],
  params: z.object({ ignoreUntracked: z.boolean().default(false) }),
  evaluate({ event, params, io }) {
    if (alreadyContinued(event) || !event.cwd) return null;
    // git answers for the whole repository from any folder in it; porcelain paths are from its top.
    const status = io.git(
      ['status', '--porcelain', ...(params.ignoreUntracked ? ['--untracked-files=no'] : [])],
      event.cwd,
    );
    if (status === null) return null;
    const lines = status.split('\n').filter((l) => l.trim() !== '');
    if (!lines.length) return null;
    const sample = lines
      .slice(0, 3)
      .map((l) => l.slice(3))
      .join(', ');
    return {
      reason: `${lines.length} file${lines.length > 1 ? 's have' : ' has'} uncommitted changes (${sample}${lines.length > 3 ? ', …' : ''}): commit the finished work with a clear message, or say why it stays uncommitted.`,
    };
  },
});

export const stopWithUnpushedCommits = definePolicy({
  name: 'stop-with-unpushed-commits',
  category: 'workflow',
  description:
    'At Stop: keeps the agent going while the current branch has commits not pushed to any remote (off by default).',
  defaultEnabled: false,
  decision: 'deny',
  events: ['Stop'],
  params: z.object({}),
  evaluate({ event, io }) {
    if (alreadyContinued(event) || !event.cwd) return null;
    const root = event.cwd;
    // A repository with no remote has nowhere to push to.
    if (!(io.git(['remote'], root) ?? '').trim()) return null;
    const upstream = io.git(['rev-list', '--count', '@{upstream}..HEAD'], root);
    const count = Number(
      (upstream ?? io.git(['rev-list', '--count', 'HEAD', '--not', '--remotes'], root) ?? '0').trim(),
    );
    if (!Number.isFinite(count) || count === 0) return null;
    return {
      reason: `The branch has ${count} commit${count > 1 ? 's' : ''} not pushed to any remote: push them (to a feature branch), or say why they stay local.`,
    };
  },
});
