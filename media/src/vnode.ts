// A tiny virtual node tree: the views are pure functions returning these, so
// tests can inspect them without a DOM, and mount() turns them into real
// elements. Text only ever lands in textContent: no HTML is parsed, ever.

export type Handler = (event: Event) => void;

export interface VNode {
  tag: string;
  /** Attributes set with setAttribute (class, role, aria-*, data-*, tabindex…). */
  attrs?: Record<string, string>;
  /** Set as textContent: the only way a string reaches the page. */
  text?: string;
  children?: VNode[];
  on?: Partial<Record<'click' | 'keydown' | 'input' | 'change', Handler>>;
  /** Form values (input, textarea, select) set as properties. */
  value?: string;
  /** Style properties that position virtualized rows. */
  style?: Record<string, string>;
}

type Child = VNode | string | null | undefined | false;

/** Builds a node; string children become text spans so every string stays text. */
export type Attrs = { [name: string]: string | VNode['on'] | undefined; on?: VNode['on'] };

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): VNode {
  const { on, ...rest } = attrs;
  const node: VNode = { tag };
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(rest)) if (typeof value === 'string') plain[name] = value;
  if (Object.keys(plain).length) node.attrs = plain;
  if (on) node.on = on;
  const kids = children.filter((c): c is VNode | string => c !== null && c !== undefined && c !== false);
  if (kids.length === 1 && typeof kids[0] === 'string') node.text = kids[0];
  else if (kids.length) node.children = kids.map((c) => (typeof c === 'string' ? { tag: 'span', text: c } : c));
  return node;
}

/** Every text in the tree, in document order (tests read views through it). */
export function textOf(node: VNode): string {
  return (node.text ?? '') + (node.children ?? []).map(textOf).join('');
}

/** Depth-first search for nodes matching a predicate. */
export function findAll(node: VNode, match: (n: VNode) => boolean, acc: VNode[] = []): VNode[] {
  if (match(node)) acc.push(node);
  for (const child of node.children ?? []) findAll(child, match, acc);
  return acc;
}

export function hasClass(node: VNode, name: string): boolean {
  return (node.attrs?.class ?? '').split(/\s+/).includes(name);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates real DOM elements for a tree; an svg and everything inside it are made in the SVG namespace. */
export function mount(node: VNode, doc: Document = document, inSvg = false): HTMLElement {
  const svg = inSvg || node.tag === 'svg';
  const el = (svg ? doc.createElementNS(SVG_NS, node.tag) : doc.createElement(node.tag)) as HTMLElement;
  for (const [name, value] of Object.entries(node.attrs ?? {})) el.setAttribute(name, value);
  if (node.style) for (const [name, value] of Object.entries(node.style)) el.style.setProperty(name, value);
  if (node.text !== undefined) el.textContent = node.text;
  for (const [type, handler] of Object.entries(node.on ?? {})) if (handler) el.addEventListener(type, handler);
  for (const child of node.children ?? []) el.appendChild(mount(child, doc, svg));
  // After the children: a select takes a value only once an option with it exists.
  if (node.value !== undefined) (el as HTMLInputElement).value = node.value;
  return el;
}

/** Replaces an element's content with a tree. */
export function replaceChildren(parent: HTMLElement, nodes: VNode[]): void {
  const doc = parent.ownerDocument;
  parent.replaceChildren(...nodes.map((n) => mount(n, doc)));
}
