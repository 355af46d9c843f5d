// Whether a statement's WHERE clause can ever be false. `DELETE … WHERE id = $1 OR 1=1` reads like a
// targeted delete and removes every row: one OR branch that always holds makes the whole clause hold.
// The clause is read at parenthesis depth zero, with string literals blanked (same length) so that an
// `or` or `=` inside a string is not taken for the clause's own; literals are compared as written.

/** Clauses that end a WHERE condition. */
const CLAUSE_END = /\b(RETURNING|ORDER\s+BY|LIMIT|GROUP\s+BY|OFFSET)\b/i;
/** A literal: a number, a quoted string, true, false or null. */
const LITERAL = /^(?:\d+(?:\.\d+)?|'[^']*'|true|false|null)$/i;
const ALWAYS = /^(true|1|not\s+false|not\s+0)$/i;
const WORD_EDGE = /[\s()]/;
/** The clock as the database reads it when the statement runs. */
const NOW = String.raw`(?:now\(\)|current_timestamp(?:\(\))?|localtimestamp|getdate\(\)|sysdate(?:\(\))?|clock_timestamp\(\)|transaction_timestamp\(\)|statement_timestamp\(\))`;
/** A column that records when a row was made or changed: every row written before the statement has it in the past. */
const STAMP = String.raw`(?:\w+\.)?"?(?:created|inserted|updated|modified)(?:_?at|_?on|_?date)?"?`;
/**
 * Conditions every existing row meets though they name a column: `created_at < now()` (no retention
 * interval subtracted), a serial key above zero, a key that is not null.
 */
const EVERY_ROW = [
  new RegExp(String.raw`^${STAMP}\s*<=?\s*${NOW}$`, 'i'),
  new RegExp(String.raw`^${NOW}\s*>=?\s*${STAMP}$`, 'i'),
  /^(?:\w+\.)?"?id"?\s*(?:>\s*0|>=\s*[01]|is\s+not\s+null)$/i,
];

/** A piece of the statement: where it is in the original text. */
interface Span {
  start: number;
  end: number;
}

/** String literals kept as quotes around blanks: their text cannot look like SQL, their length is kept. */
function blankStrings(sql: string): string {
  let out = '';
  let inString = false;
  for (const ch of sql) {
    if (ch === "'") inString = !inString;
    out += inString && ch !== "'" ? ' ' : ch;
  }
  return out;
}

/** The span without its blank edges and without parentheses that enclose all of it. */
function unwrap(blanked: string, span: Span): Span {
  let { start, end } = span;
  for (;;) {
    while (start < end && /\s/.test(blanked[start]!)) start++;
    while (end > start && /\s/.test(blanked[end - 1]!)) end--;
    if (blanked[start] !== '(' || blanked[end - 1] !== ')' || !closesAtEnd(blanked, start, end)) return { start, end };
    start++;
    end--;
  }
}

/** Whether the parenthesis at `start` is closed by the one just before `end`. */
function closesAtEnd(blanked: string, start: number, end: number): boolean {
  let depth = 0;
  for (let i = start; i < end; i++) {
    if (blanked[i] === '(') depth++;
    else if (blanked[i] === ')' && --depth === 0) return i === end - 1;
  }
  return false;
}

/** The span split at a keyword (AND, OR) standing alone at parenthesis depth zero. */
function splitTopLevel(blanked: string, span: Span, keyword: 'AND' | 'OR'): Span[] {
  const parts: Span[] = [];
  const upper = blanked.toUpperCase();
  let depth = 0;
  let start = span.start;
  for (let i = span.start; i < span.end; i++) {
    const ch = blanked[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (
      depth === 0 &&
      upper.startsWith(keyword, i) &&
      WORD_EDGE.test(blanked[i - 1] ?? ' ') &&
      WORD_EDGE.test(blanked[i + keyword.length] ?? ' ')
    ) {
      parts.push({ start, end: i });
      start = i + keyword.length;
      i = start - 1;
    }
  }
  parts.push({ start, end: span.end });
  return parts;
}

/** A condition that holds for every row: `1=1`, `'a' = 'a'`, `true`, `1`, `NOT false`, `created_at < now()`. */
function isTautology(statement: string, blanked: string, span: Span): boolean {
  const { start, end } = unwrap(blanked, span);
  const text = statement.slice(start, end);
  if (ALWAYS.test(text) || EVERY_ROW.some((condition) => condition.test(text))) return true;
  const equals = blanked.slice(start, end).split('=');
  if (equals.length !== 2) return false;
  const left = text.slice(0, equals[0]!.length).trim().toLowerCase();
  const right = text
    .slice(equals[0]!.length + 1)
    .trim()
    .toLowerCase();
  return left === right && LITERAL.test(left);
}

/** The always-true part of a statement's WHERE clause, or undefined when the clause can be false (or there is none). */
export function alwaysTrueWhere(statement: string): string | undefined {
  const blanked = blankStrings(statement);
  const at = blanked.search(/\bWHERE\b/i);
  if (at === -1) return undefined;
  const from = at + 'WHERE'.length;
  const end = blanked.slice(from).search(CLAUSE_END);
  let to = end === -1 ? blanked.length : from + end;
  while (to > from && /[\s;]/.test(blanked[to - 1]!)) to--;
  const clause = unwrap(blanked, { start: from, end: to });
  const always = splitTopLevel(blanked, clause, 'OR').find((branch) =>
    splitTopLevel(blanked, unwrap(blanked, branch), 'AND').every((part) => isTautology(statement, blanked, part)),
  );
  return always === undefined ? undefined : statement.slice(always.start, always.end).trim();
}
