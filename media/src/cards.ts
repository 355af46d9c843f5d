import type { PendingView } from '../../src/protocol';
import { countHidden, revealHidden } from '../../src/protocol';
import { diffLines } from './diff';
import { formatCountdown, prettyJson, secondsLeft } from './format';
import { h, type VNode } from './vnode';

// Approval cards: the full arguments of a pending ask, every hidden character
// made visible, the digest, the deadline, and the four answers.

export interface CardState {
  mode: 'view' | 'edit';
  editText?: string;
  rescreen?: { decision: string; reason: string; digest: string | null } | { error: string };
  refuseMessage?: string;
  busy?: boolean;
  error?: string;
}

export interface CardActions {
  approve(pending: PendingView, scope: 'once' | 'session'): void;
  refuse(pending: PendingView): void;
  setRefuseMessage(pending: PendingView, text: string): void;
  startEdit(pending: PendingView): void;
  cancelEdit(pending: PendingView): void;
  setEditText(pending: PendingView, text: string): void;
  rescreenEdit(pending: PendingView): void;
  approveEdit(pending: PendingView): void;
  copyDigest(digest: string): void;
}

/** A string with its hidden characters as visible tokens, each in a span that stands out. */
export function visibleText(text: string, tag = 'span'): VNode {
  const pieces = revealHidden(text);
  return h(
    tag,
    { class: 'args-value' },
    ...pieces.map((p) =>
      p.hidden
        ? h('span', { class: 'hidden-char', title: 'an invisible, bidi or control character' }, p.text)
        : h('span', {}, p.text),
    ),
  );
}

function argumentRows(input: Record<string, unknown>): { rows: VNode[]; hidden: number } {
  let hidden = 0;
  const rows = Object.entries(input).map(([key, value]) => {
    const text = typeof value === 'string' ? value : prettyJson(value);
    hidden += countHidden(text) + countHidden(key);
    return h('div', { class: 'arg' }, visibleText(key, 'span'), h('pre', { class: 'arg-value' }, visibleText(text)));
  });
  return { rows, hidden };
}

function button(
  label: string,
  action: string,
  onClick: () => void,
  opts: { primary?: boolean; disabled?: boolean } = {},
): VNode {
  const attrs: Record<string, string> = {
    type: 'button',
    class: opts.primary ? 'btn primary' : 'btn',
    'data-action': action,
  };
  if (opts.disabled) attrs.disabled = '';
  return h('button', { ...attrs, on: { click: () => onClick() } }, label);
}

export function cardView(pending: PendingView, state: CardState, actions: CardActions, now: number): VNode {
  const { rows, hidden } = argumentRows(pending.toolInput);
  const left = secondsLeft(pending.deadline, now);
  const bindable = pending.digest !== null;
  const busy = state.busy === true;
  const children: (VNode | null)[] = [
    h(
      'div',
      { class: 'card-head' },
      h('span', { class: 'badge tone-ask' }, 'ask'),
      h('strong', { class: 'card-tool' }, pending.toolName),
      h('span', { class: 'muted' }, `${pending.agent} · session ${pending.sessionId.slice(0, 8)}`),
      h(
        'span',
        { class: 'countdown', role: 'timer', 'data-deadline': pending.deadline, 'aria-label': 'time left to answer' },
        formatCountdown(left),
      ),
    ),
    h('div', { class: 'card-reason' }, pending.reason),
    pending.personOnly
      ? h('div', { class: 'notice' }, 'Only a person can answer this call: no standing licence covers it.')
      : null,
    hidden > 0
      ? h(
          'div',
          { class: 'warning', role: 'alert' },
          `${hidden} invisible, bidi or control character${hidden === 1 ? '' : 's'} in these arguments, shown as ⟦U+…⟧.`,
        )
      : null,
    h('div', { class: 'args' }, ...rows),
    bindable
      ? h(
          'div',
          { class: 'digest' },
          h('span', { class: 'muted' }, 'digest '),
          h('code', {}, pending.digest ?? ''),
          button('Copy', 'copy-digest', () => actions.copyDigest(pending.digest ?? '')),
        )
      : h(
          'div',
          { class: 'warning' },
          `Not bindable, so it cannot be approved: ${pending.notBindable ?? 'the arguments are not plain JSON data'}`,
        ),
  ];
  if (state.mode === 'edit') children.push(editView(pending, state, actions));
  else {
    children.push(
      h(
        'div',
        { class: 'card-actions' },
        button('Approve once', 'approve-once', () => actions.approve(pending, 'once'), {
          primary: true,
          disabled: !bindable || busy,
        }),
        button('Approve for session', 'approve-session', () => actions.approve(pending, 'session'), {
          disabled: !bindable || busy || pending.personOnly,
        }),
        button('Edit and approve…', 'edit', () => actions.startEdit(pending), { disabled: !bindable || busy }),
      ),
      h(
        'div',
        { class: 'card-refuse' },
        {
          tag: 'input',
          attrs: {
            type: 'text',
            class: 'refuse-message',
            placeholder: 'Message to the agent (optional)',
            'aria-label': 'message to the agent with the refusal',
            maxlength: '2000',
          },
          value: state.refuseMessage ?? '',
          on: { input: (e) => actions.setRefuseMessage(pending, (e.target as HTMLInputElement).value) },
        },
        button('Refuse', 'refuse', () => actions.refuse(pending), { disabled: !bindable || busy }),
      ),
    );
  }
  if (state.error) children.push(h('div', { class: 'error', role: 'alert' }, state.error));
  return h(
    'section',
    { class: 'card', 'data-approval-id': pending.id, 'aria-label': `approval for ${pending.toolName}` },
    ...children,
  );
}

function editView(pending: PendingView, state: CardState, actions: CardActions): VNode {
  const original = prettyJson(pending.toolInput);
  const text = state.editText ?? original;
  const diff = diffLines(original, text);
  const changed = diff.some((d) => d.kind !== 'same');
  const rescreen = state.rescreen;
  let verdict: VNode | null = null;
  if (rescreen && 'error' in rescreen) verdict = h('div', { class: 'error' }, rescreen.error);
  else if (rescreen)
    verdict = h(
      'div',
      { class: 'rescreen' },
      h('span', { class: `badge tone-${rescreen.decision}` }, rescreen.decision),
      h('span', {}, ` ${rescreen.reason}`),
    );
  const allowed = rescreen !== undefined && !('error' in rescreen) && rescreen.decision !== 'deny';
  return h(
    'div',
    { class: 'edit' },
    {
      tag: 'textarea',
      attrs: { class: 'edit-text', rows: '8', spellcheck: 'false', 'aria-label': 'edited arguments (JSON)' },
      value: text,
      on: { input: (e) => actions.setEditText(pending, (e.target as HTMLTextAreaElement).value) },
    },
    h(
      'div',
      { class: 'diff', 'aria-label': 'changes against the original' },
      ...diff
        .filter((d) => d.kind !== 'same')
        .map((d) => h('div', { class: `diff-${d.kind}` }, visibleText(`${d.kind === 'added' ? '+ ' : '- '}${d.text}`))),
    ),
    changed ? null : h('div', { class: 'muted' }, 'No change yet.'),
    verdict,
    h(
      'div',
      { class: 'card-actions' },
      button('Check', 'rescreen', () => actions.rescreenEdit(pending)),
      button('Approve edited', 'approve-edit', () => actions.approveEdit(pending), {
        primary: true,
        disabled: !changed || !allowed || state.busy === true,
      }),
      button('Cancel', 'cancel-edit', () => actions.cancelEdit(pending)),
    ),
  );
}
