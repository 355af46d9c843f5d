import { execFileSync } from 'node:child_process';
import { readJsonObject } from './jsonFile';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userHome } from '../state';
import { dirname, join } from 'node:path';

// Writes Warden's hooks into a Claude Code settings file, merging with what is
// there and never touching other entries. Warden's own entries are recognised
// by their target (an http hook on a loopback /hooks/claude URL, or a command
// hook running `agent-warden hook --agent claude`), so uninstall removes
// exactly those.

export type ClaudeScope = 'local' | 'project' | 'user';
export const HOOK_EVENTS = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'Stop'] as const;
/**
 * Only the gates on a tool call fail closed. A blocked UserPromptSubmit or Stop
 * while Warden is down would lock the person out of the agent altogether.
 */
export const FAIL_CLOSED_EVENTS: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest']);
export const TOKEN_ENV = 'AGENT_WARDEN_TOKEN';
/** The first Claude Code version whose http hooks accept onFailure: "block". */
export const FAIL_CLOSED_SINCE = '2.1.295';

export function settingsPath(scope: ClaudeScope, projectRoot: string, home = userHome()): string {
  if (scope === 'user') return join(home, '.claude', 'settings.json');
  return join(projectRoot, '.claude', scope === 'project' ? 'settings.json' : 'settings.local.json');
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The installed Claude Code's version (`claude --version`), or null when it cannot be run. */
export function detectClaudeVersion(claudeBinary = process.env.AGENT_WARDEN_CLAUDE_BIN || 'claude'): string | null {
  try {
    const out = execFileSync(claudeBinary, ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /(?<!\d)(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? null;
  } catch {
    return null;
  }
}

export interface InstallPlan {
  scope: ClaudeScope;
  path: string;
  before: string | null;
  after: string;
  changed: boolean;
  warnings: string[];
  mode: 'http' | 'bridge';
}

export interface InstallOptions {
  scope: ClaudeScope;
  projectRoot: string;
  home?: string;
  /** The endpoint's base URL (http mode). */
  url?: string;
  /** The literal token, for scopes where it may be written (local, user). */
  token?: string;
  /** Write command hooks that run the bridge instead of http hooks. */
  bridge?: boolean;
  /** Whether the installer offers the bridge (the CLI does; the extension does not), for the fail-open advice. */
  bridgeOffered?: boolean;
  /** The bridge's command line, without the trailing arguments. */
  bridgeCommand?: string;
  claudeVersion: string | null;
  approvalTimeoutSeconds: number;
}

type Json = Record<string, unknown>;

export function isWardenHook(hook: unknown): boolean {
  if (typeof hook !== 'object' || hook === null) return false;
  const h = hook as Json;
  if (h.type === 'http' && typeof h.url === 'string')
    return /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/hooks\/claude$/.test(h.url);
  if (h.type === 'command' && typeof h.command === 'string')
    return /agent-warden|cli\.js/.test(h.command) && /\bhook --agent claude\b/.test(h.command);
  return false;
}

/**
 * Removes Warden's hooks from a parsed settings object. Only what that removal
 * empties is dropped (a group, then an event, then `hooks`); anything the
 * user left empty themselves stays as it was.
 */
function withoutWarden(settings: Json): Json {
  const hooks = settings.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return settings;
  const nextHooks: Json = {};
  let removedAny = false;
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) {
      nextHooks[event] = groups;
      continue;
    }
    let removedHere = false;
    const kept = groups
      .map((group) => {
        if (typeof group !== 'object' || group === null || !Array.isArray((group as Json).hooks)) return group;
        const inner = ((group as Json).hooks as unknown[]).filter((h) => !isWardenHook(h));
        if (inner.length === ((group as Json).hooks as unknown[]).length) return group;
        removedHere = true;
        return inner.length ? { ...(group as Json), hooks: inner } : null;
      })
      .filter((g) => g !== null);
    if (removedHere) removedAny = true;
    if (kept.length || !removedHere) nextHooks[event] = kept;
  }
  if (!removedAny) return settings;
  const next = { ...settings };
  if (Object.keys(nextHooks).length) next.hooks = nextHooks;
  else delete next.hooks;
  return next;
}

function wardenHook(opts: InstallOptions, warnings: string[]): Json {
  const failsClosed = opts.claudeVersion !== null && compareVersions(opts.claudeVersion, FAIL_CLOSED_SINCE) >= 0;
  // Longer than the approval deadline, so a held ask is answered by Warden, not cut off by the agent.
  const timeout = opts.approvalTimeoutSeconds + 30;
  if (opts.bridge) {
    const command = `${opts.bridgeCommand ?? 'agent-warden'} hook --agent claude`;
    // The bridge refuses by itself when no endpoint answers; from 2.1.295 a bridge that cannot
    // start or is timed out blocks the call too, instead of being a non-blocking error.
    return { type: 'command', command, timeout, ...(failsClosed ? { onFailure: 'block' } : {}) };
  }
  if (!opts.url) throw new Error('no endpoint URL: start `agent-warden serve` (or the extension) first, or pass --url');
  const useEnv = opts.scope === 'project' || !opts.token;
  const hook: Json = {
    type: 'http',
    url: `${opts.url.replace(/\/$/, '')}/hooks/claude`,
    headers: { Authorization: `Bearer ${useEnv ? `$${TOKEN_ENV}` : opts.token}` },
    timeout,
  };
  if (useEnv) hook.allowedEnvVars = [TOKEN_ENV];
  if (failsClosed) hook.onFailure = 'block';
  else if (opts.claudeVersion === null) {
    const remedy =
      opts.bridgeOffered === false
        ? `Make sure \`claude\` on the PATH is ${FAIL_CLOSED_SINCE} or later, then connect again.`
        : 'Use --bridge for command hooks that block when no verdict can be had.';
    warnings.push(
      `Could not run \`claude --version\`, so Warden cannot tell whether this Claude Code fails closed. Http hooks before ${FAIL_CLOSED_SINCE} fail OPEN: if Warden is down, calls run unchecked. ${remedy}`,
    );
  } else {
    const remedy =
      opts.bridgeOffered === false
        ? `Upgrade Claude Code to ${FAIL_CLOSED_SINCE} or later.`
        : 'Upgrade Claude Code, or install with --bridge for command hooks that block when no verdict can be had.';
    warnings.push(
      `Claude Code ${opts.claudeVersion} is older than ${FAIL_CLOSED_SINCE}: its http hooks fail OPEN (if Warden is down or slow, calls run unchecked). ${remedy}`,
    );
  }
  if (useEnv)
    warnings.push(
      `The hooks read the token from $${TOKEN_ENV}: start Claude Code from a shell where \`eval "$(agent-warden env)"\` has run (the VS Code extension sets it in its terminals).`,
    );
  return hook;
}

export function planInstall(opts: InstallOptions): InstallPlan {
  const path = settingsPath(opts.scope, opts.projectRoot, opts.home);
  const { text, json } = readJsonObject(path);
  const warnings: string[] = [];
  const hook = wardenHook(opts, warnings);
  const settings = withoutWarden(json);
  const hooks: Json = { ...((settings.hooks as Json | undefined) ?? {}) };
  for (const event of HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    const eventHook =
      hook.onFailure !== undefined && !FAIL_CLOSED_EVENTS.has(event) ? withoutKey(hook, 'onFailure') : hook;
    const group: Json = { hooks: [eventHook] };
    if (event === 'PreToolUse' || event === 'PermissionRequest' || event === 'PostToolUse') group.matcher = '*';
    groups.push(group);
    hooks[event] = groups;
  }
  const after = JSON.stringify({ ...settings, hooks }, null, 2) + '\n';
  return {
    scope: opts.scope,
    path,
    before: text,
    after,
    changed: after !== text,
    warnings,
    mode: opts.bridge ? 'bridge' : 'http',
  };
}

function withoutKey(object: Json, key: string): Json {
  const copy = { ...object };
  delete copy[key];
  return copy;
}

export function planUninstall(scope: ClaudeScope, projectRoot: string, home?: string): InstallPlan {
  const path = settingsPath(scope, projectRoot, home);
  const { text, json } = readJsonObject(path);
  if (text === null) return { scope, path, before: null, after: '', changed: false, warnings: [], mode: 'http' };
  const stripped = withoutWarden(json);
  const changed = JSON.stringify(stripped) !== JSON.stringify(json);
  // Untouched files keep their bytes; a changed one is rewritten in the same style install writes.
  const after = changed ? JSON.stringify(stripped, null, 2) + '\n' : text;
  return { scope, path, before: text, after, changed, warnings: [], mode: 'http' };
}

export function applyPlan(plan: InstallPlan): void {
  if (!plan.changed) return;
  mkdirSync(dirname(plan.path), { recursive: true });
  writeFileSync(plan.path, plan.after);
}

/** Whether a settings file holds Warden hooks, and the endpoint URL they point at. */
export function installedHookUrl(path: string): string | null {
  try {
    const { json } = readJsonObject(path);
    for (const groups of Object.values((json.hooks as Json | undefined) ?? {})) {
      for (const group of Array.isArray(groups) ? groups : []) {
        for (const hook of ((group as Json).hooks as unknown[] | undefined) ?? []) {
          if (isWardenHook(hook) && (hook as Json).type === 'http')
            return String((hook as Json).url).replace(/\/hooks\/claude$/, '');
        }
      }
    }
  } catch {
    return null;
  }
  return null;
}
