// web-tree-sitter's TreeCursor writes its four words into the runtime's transfer buffer before every
// property read, and reads them back after every move, each word through a generic setValue. A tree
// copy reads four properties and makes one move per node, so that copying cost more than the reads
// (a third of the time of reading a 200 KB file of code, bench/suite/written-code.ts). The runtime's
// own cursor functions read the cursor from that buffer, and a move writes it back there, so a walk
// that keeps the cursor in the buffer can call them directly, one call per property.
//
// These are the runtime's exported functions, not the library's API: they are used only when the
// loaded runtime has each of them, and the copy that uses them is checked against the library's own
// walk on the process's first tree (nodes.ts), falling back to the library's cursor otherwise.
import { loadedRuntime } from './loader';

type TreeCall = (tree: number) => number;

/** The cursor functions of the loaded runtime, taking the tree's address and the cursor in the transfer buffer. */
export interface CursorCalls {
  /** The address of the four words of the cursor. */
  transferBuffer: number;
  typeId: TreeCall;
  isNamed: TreeCall;
  fieldId: TreeCall;
  startIndex: TreeCall;
  endIndex: TreeCall;
  gotoFirstChild: TreeCall;
  gotoNextSibling: TreeCall;
  gotoParent: TreeCall;
  readWord: (address: number) => number;
  writeWord: (address: number, value: number) => void;
}

const EXPORTS = {
  typeId: '_ts_tree_cursor_current_node_type_id_wasm',
  isNamed: '_ts_tree_cursor_current_node_is_named_wasm',
  fieldId: '_ts_tree_cursor_current_field_id_wasm',
  startIndex: '_ts_tree_cursor_start_index_wasm',
  endIndex: '_ts_tree_cursor_end_index_wasm',
  gotoFirstChild: '_ts_tree_cursor_goto_first_child_wasm',
  gotoNextSibling: '_ts_tree_cursor_goto_next_sibling_wasm',
  gotoParent: '_ts_tree_cursor_goto_parent_wasm',
} as const;

let found: CursorCalls | null | undefined;

/** The loaded runtime's cursor functions, or null when it has not loaded or lacks one of them. */
export function cursorCalls(): CursorCalls | null {
  if (found !== undefined) return found;
  const runtime = loadedRuntime();
  if (!runtime) return null;
  const call = (name: string) => (typeof runtime[name] === 'function' ? (runtime[name] as TreeCall) : undefined);
  const init = call('_ts_init');
  const getValue = runtime['getValue'];
  const setValue = runtime['setValue'];
  const calls = Object.fromEntries(Object.entries(EXPORTS).map(([key, name]) => [key, call(name)]));
  if (
    !init ||
    typeof getValue !== 'function' ||
    typeof setValue !== 'function' ||
    Object.values(calls).includes(undefined)
  )
    return (found = null);
  // ts_init only returns the buffer's fixed address (and the ABI version words in it) when called again.
  const transferBuffer = init(0);
  found = {
    ...(calls as Record<keyof typeof EXPORTS, TreeCall>),
    transferBuffer,
    readWord: (address) => (getValue as (a: number, t: string) => number)(address, 'i32'),
    writeWord: (address, value) => (setValue as (a: number, v: number, t: string) => void)(address, value, 'i32'),
  };
  return found;
}

/** Stops using the direct calls for the rest of the process (their copy did not match the library's). */
export function forgetCursorCalls(): void {
  found = null;
}
