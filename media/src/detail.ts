import type { CallRecord, MarkerRef, RequestResult } from '../../src/protocol';
import { countMarkers, finalOutcome, OUTCOME_LABELS, outcomeTone, splitMarkers } from '../../src/protocol';
import { visibleText } from './cards';
import { cloudSection } from './cloud';
import { diffLines } from './diff';
import { approvalLine, explainCut, formatLatency, prettyJson } from './format';
import { h, type VNode } from './vnode';

type VerdictRecord = CallRecord;

// A row opened: the merged verdict and every outcome, the envelope the judge
// saw with each <redacted:label> marker highlighted, the cut flags in words,
// the degraded reason, the digest.

export type MarkerSource = MarkerRef['source'];

export interface DetailActions {
  copyDigest(digest: string): void;
  /** A marker was clicked: show what is known of it (the host answers for argument markers). */
  markerInfo(recordId: string, source: MarkerSource, spanIndex: number): void;
  reveal(recordId: string, source: MarkerSource, spanIndex: number): void;
  hideRevealed(): void;
  notSecret(recordId: string, source: MarkerSource, spanIndex: number): void;
  close(): void;
}

export interface DetailState {
  /** The marker the person clicked: where it is, and its index (a span index, or the nth argument marker). */
  openMarker?: { source: MarkerSource; index: number };
  /** The host's details of an argument marker. */
  markerDetails?: RequestResult<'markerInfo'>;
  revealed?: { source: MarkerSource; index: number; text: string };
}

/** Numbers markers as a view shows them: overall (arguments) and per label (envelope). */
class MarkerCounter {
  total = 0;
  readonly byLabel = new Map<string, number>();

  next(label: string): { nth: number; nthOfLabel: number } {
    const nthOfLabel = this.byLabel.get(label) ?? 0;
    this.byLabel.set(label, nthOfLabel + 1);
    return { nth: this.total++, nthOfLabel };
  }
}

/** Text with markers as highlighted, clickable buttons; the counter numbers them across the section. */
function markedText(
  text: string,
  counter: MarkerCounter,
  source: MarkerSource,
  onMarker: (label: string, at: { nth: number; nthOfLabel: number }) => void,
): VNode {
  return h(
    'span',
    { class: 'marked' },
    ...splitMarkers(text).map((piece) => {
      if (piece.label === undefined) return h('span', {}, piece.text);
      const label = piece.label;
      const at = counter.next(label);
      return h(
        'button',
        {
          type: 'button',
          class: 'marker',
          'data-label': label,
          'data-source': source,
          'data-nth': String(at.nth),
          title: `redacted ${label}: click for details`,
          on: { click: () => onMarker(label, at) },
        },
        piece.text,
      );
    }),
  );
}

/** The markers of the envelope's parts, in the order the tier recorded their spans. */
function envelopeTexts(env: NonNullable<VerdictRecord['envelope']>): string[] {
  return [
    ...env.userSaid,
    ...(env.agentLastMessage !== null ? [env.agentLastMessage] : []),
    env.request,
    ...(env.comments ?? []),
    prettyJson(env.facts),
  ];
}

/**
 * Whether the envelope's markers line up with the record's spans label by
 * label; when the envelope was cut (or spans were capped) they do not, and a
 * marker is then not tied to any span rather than to the wrong one.
 */
