import type { HostState } from '../../src/shared/protocol';
import type { Filters } from './store';
import { h, type VNode } from './vnode';

// The top of the panel: guard status and counts, filters, text search, policy toggles.

export interface ToolbarActions {
  setFilter(next: Partial<Filters>): void;
  togglePolicy(name: string, enabled: boolean): void;
}

function select(
  name: keyof Filters,
  label: string,
  choices: string[],
  current: string,
  actions: ToolbarActions,
): VNode {
  const options = [
    { tag: 'option', attrs: { value: '' }, text: `all ${label}` } as VNode,
    ...choices.map((c) => ({ tag: 'option', attrs: { value: c }, text: c }) as VNode),
  ];
  return {
    tag: 'select',
    attrs: { class: 'filter', 'data-filter': name, 'aria-label': `filter by ${label}` },
    value: current,
    children: options,
    on: { change: (e) => actions.setFilter({ [name]: (e.target as HTMLSelectElement).value }) },
  };
}

export function statusView(host: HostState | null, counts: { calls: number; denies: number; pending: number }): VNode {
  const guarded = host?.guarded ?? false;
  const paused = host?.pausedUntil ? ` · enforcement paused until ${host.pausedUntil.slice(11, 16)}` : '';
  return h(
    'div',
    { class: 'status', role: 'status' },
    h('span', { class: guarded ? 'guard on' : 'guard off' }, guarded ? 'Guarded' : 'Not guarded'),
    h('span', { class: 'muted' }, ` ${host?.guardDetail ?? ''}${paused}`),
    h('span', { class: 'counts' }, `${counts.pending} pending · ${counts.calls} calls · ${counts.denies} denied`),
  );
}

export function filtersView(
  filters: Filters,
  choices: { agent: string[]; tool: string[]; session: string[]; policy: string[] },
  actions: ToolbarActions,
): VNode {
  return h(
    'div',
    { class: 'filters', role: 'search' },
    select('decision', 'decisions', ['deny', 'ask', 'instruct', 'allow'], filters.decision, actions),
    select('agent', 'agents', choices.agent, filters.agent, actions),
    select('tool', 'tools', choices.tool, filters.tool, actions),
    select('session', 'sessions', choices.session, filters.session, actions),
    select('policy', 'policies', choices.policy, filters.policy, actions),
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
  return h(
    'details',
    { class: 'policies' },
    h('summary', {}, 'Policies'),
    ...host.policies.map((p) => {
      const box: VNode = {
        tag: 'input',
        attrs: {
          type: 'checkbox',
          'data-policy': p.name,
          ...(p.enabled ? { checked: '' } : {}),
          ...(p.alwaysOn ? { disabled: '' } : {}),
        },
        on: { change: (e) => actions.togglePolicy(p.name, (e.target as HTMLInputElement).checked) },
      };
      return h(
        'label',
        { class: 'policy', title: p.description },
        box,
        h('span', {}, ` ${p.name}`),
        h('span', { class: 'muted' }, ` (${p.alwaysOn ? 'always on' : p.source})`),
      );
    }),
  );
}
