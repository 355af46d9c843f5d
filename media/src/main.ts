import type { CallRecord, HostMessage, PendingView, RowSummary } from '../../src/protocol';
import { cardView, type CardActions, type CardState } from './cards';
import { detailView, type DetailActions, type DetailState } from './detail';
import { formatCountdown, secondsLeft } from './format';
import { ROW_HEIGHT, rowView } from './rows';
import { noChanges, PanelStore, type Changes } from './store';
import { summaryView } from './summary';
import { timelineView } from './timeline';
import { Throttle } from './throttle';
import { emptyView, filtersView, licencesView, policiesView, statusView, type ToolbarActions } from './toolbar';
import { PostMessageTransport, WebTransport, type Transport } from './transport';
import { rowWindow } from './virtual';
import { mount, replaceChildren } from './vnode';

// The panel's entry: one code base for the webview and the web page. Host
// messages are applied to the store as they come and drawn once per animation
// frame; only rows that changed (or scrolled into view) are built again.

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the panel page lacks #${id}`);
  return el;
}

function pickTransport(): Transport {
  if (document.body.dataset.transport === 'vscode') return new PostMessageTransport(acquireVsCodeApi(), window);
  return new WebTransport(() => new EventSource('/api/events', { withCredentials: true }), window.fetch.bind(window));
}

const transport = pickTransport();
const store = new PanelStore(Number(document.body.dataset.rowLimit) || undefined);
const cardStates = new Map<string, CardState>();
let detailState: DetailState = {};
let detailRecord: { id: string; record: CallRecord | null; why?: string } | null = null;

const statusEl = byId('status');
const summaryEl = byId('summary');
const timelineEl = byId('timeline');
const toolbarEl = byId('toolbar');
const policiesEl = byId('policies');
const cardsEl = byId('cards');
const emptyEl = byId('empty');
const listEl = byId('list');
const spacerEl = byId('spacer');
const detailEl = byId('detail');
const toastEl = byId('toast');

function cardState(id: string): CardState {
  let state = cardStates.get(id);
  if (!state) cardStates.set(id, (state = { mode: 'view' }));
  return state;
}

function patchCard(pending: PendingView, patch: Partial<CardState>): void {
  Object.assign(cardState(pending.id), patch);
  drawCards();
}

async function send(
  pending: PendingView,
  run: () => Promise<import('../../src/protocol').AnswerResult>,
): Promise<void> {
  patchCard(pending, { busy: true, error: undefined });
  try {
    const result = await run();
    if (result.kind === 'ok') return;
    const why =
      result.kind === 'not-pending'
        ? 'This ask is no longer pending (answered, expired or withdrawn).'
        : result.kind === 'digest-mismatch'
          ? 'The arguments changed since they were shown: nothing was licensed.'
          : 'The answer was not taken.';
    patchCard(pending, { busy: false, error: `${why} ${result.message}` });
  } catch (err) {
    patchCard(pending, { busy: false, error: (err as Error).message });
  }
}

function parseEdit(pending: PendingView): Record<string, unknown> | string {
  const text = cardState(pending.id).editText ?? JSON.stringify(pending.toolInput, null, 2);
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return 'The edited arguments must be a JSON object.';
    return value as Record<string, unknown>;
  } catch (err) {
    return `Not valid JSON: ${(err as Error).message}`;
  }
}

const cardActions: CardActions = {
  approve: (p, scope) =>
    void send(p, () =>
      transport.request('approve', {
        approvalId: p.id,
        answer: { decision: 'approve', scope, digest: p.digest ?? '' },
      }),
    ),
  refuse: (p) => {
    const message = cardState(p.id).refuseMessage?.trim();
    void send(p, () =>
      transport.request('refuse', { approvalId: p.id, digest: p.digest ?? '', ...(message ? { message } : {}) }),
    );
  },
  setRefuseMessage: (p, text) => void (cardState(p.id).refuseMessage = text),
  startEdit: (p) => patchCard(p, { mode: 'edit', editText: JSON.stringify(p.toolInput, null, 2), rescreen: undefined }),
  cancelEdit: (p) => patchCard(p, { mode: 'view', rescreen: undefined, error: undefined }),
  setEditText: (p, text) => patchCard(p, { editText: text, rescreen: undefined }),
  rescreenEdit: (p) => {
    const edited = parseEdit(p);
    if (typeof edited === 'string') return patchCard(p, { rescreen: { error: edited } });
    transport.request('rescreenEdit', { approvalId: p.id, editedInput: edited }).then(
      (result) => patchCard(p, { rescreen: result }),
      (err: Error) => patchCard(p, { rescreen: { error: err.message } }),
    );
  },
  approveEdit: (p) => {
    const edited = parseEdit(p);
    if (typeof edited === 'string') return patchCard(p, { error: edited });
    void send(p, () =>
      transport.request('approve', {
        approvalId: p.id,
        answer: { decision: 'approve', scope: 'once', digest: p.digest ?? '', editedInput: edited },
      }),
    );
  },
  copyDigest: (digest) => transport.command({ type: 'copyDigest', digest }),
};