export function markersMatchSpans(record: VerdictRecord): boolean {
  if (!record.envelope) return false;
  const shown = countMarkers(envelopeTexts(record.envelope));
  const spans: Record<string, number> = {};
  for (const span of record.redactions.spans ?? []) spans[span.label] = (spans[span.label] ?? 0) + 1;
  const labels = new Set([...Object.keys(shown), ...Object.keys(spans)]);
  return [...labels].every((label) => shown[label] === spans[label]);
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
  const mapped = markersMatchSpans(record);
  const onEnvelopeMarker = (label: string, at: { nthOfLabel: number }) => {
    const index = mapped ? spanIndexFor(record, label, at.nthOfLabel) : undefined;
    if (index !== undefined) actions.markerInfo(record.id, 'envelope', index);
  };
  const onArgumentMarker = (_label: string, at: { nth: number }) => actions.markerInfo(record.id, 'arguments', at.nth);
  const envelopeCounter = new MarkerCounter();
  const texts: string[] = [];
  // Cloud's outcomes are listed apart (cloudSection), with their org policy and version.
  const localOutcomes = record.outcomes.filter((o) => o.tier !== 'cloud');
  const sections: (VNode | null)[] = [
    h(
      'div',
      { class: 'detail-head' },
      ...headBadges(record),
      h('strong', {}, ` ${record.toolName ?? record.event}`),
      h('span', { class: 'muted' }, ` ${record.agent} · ${formatLatency(record.latencyMs)}`),
      h(
        'button',
        { type: 'button', class: 'btn', 'data-action': 'close-detail', on: { click: () => actions.close() } },
        'Close',
      ),
    ),
    h('div', { class: 'reason' }, record.reason),
    approvalNode(record),
    record.paused && record.decision !== 'allow'
      ? h(
          'div',
          { class: 'notice' },
          `Enforcement was paused: the agent was told no objection. Without the pause this call would have been: ${record.decision}.`,
        )
      : null,
    observeNode(record),
    localOutcomes.length === 0
      ? h('div', { class: 'muted' }, 'No policy had anything to say about this call.')
      : h(
          'table',
          { class: 'outcomes' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'policy'),
              h('th', {}, 'tier'),
              h('th', {}, 'verdict'),
              h('th', {}, 'reason'),
              h('th', {}, 'evidence'),
            ),
          ),
          h(
            'tbody',
            {},
            ...localOutcomes.map((o) =>
              h(
                'tr',
                {},
                h('td', {}, o.policy),
                h('td', {}, o.observed ? `${o.tier} (observed)` : o.tier),
                h(
                  'td',
                  {},
                  h('span', { class: `badge tone-${o.verdict}` }, o.observed ? `would ${o.verdict}` : o.verdict),
                ),
                h('td', {}, o.reason),
                h('td', {}, o.evidence ?? ''),
              ),
            ),
          ),
        ),
  ];
  const argsText = prettyJson(record.toolInput);
  texts.push(argsText);
  const ran = record.approval.ranInput;
  sections.push(
    h('h3', {}, ran === undefined ? 'Arguments (as logged)' : 'Arguments the agent asked for (as logged)'),
    h('pre', { class: 'args-json' }, markedText(argsText, new MarkerCounter(), 'arguments', onArgumentMarker)),
  );
  if (state.openMarker?.source === 'arguments') sections.push(markerPanel(record, state, actions));
  if (ran !== undefined) sections.push(...ranSection(argsText, prettyJson(ran)));
  if (record.envelope) {
    const env = record.envelope;
    const parts: VNode[] = [];
    const part = (title: string, text: string, pre = false) =>
      parts.push(
        h(
          'div',
          { class: 'env-part' },
          h('span', { class: 'muted' }, title),
          pre
            ? h('pre', {}, markedText(text, envelopeCounter, 'envelope', onEnvelopeMarker))
            : markedText(text, envelopeCounter, 'envelope', onEnvelopeMarker),
        ),
      );
    env.userSaid.forEach((said, i) => part(`person said #${i + 1}: `, said));
    if (env.agentLastMessage !== null) part('agent said last: ', env.agentLastMessage);
    part('request: ', env.request, true);
    (env.comments ?? []).forEach((comment) => part('comment: ', comment));
    part('facts: ', prettyJson(env.facts), true);
    texts.push(...envelopeTexts(env));
    sections.push(h('h3', {}, 'Envelope (exactly as the judge saw it)'), h('div', { class: 'envelope' }, ...parts));
    if (!mapped && (record.redactions.spans?.length ?? 0) > 0)
      sections.push(
        h(
          'div',
          { class: 'muted' },
          'The envelope was cut, so its markers are not matched to the details the tier kept.',
        ),
      );
  }
  const byLabel = Object.keys(record.redactions.byLabel).length ? record.redactions.byLabel : countMarkers(texts);
  const labels = Object.entries(byLabel);
  if (labels.length)
    sections.push(
      h(
        'div',
        { class: 'redaction-counts' },
        h('span', { class: 'muted' }, 'redacted: '),
        ...labels.map(([label, n]) => h('span', { class: 'marker-count', 'data-label': label }, `${label} × ${n}`)),
      ),
    );
  if (state.openMarker?.source === 'envelope') sections.push(markerPanel(record, state, actions));
  const cut = explainCut(record.cut);
  if (cut.length) sections.push(h('ul', { class: 'cut' }, ...cut.map((line) => h('li', {}, line))));
  if (record.semantic.status === 'degraded')
    sections.push(
      h('div', { class: 'warning' }, `The semantic tier was degraded: ${record.semantic.reason ?? 'no reason given'}`),
    );
  sections.push(...cloudSection(record));
  if (record.failure) sections.push(h('div', { class: 'error' }, `Could not be evaluated: ${record.failure}`));
  if (record.argsDigest)
    sections.push(
      h(
        'div',
        { class: 'digest' },
        h('span', { class: 'muted' }, 'digest '),
        h('code', {}, record.argsDigest),
        h(
          'button',
          {
            type: 'button',
            class: 'btn',
            'data-action': 'copy-digest',
            on: { click: () => actions.copyDigest(record.argsDigest ?? '') },
          },
          'Copy',
        ),
      ),
    );
  else if (record.notBindable) sections.push(h('div', { class: 'muted' }, `No digest: ${record.notBindable}`));
  return h('section', { class: 'detail', 'aria-label': 'call details', 'data-record-id': record.id }, ...sections);
}

