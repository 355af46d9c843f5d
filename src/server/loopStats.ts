import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { readThreadMemory, type ThreadMemory } from '../core/deterministic/threadMemory';

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
  /** Each block of the event loop over BLOCK_MS since the last reset (the newest MAX_BLOCKS), for attribution. */
  blocks: LoopBlock[];
  /** Where the memory sits: this thread's heap, then each evaluation worker's that answered. */
  memory: ThreadMemory[];
}

/** One stretch in which the event loop did not turn. */
export interface LoopBlock {
  /** When it ended, in µs of the monotonic clock V8's CPU profiles use (their startTime and endTime). */
  endedAtUs: number;
  ms: number;
  /**
   * CPU time the event loop's thread used meanwhile, in ms (10 ms steps; Linux only): near `ms` when
   * the thread was running, near 0 when it waited or the OS ran something else.
   */
  cpuMs?: number;
}

const BLOCK_MS = 50;
const TICK_MS = 10;
const MAX_BLOCKS = 200;

export class LoopStats {
  private readonly histogram: IntervalHistogram;
  private readonly ticker: NodeJS.Timeout;
  private blocks: LoopBlock[] = [];

  /** The evaluation workers' memory figures (a host without workers has none). */
  workerMemory: () => Promise<ThreadMemory[]> = () => Promise.resolve([]);

  constructor(resolutionMs = 10) {
    this.histogram = monitorEventLoopDelay({ resolution: resolutionMs });
    this.histogram.enable();
    // The histogram says how long the longest block was, not when: a timer that notes each late turn
    // gives the time, so a CPU profile of the same run can say what the thread did meanwhile.
    let last = nowUs();
    let lastCpu = threadCpuMs();
    this.ticker = setInterval(() => {
      const now = nowUs();
      const cpu = threadCpuMs();
      const late = (now - last) / 1000 - TICK_MS;
      const used = cpu !== undefined && lastCpu !== undefined ? cpu - lastCpu : undefined;
      last = now;
      lastCpu = cpu;
      if (late < BLOCK_MS) return;
      this.blocks.push({ endedAtUs: now, ms: late, ...(used !== undefined ? { cpuMs: used } : {}) });
      if (this.blocks.length > MAX_BLOCKS) this.blocks.shift();
    }, TICK_MS);
    this.ticker.unref();
  }

  /** The figures since the last reset; `reset` starts a new window (e.g. once start-up is over). */
  async read(reset = false): Promise<LoopStatsReading> {
    const workers = await this.workerMemory();
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
      blocks: this.blocks,
      memory: [readThreadMemory('main'), ...workers],
    };
    if (reset) {
      h.reset();
      this.blocks = [];
    }
    return reading;
  }

  close(): void {
    this.histogram.disable();
    clearInterval(this.ticker);
  }
}

/** The monotonic clock in µs (uv_hrtime, the clock V8's profiler stamps its samples with on Linux). */
function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** This thread's CPU time in ms, from /proc (clock ticks of 10 ms); undefined where there is no /proc. */
function threadCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export function loopStatsFromEnv(env: NodeJS.ProcessEnv = process.env): LoopStats | undefined {
  return env.AGENT_WARDEN_STATS === '1' ? new LoopStats() : undefined;
}
