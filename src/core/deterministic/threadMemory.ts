import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { wasmMemoryBytes } from '../treesitter/loader';

// Where one thread's memory sits, for measuring serve (AGENT_WARDEN_STATS=1 puts every thread's on
// /health). Resident memory is one figure for the whole process; these say which isolate holds what.

export interface ThreadMemory {
  /** 'main', or 'worker N' for the Nth evaluation worker slot. */
  thread: string;
  /** V8's heap: what is live, what it has reserved, and what of that is resident. */
  heapUsedMb: number;
  heapTotalMb: number;
  heapPhysicalMb: number;
  /** The young generation (new space) V8 holds, live or not. */
  newSpaceMb: number;
  /** Compiled JavaScript (code space and large code objects). */
  codeMb: number;
  /** The old generation: what it holds resident, and what of that is live (the rest is free space between objects). */
  oldSpaceMb: number;
  oldSpaceUsedMb: number;
  /** Objects too large for a page (long strings, big arrays), each on pages of its own. */
  largeObjectsMb: number;
  /** Memory V8 itself allocated outside the heap (malloc), and external memory it was told of (buffers). */
  mallocedMb: number;
  externalMb: number;
  /** The tree-sitter linear memory's size (reserved; what parses touched of it is resident). */
  wasmMb: number;
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

export function readThreadMemory(thread: string): ThreadMemory {
  const heap = getHeapStatistics();
  const spaces = getHeapSpaceStatistics();
  const space = (...names: string[]) =>
    spaces.filter((s) => names.includes(s.space_name)).reduce((sum, s) => sum + s.physical_space_size, 0);
  return {
    thread,
    heapUsedMb: mb(heap.used_heap_size),
    heapTotalMb: mb(heap.total_heap_size),
    heapPhysicalMb: mb(heap.total_physical_size),
    newSpaceMb: mb(space('new_space', 'new_large_object_space')),
    codeMb: mb(space('code_space', 'code_large_object_space')),
    oldSpaceMb: mb(space('old_space')),
    oldSpaceUsedMb: mb(spaces.find((s) => s.space_name === 'old_space')?.space_used_size ?? 0),
    largeObjectsMb: mb(space('large_object_space')),
    mallocedMb: mb(heap.malloced_memory),
    externalMb: mb(heap.external_memory),
    wasmMb: mb(wasmMemoryBytes()),
  };
}