function markerPanel(record: VerdictRecord, state: DetailState, actions: DetailActions): VNode {
  const open = state.openMarker ?? { source: 'envelope' as const, index: 0 };
  const { source, index } = open;
  let about: string;
  if (source === 'envelope') {
    const span = record.redactions.spans?.[index];
    if (!span) return h('div', { class: 'marker-info' }, 'No details were kept for this marker.');
    about = `${span.label}: matched by ${span.detector}, in ${span.part}, ${span.valueLength} characters long.`;
  } else {
    const info = state.markerDetails;
    if (!info) about = 'Asking the host about this marker…';
    else if (!info.available) about = info.why ?? 'No details for this marker.';
    else
      about = `${info.label ?? 'secret'}: matched by ${info.detector ?? 'a detector'}, in ${info.part ?? 'the arguments'}, ${info.valueLength ?? 0} characters long.`;
  }
  const revealed = state.revealed?.source === source && state.revealed.index === index ? state.revealed.text : null;
  return h(
    'div',
    { class: 'marker-info', role: 'region', 'aria-label': 'redaction details' },
    h('div', {}, about),
    revealed !== null ? h('pre', { class: 'revealed', 'aria-label': 'the original value' }, revealed) : null,
    h(
      'div',
      { class: 'card-actions' },
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          'data-action': 'reveal',
          on: { click: () => actions.reveal(record.id, source, index) },
        },
        'Reveal original',
      ),
      revealed !== null
        ? h(
            'button',
            { type: 'button', class: 'btn', 'data-action': 'hide', on: { click: () => actions.hideRevealed() } },
            'Hide',
          )
        : null,
      h(
        'button',
        {
          type: 'button',
          class: 'btn',
          'data-action': 'not-secret',
          title:
            'Adds a keyed hash of this value (never the value) to the local Warden config; detectors skip it from then on',
          on: { click: () => actions.notSecret(record.id, source, index) },
        },
        'Not a secret',
      ),
    ),
  );
}

/** The call's end as its row says it; Warden's own verdict beside it when a person's answer changed it. */
function headBadges(record: VerdictRecord): VNode[] {
  const outcome = finalOutcome(record);
  const badge = h(
    'span',
    { class: `badge tone-${outcomeTone(outcome)}`, 'data-outcome': outcome },
    OUTCOME_LABELS[outcome],
  );
  return outcome === record.decision
    ? [badge]
    : [badge, h('span', { class: 'muted' }, ` (Warden: ${record.decision})`)];
}

function approvalNode(record: VerdictRecord): VNode | null {
  const line = approvalLine(record.approval);
  if (!line) return null;
  const message = record.approval.message;
  return h(
    'div',
    { class: 'approval', 'data-approval-state': record.approval.state },
    line,
    message
      ? h(
          'div',
          { class: 'approval-message' },
          h('span', { class: 'muted' }, record.approval.state === 'refused' ? 'Their message: ' : 'Their words: '),
          h('q', {}, visibleText(message)),
        )
      : null,
  );
}

/** An approved edit: what ran, and how it differs from what the agent asked for. */
function ranSection(askedText: string, ranText: string): VNode[] {
  return [
    h('h3', {}, 'Arguments that ran (edited by the person, as logged)'),
    h('pre', { class: 'args-json ran-json' }, visibleText(ranText)),
    h(
      'div',
      { class: 'diff', 'aria-label': 'what the person changed' },
      ...diffLines(askedText, ranText)
        .filter((d) => d.kind !== 'same')
        .map((d) => h('div', { class: `diff-${d.kind}` }, visibleText(`${d.kind === 'added' ? '+ ' : '- '}${d.text}`))),
    ),
  ];
}

/** Observe mode: what the judge found and what enforcing would have answered, shown, never enforced. */
function observeNode(record: VerdictRecord): VNode | null {
  if (record.semantic.status !== 'observe') return null;
  const would = record.semantic.wouldDecide ?? 'allow';
  return h(
    'div',
    { class: would === 'allow' ? 'notice' : 'warning', 'data-would': would },
    `Observe mode: the judge${record.semantic.model ? ` (${record.semantic.model})` : ''} would have answered ${would}. ${record.semantic.reason ?? ''}`.trim(),
  );
}
