import type { ConnectedAgent } from '../protocol';

// The status bar's words, apart from the item itself so they are tested without an editor.

export interface GuardStatus {
  guarded: boolean;
  detail: string;
  pending: number;
  calls: number;
  denies: number;
  paused: boolean;
  /** The agents whose hooks point at this window's endpoint. */
  agents: ConnectedAgent[];
}

/** The connected agents in a few words: their names when one or two, else how many. */
export function agentsText(agents: ConnectedAgent[]): string {
  if (agents.length === 0) return '';
  return agents.length <= 2 ? agents.map((a) => a.name).join(', ') : `${agents.length} agents`;
}

export function statusText(s: GuardStatus): string {
  const icon = !s.guarded ? '$(shield)' : s.paused ? '$(debug-pause)' : '$(shield)';
  const head = s.guarded ? (s.paused ? 'Warden paused' : 'Warden') : 'Warden off';
  const agents = s.guarded && s.agents.length ? ` · ${agentsText(s.agents)}` : '';
  const pending = s.pending > 0 ? ` $(bell-dot) ${s.pending}` : '';
  return `${icon} ${head}${agents}${pending} · ${s.calls} calls · ${s.denies} denied`;
}

export function statusTooltip(s: GuardStatus): string {
  const agents = s.agents.length
    ? `\nConnected: ${s.agents.map((a) => `${a.name} (${a.how})`).join('; ')}`
    : '\nNo agent is connected.';
  return `${s.guarded ? 'Guarded' : 'Not guarded'}: ${s.detail}${agents}\n${s.pending} pending ask(s), ${s.calls} call(s), ${s.denies} denied. Click to ${s.pending > 0 ? 'answer in the panel' : 'open the panel'}.`;
}
