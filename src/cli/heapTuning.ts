import { setFlagsFromString } from 'node:v8';

// serve's V8 heap, kept near what it holds. V8 sizes a heap for throughput: the main thread's young
// generation grew to 16 MB semi-spaces (30 MB resident) under load, and its old generation was let grow
// to about four times what is live (V8 picks that factor for a heap whose limit is as large as a 64-bit
// machine gives), so serve held 290-340 MB after 100,000 calls while its main thread kept 30-45 MB live
// (bench/serve-memory.ts has the figures). Node takes neither size as a setting once the process runs,
// but V8 reads these two flags each time it collects:
// - the young generation no longer grows past the size start-up left it at (4 MB semi-spaces), and
// - the old generation may grow to 1.3 times what the last full collection kept, not up to 4 times
//   (1.3 is V8's own factor for a small heap such as a worker's).
// They are V8 flags, so they hold for every thread of the process (the evaluation workers already have
// a small young generation and a factor near this one through their resource limits). Only serve sets
// them: the extension runs in the editor's own process, whose heap is not Warden's to tune.

// Measured (40,000 calls, three interleaved runs each): 249 -> 202 MB after 40,000 calls, serve's CPU
// per call 1,627 -> 1,623 µs (medians). A growing factor of 1.2 kept no less and cost more CPU in one run of three.
const FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=30'];

/**
 * Applies the settings; call once start-up is over, and again after each evaluation worker starts:
 * V8 puts the growth factor back to its default whenever it sets up a new thread's heap.
 */
export function keepHeapNearLiveSize(): void {
  for (const flag of FLAGS) setFlagsFromString(flag);
}
