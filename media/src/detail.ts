import type { VerdictRecord } from '../../src/core/verdict/record';
import { explainCut, formatLatency, prettyJson } from './format';
import { h, type VNode } from './vnode';
import { countMarkers, splitMarkers } from './visible';

// A row opened: the merged verdict and every outcome, the envelope the judge
// saw with each <redacted:label> marker highlighted, the cut flags in words,
// the degraded reason, the digest.

export interface DetailActions {
  copyDigest(digest: string): void;
  markerInfo(recordId: string, spanIndex: number): void;
  reveal(recordId: string, spanIndex: number): void;
  notSecret(recordId: string, spanIndex: number): void;
  close(): void;
}

export interface DetailState {
  /** The marker the person clicked (its index among the record's spans). */
  openMarker?: number;
  revealed?: { spanIndex: number; text: string };
}

/** Text with markers as highlighted, clickable spans; `counter` numbers the markers by label across the view. */
function markedText(text: string, counter: Map<string, number>, onMarker: (label: string, nth: number) => void): VNode {
  return h(
    'span',
    { class: 'marked' },
    ...splitMarkers(text).map((piece) => {
      if (piece.label === undefined) return h('span', {}, piece.text);
      const label = piece.label;
      const nth = counter.get(label) ?? 0;
      counter.set(label, nth + 1);
      return h('button', { type: 'button', class: 'marker', 'data-label': label, title: `redacted ${label}: click for details`, on: { click: () => onMarker(label, nth) } }, piece.text);
    }),
  );
}

/** The index in record.redactions.spans of the nth marker with a label, if the spans were kept. */
export function spanIndexFor(record: VerdictRecord, label: string, nth: number): number | undefined {
  const spans = record.redactions.spans ?? [];
  let seen = 0;
  for (let i = 0; i < spans.length; i++) {
    if (spans[i]!.label !== label) continue;
    if (seen === nth) return i;
    seen++;
  }
  return undefined;
}

