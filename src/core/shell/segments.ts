// A word under construction: runs of text that differ in what later expansion steps may do to them.
import type { Lookup } from './scope';

export type SegmentKind =
  /** Unquoted text from the source: subject to brace and tilde expansion. */
  | 'literal'
  /** Quoted or escaped text: final as it is. */
  | 'quoted'
  /** The value of an unquoted expansion: subject to field splitting only. */
  | 'split'
  /** Only known at run time; the text is the source as written. */
  | 'dynamic';

export interface Segment {
  text: string;
  kind: SegmentKind;
}

const MAX_BRACE_WORDS = 1024;

function pushMerged(out: Segment[], segment: Segment): void {
  const last = out[out.length - 1];
  if (last && last.kind === segment.kind && segment.kind !== 'dynamic') last.text += segment.text;
  else out.push({ ...segment });
}

// Brace expansion works on single characters of literal text; other segments stay whole.
interface Atom {
  text: string;
  kind: SegmentKind;
}

function toAtoms(segments: Segment[]): Atom[] {
  const atoms: Atom[] = [];
  for (const segment of segments) {
    if (segment.kind === 'literal') for (const ch of segment.text) atoms.push({ text: ch, kind: 'literal' });
    else atoms.push(segment);
  }
  return atoms;
}

function isActive(atom: Atom | undefined, ch: string): boolean {
  return atom !== undefined && atom.kind === 'literal' && atom.text === ch;
}

function literalText(atoms: Atom[]): string | undefined {
  let text = '';
  for (const atom of atoms) {
    if (atom.kind !== 'literal') return undefined;
    text += atom.text;
  }
  return text;
}

function sequenceItems(body: Atom[]): string[] | undefined {
  const text = literalText(body);
  if (text === undefined) return undefined;
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text);
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(text);
  const match = numeric ?? letters;
  if (!match) return undefined;
  const from = numeric ? Number(match[1]) : (match[1] as string).charCodeAt(0);
  const to = numeric ? Number(match[2]) : (match[2] as string).charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step >= MAX_BRACE_WORDS) return undefined;
  const ends = [match[1] as string, match[2] as string];
  const width = numeric && ends.some((end) => /^-?0\d/.test(end)) ? Math.max(...ends.map((end) => end.length)) : 0;
  const items: string[] = [];
  const direction = to >= from ? 1 : -1;
  for (let value = from; direction > 0 ? value <= to : value >= to; value += direction * step) {
    items.push(numeric ? String(value).padStart(width, '0') : String.fromCharCode(value));
  }
  return items;
}

/** The first expandable brace group: its bounds and alternatives, or undefined. */
function findBraceGroup(atoms: Atom[]): { open: number; close: number; alternatives: Atom[][] } | undefined {
  for (let open = 0; open < atoms.length; open++) {
    if (!isActive(atoms[open], '{') || (open > 0 && isActive(atoms[open - 1], '$'))) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < atoms.length; i++) {
      if (isActive(atoms[i], '{')) depth++;
      else if (isActive(atoms[i], '}')) {
        if (depth > 0) {
          depth--;
          continue;
        }
        const body = atoms.slice(open + 1, i);
        if (commas.length > 0) {
          const alternatives: Atom[][] = [];
          let from = open + 1;
          for (const comma of [...commas, i]) {
            alternatives.push(atoms.slice(from, comma));
            from = comma + 1;
          }
          return { open, close: i, alternatives };
        }
        const items = sequenceItems(body);
        if (items) return { open, close: i, alternatives: items.map((text) => [{ text, kind: 'quoted' as const }]) };
        break;
      } else if (depth === 0 && isActive(atoms[i], ',')) commas.push(i);
    }
  }
  return undefined;
}

function expandAtoms(atoms: Atom[], budget: { left: number }): Atom[][] {
  const group = findBraceGroup(atoms);
  if (!group) return [atoms];
  const prefix = atoms.slice(0, group.open);
  const suffix = atoms.slice(group.close + 1);
  const results: Atom[][] = [];
  for (const alternative of group.alternatives) {
    for (const expanded of expandAtoms([...prefix, ...alternative, ...suffix], budget)) {
      if (--budget.left < 0) return [atoms];
      results.push(expanded);
    }
  }
  return results;
}

