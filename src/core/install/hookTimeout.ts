import { existsSync, readFileSync } from 'node:fs';
import { isWardenHook, settingsPath } from './claude';
import { findProjectRoot } from '../project';
import type { HookEvent } from '../types';

// How long Claude Code waits for Warden's PreToolUse hook, as Warden wrote it when it was
// connected (approvals.timeoutSeconds + 30 at the time). A session keeps the hooks it started
// with, so raising approvals.timeoutSeconds later cannot make the agent wait longer: a held ask
// must end before the agent stops waiting, or the agent, not Warden, decides what happens.

/** The shortest timeout, in seconds, on Warden's own PreToolUse entries for a project; undefined: none found. */
export function claudeHookTimeoutSeconds(projectRoot: string, home?: string): number | undefined {
  let shortest: number | undefined;
  for (const scope of ['local', 'project', 'user'] as const) {
    for (const timeout of wardenTimeouts(settingsPath(scope, projectRoot, home)))
      shortest = shortest === undefined ? timeout : Math.min(shortest, timeout);
  }
  return shortest;
}

function wardenTimeouts(path: string): number[] {
  if (!existsSync(path)) return [];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
  const groups = (json as { hooks?: { PreToolUse?: unknown } } | null)?.hooks?.PreToolUse;
  const out: number[] = [];
  for (const group of Array.isArray(groups) ? (groups as unknown[]) : []) {
    const hooks = (group as { hooks?: unknown } | null)?.hooks;
    for (const hook of Array.isArray(hooks) ? (hooks as unknown[]) : []) {
      const timeout = (hook as { timeout?: unknown }).timeout;
      if (isWardenHook(hook) && typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)
        out.push(timeout);
    }
  }
  return out;
}

/** How long the agent's hook waits for this call, where Warden wrote it (Claude Code's settings); undefined: not known. */
export function agentHookTimeoutSeconds(event: HookEvent, home?: string): number | undefined {
  if (event.agent !== 'claude' || !event.cwd) return undefined;
  return claudeHookTimeoutSeconds(findProjectRoot(event.cwd), home);
}
