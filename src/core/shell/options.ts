// Skipping a program's own options to find where the command it runs begins.

export interface OptionSpec {
  /** Short letters whose value is the rest of the word or the next word. */
  shortWithValue?: string;
  /** Long names (without --) whose value is the next word when not given with '='. */
  longWithValue?: readonly string[];
  /** Whether -N (nice -10) is an option. */
  numericOption?: boolean;
  /** Whether a word starting with + is an option too (bash +o). */
  plusOptions?: boolean;
}

export interface ArgvView {
  argv: readonly string[];
  /** Indexes whose value is not known statically. */
  dynamic: ReadonlySet<number>;
}

/**
 * The index of the first operand at or after `from`: the word after `--`, or the first word that
 * is not an option. A dynamic word is treated as an operand, since it cannot be read as an option.
 */
export function skipOptions(view: ArgvView, from: number, spec: OptionSpec): number {
  const { argv, dynamic } = view;
  let i = from;
  while (i < argv.length) {
    const word = argv[i] as string;
    if (dynamic.has(i)) return i;
    if (word === '--') return i + 1;
    if (word.startsWith('--')) {
      const name = word.slice(2).split('=')[0] as string;
      i += !word.includes('=') && spec.longWithValue?.includes(name) ? 2 : 1;
      continue;
    }
    const isOption = (word.startsWith('-') || (spec.plusOptions === true && word.startsWith('+'))) && word.length > 1;
    if (!isOption) return i;
    if (spec.numericOption && /^-\d+$/.test(word)) {
      i++;
      continue;
    }
    i += shortClusterLength(word, spec.shortWithValue ?? '');
  }
  return i;
}

/** How many words a cluster like -xvf FILE occupies: 2 when its last letter takes the next word. */
function shortClusterLength(word: string, withValue: string): number {
  const letters = word.slice(1);
  for (let j = 0; j < letters.length; j++) {
    if (withValue.includes(letters[j] as string)) return j === letters.length - 1 ? 2 : 1;
  }
  return 1;
}

/**
 * The value of a short or long option in the words [from, to): `-c VALUE`, `-cVALUE`, `-xc VALUE`,
 * `--name=VALUE`, `--name VALUE`. Returns the value and the index of the word holding it.
 */
export function findOptionValue(
  view: ArgvView,
  from: number,
  to: number,
  letter: string,
  longNames: readonly string[],
  spec: OptionSpec,
): { value: string; index: number } | undefined {
  const { argv } = view;
  for (let i = from; i < to; i++) {
    const word = argv[i] as string;
    if (word === '--') return undefined;
    if (word.startsWith('--')) {
      const [name, ...rest] = word.slice(2).split('=');
      if (longNames.includes(name as string)) {
        if (rest.length > 0) return { value: rest.join('='), index: i };
        if (i + 1 < argv.length) return { value: argv[i + 1] as string, index: i + 1 };
      }
      if (rest.length === 0 && spec.longWithValue?.includes(name as string)) i++;
      continue;
    }
    if (!word.startsWith('-') || word.length < 2) continue;
    const letters = word.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const current = letters[j] as string;
      if (current === letter) {
        if (j < letters.length - 1) return { value: letters.slice(j + 1), index: i };
        if (i + 1 < argv.length) return { value: argv[i + 1] as string, index: i + 1 };
        return undefined;
      }
      if (spec.shortWithValue?.includes(current)) {
        if (j === letters.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}
