// A plain JavaScript copy of a tree-sitter tree.
//
// Every property of a web-tree-sitter Node is a call into WebAssembly, and Node.child(i) and
// fieldNameForChild(i) walk from the first child each time. Copying the tree once with a cursor
// makes each later look-up a property read, keeps the walk linear, and lets the wasm tree be
// freed right after parsing.
import type { Tree } from '@vscode/tree-sitter-wasm';
import { cursorCalls, forgetCursorCalls, type CursorCalls } from '../treesitter/cursor-calls';

export class SyntaxNode {
  readonly children: SyntaxNode[] = [];

  constructor(
    private readonly source: string,
    readonly type: string,
    readonly isNamed: boolean,
    /** The field this node fills in its parent (name, argument, body…), if any. */
    readonly field: string | null,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly parent: SyntaxNode | undefined,
  ) {}

  /** A node the grammar did not produce: `type` around `children` (which keep their own parent). */
  static around(type: string, children: SyntaxNode[], parent: SyntaxNode | undefined): SyntaxNode {
    const first = children[0];
    const last = children[children.length - 1];
    const node = new SyntaxNode(
      first?.source ?? '',
      type,
      true,
      null,
      first?.startIndex ?? 0,
      last?.endIndex ?? 0,
      parent,
    );
    node.children.push(...children);
    return node;
  }

  /** A node of `type` over [start, end) of this node's source, made up by the analyzer. */
  synthetic(type: string, start: number, end: number): SyntaxNode {
    return new SyntaxNode(this.source, type, true, null, start, end, this.parent);
  }

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get isError(): boolean {
    return this.type === 'ERROR';
  }

  get namedChildren(): SyntaxNode[] {
    return this.children.filter((c) => c.isNamed);
  }

  childForFieldName(field: string): SyntaxNode | undefined {
    return this.children.find((c) => c.field === field);
  }

  childrenForFieldName(field: string): SyntaxNode[] {
    return this.children.filter((c) => c.field === field);
  }

  /** Descendants of the given types, in source order; with `outermostOnly`, not those inside a match. */
  descendantsOfType(types: readonly string[], outermostOnly = false): SyntaxNode[] {
    const found: SyntaxNode[] = [];
    const stack: SyntaxNode[] = [...this.children].reverse();
    while (stack.length > 0) {
      const node = stack.pop() as SyntaxNode;
      const matches = types.includes(node.type);
      if (matches) found.push(node);
      if (matches && outermostOnly) continue;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as SyntaxNode);
    }
    return found;
  }
}

// A node's kind and field are read as numbers and named through these caches: reading them as
// strings costs a conversion out of WebAssembly memory on every node. The numbers are the
// grammar's own, so each grammar has its caches.
interface NameCaches {
  kinds: Map<number, { type: string; isNamed: boolean }>;
  fields: Map<number, string | null>;
}
const cachesByLanguage = new WeakMap<Tree['language'], NameCaches>();

function cachesFor(language: Tree['language']): NameCaches {
  let caches = cachesByLanguage.get(language);
  if (!caches) {
    caches = { kinds: new Map(), fields: new Map() };
    cachesByLanguage.set(language, caches);
  }
  return caches;
}

/** Copies a tree (without recursion: hostile input nests deeply). */
export function copyTree(tree: Tree, source: string): SyntaxNode {
  const calls = cursorCalls();
  if (!calls) return copyThroughCursor(tree, source);
  if (directCopyChecked) return copyThroughCalls(tree, source, calls);
  // The process's first tree is copied both ways: the direct calls are kept only when they agree.
  const direct = copyThroughCalls(tree, source, calls);
  const library = copyThroughCursor(tree, source);
  directCopyChecked = true;
  if (sameTree(direct, library)) return direct;
  forgetCursorCalls();
  return library;
}

let directCopyChecked = false;

