// A clock for ledger tests: time moves only when the test advances it, so nothing sleeps.

import type { LedgerClock } from '../../../src/core/approvals/ledger';

interface Timer {
  dueMs: number;
  callback: () => void;
  cancelled: boolean;
}

export class ManualClock implements LedgerClock {
  private timers: Timer[] = [];

  constructor(private nowMs = Date.UTC(2026, 0, 2, 3, 4, 5)) {}

  now(): number {
    return this.nowMs;
  }

  setTimer(callback: () => void, delayMs: number): () => void {
    const timer: Timer = { dueMs: this.nowMs + delayMs, callback, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.nowMs + ms;
    for (;;) {
      const due = this.timers
        .filter((timer) => !timer.cancelled && timer.dueMs <= target)
        .sort((a, b) => a.dueMs - b.dueMs)[0];
      if (due === undefined) break;
      this.nowMs = due.dueMs;
      due.cancelled = true;
      due.callback();
    }
    this.nowMs = target;
    this.timers = this.timers.filter((timer) => !timer.cancelled);
  }

  activeTimers(): number {
    return this.timers.filter((timer) => !timer.cancelled).length;
  }
}