const detailActions: DetailActions = {
  copyDigest: (digest) => transport.command({ type: 'copyDigest', digest }),
  markerInfo: (recordId, source, index) => {
    detailState = { openMarker: { source, index } };
    drawDetail();
    if (source !== 'arguments') return;
    transport.request('markerInfo', { recordId, source, spanIndex: index }).then(
      (info) => {
        if (detailState.openMarker?.source !== source || detailState.openMarker.index !== index) return;
        detailState = { ...detailState, markerDetails: info };
        drawDetail();
      },
      (err: Error) => {
        detailState = { ...detailState, markerDetails: { available: false, why: err.message } };
        drawDetail();
      },
    );
  },
  reveal: (recordId, source, index) => {
    transport.request('reveal', { recordId, source, spanIndex: index }).then(
      (result) => {
        detailState = {
          ...detailState,
          openMarker: { source, index },
          revealed: { source, index, text: result.available ? (result.value ?? '') : (result.why ?? 'not available') },
        };
        drawDetail();
      },
      (err: Error) => showToast(err.message),
    );
  },
  hideRevealed: () => {
    const { revealed: _gone, ...rest } = detailState;
    detailState = rest;
    drawDetail();
  },
  notSecret: (recordId, source, index) => transport.command({ type: 'notSecret', recordId, source, spanIndex: index }),
  close: () => select(null),
};

const toolbarActions: ToolbarActions = {
  setFilter: (next) => {
    store.setFilters(next);
    // The toolbar's selects follow a filter set from the summary or the timeline; the summary's toggles show it at once.
    drawToolbar();
    statusThrottle.runNow();
    timelineThrottle.runNow();
    queue({ ...noChanges(), structure: true });
  },
  togglePolicy: (policy, enabled) => transport.command({ type: 'togglePolicy', policy, enabled }),
  revokeLicence: (licenceId) => transport.command({ type: 'revokeLicence', licenceId }),
  connect: () => transport.command({ type: 'connect' }),
};

/** Selects a row (or none): the list keeps focus, the detail is read back from the host. */
function select(id: string | null): void {
  store.selectedId = id;
  detailState = {};
  detailRecord = id ? { id, record: null } : null;
  drawRows(true);
  drawDetail();
  if (store.filters.session) drawTimeline();
  if (id) loadDetail(id);
}

function loadDetail(id: string): void {
  transport.request('detail', { recordId: id }).then(
    (result) => {
      if (detailRecord?.id !== id) return;
      detailRecord = result.found ? { id, record: result.record } : { id, record: null, why: result.why };
      drawDetail();
    },
    (err: Error) => {
      if (detailRecord?.id !== id) return;
      detailRecord = { id, record: null, why: err.message };
      drawDetail();
    },
  );
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;
function showToast(text: string): void {
  toastEl.textContent = text;
  toastEl.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toastEl.hidden = true), 5000);
}

/** What identifies a control across redraws: the focused one is focused again after its part is rebuilt. */
const FOCUS_KEYS = ['data-policy', 'data-agent', 'data-session', 'data-id', 'data-action'];

function redrawKeepingFocus(container: HTMLElement, nodes: import('./vnode').VNode[]): void {
  const focused = document.activeElement;
  const key = focused && container.contains(focused) ? FOCUS_KEYS.find((k) => focused.hasAttribute(k)) : undefined;
  const value = key ? focused!.getAttribute(key) : null;
  replaceChildren(container, nodes);
  if (key && value !== null)
    container.querySelector<HTMLElement>(`${focused!.tagName.toLowerCase()}[${key}="${CSS.escape(value)}"]`)?.focus();
}

function drawStatus(): void {
  replaceChildren(statusEl, [statusView(store.host, store.counts())]);
  redrawKeepingFocus(
    summaryEl,
    store.count ? [summaryView(store.tally, store.filters, store.pending.length, toolbarActions)] : [],
  );
}

function drawTimeline(): void {
  const id = store.filters.session;
  const session = id ? store.tally.session(id) : undefined;
  timelineEl.hidden = !session;
  if (!session) return replaceChildren(timelineEl, []);
  const agentName = store.tally.agents().find((a) => a.agent === session.agent)?.name ?? session.agent;
  redrawKeepingFocus(timelineEl, [
    timelineView(session, agentName, store.sessionRows(id), store.selectedId, {
      select: (rowId) => select(rowId),
      close: () => toolbarActions.setFilter({ session: '' }),
    }),
  ]);
}

