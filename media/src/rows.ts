import type { RowSummary } from '../../src/protocol';
import { OUTCOME_LABELS, outcomeTone } from '../../src/protocol';
import { agentIcon } from './agents';
import { answerText, formatLatency, formatTime, semanticChip } from './format';
import { h, type VNode } from './vnode';

// One row of the live list: fixed height, so the list can be virtualized. The
// badge says what happened to the call in the end (an answered ask shows its
// answer and who gave it); the command keeps its room, the chips shrink first.

export const ROW_HEIGHT = 26;

function chips(row: RowSummary, attached: number): VNode[] {
  const out: VNode[] = [];
  if (row.redactedInCall > 0)
    out.push(
      h(
        'span',
        {
          class: 'flag redacted',
          title: 'secrets in these arguments were redacted before the judge and the log saw them',
        },
        `${row.redactedInCall} redacted`,
      ),
    );
  if (row.cut) out.push(h('span', { class: 'flag cut', title: 'the judge saw a shortened envelope' }, 'cut'));
  const semantic = semanticChip(row);
  if (semantic) out.push(h('span', { class: `flag ${semantic.cls}`, title: semantic.title }, semantic.text));
  if (row.orgDecided)
    out.push(h('span', { class: 'flag org', title: 'an org-managed check (Cloud) decided this call' }, 'org'));
  if (attached > 0)
    out.push(
      h('span', { class: 'flag events', title: 'events of this call (permission request, result)' }, `+${attached}`),
    );
  return out;
}

export function rowView(
  row: RowSummary,
  opts: { selected: boolean; index: number; total?: number; attached?: number; onSelect: (id: string) => void },
): VNode {
  // The row's own text is its accessible name (time, agent, tool, command, chips, outcome, who answered), in reading order.
  const answer = answerText(row);
  const label = OUTCOME_LABELS[row.outcome];
  const what = row.kind === 'call' ? (row.toolName ?? row.event) : row.event;
  const node = h(
    'div',
    {
      class: `row${opts.selected ? ' selected' : ''}${row.kind === 'event' ? ' session-event' : ''}`,
      role: 'option',
      id: `row-${row.id}`,
      'aria-selected': opts.selected ? 'true' : 'false',
      'aria-posinset': String(opts.index + 1),
      ...(opts.total !== undefined ? { 'aria-setsize': String(opts.total) } : {}),
      'data-id': row.id,
      'data-index': String(opts.index),
      on: { click: () => opts.onSelect(row.id) },
    },
    h('span', { class: 'cell time' }, formatTime(row.ts)),
    h('span', { class: 'cell agent-mark', title: row.agentName }, agentIcon(row.agent)),
    h('span', { class: 'cell agent' }, row.agentName),
    h('span', { class: 'cell tool' }, what),
    h('span', { class: 'cell summary', title: row.summary }, row.summary),
    h('span', { class: 'cell flags' }, ...chips(row, opts.attached ?? 0)),
    h(
      'span',
      { class: `badge tone-${outcomeTone(row.outcome)}`, 'data-outcome': row.outcome, title: answer || label },
      label,
    ),
    h('span', { class: 'cell answer' }, answer),
    h('span', { class: 'cell latency' }, formatLatency(row.latencyMs)),
  );
  node.style = { top: `${opts.index * ROW_HEIGHT}px` };
  return node;
}
