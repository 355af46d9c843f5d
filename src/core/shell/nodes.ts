// A plain JavaScript copy of a tree-sitter tree.
//
// Every property of a web-tree-sitter Node is a call into WebAssembly, and Node.child(i) and
// fieldNameForChild(i) walk from the first child each time. Copying the tree once with a cursor
// makes each later look-up a property read, keeps the walk linear, and lets the wasm tree be
// freed right after parsing.
import type { Tree } from '@vscode/tree-sitter-wasm';

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
  const { kinds, fields } = cachesFor(tree.language);
  const cursor = tree.walk();
  try {
    const make = (parent: SyntaxNode | undefined): SyntaxNode => {
      const typeId = cursor.nodeTypeId;
      let kind = kinds.get(typeId);
      if (!kind) {
        kind = { type: cursor.nodeType, isNamed: cursor.nodeIsNamed };
        kinds.set(typeId, kind);
      }
      const fieldId = cursor.currentFieldId;
      let field = fields.get(fieldId);
      if (field === undefined) {
        field = cursor.currentFieldName;
        fields.set(fieldId, field);
      }
      return new SyntaxNode(source, kind.type, kind.isNamed, field, cursor.startIndex, cursor.endIndex, parent);
    };
    const root = make(undefined);
    let current = root;
    for (;;) {
      if (cursor.gotoFirstChild()) {
        const child = make(current);
        current.children.push(child);
        current = child;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || !current.parent) return root;
        current = current.parent;
      }
      const parent = current.parent as SyntaxNode;
      const sibling = make(parent);
      parent.children.push(sibling);
      current = sibling;
    }
  } finally {
    cursor.delete();
  }
}
