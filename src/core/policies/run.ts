import type { HookEvent, HookEventName, Outcome } from '../types';
import type { ResolvedConfig } from '../config/load';
import { IoFacts, NO_FACT_SOURCE } from '../facts/io';
import type { AnyPolicy, PolicyContext, SessionMemory, ToolCall } from './types';

const DEFAULT_EVENTS: HookEventName[] = ['PreToolUse', 'PermissionRequest'];

export interface PolicyState {
  policy: AnyPolicy;
  enabled: boolean;
  params: unknown;
  /** The scope that decided `enabled` ('default' when none did). */
  source: string;
  error?: string;
}

/** Resolves each policy's on/off state and typed parameters from the merged config. */
export function resolvePolicyStates(policies: AnyPolicy[], config: ResolvedConfig): PolicyState[] {
  return policies.map((policy) => {
    const setting = config.policySettings.get(policy.name);
    const defaults = policy.params.safeParse({});
    const base = defaults.success ? (defaults.data as Record<string, unknown>) : {};
    const merged: Record<string, unknown> = { ...base, ...(setting?.params ?? {}) };
    for (const [key, extra] of Object.entries(setting?.appendParams ?? {})) {
      const list = Array.isArray(merged[key]) ? (merged[key] as unknown[]) : [];
      merged[key] = [...list, ...extra.filter((v) => !list.includes(v))];
    }
    const parsed = policy.params.safeParse(merged);
    const enabled = policy.alwaysOn ? true : (setting?.enabled ?? policy.defaultEnabled);
    const source = policy.alwaysOn ? 'always-on' : (setting?.enabledSource ?? 'default');
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ');
      const file = config.files.find((f) => f.scope === setting?.paramsSource)?.path;
      // Bad parameters keep the policy on with its defaults: a typo must not switch a guard off.
      return {
        policy,
        enabled,
        params: base,
        source,
        error: `${file ? `${file}: ` : ''}policies.${policy.name}.params: ${detail}`,
      };
    }
    return { policy, enabled, params: parsed.data, source };
  });
}

/** Settings for policy names that do not exist (a typo would otherwise configure nothing, silently). */
export function unknownPolicySettings(policies: AnyPolicy[], config: ResolvedConfig): string[] {
  const known = new Set(policies.map((p) => p.name));
  const messages: string[] = [];
  for (const [name, setting] of config.policySettings) {
    if (known.has(name)) continue;
    const scope = setting.paramsSource ?? setting.enabledSource;
    const file = config.files.find((f) => f.scope === scope)?.path;
    messages.push(`${file ? `${file}: ` : ''}policies.${name}: no policy has this name (see agent-warden policies)`);
  }
  return messages;
}

export interface RunInput {
  event: HookEvent;
  call?: ToolCall;
  session: SessionMemory;
  stateDir: string;
  /** The folder of Warden's running program (see PolicyContext). */
  programDir?: string;
  /** The file system and git; the call's own view when there is a call, else one that knows nothing. */
  io?: IoFacts;
}

/** Runs every enabled policy that looks at this event; a policy that throws becomes a deny naming it. */
export function runPolicies(states: PolicyState[], input: RunInput): Outcome[] {
  const outcomes: Outcome[] = [];
  const io = input.io ?? input.call?.io ?? new IoFacts(NO_FACT_SOURCE);
  for (const state of states) {
    if (!state.enabled) continue;
    const { policy } = state;
    if (!(policy.events ?? DEFAULT_EVENTS).includes(input.event.event)) continue;
    // One literal, every field named: a spread of the input made each context through V8's generic
    // copy, and every policy's reads of it slow with it (the deterministic tier took a quarter longer).
    const ctx: PolicyContext<unknown> = {
      event: input.event,
      call: input.call,
      session: input.session,
      stateDir: input.stateDir,
      programDir: input.programDir,
      io,
      params: state.params,
    };
    try {
      const hit = policy.evaluate(ctx);
      if (!hit) continue;
      const outcome: Outcome = {
        policy: policy.name,
        tier: 'deterministic',
        verdict: hit.decision ?? policy.decision,
        reason: hit.reason,
      };
      if (hit.evidence !== undefined) outcome.evidence = hit.evidence;
      if (policy.reviewableBy) outcome.reviewableBy = policy.reviewableBy;
      if (hit.personOnly) outcome.personOnly = true;
      if (hit.additionalContext !== undefined) outcome.additionalContext = hit.additionalContext;
      if (hit.updatedOutput !== undefined) outcome.updatedOutput = hit.updatedOutput;
      outcomes.push(outcome);
    } catch (err) {
      outcomes.push({
        policy: policy.name,
        tier: 'deterministic',
        verdict: 'deny',
        reason: `policy ${policy.name} failed on this call (${(err as Error).message}); refused to stay safe`,
      });
    }
  }
  return outcomes;
}