function sessionInfo(id: string): { firstTs?: string; agent?: string } {
  const line = store.tally.session(id);
  return line ? { firstTs: line.firstTs, agent: line.agent } : {};
}

function drawToolbar(): void {
  // Never redraw a control under the person's cursor.
  if (toolbarEl.contains(document.activeElement)) return;
  drawnChoices = JSON.stringify(store.filterChoices());
  replaceChildren(toolbarEl, [filtersView(store.filters, store.filterChoices(), toolbarActions, sessionInfo)]);
}

function drawPolicies(): void {
  if (policiesEl.contains(document.activeElement)) return;
  const openOnes = new Set(Array.from(policiesEl.querySelectorAll('details[open]')).map((d) => d.className));
  const parts = [policiesView(store.host, toolbarActions), licencesView(store.host?.licences, toolbarActions)];
  replaceChildren(
    policiesEl,
    parts.filter((p) => p !== null),
  );
  for (const d of Array.from(policiesEl.querySelectorAll('details'))) if (openOnes.has(d.className)) d.open = true;
}

function drawCards(): void {
  const focused = document.activeElement as HTMLTextAreaElement | null;
  const focusCard = focused?.closest?.('[data-approval-id]')?.getAttribute('data-approval-id');
  const focusClass = focused?.className;
  const focusAction = focused?.getAttribute?.('data-action');
  const caret = focused && 'selectionStart' in focused ? focused.selectionStart : null;
  const now = Date.now();
  replaceChildren(
    cardsEl,
    store.pending.map((p) => cardView(p, cardState(p.id), cardActions, now)),
  );
  for (const id of [...cardStates.keys()]) if (!store.pending.some((p) => p.id === id)) cardStates.delete(id);
  if (focusCard && (focusClass || focusAction)) {
    const card = `[data-approval-id="${CSS.escape(focusCard)}"]`;
    const again = cardsEl.querySelector<HTMLTextAreaElement>(
      focusAction ? `${card} [data-action="${CSS.escape(focusAction)}"]` : `${card} .${focusClass!.split(' ')[0]}`,
    );
    again?.focus();
    if (again && caret !== null && 'setSelectionRange' in again) again.setSelectionRange(caret, caret);
  }
}

/** The rows on screen, by row id: kept while their summary and selection are unchanged. */
const mounted = new Map<string, { el: HTMLElement; row: RowSummary; selected: boolean; attached: number }>();

function drawRows(force = false): void {
  const rows = store.visibleRows();
  emptyEl.hidden = store.count > 0;
  if (store.count === 0) replaceChildren(emptyEl, [emptyView(store.host, toolbarActions)]);
  const win = rowWindow({
    scrollTop: listEl.scrollTop,
    viewport: listEl.clientHeight || 400,
    rowHeight: ROW_HEIGHT,
    count: rows.length,
  });
  spacerEl.style.height = `${win.total}px`;
  const keep = new Set<string>();
  const inOrder: HTMLElement[] = [];
  for (let i = win.first; i < win.end; i++) {
    const row = rows[i]!;
    const selected = row.id === store.selectedId;
    const attached = store.eventsOf(row.id).length;
    keep.add(row.id);
    const have = mounted.get(row.id);
    if (have && !force && have.row === row && have.selected === selected && have.attached === attached) {
      const top = `${i * ROW_HEIGHT}px`;
      if (have.el.style.top !== top) have.el.style.top = top;
      if (have.el.dataset.index !== String(i)) {
        have.el.dataset.index = String(i);
        have.el.setAttribute('aria-posinset', String(i + 1));
      }
      have.el.setAttribute('aria-setsize', String(rows.length));
      inOrder.push(have.el);
      continue;
    }
    const el = mount(
      rowView(row, { selected, index: i, total: rows.length, attached, onSelect: (id) => onRowClick(id) }),
    );
    if (have) have.el.replaceWith(el);
    inOrder.push(el);
    mounted.set(row.id, { el, row, selected, attached });
  }
  for (const [id, entry] of mounted)
    if (!keep.has(id)) {
      entry.el.remove();
      mounted.delete(id);
    }
  // The DOM keeps the visual order (screen readers read it), moving only the rows out of place.
  let cursor = spacerEl.firstChild;
  for (const el of inOrder) {
    if (el === cursor) cursor = cursor.nextSibling;
    else spacerEl.insertBefore(el, cursor);
  }
  listEl.dataset.count = String(rows.length);
  if (store.selectedId && keep.has(store.selectedId))
    listEl.setAttribute('aria-activedescendant', `row-${store.selectedId}`);
  else listEl.removeAttribute('aria-activedescendant');
}

function onRowClick(id: string): void {
  select(id);
  // Focus stays on the list, so the arrow keys move the selection after a click.
  listEl.focus({ preventScroll: true });
}

