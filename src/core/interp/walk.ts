// Visits every node of a syntax tree in source order, without recursion (hostile input nests deeply).
import type { SyntaxNode } from '../shell/nodes';

export function walk(root: SyntaxNode, visit: (node: SyntaxNode) => void): void {
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    visit(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as SyntaxNode);
  }
}
