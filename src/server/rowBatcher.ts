import type { RowSummary } from '../protocol';

// Rows for one panel, gathered for a few milliseconds and sent as one message:
// a burst of hundreds of calls becomes a few dozen postMessages (the webview)
// or event-stream writes (the web panel), and a row that changed twice in the
// window goes out once, in its last state.

const WINDOW_MS = 16;

export class RowBatcher {
  private readonly waiting = new Map<string, RowSummary>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly send: (rows: RowSummary[]) => void,
    private readonly windowMs = WINDOW_MS,
  ) {}

  add(rows: RowSummary[]): void {
    // A row already waiting keeps its place (the order rows arrived in) and takes its latest state.
    for (const row of rows) this.waiting.set(row.id, row);
    this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  /** Sends what waits now (before a message that must not overtake the rows). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.size === 0) return;
    const rows = [...this.waiting.values()];
    this.waiting.clear();
    this.send(rows);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
  }
}
