// The window of rows a virtualized list renders: only what is visible plus a
// little overscan, so 10,000 rows cost as much as 30.

export interface RowWindow {
  first: number;
  /** One past the last row to render. */
  end: number;
  /** Offset in pixels of the first rendered row. */
  offset: number;
  /** The height of the whole list in pixels. */
  total: number;
}

export function rowWindow(opts: {
  scrollTop: number;
  viewport: number;
  rowHeight: number;
  count: number;
  overscan?: number;
}): RowWindow {
  const { rowHeight, count } = opts;
  const overscan = opts.overscan ?? 8;
  const total = count * rowHeight;
  const top = Math.max(0, Math.min(opts.scrollTop, Math.max(0, total - opts.viewport)));
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((top + opts.viewport) / rowHeight) + overscan);
  return { first, end, offset: first * rowHeight, total };
}
