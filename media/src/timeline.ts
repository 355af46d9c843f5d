import type { RowSummary, SessionLine } from '../../src/protocol';
import { isPromptEvent, OUTCOME_LABELS, outcomeTone } from '../../src/protocol';
import { agentIcon } from './agents';
import { formatTime } from './format';
import { sessionWords } from './summary';
import { h, type VNode } from './vnode';

// One session as it happened: each prompt the person gave, and the calls the
// agent made for it, in order. Built from the session's rows (oldest first);
// only the latest part of a very long session is drawn.

export const TIMELINE_ROWS = 300;
const CALLS_PER_PROMPT = 40;

export interface TimelineGroup {
  /** The prompt that started this part of the session, or null for the calls before the first one held. */
  prompt: RowSummary | null;
  calls: RowSummary[];
  /** Other session events in this part (a turn's end, a tool's result not tied to its call). */
  events: number;
}

/** Splits a session's rows (oldest first) at each prompt. */
export function groupByPrompt(rows: readonly RowSummary[]): TimelineGroup[] {
  const groups: TimelineGroup[] = [];
  let current: TimelineGroup | null = null;
  for (const row of rows) {
    if (isPromptEvent(row)) {
      current = { prompt: row, calls: [], events: 0 };
      groups.push(current);
      continue;
    }
    if (!current) groups.push((current = { prompt: null, calls: [], events: 0 }));
    if (row.kind === 'call') current.calls.push(row);
    else current.events++;
  }
  return groups;
}

export interface TimelineActions {
  select(id: string): void;
  close(): void;
}

function callButton(row: RowSummary, selected: boolean, actions: TimelineActions): VNode {
  const outcome = OUTCOME_LABELS[row.outcome];
  const what = `${row.toolName ?? row.event} ${row.summary}`.trim();
  return h(
    'li',
    {},
    h(
      'button',
      {
        type: 'button',
        class: `tl-call${selected ? ' selected' : ''}`,
        'aria-current': selected ? 'true' : 'false',
        title: `${formatTime(row.ts)} ${what}: ${outcome}. Open its details.`,
        'data-id': row.id,
        on: { click: () => actions.select(row.id) },
      },
      h('span', { class: `badge tone-${outcomeTone(row.outcome)}`, 'data-outcome': row.outcome }, outcome),
      h('span', { class: 'tl-what' }, what),
    ),
  );
}

function groupView(group: TimelineGroup, selectedId: string | null, actions: TimelineActions): VNode {
  const shown = group.calls.slice(-CALLS_PER_PROMPT);
  const hiddenCalls = group.calls.length - shown.length;
  const head = group.prompt
    ? h(
        'div',
        { class: 'tl-prompt' },
        h('span', { class: 'muted' }, `${formatTime(group.prompt.ts)} prompt`),
        h(
          'span',
          { class: 'tl-prompt-text' },
          group.prompt.prompt ?? '(the words are not kept: the record holds them only when the judge is on)',
        ),
      )
    : h('div', { class: 'tl-prompt muted' }, 'Before the first prompt held');
  const counts = `${group.calls.length} call${group.calls.length === 1 ? '' : 's'}${group.events ? `, ${group.events} other event${group.events === 1 ? '' : 's'}` : ''}`;
  return h(
    'li',
    { class: 'tl-group' },
    head,
    h('div', { class: 'muted tl-counts' }, counts),
    hiddenCalls > 0
      ? h('div', { class: 'muted' }, `${hiddenCalls} earlier call(s) of this prompt are in the list`)
      : null,
    shown.length
      ? h(
          'ol',
          { class: 'tl-calls', 'aria-label': `calls after this prompt` },
          ...shown.map((c) => callButton(c, c.id === selectedId, actions)),
        )
      : null,
  );
}

export function timelineView(
  session: SessionLine,
  agentName: string,
  rows: readonly RowSummary[],
  selectedId: string | null,
  actions: TimelineActions,
): VNode {
  const recent = rows.length > TIMELINE_ROWS ? rows.slice(-TIMELINE_ROWS) : rows;
  const groups = groupByPrompt(recent);
  return h(
    'section',
    { class: 'timeline', 'aria-label': `timeline of session ${session.sessionId.slice(0, 8)}` },
    h(
      'div',
      { class: 'tl-head' },
      agentIcon(session.agent),
      h('span', { class: 'tl-title' }, ` ${sessionWords(session, agentName)}`),
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          'data-action': 'close-timeline',
          title: 'close the timeline and show every session',
          on: { click: () => actions.close() },
        },
        'All sessions',
      ),
    ),
    rows.length > recent.length
      ? h('div', { class: 'muted' }, `The latest ${recent.length} of this session's ${rows.length} rows.`)
      : null,
    h(
      'ol',
      { class: 'tl-groups', 'aria-label': 'prompts and the calls made for them, oldest first' },
      ...groups.map((g) => groupView(g, selectedId, actions)),
    ),
  );
}
