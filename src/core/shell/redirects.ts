// Redirections: file redirects, here-strings and heredocs, with their targets expanded.
import { singleWordAlternatives, unitedFileText } from './alternatives';
import type { SyntaxNode } from './nodes';
import type { Redirect } from './types';
import { heredocValue, misreadHeredocText, singleWord, type WordContext } from './words';

export const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
const HEREDOC_PARTS = new Set(['heredoc_start', 'heredoc_body', 'heredoc_end']);

export interface ResolvedRedirects {
  redirects: Redirect[];
  substitutions: SyntaxNode[];
  /** Statements the grammar hangs on a heredoc: what follows `<<EOF` on its line (`&& x`, `; y`). */
  trailing: SyntaxNode[];
  /** A pipeline that continues after `<<EOF` on its line (cat <<EOF | sh). */
  pipeTail: SyntaxNode | undefined;
  /** Where the redirects end in the source, heredoc bodies left out; -1 when there are none. */
  end: number;
}

function descriptorOf(node: SyntaxNode): number | undefined {
  const descriptor = node.childForFieldName('descriptor');
  if (!descriptor) return undefined;
  const fd = Number(descriptor.text);
  return Number.isInteger(fd) ? fd : undefined;
}

function operatorOf(node: SyntaxNode, fallback: string): string {
  for (const child of node.children) {
    if (!child.isNamed && /^[<>&|-]+$/.test(child.type)) return child.type;
  }
  return fallback;
}

function withFd(redirect: Redirect, fd: number | undefined): Redirect {
  return fd === undefined ? redirect : { ...redirect, fd };
}

export function resolveRedirects(nodes: readonly SyntaxNode[], ctx: WordContext): ResolvedRedirects {
  const out: ResolvedRedirects = { redirects: [], substitutions: [], trailing: [], pipeTail: undefined, end: -1 };
  for (const node of nodes) {
    resolveOne(node, ctx, out);
    out.end = Math.max(out.end, lineEndOf(node));
  }
  return out;
}

/** The end of a redirect in its command's text: for a heredoc, its `<<EOF` and the redirects after it. */
function lineEndOf(node: SyntaxNode): number {
  if (node.type !== 'heredoc_redirect') return node.endIndex;
  let end = node.startIndex;
  for (const child of node.children) {
    if (child.type === 'heredoc_start' || REDIRECT_TYPES.has(child.type)) end = Math.max(end, child.endIndex);
  }
  return end;
}

function resolveOne(node: SyntaxNode, ctx: WordContext, out: ResolvedRedirects): void {
  const fd = descriptorOf(node);
  if (node.type === 'file_redirect') {
    const destinations = node.childrenForFieldName('destination');
    const { word, substitutions } = singleWord(destinations, ctx);
    const redirect: Redirect = { op: operatorOf(node, '>'), target: word.value };
    if (word.fileText !== undefined) redirect.fileText = word.fileText;
    const united = unitedFileText(word, destinations, ctx);
    if (united !== undefined) redirect.fileText = united;
    const alternatives = singleWordAlternatives(word, destinations, ctx);
    if (alternatives) redirect.alternatives = alternatives;
    out.redirects.push(withFd(redirect, fd));
    out.substitutions.push(...substitutions);
    return;
  }
  if (node.type === 'herestring_redirect') {
    const parts = node.namedChildren.filter((n) => n.type !== 'file_descriptor');
    const { word, substitutions } = singleWord(parts, ctx);
    out.redirects.push(withFd({ op: '<<<', target: word.value }, fd));
    out.substitutions.push(...substitutions);
    return;
  }
  if (node.type !== 'heredoc_redirect') return;
  const op = operatorOf(node, '<<');
  const start = node.children.find((c) => c.type === 'heredoc_start');
  const body = node.children.find((c) => c.type === 'heredoc_body');
  const quoted = start ? /['"\\]/.test(start.text) : false;
  const misread = start ? misreadBody(node, start, body) : undefined;
  let target = '';
  if (misread) target = misreadHeredocText(misread.text, { quoted, stripTabs: op === '<<-' });
  else if (body) {
    const { word, substitutions } = heredocValue(body, ctx, { quoted, stripTabs: op === '<<-' });
    target = word.value;
    out.substitutions.push(...substitutions);
  }
  out.redirects.push(withFd({ op, target }, fd));
  for (const child of node.namedChildren) {
    if (HEREDOC_PARTS.has(child.type) || child.type === 'file_descriptor') continue;
    if (misread && child.startIndex >= misread.from) continue;
    if (REDIRECT_TYPES.has(child.type)) resolveOne(child, ctx, out);
    else if (child.type === 'pipeline' && out.pipeTail === undefined) out.pipeTail = child;
    else out.trailing.push(child);
  }
}

/**
 * The grammar reads a body line that starts with a backslash (`\rm -rf ~`, a way to skip aliases) as
 * words (of the redirect, or of a command after `<<EOF &&`) and leaves an empty body before the
 * terminator: the body is then taken from the source, from the line after `<<EOF` to the terminator.
 * `from` is that line's newline, where the misread words start.
 */
function misreadBody(
  node: SyntaxNode,
  start: SyntaxNode,
  body: SyntaxNode | undefined,
): { text: string; from: number } | undefined {
  const end = node.children.find((c) => c.type === 'heredoc_end');
  const source = node.text;
  const newline = source.indexOf('\n', start.endIndex - node.startIndex);
  if (!end || newline < 0) return undefined;
  const from = node.startIndex + newline;
  if (body && body.startIndex <= from + 1) return undefined;
  return { text: source.slice(newline + 1, end.startIndex - node.startIndex), from };
}

/** The literal text a command's stdin gets from a heredoc or here-string, if any. */
export function stdinLiteral(redirects: readonly Redirect[]): string | undefined {
  let literal: string | undefined;
  for (const redirect of redirects) {
    if (redirect.fd !== undefined && redirect.fd !== 0) continue;
    if (redirect.op === '<<' || redirect.op === '<<-') literal = redirect.target;
    else if (redirect.op === '<<<') literal = redirect.target + '\n';
    else if (redirect.op === '<') literal = redirect.fileText;
    else if (redirect.op === '<&' || redirect.op === '<>') literal = undefined;
  }
  return literal;
}
