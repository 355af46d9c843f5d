// A redraw that may run at most once per interval: the first request runs at once, requests
// within the interval after it are folded into one more run at its end. In a burst the summary
// strip and the timeline are rebuilt a few times a second instead of every frame (each rebuild
// restyles and lays out the top of the page), and the last state is always drawn.

export interface ThrottleClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
}

const realClock: ThrottleClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
};

export class Throttle {
  private lastRun = Number.NEGATIVE_INFINITY;
  private scheduled = false;

  constructor(
    private readonly intervalMs: number,
    private readonly run: () => void,
    private readonly clock: ThrottleClock = realClock,
  ) {}

  /** Runs now, or once at the end of the current interval if it ran less than an interval ago. */
  request(): void {
    if (this.scheduled) return;
    const wait = this.lastRun + this.intervalMs - this.clock.now();
    if (wait <= 0) return this.runNow();
    this.scheduled = true;
    this.clock.setTimeout(() => {
      this.scheduled = false;
      this.runNow();
    }, wait);
  }

  /** Runs now (a change a person must see at once); a run already scheduled still comes. */
  runNow(): void {
    this.lastRun = this.clock.now();
    this.run();
  }
}
