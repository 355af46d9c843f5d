import { Worker } from 'node:worker_threads';
import type { ResolvedConfig } from '../config/load';
import type { DeterministicInput } from './run';
import type { DeterministicAnswer, DeterministicRunner, Unread } from './runner';
import { configToWire, inputToWire, resultFromWire, type FromWorker, type ToWorker } from './wire';
import { FairQueue } from './fairQueue';
import type { ThreadMemory } from './threadMemory';
import { endBaselineOnly } from '../treesitter/loader';

// Evaluation workers a deadline can stop. Synchronous code (a regex that backtracks, a parse that does
// not end) cannot be interrupted on the thread that runs it; terminating its worker can. Each call gets
// its budget of worker time, and at most two budgets to wait for a free worker; past either it is
// unread. A worker that overran is terminated and a new one started, while the others keep serving.
// Waiting calls take turns by session (FairQueue): one session's burst never delays another's calls.
// One worker stands; a spare starts when a call has waited SPARE_AFTER_MS for one (the standing worker
// is stuck, or calls pile up), takes only calls that waited that long, and stops after SPARE_IDLE_MS
// without one. A worker holds ~30 MB (its heap, the parser's memory, compiled code); one agent's calls
// take turns anyway, and on two cores a second worker never raised throughput, it only cost CPU and memory.
// A worker is handed the next call (another session's) while it still runs one (PIPELINE_DEPTH), so it
// starts that call the moment it finishes instead of idling while the host takes the result and sends
// more. A call handed to a worker whose current call then runs past SPARE_AFTER_MS is taken back and
// waits again, for a spare; the worker's late answer to it is dropped.

export interface PoolOptions {
  /** The worker script: dist/evalWorker.js beside the host's bundle. */
  workerFile: string;
  /** How many calls can run at once (the spares included); at least 2, so one stuck call never holds up the rest. */
  size?: number;
  /** The deterministic budget of a call, in milliseconds (config budget.deterministicMs). */
  budgetMs: (config: ResolvedConfig) => number;
  onError?: (message: string) => void;
  /** Each worker's thread is running (a host that tunes V8's flags applies them again: see cli/heapTuning). */
  onWorkerStarted?: () => void;
  /** How long a spare may go without a call before it stops (default SPARE_IDLE_MS). */
  spareIdleMs?: number;
  /** How long a call waits (or runs) before a spare is wanted (default SPARE_AFTER_MS). */
  spareAfterMs?: number;
}

/** How calls went to workers since the pool started (serve's /health figures, tests). */
export interface PoolCounts {
  /** Calls handed to a worker while it still ran another. */
  handedBehind: number;
  /** Of those, calls taken back because the call ahead ran past SPARE_AFTER_MS. */
  takenBack: number;
}

interface Job {
  /** The session the call belongs to: its place in the waiting line. */
  session: string;
  input: DeterministicInput;
  config: ResolvedConfig;
  budgetMs: number;
  /** When it began to wait for a worker (performance.now()). */
  queuedAt: number;
  resolve: (answer: DeterministicAnswer) => void;
  waitTimer?: NodeJS.Timeout;
}

/** A call handed to a worker. Only the first of a worker's calls runs; its budget runs from when it became first. */
interface InFlight {
  id: number;
  job: Job;
  runTimer?: NodeJS.Timeout;
  startedAt?: number;
  /** While it waits behind the running call: takes it back if that call runs past SPARE_AFTER_MS. */
  behindTimer?: NodeJS.Timeout;
  /**
   * Set on the running call once a call behind it was taken back. A timer may fire a fraction of a
   * millisecond before performance.now() says SPARE_AFTER_MS passed, so the clock alone could hand the
   * taken-back call straight back behind the same stuck call.
   */
  overran?: boolean;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The worker could not load the parser; it is never given a call. */
  failed?: boolean;
  /** The calls handed to it, in the order it answers them: the first is running. */
  inFlight: InFlight[];
  configIds: Set<number>;
  /** Asked for the worker's memory figures, in the order asked (the worker answers in order). */
  memoryReaders: ((reading: ThreadMemory) => void)[];
  /** When it last finished a call (or started): a spare idle past SPARE_IDLE_MS is stopped. */
  lastUsed: number;
}

// A worker gets far more heap than any call needs; one that still runs out is stopped, not the host.
const WORKER_HEAP_MB = 256;
// A call's garbage is short-lived and small: a young generation of a few MB collects it as well as
// V8's default (up to 16 MB per semi-space, kept resident once grown) and keeps each worker ~10 MB
// smaller (bench/suite's memory figure).
const WORKER_YOUNG_MB = 4;
const MIN_SIZE = 2;
/**
 * Calls a worker holds at once: the one it runs and the next. On two cores with the host's thread busy
 * between calls this kept the worker from idling (bench/load.ts); a deeper line only makes calls wait
 * in a worker rather than in the host's fair queue.
 */
