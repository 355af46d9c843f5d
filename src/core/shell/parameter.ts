// ${…} parameter expansions with operators, worked out when the variable's value is known:
// defaults, alternates, length, substrings, case changes, prefix/suffix removal, replacement.
// Anything else, or any unknown value, stays dynamic (undefined).
import type { SyntaxNode } from './nodes';

/** Longest value we run pattern removal on; past this the expansion is left dynamic. */
const MAX_PATTERN_SUBJECT = 4096;

export interface ParameterContext {
  /** The value of a variable, undefined when unknown. */
  lookup(name: string): string | undefined;
  /** The static value of operand nodes, undefined when dynamic. */
  operand(nodes: readonly SyntaxNode[]): string | undefined;
}

const NAME_TYPES = new Set(['variable_name', 'special_variable_name']);

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') source += '[\\s\\S]*';
    else if (ch === '?') source += '[\\s\\S]';
    else if (ch === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i] as string);
    else if (ch === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) source += '\\[';
      else {
        const body = pattern
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = close;
      }
    } else source += escapeRegExp(ch);
  }
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function removeAffix(value: string, pattern: string, op: string): string | undefined {
  if (value.length > MAX_PATTERN_SUBJECT) return undefined;
  let matcher: RegExp;
  try {
    matcher = globToRegExp(pattern);
  } catch {
    return undefined;
  }
  const prefix = op.startsWith('#');
  const longest = op.length === 2;
  const lengths = [...Array(value.length + 1).keys()];
  if (longest) lengths.reverse();
  for (const length of lengths) {
    const part = prefix ? value.slice(0, length) : value.slice(value.length - length);
    if (matcher.test(part)) return prefix ? value.slice(length) : value.slice(0, value.length - length);
  }
  return value;
}

function substring(value: string, offsetText: string | undefined, lengthText: string | undefined): string | undefined {
  const offset = Number(offsetText?.trim());
  const length = lengthText === undefined ? undefined : Number(lengthText.trim());
  if (!Number.isInteger(offset) || (length !== undefined && !Number.isInteger(length))) return undefined;
  const start = offset < 0 ? Math.max(0, value.length + offset) : offset;
  if (length === undefined) return value.slice(start);
  const end = length < 0 ? value.length + length : start + length;
  return end < start ? undefined : value.slice(start, end);
}

/** The value of a `${…}` expansion node, or undefined when it depends on run time. */
/**
 * `${a[1]}`, `${a[@]}`: an array's elements are not tracked one by one, only as the values the array
 * may hold (Scope.alternatives); while one of them is tried, it is the `a[]` pseudo-variable. A
 * scalar is its own element 0 (and @, *).
 */
function elementOf(subscript: SyntaxNode, ctx: ParameterContext): string | undefined {
  const name = subscript.childForFieldName('name')?.text;
  const index = subscript.childForFieldName('index')?.text;
  if (name === undefined) return undefined;
  const tried = ctx.lookup(`${name}[]`);
  if (tried !== undefined) return tried;
  return index === '0' || index === '@' || index === '*' ? ctx.lookup(name) : undefined;
}

export function expandParameter(node: SyntaxNode, ctx: ParameterContext): string | undefined {
  const inner = node.children.slice(1, node.children[node.children.length - 1]?.type === '}' ? -1 : undefined);
  const first = inner[0];
  if (!first) return undefined;
  if (!first.isNamed && first.type === '#' && inner.length === 2 && NAME_TYPES.has(inner[1]?.type ?? '')) {
    const value = ctx.lookup((inner[1] as SyntaxNode).text);
    return value === undefined ? undefined : String([...value].length);
  }
  if (first.type === 'subscript' && inner.length === 1) return elementOf(first, ctx);
  // `${!name}`: the variable whose name is name's value.
  if (!first.isNamed && first.type === '!' && inner.length === 2 && inner[1]?.type === 'variable_name') {
    const target = ctx.lookup(inner[1].text);
    return target !== undefined && /^[A-Za-z_]\w*$/.test(target) ? ctx.lookup(target) : undefined;
  }
  if (!NAME_TYPES.has(first.type)) return undefined;
  const value = ctx.lookup(first.text);
  const rest = inner.slice(1);
  if (rest.length === 0) return value;
  const op = rest[0]?.isNamed ? '' : (rest[0] as SyntaxNode).type;
  const operands = rest.slice(1);
  if (value === undefined) return undefined;
  switch (op) {
    case ':-':
    case ':=':
    case ':?':
      return value === '' ? ctx.operand(operands) : value;
    case '-':
    case '=':
    case '?':
      return value;
    case ':+':
      return value === '' ? '' : ctx.operand(operands);
    case '+':
      return ctx.operand(operands);
    case '^^':
    case ',,':
    case '^':
    case ',':
      if (operands.length > 0) return undefined;
      if (op === '^^') return value.toUpperCase();
      if (op === ',,') return value.toLowerCase();
      return (op === '^' ? value.slice(0, 1).toUpperCase() : value.slice(0, 1).toLowerCase()) + value.slice(1);
    case ':': {
      const second = operands.findIndex((n) => !n.isNamed && n.type === ':');
      const offset = ctx.operand(second < 0 ? operands : operands.slice(0, second));
      const length = second < 0 ? undefined : ctx.operand(operands.slice(second + 1));
      if (offset === undefined || (second >= 0 && length === undefined)) return undefined;
      return substring(value, offset, length);
    }
    case '#':
    case '##':
    case '%':
    case '%%': {
      const pattern = ctx.operand(operands);
      return pattern === undefined ? undefined : removeAffix(value, pattern, op);
    }
    case '/':
    case '//': {
      const slash = operands.findIndex((n) => !n.isNamed && n.type === '/');
      const pattern = ctx.operand(slash < 0 ? operands : operands.slice(0, slash));
      const replacement = slash < 0 ? '' : ctx.operand(operands.slice(slash + 1));
      if (pattern === undefined || replacement === undefined || pattern === '' || /[*?[\\]/.test(pattern))
        return undefined;
      return op === '//' ? value.split(pattern).join(replacement) : value.replace(pattern, () => replacement);
    }
    default:
      return undefined;
  }
}
