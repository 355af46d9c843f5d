// Medians and spreads. Per-call samples are summarised as median and p25-p75; figures that come
// from a whole run (throughput, a run's p99) are repeated and summarised as median and min-max.
import type { Figure } from './schema';

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const sortedCopy = (values: readonly number[]) => [...values].sort((a, b) => a - b);

/** Many samples of one thing (a call's time): the median and the middle half. */
export function ofSamples(samples: readonly number[], unit: Figure['unit']): Figure {
  if (samples.length === 0) throw new Error('no samples to summarise');
  const sorted = sortedCopy(samples);
  return {
    median: median(sorted),
    low: quantile(sorted, 0.25),
    high: quantile(sorted, 0.75),
    n: sorted.length,
    spread: 'p25-p75',
    unit,
  };
}

/** One figure per run (throughput, a run's p99): the median run and the fastest and slowest. */
export function ofRuns(perRun: readonly number[], unit: Figure['unit']): Figure {
  if (perRun.length === 0) throw new Error('no runs to summarise');
  const sorted = sortedCopy(perRun);
  if (sorted.length === 1)
    return { median: sorted[0]!, low: sorted[0]!, high: sorted[0]!, n: 1, spread: 'single', unit };
  return { median: median(sorted), low: sorted[0]!, high: sorted.at(-1)!, n: sorted.length, spread: 'min-max', unit };
}

/** A figure measured once (the full run's memory and load figures: each once, by design). */
export function once(value: number, unit: Figure['unit']): Figure {
  return { median: value, low: value, high: value, n: 1, spread: 'single', unit };
}

/** Times `work` `runs` times after `warmup` untimed runs; milliseconds per run. */
export function timeRuns(work: () => unknown, runs: number, warmup = 1): number[] {
  for (let i = 0; i < warmup; i++) work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return samples;
}

export const MB = 1024 * 1024;

/**
 * A section's share of the run's time: its repeated runs stop once it is spent (after a minimum), so
 * a loaded machine gets fewer runs rather than a longer bench. `cut` says whether it stopped anything.
 */
export class Budget {
  private readonly endsAt: number;
  cut = false;

  constructor(
    readonly section: string,
    seconds: number,
  ) {
    this.endsAt = performance.now() + seconds * 1000;
  }

  /** Whether another run fits, given `done` runs so far and at least `minimum` of them always. */
  another(done: number, wanted: number, minimum = 2): boolean {
    if (done >= wanted) return false;
    if (done < minimum) return true;
    const fits = performance.now() < this.endsAt;
    if (!fits) this.cut = true;
    return fits;
  }

  /** Seconds left, never less than `floor`. */
  secondsLeft(floor = 1): number {
    return Math.max(floor, (this.endsAt - performance.now()) / 1000);
  }
}
