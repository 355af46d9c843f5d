import type { Bar, Series, SessionLine, SummaryTally } from '../../src/protocol';
import { agentIcon } from './agents';
import type { Filters } from './store';
import { h, type VNode } from './vnode';

// The picture before the details, read in a second: how many calls, asks,
// denials and secrets; a bar per time slice (denied and asked parts in their
// colours); the policies that fired most; a line per agent and per recent
// session. Every policy, agent and session is a toggle that filters the list.

export interface SummaryActions {
  setFilter(next: Partial<Filters>): void;
}

const SESSIONS_SHOWN = 4;
const BAR_WIDTH = 4;
const CHART_HEIGHT = 24;

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function sliceName(minutes: number): string {
  if (minutes < 60) return minutes === 1 ? 'minute' : `${minutes} minutes`;
  if (minutes < 1440) return minutes === 60 ? 'hour' : `${minutes / 60} hours`;
  return minutes === 1440 ? 'day' : 'week';
}

/** The chart in words: what a screen reader says, and the chart's tooltip. */
export function describeSeries(series: Series): string {
  const { bars, minutes } = series;
  if (bars.length === 0) return 'No calls yet.';
  const sum = (key: 'calls' | 'asks' | 'denies') => bars.reduce((n, b) => n + b[key], 0);
  const peak = bars.reduce((best, b) => (b.calls > best.calls ? b : best), bars[0]!);
  const end = bars[bars.length - 1]!.start + minutes * 60_000;
  return (
    `Calls per ${sliceName(minutes)} from ${clock(bars[0]!.start)} to ${clock(end)} UTC: ${plural(sum('calls'), 'call')}, ` +
    `${sum('asks')} asked, ${sum('denies')} denied; busiest ${clock(peak.start)} with ${plural(peak.calls, 'call')}.`
  );
}

/** Bars of calls over time: each bar's denied part at the bottom, its asked part above, the rest above that. */
export function sparkline(series: Series): VNode {
  const max = Math.max(1, ...series.bars.map((b) => b.calls));
  const rects: VNode[] = [];
  series.bars.forEach((bar: Bar, i) => {
    const x = String(i * BAR_WIDTH);
    let y = CHART_HEIGHT;
    const part = (count: number, cls: string) => {
      if (count <= 0) return;
      const height = Math.max(1, (count / max) * CHART_HEIGHT);
      y -= height;
      rects.push(
        h('rect', { class: cls, x, y: y.toFixed(2), width: String(BAR_WIDTH - 1), height: height.toFixed(2) }),
      );
    };
    part(bar.denies, 'bar-deny');
    part(bar.askedNotDenied, 'bar-ask');
    part(bar.calls - bar.denies - bar.askedNotDenied, 'bar-call');
  });
  const text = describeSeries(series);
  return h(
    'svg',
    {
      class: 'spark',
      role: 'img',
      'aria-label': text,
      viewBox: `0 0 ${Math.max(1, series.bars.length * BAR_WIDTH)} ${CHART_HEIGHT}`,
      preserveAspectRatio: 'none',
      height: String(CHART_HEIGHT),
    },
    h('title', {}, text),
    ...rects,
  );
}

/**
 * A filter toggle. Its name is its visible text (speech input users say what
 * they see); the longer words are its description, shown as a tooltip.
 */
function toggle(
  description: string,
  pressed: boolean,
  onClick: () => void,
  attrs: Record<string, string>,
  ...children: (VNode | string | null)[]
): VNode {
  return h(
    'button',
    {
      type: 'button',
      class: `chip${pressed ? ' pressed' : ''}`,
      'aria-pressed': pressed ? 'true' : 'false',
      title: description,
      ...attrs,
      on: { click: onClick },
    },
    ...children,
  );
}

function tallyWords(t: { calls: number; denies: number; asks: number }): string {
  return `${plural(t.calls, 'call')}${t.asks ? ` · ${t.asks} asked` : ''}${t.denies ? ` · ${t.denies} denied` : ''}`;
}

/** A session as a person recognises it: its agent, a short id, when it ran. */
export function sessionWords(s: SessionLine, agentName: string): string {
  const from = s.firstTs.slice(11, 16);
  const to = s.lastTs.slice(11, 16);
  const when = from === to ? from : `${from}–${to}`;
  return `${agentName} · ${s.sessionId.slice(0, 8)} · ${when} · ${plural(s.prompts, 'prompt')} · ${tallyWords(s)}`;
}

export function summaryView(tally: SummaryTally, filters: Filters, pending: number, actions: SummaryActions): VNode {
  const t = tally.total;
  const stat = (value: number, label: string, cls: string, title: string) =>
    h(
      'span',
      { class: `stat ${cls}`, title },
      h('strong', {}, String(value)),
      h('span', { class: 'muted' }, ` ${label}`),
    );
  const agents = tally.agents();
  const names = new Map(agents.map((a) => [a.agent, a.name]));
  const series = tally.series();
  const top = tally.topPolicies(4);
  const sessions = tally.sessions(SESSIONS_SHOWN);
  const pick = (key: 'agent' | 'session' | 'policy', value: string) => () =>
    actions.setFilter({ [key]: filters[key] === value ? '' : value });
  return h(
    'section',
    { class: 'summary', 'aria-label': 'summary of the calls held' },
    h(
      'div',
      { class: 'stats', role: 'group', 'aria-label': 'totals' },
      stat(t.calls, 'calls', 'calls', 'tool calls held in the list'),
      stat(t.asks, 'asked', 'asks', 'calls that needed a person'),
      stat(t.denies, 'denied', 'denies', 'calls denied or refused in the end'),
      stat(t.markers, 'secrets', 'redacted', `secrets redacted in ${plural(t.redacted, 'call')}'s own arguments`),
      pending ? stat(pending, 'waiting', 'pending', 'asks waiting for you') : null,
    ),
    series.bars.length ? sparkline(series) : null,
    top.length
      ? h(
          'div',
          { class: 'chips top', role: 'group', 'aria-label': 'policies that fired most: filter by one' },
          h('span', { class: 'muted' }, 'Fired: '),
          ...top.map((p) =>
            toggle(
              `${p.policy}, fired on ${plural(p.count, 'call')}`,
              filters.policy === p.policy,
              pick('policy', p.policy),
              { 'data-policy': p.policy },
              `${p.policy} ${p.count}`,
            ),
          ),
        )
      : null,
    agents.length
      ? h(
          'div',
          { class: 'chips agents', role: 'group', 'aria-label': 'by agent: filter by one' },
          ...agents.map((a) =>
            toggle(
              `${a.name}: ${tallyWords(a)}`,
              filters.agent === a.agent,
              pick('agent', a.agent),
              { 'data-agent': a.agent },
              agentIcon(a.agent),
              ` ${a.name} ${a.calls}${a.denies ? ` · ${a.denies} denied` : ''}`,
            ),
          ),
        )
      : null,
    sessions.length
      ? h(
          'div',
          { class: 'chips sessions', role: 'group', 'aria-label': 'recent sessions: show one as a timeline' },
          ...sessions.map((s) => {
            const words = sessionWords(s, names.get(s.agent) ?? s.agent);
            return toggle(
              words,
              filters.session === s.sessionId,
              pick('session', s.sessionId),
              { 'data-session': s.sessionId },
              agentIcon(s.agent),
              ` ${s.sessionId.slice(0, 8)} ${s.lastTs.slice(11, 16)} · ${s.calls}`,
            );
          }),
        )
      : null,
  );
}
