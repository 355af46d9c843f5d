import type { HostMessage, PendingView } from '../../src/shared/protocol';
import { cardView, type CardActions, type CardState } from './cards';
import { detailView, type DetailActions, type DetailState } from './detail';
import { formatCountdown, secondsLeft } from './format';
import { ROW_HEIGHT, rowView } from './rows';
import { PanelStore } from './store';
import { filtersView, policiesView, statusView, type ToolbarActions } from './toolbar';
import { PostMessageTransport, WebTransport, type Transport } from './transport';
import { rowWindow } from './virtual';
import { mount, replaceChildren } from './vnode';

// The panel's entry: one code base for the webview and the web page. It keeps
// the store, draws the parts that changed, and sends the person's answers
// through whichever transport the page was opened with.

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

const statusEl = byId('status');
const toolbarEl = byId('toolbar');
const policiesEl = byId('policies');
const cardsEl = byId('cards');
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

function answerError(status: number, body: unknown): string {
  const detail =
    typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : '';
  if (status === 404) return `This ask is no longer pending (answered, expired or withdrawn). ${detail}`;
  if (status === 409) return `The arguments changed since they were shown: nothing was licensed. ${detail}`;
  return `The answer was refused (${status}). ${detail}`;
}

async function send(pending: PendingView, run: () => Promise<{ status: number; body: unknown }>): Promise<void> {
  patchCard(pending, { busy: true, error: undefined });
  try {
    const result = await run();
    if (result.status === 200) return;
    patchCard(pending, { busy: false, error: answerError(result.status, result.body) });
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
  notSecret: (recordId, source, index) => transport.command({ type: 'notSecret', recordId, source, spanIndex: index }),
  close: () => select(null),
};

const toolbarActions: ToolbarActions = {
  setFilter: (next) => {
    store.setFilters(next);
    drawList();
  },
  togglePolicy: (policy, enabled) => transport.command({ type: 'togglePolicy', policy, enabled }),
};

function select(id: string | null): void {
  store.selectedId = id;
  detailState = {};
  drawRows();
  drawDetail();
}

function showToast(text: string): void {
  toastEl.textContent = text;
  toastEl.hidden = false;
  setTimeout(() => (toastEl.hidden = true), 4000);
}

function drawStatus(): void {
  replaceChildren(statusEl, [statusView(store.host, store.counts())]);
}

function drawToolbar(): void {
  // Never redraw the search box under the person's cursor.
  if (toolbarEl.contains(document.activeElement)) return;
  replaceChildren(toolbarEl, [filtersView(store.filters, store.filterChoices(), toolbarActions)]);
  const policies = policiesView(store.host, toolbarActions);
  const open = policiesEl.querySelector('details')?.open ?? false;
  replaceChildren(policiesEl, policies ? [policies] : []);
  if (open) policiesEl.querySelector('details')?.setAttribute('open', '');
}

function drawCards(): void {
  const focused = document.activeElement as HTMLTextAreaElement | null;
  const focusCard = focused?.closest?.('[data-approval-id]')?.getAttribute('data-approval-id');
  const focusClass = focused?.className;
  const caret = focused && 'selectionStart' in focused ? focused.selectionStart : null;
  const now = Date.now();
  replaceChildren(
    cardsEl,
    store.pending.map((p) => cardView(p, cardState(p.id), cardActions, now)),
  );
  for (const id of [...cardStates.keys()]) if (!store.pending.some((p) => p.id === id)) cardStates.delete(id);
  if (focusCard && focusClass) {
    const again = cardsEl.querySelector<HTMLTextAreaElement>(
      `[data-approval-id="${CSS.escape(focusCard)}"] .${focusClass.split(' ')[0]}`,
    );
    again?.focus();
    if (again && caret !== null) again.setSelectionRange(caret, caret);
  }
}

function drawRows(): void {
  const records = store.visibleRecords();
  const win = rowWindow({
    scrollTop: listEl.scrollTop,
    viewport: listEl.clientHeight || 400,
    rowHeight: ROW_HEIGHT,
    count: records.length,
  });
  spacerEl.style.height = `${win.total}px`;
  const rows = [];
  for (let i = win.first; i < win.end; i++)
    rows.push(
      mount(rowView(records[i]!, { selected: records[i]!.id === store.selectedId, index: i, onSelect: select })),
    );
  spacerEl.replaceChildren(...rows);
  listEl.setAttribute('aria-rowcount', String(records.length));
}

function drawList(): void {
  drawRows();
  drawStatus();
}

function drawDetail(): void {
  const record = store.selectedId ? store.record(store.selectedId) : undefined;
  detailEl.hidden = !record;
  replaceChildren(detailEl, record ? [detailView(record, detailState, detailActions)] : []);
}

// One redraw per animation frame. A scroll redraws the window of rows only; new records also
// redraw the counts and the filter choices, which walk every record held.
let queued: 'rows' | 'list' | null = null;
function queueRedraw(what: 'rows' | 'list'): void {
  if (queued !== null) {
    if (what === 'list') queued = 'list';
    return;
  }
  queued = what;
  requestAnimationFrame(() => {
    const all = queued === 'list';
    queued = null;
    if (!all) return drawRows();
    drawList();
    drawToolbar();
  });
}
const queueRows = () => queueRedraw('list');

listEl.addEventListener('scroll', () => queueRedraw('rows'), { passive: true });
listEl.addEventListener('keydown', (event) => {
  const records = store.visibleRecords();
  if (records.length === 0) return;
  const at = Math.max(
    0,
    records.findIndex((r) => r.id === store.selectedId),
  );
  const moves: Record<string, number> = {
    ArrowDown: at + 1,
    ArrowUp: at - 1,
    Home: 0,
    End: records.length - 1,
    PageDown: at + 10,
    PageUp: at - 10,
  };
  if (event.key === 'Escape') return select(null);
  const next = moves[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const index = Math.min(records.length - 1, Math.max(0, next));
  const top = index * ROW_HEIGHT;
  if (top < listEl.scrollTop) listEl.scrollTop = top;
  else if (top + ROW_HEIGHT > listEl.scrollTop + listEl.clientHeight)
    listEl.scrollTop = top + ROW_HEIGHT - listEl.clientHeight;
  select(records[index]!.id);
  spacerEl.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus();
});

setInterval(() => {
  const now = Date.now();
  for (const el of Array.from(cardsEl.querySelectorAll<HTMLElement>('.countdown')))
    el.textContent = formatCountdown(secondsLeft(el.dataset.deadline ?? '', now));
}, 1000);

transport.start((message: HostMessage) => {
  const changed = store.apply(message);
  if (changed === 'records') queueRows();
  else if (changed === 'pending') {
    drawCards();
    drawStatus();
  } else if (changed === 'state') {
    drawStatus();
    drawToolbar();
  } else if (changed === 'toast' && store.lastToast) showToast(store.lastToast);
  if (message.type === 'snapshot') drawCards();
});
drawList();
drawToolbar();
