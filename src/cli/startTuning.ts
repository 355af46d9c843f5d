// serve's process settings that hold only from start-up. What V8 reads at run time, heapTuning sets;
// what is read once, as the process starts (and on Node 24 that is every V8 flag), needs the process
// started again with it: Node has process.execve for that from 22.15 and 23.11 (the same process, pid,
// terminal and signals, a new program image). Older Node and Windows serve as they were started.
//
// - --liftoff-only: the shell parser's WebAssembly stays on V8's baseline tier for good (see
//   treesitter/loader: on Node 24 the flag set at run time is ignored, and the parser tiered up, with
//   54-113 MB of the optimising compiler's working memory). serve runs no one else's WebAssembly.
// - --no-concurrent-recompilation: V8 optimises JavaScript on the thread that runs it rather than on
//   helper threads, whose memory for each compile stayed behind in their malloc arenas. It optimises the
//   same functions either way; on two cores the host and the worker keep both busy already.
// - --max-semi-space-size=1: the young generation's two halves stay at 1 MB each. A call's garbage
//   dies young either way; the 4 MB halves V8 starts with kept 6 MB more resident on the main thread and
//   2 MB more on the worker, for no CPU that showed (1,163 against 1,192 µs per call, medians of three).
// - MALLOC_ARENA_MAX=2 (glibc): glibc gives each thread that allocates while another holds the lock an
//   arena of its own, up to eight per core, and keeps what each grew to. A value the person set is kept.
//
// Measured after 100,000 calls (bench/serve-memory.ts; BENCH_SERVE_NODE, MEMORY_ENV, MEMORY_NODE_ARGS):
// Node 24: 255 MB (at 20,000 calls) -> 190 MB, serve's CPU 1,790 -> 1,140 µs per call; Node 20, the
// same settings given by hand: 183 -> 150 MB. Fewer V8 helpers (--v8-pool-size=1) kept more, not less.

/** Set in the restarted process: it is never restarted twice, whatever the settings did. */
export const TUNED_MARK = 'AGENT_WARDEN_START_TUNED';
const ARENAS = '2';
/** V8 flags, each left out when the person's own node options already set it either way. */
const START_FLAGS = [
  { flag: '--liftoff-only', setting: 'liftoff-only' },
  { flag: '--no-concurrent-recompilation', setting: 'concurrent-recompilation' },
  { flag: '--max-semi-space-size=1', setting: 'max-semi-space-size' },
];

export interface StartFacts {
  /** The node binary (process.execPath). */
  execPath: string;
  /** node's own options (process.execArgv). */
  execArgv: readonly string[];
  /** The script and its arguments (process.argv.slice(1)). */
  scriptArgs: readonly string[];
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** The glibc version the process runs on, or undefined for another C library. */
  glibc: string | undefined;
  /** Whether this Node can start the process again in place (process.execve). */
  canExecve: boolean;
}

export interface TunedStart {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** How serve would start again with its start-up settings, or undefined when it should not. */
export function tunedStart(facts: StartFacts): TunedStart | undefined {
  if (!facts.canExecve || facts.platform === 'win32') return undefined;
  if (facts.env[TUNED_MARK] !== undefined) return undefined;
  // The person's own options, on the command line or in NODE_OPTIONS (which ours would override), are kept.
  const own = [...facts.execArgv, ...(facts.env['NODE_OPTIONS'] ?? '').split(/\s+/)].map((arg) =>
    arg
      .split('=')[0]!
      .replaceAll('_', '-')
      .replace(/^--no-/, '--'),
  );
  const ownSetting = (setting: string) => own.includes(`--${setting}`);
  const flags = START_FLAGS.filter(({ setting }) => !ownSetting(setting)).map(({ flag }) => flag);
  const arenas = facts.glibc !== undefined ? { MALLOC_ARENA_MAX: facts.env['MALLOC_ARENA_MAX'] ?? ARENAS } : {};
  return {
    file: facts.execPath,
    args: [facts.execPath, ...flags, ...facts.execArgv, ...facts.scriptArgs],
    env: { ...facts.env, ...arenas, [TUNED_MARK]: '1' },
  };
}

function glibcVersion(): string | undefined {
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime;
}

/**
 * Starts this process again with the start-up settings when it can (it does not return then); otherwise
 * returns, and serve runs as it is. A restart that fails is reported and serve runs untuned.
 */
export function restartWithStartSettings(warn: (message: string) => void): void {
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve !== 'function' || process.env[TUNED_MARK] !== undefined) return;
  const start = tunedStart({
    execPath: process.execPath,
    execArgv: process.execArgv,
    scriptArgs: process.argv.slice(1),
    env: process.env,
    platform: process.platform,
    glibc: process.platform === 'linux' ? glibcVersion() : undefined,
    canExecve: true,
  });
  if (!start) return;
  try {
    execve.call(process, start.file, start.args, start.env);
  } catch (err) {
    warn(`serve runs without its start-up settings: starting again with them failed (${(err as Error).message})`);
  }
}