/** Bash brace expansion: a{b,c}d gives abd acd; {1..3} gives 1 2 3. Gives up (one word) past 1024 words. */
export function braceExpand(segments: Segment[]): Segment[][] {
  if (!segments.some((s) => s.kind === 'literal' && s.text.includes('{'))) return [segments];
  const budget = { left: MAX_BRACE_WORDS };
  const expanded = expandAtoms(toAtoms(segments), budget);
  if (budget.left < 0) return [segments];
  return expanded.map((atoms) => {
    const out: Segment[] = [];
    for (const atom of atoms) pushMerged(out, atom);
    return out;
  });
}

/**
 * Where a tilde may start a tilde-prefix: the start of a word; in an assignment's value also after
 * each `:`; in a whole NAME=value word also right after its first `=`.
 */
export type TildeMode = 'word' | 'value' | 'assignment-word';

/**
 * Tilde expansion: ~ alone or before / gives $HOME; ~user, ~+ and ~- are left dynamic.
 */
export function tildeExpand(segments: Segment[], home: Lookup, mode: TildeMode = 'word'): Segment[] {
  const first = segments[0];
  if (!first || first.kind !== 'literal') return segments;
  const text = first.text;
  const assignment = mode !== 'word';
  const positions = tildePositions(text, mode);
  if (positions.length === 0) return segments;
  const out: Segment[] = [];
  let from = 0;
  for (const at of positions) {
    const slash = text.indexOf('/', at);
    const colon = assignment ? text.indexOf(':', at) : -1;
    const stops = [slash, colon].filter((i) => i >= 0);
    const end = stops.length ? Math.min(...stops) : text.length;
    // A prefix that runs into quoted text (~"/x") is not a tilde-prefix.
    if (end === text.length && segments.length > 1) continue;
    const prefix = text.slice(at + 1, end);
    out.push({ text: text.slice(from, at), kind: 'literal' });
    if (prefix === '' && home.known) out.push({ text: home.value, kind: 'quoted' });
    else out.push({ text: text.slice(at, end), kind: 'dynamic' });
    from = end;
  }
  if (out.length === 0) return segments;
  out.push({ text: text.slice(from), kind: 'literal' });
  const merged: Segment[] = [];
  for (const segment of [...out, ...segments.slice(1)])
    if (segment.text !== '' || segment.kind === 'quoted') pushMerged(merged, segment);
  return merged;
}

function tildePositions(text: string, mode: TildeMode): number[] {
  if (mode === 'word') return text.startsWith('~') ? [0] : [];
  const afterEquals = mode === 'assignment-word' ? text.indexOf('=') + 1 : 0;
  const positions: number[] = [];
  for (let i = afterEquals; i < text.length; i++) {
    if (text[i] === '~' && (i === afterEquals || text[i - 1] === ':')) positions.push(i);
  }
  return positions;
}

function escapeForClass(chars: string): string {
  return chars.replace(/[\\\]^-]/g, '\\$&');
}

/** Bash's separators for an IFS value: runs of its whitespace, or one of its other characters with whitespace around. */
function separatorsOf(ifs: string): RegExp {
  const white = escapeForClass([...ifs].filter((c) => c === ' ' || c === '\t' || c === '\n').join(''));
  const other = escapeForClass([...ifs].filter((c) => c !== ' ' && c !== '\t' && c !== '\n').join(''));
  const around = white ? `[${white}]*` : '';
  const alternatives = [...(other ? [`${around}[${other}]${around}`] : []), ...(white ? [`[${white}]+`] : [])];
  return new RegExp(alternatives.join('|'));
}

/**
 * Field splitting of unquoted expansion values by IFS; a word made only of empty unquoted
 * expansions vanishes. With IFS unknown, such values are only known at run time.
 */
export function fieldSplit(segments: Segment[], ifs: Lookup): Segment[][] {
  if (!segments.some((s) => s.kind === 'split')) return [segments];
  if (!ifs.known || ifs.value === '') {
    const kind = ifs.known ? 'quoted' : 'dynamic';
    return [segments.map((s) => (s.kind === 'split' ? { text: s.text, kind } : s))];
  }
  const separators = separatorsOf(ifs.value);
  const words: Segment[][] = [];
  let current: Segment[] = [];
  let hasContent = false;
  for (const segment of segments) {
    if (segment.kind !== 'split') {
      pushMerged(current, segment);
      hasContent = true;
      continue;
    }
    const parts = segment.text.split(separators);
    parts.forEach((part, k) => {
      if (k > 0) {
        if (hasContent) words.push(current);
        current = [];
        hasContent = false;
      }
      if (part !== '') {
        pushMerged(current, { text: part, kind: 'quoted' });
        hasContent = true;
      }
    });
  }
  if (hasContent) words.push(current);
  return words;
}
