import type { HostState, LicenceView } from '../../src/protocol';
import type { Counts, Filters } from './store';
import { agentIcon } from './agents';
import { h, type VNode } from './vnode';

// The top of the panel: guard status and counts, the summary strip, filters,
// text search, policy toggles and session licences.

export interface ToolbarActions {
  setFilter(next: Partial<Filters>): void;
  togglePolicy(name: string, enabled: boolean): void;
  revokeLicence(id: string): void;
  connect(): void;
}

interface Choice {
  value: string;
  label: string;
}

function select(
  name: keyof Filters,
  label: string,
  choices: Choice[],
  current: string,
  actions: ToolbarActions,
): VNode {
  const options = [
    { tag: 'option', attrs: { value: '' }, text: `all ${label}` } as VNode,
    ...choices.map((c) => ({ tag: 'option', attrs: { value: c.value }, text: c.label }) as VNode),
  ];
  // A value no longer among the choices stays selectable, so the filter never silently resets.
  if (current && !choices.some((c) => c.value === current))
    options.push({ tag: 'option', attrs: { value: current }, text: current });
  return {
    tag: 'select',
    attrs: { class: 'filter', 'data-filter': name, 'aria-label': `filter by ${label}` },
    value: current,
    children: options,
    on: { change: (e) => actions.setFilter({ [name]: (e.target as HTMLSelectElement).value }) },
  };
}

export function statusView(host: HostState | null, counts: Counts): VNode {
  const guarded = host?.guarded ?? false;
  const paused = host?.pausedUntil ? ` · enforcement paused until ${host.pausedUntil.slice(11, 16)}` : '';
  const agents = host?.connectedAgents ?? [];
  return h(
    'div',
    { class: 'status' },
    h('span', { class: guarded ? 'guard on' : 'guard off' }, guarded ? 'Guarded' : 'Not guarded'),
    agents.length
      ? h(
          'span',
          { class: 'connected' },
          h('span', { class: 'muted' }, 'connected:'),
          ...agents.map((a) => h('span', { class: 'connected-agent', title: a.how }, agentIcon(a.agent), ` ${a.name}`)),
        )
      : null,
    h('span', { class: 'muted guard-detail' }, ` ${host?.guardDetail ?? ''}${paused}`),
    h(
      'span',
      { class: 'counts', role: 'status', 'aria-live': 'polite' },
      `${counts.pending} pending · ${counts.calls} calls · ${counts.denies} denied`,
    ),
  );
}

/** A session as a person recognises it: the agent, a short id and when it started. */
export function sessionLabel(id: string, firstTs: string | undefined, agent: string | undefined): string {
  const time = firstTs ? firstTs.slice(11, 16) : '';
  return `${agent ?? 'agent'} · ${id.slice(0, 8)}${time ? ` · from ${time}` : ''}`;
}

export function filtersView(
  filters: Filters,
  choices: { agent: string[]; tool: string[]; session: string[]; policy: string[] },
  actions: ToolbarActions,
  sessionInfo: (id: string) => { firstTs?: string; agent?: string } = () => ({}),
): VNode {
  const plain = (values: string[]) => values.map((v) => ({ value: v, label: v }));
  return h(
    'div',
    { class: 'filters', role: 'search', 'aria-label': 'filter the calls' },
    select(
      'decision',
      'outcomes',
      [
        { value: 'deny', label: 'denied or refused' },
        { value: 'ask', label: 'asked' },
        { value: 'instruct', label: 'warned' },
        { value: 'allow', label: 'allowed or approved' },
        { value: 'expired', label: 'expired' },
        { value: 'paused-allow', label: 'allowed while paused' },
      ],
      filters.decision,
      actions,
    ),
    select('agent', 'agents', plain(choices.agent), filters.agent, actions),
    select('tool', 'tools', plain(choices.tool), filters.tool, actions),
    select(
      'session',
      'sessions',
      choices.session.map((id) => {
        const info = sessionInfo(id);
        return { value: id, label: sessionLabel(id, info.firstTs, info.agent) };
      }),
      filters.session,
      actions,
    ),
    select('policy', 'policies', plain(choices.policy), filters.policy, actions),
    {
      tag: 'input',
      attrs: { type: 'search', class: 'search', placeholder: 'Search', 'aria-label': 'search the calls' },
      value: filters.text,
      on: { input: (e) => actions.setFilter({ text: (e.target as HTMLInputElement).value }) },
    },
  );
}

export function policiesView(host: HostState | null, actions: ToolbarActions): VNode | null {
  if (!host || host.policies.length === 0) return null;
  const on = host.policies.filter((p) => p.enabled).length;
  return h(
    'details',
    { class: 'policies' },
    h('summary', {}, `Policies (${on} of ${host.policies.length} on)`),
    h(
      'div',
      { class: 'policy-list', role: 'group', 'aria-label': 'policies: turn one off for this workspace' },
      ...host.policies.map((p) => {
        const box: VNode = {
          tag: 'input',
          attrs: {
            type: 'checkbox',
            id: `policy-${p.name}`,
            'data-policy': p.name,
            ...(p.enabled ? { checked: '' } : {}),
            ...(p.alwaysOn ? { disabled: '' } : {}),
          },
          on: { change: (e) => actions.togglePolicy(p.name, (e.target as HTMLInputElement).checked) },
        };
        return h(
          'div',
          { class: 'policy' },
          box,
          h('label', { for: `policy-${p.name}` }, p.name),
          h('span', { class: 'muted' }, ` ${p.alwaysOn ? 'always on' : p.source} · ${p.description}`),
        );
      }),
    ),
  );
}

export function licencesView(licences: LicenceView[] | undefined, actions: ToolbarActions): VNode | null {
  if (!licences || licences.length === 0) return null;
  return h(
    'details',
    { class: 'licences' },
    h('summary', {}, `Session licences (${licences.length})`),
    h(
      'ul',
      { 'aria-label': 'calls approved for their session' },
      ...licences.map((l) =>
        h(
          'li',
          {},
          h(
            'span',
            {},
            `${l.toolName} · session ${l.sessionId.slice(0, 8)} · by ${l.grantedBy} at ${l.grantedAt.slice(11, 16)} `,
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'btn',
              'data-action': 'revoke-licence',
              'aria-label': `revoke the licence for ${l.toolName} in session ${l.sessionId.slice(0, 8)}`,
              on: { click: () => actions.revokeLicence(l.id) },
            },
            'Revoke',
          ),
        ),
      ),
    ),
  );
}

/** The empty panel says what to do, and offers Connect where the host can. */
export function emptyView(host: HostState | null, actions: ToolbarActions): VNode {
  const connected = host?.guarded ?? false;
  return h(
    'div',
    { class: 'empty', role: 'note' },
    h('p', {}, connected ? 'No calls yet.' : 'No calls yet: Claude Code is not connected to this workspace.'),
    h(
      'p',
      { class: 'muted' },
      connected
        ? 'Start Claude Code in a new integrated terminal (it carries the hook token). Every tool call it makes shows up here with its verdict.'
        : 'Connect writes Warden\u2019s hook entries into the Claude Code settings of this workspace; you see the change before it is written.',
    ),
    !connected && host?.canConnect
      ? h(
          'button',
          { type: 'button', class: 'btn primary', 'data-action': 'connect', on: { click: () => actions.connect() } },
          'Connect Claude Code…',
        )
      : null,
  );
}
