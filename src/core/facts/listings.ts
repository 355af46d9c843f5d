// What a run-time word may stand for. A path a call reads or deletes can be chosen by a lister at run
// time (`cat $(ls ~/.ssh/id_*)`, `find ~/.aws | xargs cat`, `ls ~/.ssh/id_* | while read f; do cat
// "$f"; done`) or by a loop (`for f in ~/.bashrc ~/.zshrc; do … >> "$f"`): the policies judge each
// path it may be.
import type { SimpleCommand } from '../shell';
import { trimEndChars } from '../text/scan';
import { argsOf, parseFlags, upstreamStage } from './commands';

/** Commands that pass on some of the lines they read, unchanged: a path listed before them stays one. */
const LINE_FILTERS = new Set(['head', 'tail', 'sort', 'uniq', 'grep', 'egrep', 'fgrep', 'tac', 'shuf', 'cat']);
const LS_NAMES = new Set(['ls', 'dir', 'vdir', 'exa', 'eza', 'lsd']);
const LS_VALUES: [string[], string[]] = [
  ['I', 'w', 'T'],
  [
    'ignore',
    'hide',
    'width',
    'tabsize',
    'block-size',
    'format',
    'sort',
    'time',
    'time-style',
    'color',
    'quoting-style',
  ],
];
const GREP_VALUES: [string[], string[]] = [
  ['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D', 'g', 't', 'T', 'M', 'j'],
  ['regexp', 'file', 'max-count', 'include', 'exclude', 'exclude-dir', 'context', 'glob', 'type', 'type-not'],
];
const FD_VALUES: [string[], string[]] = [
  ['e', 't', 'E', 'd', 'x', 'X', 'j', 'c', 'S'],
  ['extension', 'type', 'exclude', 'max-depth', 'min-depth', 'exec', 'exec-batch', 'threads', 'color', 'size'],
];

/** Where the files a find prints lie: its starting points, with its `-name` when it has one. */
export function findRoots(find: SimpleCommand): string[] {
  const args = argsOf(find);
  const roots: string[] = [];
  for (const word of args) {
    if (word.startsWith('-') || word === '(' || word === '!') break;
    roots.push(word);
  }
  // `-name 'settings*.json'`: the files are the roots' entries of that name (a glob the policies match).
  // `! -name '*.pub'` leaves out a name and narrows to none.
  const at = args.findIndex((a, k) => (a === '-name' || a === '-iname') && !negated(args, k));
  const name = at >= 0 ? args[at + 1] : undefined;
  const named = name !== undefined ? `/${name}` : '';
  return (roots.length ? roots : ['.']).map((root) => `${trimEndChars(root, '/')}${named}`);
}

/** A find test after `!` or `-not`: it picks what does not match. */
export function negated(args: readonly string[], at: number): boolean {
  return args[at - 1] === '!' || args[at - 1] === '-not';
}

/**
 * The paths, globs or folders whose names a command prints, for the commands that list paths (ls,
 * find, fd, realpath, readlink, grep -l, rg --files, echo, printf); [] for any other.
 */
export function listedPaths(cmd: SimpleCommand): string[] {
  const args = argsOf(cmd);
  const name = cmd.name;
  if (LS_NAMES.has(name)) return orHere(parseFlags(args, ...LS_VALUES).positionals);
  if (name === 'find' || name === 'gfind' || name === 'bfs') return findRoots(cmd);
  if (name === 'fd' || name === 'fdfind') return orHere(parseFlags(args, ...FD_VALUES).positionals.slice(1));
  if (['realpath', 'grealpath', 'readlink', 'greadlink'].includes(name))
    return parseFlags(args, [], ['relative-to', 'relative-base']).positionals;
  if (name === 'echo')
    return args.filter((a, k) => !(/^-[neE]+$/.test(a) && args.slice(0, k).every((b) => /^-[neE]+$/.test(b))));
  if (name === 'printf') return args[0] === '-v' ? args.slice(3) : args.slice(1);
  if (['grep', 'egrep', 'fgrep', 'rg', 'ag'].includes(name)) return filesWithMatches(args, name);
  return [];
}

function orHere(paths: string[]): string[] {
  return paths.length ? paths : ['.'];
}

