// Where a run-time value comes from. A hostile line hides a path in what a command prints
// (`cat $(ls ~/.ssh/id_*)`, `ls ~/.ssh/id_* | while read f; do cat "$f"; done`): such a word keeps the
// commands whose output it is, for the facts to read what those commands list.
import type { AnalysisState, Place } from './context';
import { stdinLiteral } from './redirects';
import type { Redirect, RunTimeOrigin } from './types';
import type { Word } from './words';

/** Options of read and mapfile that take a value (the next word when not glued). */
const READ_VALUE_OPTIONS = new Set(['a', 'd', 'i', 'n', 'N', 'p', 't', 'u']);
const MAPFILE_VALUE_OPTIONS = new Set(['d', 'n', 'O', 's', 'u', 'C', 'c']);
const NAME = /^[A-Za-z_]\w*$/;

interface ReadCommand {
  /** The variables (or the array) it sets. */
  names: string[];
  /** `read -r`: backslashes are kept as they are. */
  raw: boolean;
  /** `-u FD`: it reads another descriptor than its input. */
  otherDescriptor: boolean;
}

/** The variables a read, mapfile or readarray command sets, or undefined for any other command. */
export function readCommandOf(words: readonly Word[]): ReadCommand | undefined {
  const name = words[0]?.dynamic ? undefined : words[0]?.value;
  if (name !== 'read' && name !== 'mapfile' && name !== 'readarray') return undefined;
  const valued = name === 'read' ? READ_VALUE_OPTIONS : MAPFILE_VALUE_OPTIONS;
  const names: string[] = [];
  let raw = false;
  let otherDescriptor = false;
  let options = true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!.value;
    if (options && word === '--') {
      options = false;
      continue;
    }
    if (options && /^-[A-Za-z]/.test(word)) {
      for (let k = 1; k < word.length; k++) {
        const flag = word[k]!;
        if (flag === 'r') raw = true;
        if (!valued.has(flag)) continue;
        const value = k + 1 < word.length ? word.slice(k + 1) : words[++i]?.value;
        if (flag === 'u') otherDescriptor = true;
        if (flag === 'a' && value !== undefined && NAME.test(value)) names.push(value);
        break;
      }
      continue;
    }
    options = false;
    if (NAME.test(word)) names.push(word);
  }
  if (names.length === 0) names.push(name === 'read' ? 'REPLY' : 'MAPFILE');
  return { names, raw, otherDescriptor };
}

/**
 * Records what a read command's variables hold once it has run: the fields of its input's first
 * line when that text is known (`read -r f <<< ~/.ssh/id_rsa`), else where the input comes from (a
 * process substitution, the pipeline stage before it), else nothing known.
 */
export function assignReadInput(
  state: AnalysisState,
  words: readonly Word[],
  redirects: readonly Redirect[],
  place: Place,
): void {
  const read = readCommandOf(words);
  if (!read) return;
  const fromPipe = place.pipeline && place.pipeline.place.index > 0 ? place.pipeline : undefined;
  const text = read.otherDescriptor
    ? undefined
    : (stdinLiteral(redirects) ??
      (hasStdinRedirect(redirects) ? undefined : fromPipe?.feed.outputs[fromPipe.place.index - 1]));
  const values = words[0]?.value === 'read' && text !== undefined ? fieldsOf(text, read) : undefined;
  const origin = read.otherDescriptor ? undefined : inputOrigin(state, redirects, place);
  read.names.forEach((name, k) => {
    const value = values?.[k];
    place.scope.assign(name, value, value === undefined && origin ? { origin } : {});
  });
}

/**
 * The first line of `text` split among the names as read does with the default IFS: one field each,
 * the rest to the last. Undefined where a backslash would make read change it (without -r).
 */
function fieldsOf(text: string, read: ReadCommand): string[] | undefined {
  const line = text.split('\n')[0] ?? '';
  if (!read.raw && line.includes('\\')) return undefined;
  const fields = line.trim().split(/[ \t]+/);
  return read.names.map((_, k) => (k === read.names.length - 1 ? fields.slice(k).join(' ') : (fields[k] ?? '')));
}

function hasStdinRedirect(redirects: readonly Redirect[]): boolean {
  return redirects.some((r) => (r.fd === undefined || r.fd === 0) && r.op.startsWith('<'));
}

/** `< <(cmd)`, or the stage before in a pipeline: the commands whose output the read takes. */
function inputOrigin(state: AnalysisState, redirects: readonly Redirect[], place: Place): RunTimeOrigin | undefined {
  if (hasStdinRedirect(redirects)) {
    // The last redirect of standard input wins.
    const last = redirects.filter((r) => (r.fd === undefined || r.fd === 0) && r.op.startsWith('<')).pop();
    const commands = last?.op === '<' ? state.substituted.get(last.target) : undefined;
    return commands?.length ? { kind: 'output', commands } : undefined;
  }
  const stage = place.pipeline;
  const commands = stage && stage.place.index > 0 ? stage.feed.commands[stage.place.index - 1] : undefined;
  return commands?.length ? { kind: 'output', commands } : undefined;
}

/** `$(…)` or `` `…` `` as a whole word. */
const WHOLE_SUBSTITUTION = /^(?:\$\(.*\)|`.*`)$/s;

/**
 * `cat $(ls ~/.ssh/id_*)`: a word that is one whole command substitution gets the commands that
 * substitution ran as its origin, in the command that took the word (a wrapper hands it on).
 */
export function recordSubstitutionOrigins(
  state: AnalysisState,
  words: readonly Word[],
  owners: ReadonlyMap<Word, number>,
  index: number,
): void {
  for (const word of words) {
    if (!word.dynamic || !WHOLE_SUBSTITUTION.test(word.value)) continue;
    const commands = state.substituted.get(word.value);
    const owner = state.commands[owners.get(word) ?? index];
    const at = owner ? owner.argv.indexOf(word.value) : -1;
    if (!owner || !commands?.length || at <= 0) continue;
    (owner.origins ??= {})[at] = { kind: 'output', commands };
  }
}