function drawDetail(): void {
  detailEl.hidden = detailRecord === null;
  if (!detailRecord) return replaceChildren(detailEl, []);
  if (!detailRecord.record) {
    const row = store.row(detailRecord.id);
    replaceChildren(detailEl, [
      {
        tag: 'section',
        attrs: { class: 'detail', 'aria-label': 'call details' },
        text: detailRecord.why ?? `Loading ${row?.toolName ?? 'the call'}…`,
      },
    ]);
    return;
  }
  replaceChildren(detailEl, [detailView(detailRecord.record, detailState, detailActions)]);
}

// In a burst rows arrive every frame; the status line, the summary strip and the timeline are
// rebuilt at most this often for them (a new ask, a state change or a filter redraws at once).
const SUMMARY_INTERVAL_MS = 250;
const statusThrottle = new Throttle(SUMMARY_INTERVAL_MS, () => drawStatus());
const timelineThrottle = new Throttle(SUMMARY_INTERVAL_MS, () => {
  if (store.filters.session || !timelineEl.hidden) drawTimeline();
});

// Everything that changed since the last frame, drawn once in the next one.
let pendingChanges: Changes | null = null;
let scrolled = false;

function queue(changes: Changes): void {
  if (!pendingChanges) {
    pendingChanges = changes;
    requestAnimationFrame(drawFrame);
  } else if (changes !== pendingChanges) {
    pendingChanges.structure ||= changes.structure;
    for (const id of changes.rows) pendingChanges.rows.add(id);
    pendingChanges.pending ||= changes.pending;
    pendingChanges.state ||= changes.state;
    pendingChanges.toasts.push(...changes.toasts);
  }
}

function drawFrame(): void {
  const started = performance.now();
  try {
    drawChanges();
  } finally {
    // A user-timing entry per frame: the burst benchmark reads how long each redraw took.
    performance.measure('aw-frame', { start: started });
  }
}

/** Choices of the filters as last drawn: the toolbar is rebuilt only when they change. */
let drawnChoices = '';

function drawChanges(): void {
  const changes = pendingChanges ?? noChanges();
  pendingChanges = null;
  const scrolledOnly = scrolled && !changes.structure && changes.rows.size === 0;
  scrolled = false;
  if (changes.structure || changes.rows.size || scrolledOnly) drawRows();
  if (changes.pending || changes.state) statusThrottle.runNow();
  else if (changes.structure || changes.rows.size) statusThrottle.request();
  if (changes.structure || changes.rows.size) timelineThrottle.request();
  if (changes.structure) {
    const choices = JSON.stringify(store.filterChoices());
    if (choices !== drawnChoices) drawToolbar();
  }
  if (changes.state) {
    drawPolicies();
    if (store.count === 0) drawRows();
  }
  if (changes.pending) drawCards();
  for (const text of changes.toasts) showToast(text);
  // The open call changed (its ask was answered): read it back again.
  if (detailRecord && changes.rows.has(detailRecord.id)) loadDetail(detailRecord.id);
}

listEl.addEventListener(
  'scroll',
  () => {
    scrolled = true;
    queue(noChanges());
  },
  { passive: true },
);
listEl.addEventListener('keydown', (event) => {
  const rows = store.visibleRows();
  if (rows.length === 0) return;
  const at = rows.findIndex((r) => r.id === store.selectedId);
  const moves: Record<string, number> = {
    ArrowDown: at + 1,
    ArrowUp: at < 0 ? 0 : at - 1,
    Home: 0,
    End: rows.length - 1,
    PageDown: Math.max(0, at) + 10,
    PageUp: at - 10,
  };
  if (event.key === 'Escape') return select(null);
  if (event.key === 'Enter' && at >= 0) {
    event.preventDefault();
    return detailEl.querySelector<HTMLElement>('button, [tabindex]')?.focus();
  }
  const next = moves[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const index = Math.min(rows.length - 1, Math.max(0, next));
  const top = index * ROW_HEIGHT;
  if (top < listEl.scrollTop) listEl.scrollTop = top;
  else if (top + ROW_HEIGHT > listEl.scrollTop + listEl.clientHeight)
    listEl.scrollTop = top + ROW_HEIGHT - listEl.clientHeight;
  select(rows[index]!.id);
});

setInterval(() => {
  const now = Date.now();
  for (const el of Array.from(cardsEl.querySelectorAll<HTMLElement>('.countdown')))
    el.textContent = formatCountdown(secondsLeft(el.dataset.deadline ?? '', now));
}, 1000);

transport.start((message: HostMessage) => {
  if (message.type === 'response') return;
  queue(store.apply(message));
});
drawRows();
drawStatus();
drawToolbar();
