import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

// Opt-in process figures for measuring serve under load (bench/load.ts reads them).
// Off unless AGENT_WARDEN_STATS=1 is in serve's environment: an agent can read
// /health, and how busy Warden is tells it nothing it needs.

export interface LoopStatsReading {
  /** The longest event-loop block since the last reset, in ms. */
  eventLoopMaxMs: number;
  eventLoopP99Ms: number;
  eventLoopMeanMs: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** CPU time of the whole process (every thread) since it started, in ms: per call, it does not depend on load. */
  cpuUserMs: number;
  cpuSystemMs: number;
}

export class LoopStats {
  private readonly histogram: IntervalHistogram;

  constructor(resolutionMs = 10) {
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    this.histogram.enable();
  }

  /** The figures since the last reset; `reset` starts a new window (e.g. once start-up is over). */
  read(reset = false): LoopStatsReading {
    const h = this.histogram;
    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    const reading: LoopStatsReading = {
      eventLoopMaxMs: h.count ? h.max / 1e6 : 0,
      eventLoopP99Ms: h.count ? h.percentile(99) / 1e6 : 0,
      eventLoopMeanMs: h.count ? h.mean / 1e6 : 0,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      cpuUserMs: cpu.user / 1000,
      cpuSystemMs: cpu.system / 1000,
    };
    if (reset) h.reset();
    return reading;
  }

  close(): void {
    this.histogram.disable();
  }
}

export function loopStatsFromEnv(env: NodeJS.ProcessEnv = process.env): LoopStats | undefined {
  return env.AGENT_WARDEN_STATS === '1' ? new LoopStats() : undefined;
}
