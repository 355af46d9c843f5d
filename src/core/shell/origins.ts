// Where a run-time value comes from. A hostile line hides a path in what a command prints
// (`cat $(ls ~/.ssh/id_*)`, `ls ~/.ssh/id_* | while read f; do cat "$f"; done`): such a word keeps the
// commands whose output it is, for the facts to read what those commands list.
import type { AnalysisState, Place } from './context';
import type { Lookup } from './scope';
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
  ifs: Lookup = { known: true, value: ' \t\n' },
): void {
  const read = readCommandOf(words);
  if (!read) return;
  const fromPipe = place.pipeline && place.pipeline.place.index > 0 ? place.pipeline : undefined;
  const text = read.otherDescriptor
    ? undefined
    : (stdinLiteral(redirects) ??
      (hasStdinRedirect(redirects) ? undefined : fromPipe?.feed.outputs[fromPipe.place.index - 1]));
  const values =
    words[0]?.value === 'read' && text !== undefined && ifs.known ? fieldsOf(text, read, ifs.value) : undefined;
  const origin = read.otherDescriptor ? undefined : inputOrigin(state, redirects, place);
  read.names.forEach((name, k) => {
    const value = values?.[k];
    place.scope.assign(name, value, value === undefined && origin ? { origin } : {});
  });
}

/**
 * The first line of `text` split among the names as read does: one field each, the rest to the last.
 * IFS of blanks only trims and splits on runs of them; IFS of other characters only (`IFS=:`) splits
 * on each one. Undefined for an IFS mixing both, or where a backslash would make read change the
 * line (without -r).
 */
function fieldsOf(text: string, read: ReadCommand, ifs: string): string[] | undefined {
  const line = text.split('\n')[0] ?? '';
  if (!read.raw && line.includes('\\')) return undefined;
  const blanks = [...ifs].filter((c) => c === ' ' || c === '\t' || c === '\n');
  if (ifs === '') return read.names.map((_, k) => (k === 0 ? line : ''));
  if (blanks.length === ifs.length) {
    const fields = line.trim().split(/[ \t]+/);
    return read.names.map((_, k) => (k === read.names.length - 1 ? fields.slice(k).join(' ') : (fields[k] ?? '')));
  }
  if (blanks.length > 0) return undefined;
  const out: string[] = [];
  let rest: string | undefined = line;
  for (let k = 0; k < read.names.length - 1; k++) {
    const at: number = rest === undefined ? -1 : separatorAt(rest, ifs);
    out.push(rest === undefined ? '' : at < 0 ? rest : rest.slice(0, at));
    rest = rest === undefined || at < 0 ? undefined : rest.slice(at + 1);
  }
  out.push(rest ?? '');
  return out;
}

/** The index of the first character of `text` that is in `ifs`, or -1. */
function separatorAt(text: string, ifs: string): number {
  for (let i = 0; i < text.length; i++) if (ifs.includes(text[i]!)) return i;
  return -1;
}

function readsStdin(r: Redirect): boolean {
  return (r.fd === undefined || r.fd === 0) && r.op.startsWith('<');
}

function hasStdinRedirect(redirects: readonly Redirect[]): boolean {
  return redirects.some(readsStdin);
}

/** `< <(cmd)`, or the stage before in a pipeline: the commands whose output the read takes. */
function inputOrigin(state: AnalysisState, redirects: readonly Redirect[], place: Place): RunTimeOrigin | undefined {
  if (hasStdinRedirect(redirects)) {
    // The last redirect of standard input wins.
    const last = redirects.filter(readsStdin).pop();
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