const PIPELINE_DEPTH = 2;
// A call waits for a free worker at most this many budgets: long enough for a stuck call to be stopped
// and its worker restarted, short enough that a flood of stuck calls cannot hold the rest without end.
const WAIT_BUDGETS = 2;
/** A worker busy with a stuck call answers no memory question; its figures are left out after this. */
const MEMORY_WAIT_MS = 1000;
/**
 * A call that waited this long for a worker starts a spare, and only such calls go to a spare. Ordinary
 * queueing (a few calls of a millisecond or two ahead) stays well under it; a worker starts in well
 * under a budget.
 */
const SPARE_AFTER_MS = 100;
/** A spare without a call for this long stops; the standing worker never does. */
const SPARE_IDLE_MS = 30_000;

export class DeterministicPool implements DeterministicRunner {
  private readonly slots: Slot[] = [];
  private readonly queue = new FairQueue<Job>();
  private readonly configIds = new WeakMap<ResolvedConfig, number>();
  private nextConfigId = 1;
  private nextJobId = 1;
  private closed = false;
  /** The worker compiling WebAssembly now, and the turns asked for after it (see treesitter/loader). */
  private compiling: Slot | undefined;
  private readonly compileTurns: Slot[] = [];
  private readonly maxSize: number;
  private readonly spareIdleMs: number;
  private readonly spareAfterMs: number;
  private readonly tally: PoolCounts = { handedBehind: 0, takenBack: 0 };
  private spareTimer: NodeJS.Timeout | undefined;
  private idleCheck: NodeJS.Timeout | undefined;

  constructor(private readonly opts: PoolOptions) {
    this.maxSize = Math.max(MIN_SIZE, opts.size ?? MIN_SIZE);
    this.spareIdleMs = opts.spareIdleMs ?? SPARE_IDLE_MS;
    this.spareAfterMs = opts.spareAfterMs ?? SPARE_AFTER_MS;
    this.slots.push(this.startWorker());
  }

  /** How many workers run now (the standing one and any spares). */
  get workers(): number {
    return this.slots.length;
  }

  get counts(): PoolCounts {
    return { ...this.tally };
  }

  /** Resolves once every worker has loaded its parser (hosts await it before serving). */
  whenReady(): Promise<void> {
    return new Promise((resolve) => {
      const check = () =>
        this.closed || this.slots.every((s) => s.ready || s.failed) ? resolve() : setTimeout(check, 10);
      check();
    });
  }

  run(input: DeterministicInput, config: ResolvedConfig): Promise<DeterministicAnswer> {
    if (this.closed) return Promise.resolve(unread('evaluator-lost', 'Warden is shutting down'));
    return new Promise((resolve) => {
      const session = `${input.event.agent}:${input.event.sessionId}`;
      const job: Job = {
        session,
        input,
        config,
        budgetMs: this.opts.budgetMs(config),
        queuedAt: performance.now(),
        resolve,
      };
      this.queue.push(session, job);
      this.dispatch();
      // A call that found a free worker needs no wait timer (one timer less per call).
      if (!this.queue.has(session, job)) return;
      this.spareSoon();
      this.armWaitTimer(job);
    });
  }