/** Whether two copies have the same nodes, fields and spans, in the same shape. */
export function sameTree(a: SyntaxNode, b: SyntaxNode): boolean {
  const pairs: [SyntaxNode, SyntaxNode][] = [[a, b]];
  for (let pair = pairs.pop(); pair; pair = pairs.pop()) {
    const [x, y] = pair;
    if (
      x.type !== y.type ||
      x.isNamed !== y.isNamed ||
      x.field !== y.field ||
      x.startIndex !== y.startIndex ||
      x.endIndex !== y.endIndex ||
      x.children.length !== y.children.length
    )
      return false;
    x.children.forEach((child, i) => pairs.push([child, y.children[i] as SyntaxNode]));
  }
  return true;
}

/** A cursor's moves and reads, one node at a time: the library's TreeCursor, or the runtime's functions. */
interface CursorWalk {
  typeId(): number;
  isNamed(): boolean;
  fieldId(): number;
  startIndex(): number;
  endIndex(): number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
}

/** Copies the tree under the walk's cursor, depth first, without recursion. */
function copyWalked(walk: CursorWalk, language: Tree['language'], source: string): SyntaxNode {
  const { kinds, fields } = cachesFor(language);
  const make = (parent: SyntaxNode | undefined): SyntaxNode => {
    const typeId = walk.typeId();
    let kind = kinds.get(typeId);
    if (!kind) {
      kind = { type: language.types[typeId] || 'ERROR', isNamed: walk.isNamed() };
      kinds.set(typeId, kind);
    }
    const fieldId = walk.fieldId();
    let field = fields.get(fieldId);
    if (field === undefined) {
      field = language.fields[fieldId] as string | null;
      fields.set(fieldId, field);
    }
    const start = walk.startIndex();
    return new SyntaxNode(source, kind.type, kind.isNamed, field, start, walk.endIndex(), parent);
  };
  const root = make(undefined);
  let current = root;
  for (;;) {
    if (walk.gotoFirstChild()) {
      const child = make(current);
      current.children.push(child);
      current = child;
      continue;
    }
    while (!walk.gotoNextSibling()) {
      if (!walk.gotoParent() || !current.parent) return root;
      current = current.parent;
    }
    const parent = current.parent as SyntaxNode;
    const sibling = make(parent);
    parent.children.push(sibling);
    current = sibling;
  }
}

/** The copy through the runtime's cursor functions, the cursor kept in the transfer buffer (cursor-calls.ts). */
export function copyThroughCalls(tree: Tree, source: string, calls: CursorCalls): SyntaxNode {
  const cursor = tree.walk();
  const words = cursor as unknown as Record<number, number>;
  const at = (tree as unknown as Record<number, number>)[0] as number;
  const buffer = calls.transferBuffer;
  for (let k = 0; k < 4; k++) calls.writeWord(buffer + 4 * k, words[k] as number);
  try {
    return copyWalked(
      {
        typeId: () => calls.typeId(at),
        isNamed: () => calls.isNamed(at) === 1,
        fieldId: () => calls.fieldId(at),
        startIndex: () => calls.startIndex(at),
        endIndex: () => calls.endIndex(at),
        gotoFirstChild: () => calls.gotoFirstChild(at) === 1,
        gotoNextSibling: () => calls.gotoNextSibling(at) === 1,
        gotoParent: () => calls.gotoParent(at) === 1,
      },
      tree.language,
      source,
    );
  } finally {
    // A move may have grown the cursor's stack elsewhere: the library frees what the buffer now names.
    for (let k = 0; k < 4; k++) words[k] = calls.readWord(buffer + 4 * k);
    cursor.delete();
  }
}

/** The copy through the library's TreeCursor, which marshals the cursor on every read and move. */
export function copyThroughCursor(tree: Tree, source: string): SyntaxNode {
  const cursor = tree.walk();
  try {
    return copyWalked(
      {
        typeId: () => cursor.nodeTypeId,
        isNamed: () => cursor.nodeIsNamed,
        fieldId: () => cursor.currentFieldId,
        startIndex: () => cursor.startIndex,
        endIndex: () => cursor.endIndex,
        gotoFirstChild: () => cursor.gotoFirstChild(),
        gotoNextSibling: () => cursor.gotoNextSibling(),
        gotoParent: () => cursor.gotoParent(),
      },
      tree.language,
      source,
    );
  } finally {
    cursor.delete();
  }
}