export function detailView(record: VerdictRecord, state: DetailState, actions: DetailActions): VNode {
  const counter = new Map<string, number>();
  const onMarker = (label: string, nth: number) => {
    const index = spanIndexFor(record, label, nth);
    if (index !== undefined) actions.markerInfo(record.id, index);
  };
  const envelopeTexts: string[] = [];
  const sections: (VNode | null)[] = [
    h('div', { class: 'detail-head' }, h('span', { class: `badge decision-${record.decision}` }, record.decision), h('strong', {}, ` ${record.toolName ?? record.event}`), h('span', { class: 'muted' }, ` ${record.agent} · ${formatLatency(record.latencyMs)}`), h('button', { type: 'button', class: 'btn', 'data-action': 'close-detail', on: { click: () => actions.close() } }, 'Close')),
    h('div', { class: 'reason' }, record.reason),
    h(
      'table',
      { class: 'outcomes' },
      h('thead', {}, h('tr', {}, h('th', {}, 'policy'), h('th', {}, 'tier'), h('th', {}, 'verdict'), h('th', {}, 'reason'), h('th', {}, 'evidence'))),
      h('tbody', {}, ...record.outcomes.map((o) => h('tr', {}, h('td', {}, o.policy), h('td', {}, o.tier), h('td', {}, h('span', { class: `badge decision-${o.verdict}` }, o.verdict)), h('td', {}, o.reason), h('td', {}, o.evidence ?? '')))),
    ),
  ];
  const argsText = prettyJson(record.toolInput);
  envelopeTexts.push(argsText);
  sections.push(h('h3', {}, 'Arguments (as logged)'), h('pre', { class: 'args-json' }, markedText(argsText, new Map(), () => undefined)));
  if (record.envelope) {
    const env = record.envelope;
    const parts: VNode[] = [];
    env.userSaid.forEach((said, i) => {
      envelopeTexts.push(said);
      parts.push(h('div', { class: 'env-part' }, h('span', { class: 'muted' }, `person said #${i + 1}: `), markedText(said, counter, onMarker)));
    });
    if (env.agentLastMessage !== null) {
      envelopeTexts.push(env.agentLastMessage);
      parts.push(h('div', { class: 'env-part' }, h('span', { class: 'muted' }, 'agent said last: '), markedText(env.agentLastMessage, counter, onMarker)));
    }
    const facts = prettyJson(env.facts);
    envelopeTexts.push(env.request, facts);
    parts.push(h('div', { class: 'env-part' }, h('span', { class: 'muted' }, 'request: '), h('pre', {}, markedText(env.request, counter, onMarker))));
    parts.push(h('div', { class: 'env-part' }, h('span', { class: 'muted' }, 'facts: '), h('pre', {}, markedText(facts, counter, onMarker))));
    sections.push(h('h3', {}, 'Envelope (exactly as the judge saw it)'), h('div', { class: 'envelope' }, ...parts));
  }
  const byLabel = Object.keys(record.redactions.byLabel).length ? record.redactions.byLabel : countMarkers(envelopeTexts);
  const labels = Object.entries(byLabel);
  if (labels.length) sections.push(h('div', { class: 'redaction-counts' }, h('span', { class: 'muted' }, 'redacted: '), ...labels.map(([label, n]) => h('span', { class: 'marker-count', 'data-label': label }, `${label} × ${n}`))));
  if (state.openMarker !== undefined) sections.push(markerPanel(record, state, actions));
  const cut = explainCut(record.cut);
  if (cut.length) sections.push(h('ul', { class: 'cut' }, ...cut.map((line) => h('li', {}, line))));
  if (record.semantic.status === 'degraded') sections.push(h('div', { class: 'warning' }, `The semantic tier was degraded: ${record.semantic.reason ?? 'no reason given'}`));
  const cloud = record.outcomes.filter((o) => o.tier === 'cloud');
  if (cloud.length) sections.push(h('h3', {}, 'Cloud'), ...cloud.map((o) => h('div', {}, `${o.policy}: ${o.verdict}: ${o.reason}`)));
  if (record.failure) sections.push(h('div', { class: 'error' }, `Could not be evaluated: ${record.failure}`));
  if (record.argsDigest) sections.push(h('div', { class: 'digest' }, h('span', { class: 'muted' }, 'digest '), h('code', {}, record.argsDigest), h('button', { type: 'button', class: 'btn', 'data-action': 'copy-digest', on: { click: () => actions.copyDigest(record.argsDigest ?? '') } }, 'Copy')));
  else if (record.notBindable) sections.push(h('div', { class: 'muted' }, `No digest: ${record.notBindable}`));
  if (record.approval.state !== 'none') sections.push(h('div', { class: 'approval' }, `approval: ${record.approval.state}${record.approval.scope ? ` (${record.approval.scope})` : ''}${record.approval.answeredBy ? ` by ${record.approval.answeredBy}` : ''}`));
  return h('section', { class: 'detail', 'aria-label': 'call details', 'data-record-id': record.id }, ...sections);
}

function markerPanel(record: VerdictRecord, state: DetailState, actions: DetailActions): VNode {
  const index = state.openMarker ?? 0;
  const span = record.redactions.spans?.[index];
  if (!span) return h('div', { class: 'marker-info' }, 'No details were kept for this marker.');
  const revealed = state.revealed?.spanIndex === index ? state.revealed.text : null;
  return h(
    'div',
    { class: 'marker-info', role: 'region', 'aria-label': 'redaction details' },
    h('div', {}, `${span.label}: matched by ${span.detector}, in ${span.part}, ${span.valueLength} characters long.`),
    revealed !== null ? h('pre', { class: 'revealed' }, revealed) : null,
    h(
      'div',
      { class: 'card-actions' },
      h('button', { type: 'button', class: 'btn', 'data-action': 'reveal', on: { click: () => actions.reveal(record.id, index) } }, 'Reveal original'),
      h('button', { type: 'button', class: 'btn', 'data-action': 'not-secret', on: { click: () => actions.notSecret(record.id, index) } }, 'Not a secret'),
    ),
  );
}
