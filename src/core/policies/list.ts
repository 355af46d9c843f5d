import type { Decision, HookEventName } from '../types';
import type { PolicyState } from './run';
import type { PolicyCategory } from './types';

// What `agent-warden policies` prints: every policy, its state and where that state came from.

export interface PolicyListing {
  name: string;
  category: PolicyCategory;
  description: string;
  enabled: boolean;
  alwaysOn: boolean;
  defaultEnabled: boolean;
  decision: Exclude<Decision, 'allow'>;
  /** The scope that decided `enabled`: default, user, project, local, cli or always-on. */
  source: string;
  events: HookEventName[];
  params: unknown;
  /** Why configured parameters were refused (the defaults apply). */
  error?: string;
}

const DEFAULT_EVENTS: HookEventName[] = ['PreToolUse', 'PermissionRequest'];

export function listPolicies(states: PolicyState[]): PolicyListing[] {
  return states.map((state) => {
    const { policy } = state;
    const listing: PolicyListing = {
      name: policy.name,
      category: policy.category,
      description: policy.description,
      enabled: state.enabled,
      alwaysOn: policy.alwaysOn === true,
      defaultEnabled: policy.defaultEnabled,
      decision: policy.decision,
      source: state.source,
      events: policy.events ?? DEFAULT_EVENTS,
      params: state.params,
    };
    if (state.error !== undefined) listing.error = state.error;
    return listing;
  });
}

function compactJson(value: unknown): string {
  const text = JSON.stringify(value ?? {});
  return text === undefined ? '{}' : text;
}

/** A plain-text table, one policy per line, then any parameter errors; ends with a newline. */
export function formatPolicyTable(listing: PolicyListing[]): string {
  const header = ['POLICY', 'CATEGORY', 'STATE', 'DECISION', 'SOURCE', 'PARAMS'];
  const rows = listing.map((p) => [
    p.name,
    p.category,
    p.alwaysOn ? 'always-on' : p.enabled ? 'on' : 'off',
    p.decision,
    p.source,
    compactJson(p.params),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const on = listing.filter((p) => p.enabled).length;
  const out = [line(header), ...rows.map(line), '', `${listing.length} policies, ${on} on, ${listing.length - on} off`];
  for (const p of listing) if (p.error) out.push(`warning: ${p.error}`);
  return `${out.join('\n')}\n`;
}