/** `grep -rl PATTERN DIR`, `rg --files DIR`: the files searched, when only their names are printed. */
function filesWithMatches(args: readonly string[], name: string): string[] {
  const flags = parseFlags(args, ...GREP_VALUES);
  const namesOnly = ['files-with-matches', 'files-without-match', 'files'].some((o) => flags.long.has(o));
  if (!namesOnly && !flags.short.has('l') && !flags.short.has('L')) return [];
  const patternGiven =
    flags.short.has('e') || flags.short.has('f') || flags.long.has('regexp') || flags.long.has('files');
  const paths = patternGiven ? flags.positionals : flags.positionals.slice(1);
  return paths.length ? paths : name === 'grep' ? [] : ['.'];
}

/**
 * What the listers among `commands` print, when nothing after them in their pipeline (among the
 * same commands) changes lines: `ls ~/.ssh/id_* | head -1` lists, `ls ~/.ssh | wc -l` counts.
 */
export function listingsOf(commands: readonly SimpleCommand[]): string[] {
  const found: string[] = [];
  for (const lister of commands) {
    const paths = listedPaths(lister);
    if (paths.length && linesPassedOn(lister, commands)) found.push(...paths);
  }
  return found;
}

/** Whether what `lister` prints reaches the end of its pipeline unchanged, among `commands` (only line filters after it). */
export function linesPassedOn(lister: SimpleCommand, commands: readonly SimpleCommand[]): boolean {
  return !commands.some(
    (c) =>
      c.pipeline.id === lister.pipeline.id && c.pipeline.index > lister.pipeline.index && !LINE_FILTERS.has(c.name),
  );
}

/** What a run-time word of `cmd` (`$f`, `"${fs[@]}"`, `$(ls …)`) may stand for: the paths its origin lists. */
export function wordListings(raw: string, cmd: SimpleCommand, commands: readonly SimpleCommand[]): string[] {
  if (!cmd.origins) return [];
  const at = cmd.argv.indexOf(raw);
  const origin = at > 0 ? cmd.origins[at] : undefined;
  if (origin?.kind !== 'output') return [];
  return listingsOf(origin.commands.flatMap((i) => commands[i] ?? []));
}

/** `ls ~/.ssh/id_* | xargs cat`: the words xargs hands `cmd` are what the stage before it lists. */
export function xargsListings(cmd: SimpleCommand, commands: readonly SimpleCommand[]): string[] {
  if (cmd.via[cmd.via.length - 1] !== 'xargs' || cmd.parent === undefined) return [];
  const xargs = commands[cmd.parent];
  const feeder = xargs ? upstreamStage(commands, xargs) : undefined;
  if (feeder === undefined) return [];
  // A lister a wrapper runs (`lfs find`, `nice find`) is the stage's own command, one level down.
  const at = commands.indexOf(feeder);
  const lister = listedPaths(feeder).length ? feeder : commands.find((c) => c.parent === at && listedPaths(c).length);
  return lister ? listingsOf([lister]) : [];
}

/** `$f`, `"${f}"`, `$f/config`: a word that is one variable, and what follows it. */
const LOOP_VARIABLE_WORD = /^"?\$\{?([A-Za-z_]\w*)\}?"?(\/[\w./-]*)?$/;

/**
 * `for f in ~/.bashrc ~/.zshrc; do echo … >> "$f"; done`: a word that is a loop variable stands for
 * each word the innermost loop of that name gives it (a word known only at run time is left out).
 */
export function loopValues(raw: string, cmd: SimpleCommand): string[] {
  const match = cmd.loops ? LOOP_VARIABLE_WORD.exec(raw) : null;
  if (!match) return [];
  const loop = cmd.loops?.filter((l) => l.variable === match[1]).pop();
  return (loop?.values ?? []).filter((v) => v !== '').map((v) => `${v}${match[2] ?? ''}`);
}

/** `ls ~/.aws/* | xargs -I{} cat {}`: the word xargs replaces with each line it reads, if any. */
export function xargsReplacement(cmd: SimpleCommand, commands: readonly SimpleCommand[]): string | undefined {
  if (cmd.via[cmd.via.length - 1] !== 'xargs' || cmd.parent === undefined) return undefined;
  const args = commands[cmd.parent]?.argv ?? [];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-I') return args[i + 1];
    if (arg.startsWith('-I')) return arg.slice(2);
    if (arg === '-i' || arg === '--replace') return '{}';
    if (arg.startsWith('--replace=')) return arg.slice('--replace='.length);
    if (arg.startsWith('-i')) return arg.slice(2);
  }
  return undefined;
}
