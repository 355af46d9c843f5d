import type { VerdictRecord } from '../../src/core/verdict/record';
import { orgDecided } from './cloud';
import { formatLatency, formatTime, summarizeArgs } from './format';
import { h, type VNode } from './vnode';

// One row of the live list: fixed height, so the list can be virtualized.

export const ROW_HEIGHT = 26;

export function rowView(
  record: VerdictRecord,
  opts: { selected: boolean; index: number; onSelect: (id: string) => void },
): VNode {
  const flags: VNode[] = [];
  if (record.redactions.count > 0)
    flags.push(
      h(
        'span',
        { class: 'flag redacted', title: 'secrets redacted before the judge and the log saw them' },
        `${record.redactions.count} redacted`,
      ),
    );
  if (record.cut.request || record.cut.userSaid || record.cut.truncated)
    flags.push(h('span', { class: 'flag cut', title: 'the judge saw a shortened envelope' }, 'cut'));
  if (record.semantic.status === 'degraded')
    flags.push(
      h(
        'span',
        { class: 'flag degraded', title: record.semantic.reason ?? 'the semantic tier could not answer' },
        'degraded',
      ),
    );
  if (orgDecided(record))
    flags.push(h('span', { class: 'flag org', title: 'an org-managed check (Cloud) decided this call' }, 'org'));
  if (record.paused) flags.push(h('span', { class: 'flag paused' }, 'paused'));
  const node = h(
    'div',
    {
      class: opts.selected ? 'row selected' : 'row',
      role: 'option',
      'aria-selected': opts.selected ? 'true' : 'false',
      tabindex: opts.selected ? '0' : '-1',
      'data-id': record.id,
      'data-index': String(opts.index),
      on: { click: () => opts.onSelect(record.id) },
    },
    h('span', { class: 'cell time' }, formatTime(record.ts)),
    h('span', { class: 'cell agent' }, record.agent),
    h('span', { class: 'cell tool' }, record.toolName ?? record.event),
    h('span', { class: 'cell summary' }, summarizeArgs(record.toolName, record.toolInput)),
    h('span', { class: 'cell flags' }, ...flags),
    h('span', { class: `badge decision-${record.decision}` }, record.decision),
    h('span', { class: 'cell latency' }, formatLatency(record.latencyMs)),
  );
  node.style = { top: `${opts.index * ROW_HEIGHT}px` };
  return node;
}