  /** Where each worker's memory sits (serve's figures on /health); a worker that does not answer in time is left out. */
  async memory(): Promise<ThreadMemory[]> {
    const readings = await Promise.all(
      this.slots.map(
        (slot, at) =>
          new Promise<ThreadMemory | undefined>((resolve) => {
            const timer = setTimeout(() => resolve(undefined), MEMORY_WAIT_MS);
            slot.memoryReaders.push((reading) => {
              clearTimeout(timer);
              resolve(reading);
            });
            this.post(slot, { type: 'memory', thread: `worker ${at + 1}` });
          }),
      ),
    );
    return readings.filter((r): r is ThreadMemory => r !== undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.spareTimer);
    clearInterval(this.idleCheck);
    for (const job of this.queue.drain()) {
      clearTimeout(job.waitTimer);
      job.resolve(unread('evaluator-lost', 'Warden is shutting down'));
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        while (slot.inFlight.length) this.settle(slot, unread('evaluator-lost', 'Warden is shutting down'));
        this.dropCompileTurns(slot);
        await slot.worker.terminate();
      }),
    );
  }

  private startWorker(): Slot {
    const worker = new Worker(this.opts.workerFile, {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    const slot: Slot = {
      worker,
      ready: false,
      inFlight: [],
      configIds: new Set(),
      memoryReaders: [],
      lastUsed: Date.now(),
    };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    if (this.opts.onWorkerStarted) worker.once('online', this.opts.onWorkerStarted);
    worker.on('error', (err) => {
      this.opts.onError?.(`an evaluation worker failed: ${err.message}`);
      this.replace(slot, unread('evaluator-lost', `the evaluation worker failed (${err.message})`));
    });
    worker.on('exit', (code) => {
      if (this.closed || !this.slots.includes(slot)) return;
      this.replace(slot, unread('evaluator-lost', `the evaluation worker stopped (exit code ${code})`));
    });
    // A waiting worker must not keep a one-shot host alive.
    worker.unref();
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === 'compile-turn') {
      this.compileTurns.push(slot);
      this.nextCompileTurn();
      return;
    }
    if (message.type === 'compile-done') {
      if (this.compiling === slot) this.compiling = undefined;
      this.nextCompileTurn();
      return;
    }
    if (message.type === 'memory') {
      slot.memoryReaders.shift()?.(message.reading);
      return;
    }
    if (message.type === 'ready') {
      slot.ready = true;
      this.dispatch();
      return;
    }
    if (message.type === 'failed') {
      slot.failed = true;
      this.opts.onError?.(`an evaluation worker could not load the shell parser: ${message.message}`);
      return;
    }
    // An answer to a call taken back (see takeBack) finds another call first, or none: it is dropped.
    if (slot.inFlight[0]?.id !== message.id) return;
    if (message.type === 'error') {
      this.settle(slot, unread('evaluator-lost', `the evaluation failed (${message.message})`));
    } else {
      this.settle(slot, { ok: true, ...resultFromWire(message.result) });
    }
    this.dispatch();
  }

  /** Answers the slot's running call, if any; the call after it, if any, is now the one running. */
  private settle(slot: Slot, answer: DeterministicAnswer): void {
    const current = slot.inFlight.shift();
    if (!current) return;
    clearTimeout(current.runTimer);
    slot.lastUsed = Date.now();
    const next = slot.inFlight[0];
    if (next) this.startClock(slot, next);
    current.job.resolve(answer);
  }

  /** The call is the one the worker runs now: its budget starts. */
  private startClock(slot: Slot, entry: InFlight): void {
    clearTimeout(entry.behindTimer);
    entry.behindTimer = undefined;
    entry.startedAt = performance.now();
    const { job } = entry;
    entry.runTimer = setTimeout(() => {
      this.opts.onError?.(`a call overran its ${job.budgetMs} ms budget; its evaluation worker is replaced`);
      this.replace(
        slot,
        unread('over-budget', `its deterministic evaluation took longer than the ${job.budgetMs} ms budget`),
      );
      this.dispatch();
    }, job.budgetMs);
  }

  /**
   * Calls handed to the slot but not running go back first in line (oldest first), to wait for another
   * worker; the slot's answers to them will be dropped.
   */
  private takeBack(slot: Slot, entries: InFlight[]): void {
    for (const entry of [...entries].reverse()) {
      clearTimeout(entry.behindTimer);
      slot.inFlight.splice(slot.inFlight.indexOf(entry), 1);
      this.queue.unshift(entry.job.session, entry.job);
      this.tally.takenBack++;
      this.armWaitTimer(entry.job);
    }
    if (entries.length) this.spareSoon(0);
  }

  /** A waiting call gives up (unread) once it has waited WAIT_BUDGETS budgets in all. */
  private armWaitTimer(job: Job): void {
    const limit = job.budgetMs * WAIT_BUDGETS;
    job.waitTimer = setTimeout(
      () => {
        if (!this.queue.remove(job.session, job)) return;
        job.resolve(
          unread('no-evaluator', `it waited over ${limit} ms for a free evaluator while other calls held them all`),
        );
      },
      Math.max(0, limit - (performance.now() - job.queuedAt)),
    );
  }

  /**
   * While calls wait: once the call next in line has waited SPARE_AFTER_MS, a free spare takes it, or a
   * spare starts when none is free and the pool has room.
   */
  private spareSoon(delayMs = this.spareAfterMs): void {
    if (this.spareTimer) return;
    this.spareTimer = setTimeout(() => {
      this.spareTimer = undefined;
      const next = this.queue.peek();
      if (this.closed || !next) return;
      const waited = performance.now() - next.queuedAt;
      if (waited < this.spareAfterMs) return this.spareSoon(this.spareAfterMs - waited);
      const spareFree = this.slots.some((slot, at) => at > 0 && this.canTake(slot));
      if (spareFree) this.dispatch();
      else if (this.slots.length < this.maxSize) {
        this.slots.push(this.startWorker());
        this.idleCheck ??= setInterval(() => this.stopIdleSpares(), this.spareIdleMs / 3).unref();
      }
      if (this.queue.length > 0) this.spareSoon();
    }, delayMs);
    this.spareTimer.unref();
  }

  /** Ready, and free or on a call that has not yet run as long as a call may wait. */
  private serving(slot: Slot): boolean {
    const running = slot.inFlight[0];
    if (!running) return slot.ready;
    return slot.ready && !running.overran && performance.now() - running.startedAt! < this.spareAfterMs;
  }

  /** Whether the slot takes another call now: free, or serving with room in its line. */
  private canTake(slot: Slot): boolean {
    if (slot.inFlight.length === 0) return slot.ready;
    return slot.inFlight.length < PIPELINE_DEPTH && this.serving(slot);
  }

  /** Stops spares that had no call for SPARE_IDLE_MS; the first worker stands. */
  private stopIdleSpares(): void {
    const now = Date.now();
    for (const slot of this.slots.slice(1)) {
      // A spare still starting is kept; one that could not load the parser never serves, so it goes.
      const idle = slot.ready && slot.inFlight.length === 0 && now - slot.lastUsed >= this.spareIdleMs;
      if (!idle && !slot.failed) continue;
      // Never while no other worker is serving as usual (the standing one may be stuck or restarting).
      if (!this.slots.some((other) => other !== slot && this.serving(other))) continue;
      this.slots.splice(this.slots.indexOf(slot), 1);
      this.dropCompileTurns(slot);
      slot.worker.removeAllListeners('exit');
      void slot.worker.terminate();
    }
    if (this.slots.length > 1) return;
    clearInterval(this.idleCheck);
    this.idleCheck = undefined;
  }

  private nextCompileTurn(): void {
    if (this.compiling) return;
    const next = this.compileTurns.shift();
    if (!next) return;
    this.compiling = next;
    next.worker.postMessage({ type: 'compile-go' } satisfies ToWorker);
  }

  /** A stopped worker gives up its turns; one stopped mid-compile leaves V8's baseline-only flag set. */
  private dropCompileTurns(slot: Slot): void {
    for (let at = this.compileTurns.indexOf(slot); at >= 0; at = this.compileTurns.indexOf(slot)) {
      this.compileTurns.splice(at, 1);
    }
    if (this.compiling !== slot) return;
    this.compiling = undefined;
    endBaselineOnly();
    this.nextCompileTurn();
  }

  private replace(slot: Slot, answer: Unread): void {
    this.takeBack(slot, slot.inFlight.slice(1));
    this.settle(slot, answer);
    this.dropCompileTurns(slot);
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    if (this.closed) return;
    this.slots[at] = this.startWorker();
  }

  private dispatch(): void {
    for (let at = 0; at < this.slots.length; at++) {
      const slot = this.slots[at]!;
      while (this.queue.length > 0 && this.canTake(slot)) {
        // A spare takes only a call the standing worker left waiting (see SPARE_AFTER_MS).
        if (at > 0 && performance.now() - this.queue.peek()!.queuedAt < this.spareAfterMs) break;
        const job = this.queue.shift()!;
        clearTimeout(job.waitTimer);
        this.send(slot, job);
      }
    }
  }

  private send(slot: Slot, job: Job): void {
    let configId = this.configIds.get(job.config);
    if (configId === undefined) {
      configId = this.nextConfigId++;
      this.configIds.set(job.config, configId);
    }
    const entry: InFlight = { id: this.nextJobId++, job };
    slot.inFlight.push(entry);
    if (slot.inFlight.length === 1) this.startClock(slot, entry);
    else {
      this.tally.handedBehind++;
      entry.behindTimer = setTimeout(() => {
        slot.inFlight[0]!.overran = true;
        this.takeBack(slot, [entry]);
        this.dispatch();
      }, this.spareAfterMs);
    }
    try {
      if (!slot.configIds.has(configId)) {
        this.post(slot, { type: 'config', configId, config: configToWire(job.config) });
        slot.configIds.add(configId);
      }
      this.post(slot, { type: 'run', id: entry.id, configId, input: inputToWire(job.input) });
    } catch (err) {
      // Input that cannot cross to a thread (it never should: it came from JSON) is unread, not a crash.
      // It is the slot's last call: the one ahead of it, if any, keeps running on its own clock.
      clearTimeout(entry.runTimer);
      clearTimeout(entry.behindTimer);
      slot.inFlight.pop();
      job.resolve(
        unread('evaluator-lost', `the call could not be handed to the evaluator (${(err as Error).message})`),
      );
    }
  }

  private post(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }
}

function unread(why: Unread['why'], detail: string): Unread {
  return { ok: false, why, detail };
}
