// Glob words as bash matches them, one path segment at a time: `*` and `?` never cross a `/` and
// never match a leading dot unless the pattern starts with one; `**` may stand for any folders.

/** Past this many wildcards in one segment the segment is taken to match anything (and no regex is built). */
const MAX_WILDCARDS = 8;

export function isGlobWord(word: string): boolean {
  return /[*?[]/.test(word);
}

/**
 * A path with run-time parts (`/proc/$(pgrep -f 'node dist/server.js')/environ`) as the glob of what it
 * could be: each `$(…)`, `${…}` and backquoted part stands for `*`, whatever slashes its own text has.
 * Unchanged when it has none.
 */
export function runTimePartsAsGlob(path: string): string {
  if (!path.includes('$(') && !path.includes('${') && !path.includes('`')) return path;
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const opener = path[i] === '$' ? path[i + 1] : undefined;
    if (opener === '(' || opener === '{' || path[i] === '`') {
      const end = closingOf(path, path[i] === '`' ? i : i + 1);
      if (end === -1) return `${out}*`;
      out += '*';
      i = end;
    } else out += path[i];
  }
  return out;
}

/** Where the part opened at `at` (`(`, `{` or a backquote) closes, counting nested pairs; -1 if it never does. */
function closingOf(text: string, at: number): number {
  const open = text[at];
  if (open === '`') return text.indexOf('`', at + 1);
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close && --depth === 0) return i;
  }
  return -1;
}

function escapeRegex(ch: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(ch) ? `\\${ch}` : ch;
}

/**
 * A glob's bracket as a regex class; one JavaScript refuses (a range written backwards, `[z-a]`) is any
 * one character instead: matching more keeps a glob that could name a secret from passing as one that cannot.
 */
function bracketClass(candidate: string): string {
  try {
    new RegExp(candidate);
    return candidate;
  } catch {
    return '[^/]';
  }
}

/** A matcher for one glob segment against one name. */
export function segmentMatcher(segment: string): (name: string) => boolean {
  if (segment === '**') return () => true;
  const wildcards = (segment.match(/[*?[]/g) ?? []).length;
  if (wildcards > MAX_WILDCARDS) return (name) => segment.startsWith('.') || !name.startsWith('.');
  if (wildcards === 0) return (name) => name === segment;
  let source = segment.startsWith('.') ? '^' : '^(?!\\.)';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i] ?? '';
    if (ch === '*') {
      // Runs of stars are one star; a single [^/]* per run keeps the regex linear in practice.
      while (segment[i + 1] === '*') i++;
      source += '[^/]*';
    } else if (ch === '?') source += '[^/]';
    else if (ch === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      source += bracketClass(`[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`);
      i = close;
    } else source += escapeRegex(ch);
  }
  const regex = new RegExp(`${source}$`);
  return (name) => regex.test(name);
}

/** The segments of an absolute path or glob, without empty ones. */
export function segmentsOf(p: string): string[] {
  return p.split('/').filter((s) => s !== '' && s !== '.');
}

/**
 * Whether the glob's first segments could match these literal segments (a shorter glob, or one
 * that reaches `**`, counts as matching so far).
 */
export function prefixCouldMatch(glob: readonly string[], literal: readonly string[]): boolean {
  for (let i = 0; i < literal.length && i < glob.length; i++) {
    const segment = glob[i] ?? '';
    if (segment === '**') return true;
    if (!segmentMatcher(segment)(literal[i] ?? '')) return false;
  }
  return true;
}

/** Whether the glob could name exactly this literal path. */
export function globCouldMatch(glob: readonly string[], literal: readonly string[]): boolean {
  if (glob.includes('**')) return prefixCouldMatch(glob.slice(0, glob.indexOf('**')), literal);
  return glob.length === literal.length && prefixCouldMatch(glob, literal);
}

/** How many plain characters (not wildcards) a segment holds. */
export function literalChars(segment: string): number {
  let count = 0;
  for (let at = 0; at < segment.length; at++) {
    const ch = segment[at];
    // A closed [class] stands for one character but names none; an unclosed `[` is a plain one.
    const close = ch === '[' ? segment.indexOf(']', at + 1) : -1;
    if (close >= 0) at = close;
    else if (ch !== '*' && ch !== '?') count++;
  }
  return count;
}
