import type { CallRecord as VerdictRecord } from '../../src/protocol';
import { h, type VNode } from './vnode';

// The Cloud review in the panel detail: a section with Cloud's outcomes (each with its org policy id and version), apart from the local
// ones, and observed checks read as what they would have done.

const WOULD: Record<'deny' | 'instruct', string> = { deny: 'would have denied', instruct: 'would have warned' };

function statusLine(part: NonNullable<VerdictRecord['cloud']>): string {
  if (part.status === 'degraded')
    return `Cloud review degraded (the local result stood): ${part.reason ?? 'no reason given'}`;
  if (part.status === 'skipped') return `Not sent to Cloud: ${part.reason ?? ''}`;
  const dropped = [
    part.droppedLocal.length ? `dropped local: ${part.droppedLocal.join(', ')}` : '',
    part.droppedCloud.length ? `dropped org: ${part.droppedCloud.join(', ')}` : '',
  ].filter(Boolean);
  return [
    `Cloud ${part.mode === 'observe' ? 'observed' : 'enforced'}: ${part.decision ?? 'no verdict'}`,
    `${part.asked.length} org check${part.asked.length === 1 ? '' : 's'} asked`,
    ...dropped,
  ].join(' · ');
}

export function cloudSection(record: VerdictRecord): VNode[] {
  const part = record.cloud;
  if (!part) return [];
  const nodes: VNode[] = [h('h3', {}, 'Org checks (Cloud)'), h('div', { class: 'cloud-status' }, statusLine(part))];
  if (part.mode === 'observe' && part.wouldDecide)
    nodes.push(
      h('div', { class: 'cloud-would' }, `Applying Cloud's verdict would have made this call ${part.wouldDecide}.`),
    );
  if (part.outcomes.length)
    nodes.push(
      h(
        'table',
        { class: 'outcomes cloud-outcomes' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['org check', 'policy', 'version', 'verdict', 'evidence', 'reason'].map((t) => h('th', {}, t)),
          ),
        ),
        h(
          'tbody',
          {},
          ...part.outcomes.map((o) =>
            h(
              'tr',
              { 'data-cloud-policy': o.cloudPolicyId },
              h('td', {}, o.check),
              h('td', {}, o.cloudPolicyId),
              h('td', {}, `v${o.cloudVersion}`),
              h('td', {}, h('span', { class: `badge cloud-verdict-${o.verdict}` }, o.verdict)),
              h('td', {}, o.evidence.toFixed(2)),
              h('td', {}, o.reason ?? ''),
            ),
          ),
        ),
      ),
    );
  for (const o of part.observed)
    nodes.push(
      h(
        'div',
        { class: 'cloud-observed', 'data-cloud-policy': o.cloudPolicyId },
        h('span', { class: 'muted' }, 'observed: '),
        `${o.check} (${o.cloudPolicyId} v${o.cloudVersion}) ${WOULD[o.decision]}: ${o.reason}`,
      ),
    );
  return nodes;
}
