// What the shell analysis itself could not read: its own limits, parse errors, command names and
// scripts known only at run time. Loops, pipelines of known programs and xargs over known
// programs are readable and add nothing here.
import type { ShellAnalysis, SimpleCommand } from '../shell';
import { argsOf, evidenceOf, literalStdin, optionValues, parseFlags, upstreamStage } from './commands';
import { DOWNLOADERS, NETCATS, SHELLS, executesStdin } from './programs';
import type { Unread } from './types';
import { codeFromTemp, preloadsForeignLibrary, readsCodeOnInput, unreadProgramCode } from './unread-programs';
import { scriptFileIndex } from '../shell/script-hops';

/** Programs whose output is shell setup meant for eval (`eval "$(ssh-agent -s)"`), read as ordinary. */
const SETUP_EMITTERS = new Set([
  'ssh-agent',
  'pyenv',
  'rbenv',
  'nodenv',
  'goenv',
  'direnv',
  'fnm',
  'zoxide',
  'starship',
  'conda',
  'mamba',
  'micromamba',
  'brew',
  'dircolors',
  'keychain',
  'opam',
  'rustup',
  'mise',
  'rtx',
  'asdf',
  'minikube',
  'gpg-agent',
]);

const PIPE_HOPS = new Set(['pipe-to-shell', 'heredoc-shell']);

/**
 * A program printing shell setup for eval or source: a known emitter, or any program asked for its own
 * completion script (`kubectl completion bash`, `npm completion`, `pip completion --bash`): that text
 * is the program's own, which runs anyway.
 */
function emitsSetup(cmd: SimpleCommand): boolean {
  if (SETUP_EMITTERS.has(cmd.name)) return true;
  // `go env` prints the toolchain's settings as shell assignments (`-w` and `-u` change them instead).
  const args = argsOf(cmd);
  if (cmd.name === 'go' && args[0] === 'env') return !args.some((a) => a === '-w' || a === '-u');
  // A fetcher's operand is a host, whatever it is called.
  return (
    !DOWNLOADERS.has(cmd.name) && !NETCATS.has(cmd.name) && /^(completion|completions)$/.test(argsOf(cmd)[0] ?? '')
  );
}

function childrenOf(commands: readonly SimpleCommand[], index: number): SimpleCommand[] {
  return commands.filter((c) => c.parent === index);
}

/** Filters that pass on some of their input's lines as they are: an emitter's output, cut down, is still its own. */
const LINE_FILTERS = new Set(['grep', 'head', 'tail', 'sort', 'uniq']);

/**
 * `eval "$(ssh-agent -s)"`, `eval "$(go env | grep '^GOMODCACHE=')"`: every substitution feeding the eval
 * is a known setup emitter, or a filter that keeps some of its lines.
 */
function isSetupEval(commands: readonly SimpleCommand[], index: number, cmd: SimpleCommand): boolean {
  const words = argsOf(cmd);
  if (!words.length || !words.every((w) => /^\$\(.*\)$|^`.*`$/s.test(w.trim()))) return false;
  const feeding = childrenOf(commands, index).filter((c) => c.via[c.via.length - 1] === 'command-substitution');
  return feeding.some(emitsSetup) && feeding.every((c) => emitsSetup(c) || filtersStdinOnly(c));
}

/** A line filter reading only its standard input: no file operand, no pattern file (grep's first operand is its pattern). */
function filtersStdinOnly(cmd: SimpleCommand): boolean {
  if (!LINE_FILTERS.has(cmd.name)) return false;
  const args = argsOf(cmd);
  if (args.some((a) => /^-[a-zA-Z]*f|^--file/.test(a))) return false;
  const grep = cmd.name === 'grep';
  const flags = parseFlags(
    args,
    grep ? ['e', 'm', 'A', 'B', 'C'] : ['n', 'c', 'k', 't'],
    grep ? ['regexp', 'max-count'] : [],
  );
  const patternGiven = grep && optionValues(args, ['e'], ['regexp']).length > 0;
  return flags.positionals.length <= (grep && !patternGiven ? 1 : 0);
}

/** `source <(kubectl completion bash)`: the file sourced is a setup emitter's output. */
function isSetupSource(commands: readonly SimpleCommand[], index: number, cmd: SimpleCommand, file = 1): boolean {
  if (!isProcessFile(cmd, file)) return false;
  const feeding = childrenOf(commands, index).filter((c) => c.via[c.via.length - 1] === 'process-substitution');
  return feeding.length > 0 && feeding.every(emitsSetup);
}

/** The word at `at` is `<(…)`: a file holding what the commands inside print. */
function isProcessFile(cmd: SimpleCommand, at: number): boolean {
  return cmd.dynamicWords.includes(at) && /^<\(.*\)$/s.test(cmd.argv[at] ?? '');
}

/** `bash <(…)` whose commands print text known only at run time (a known text is read as the script). */
function runsUnknownProcessFile(commands: readonly SimpleCommand[], index: number, cmd: SimpleCommand): boolean {
  const file = scriptFileIndex(cmd.name, { argv: cmd.argv, dynamic: new Set(cmd.dynamicWords) });
  if (file === undefined || !isProcessFile(cmd, file) || cmd.fileTexts?.[file] !== undefined) return false;
  return !isSetupSource(commands, index, cmd, file);
}

/** The index in argv of a shell's -c script, when it has one. */
function shellScriptIndex(cmd: SimpleCommand): number {
  const at = cmd.argv.findIndex((w, i) => i > 0 && /^-[a-zA-Z]+$/.test(w) && w.includes('c'));
  return at === -1 ? -1 : at + 1;
}

/**
 * What xargs or find puts its input in place of: xargs -I R, -iR, --replace[=R] (`{}` unless said
 * otherwise), find's `{}`. The command's parent is the xargs or find that runs it.
 */
function insertionMark(commands: readonly SimpleCommand[], cmd: SimpleCommand): string {
  const parent = cmd.parent !== undefined ? commands[cmd.parent] : undefined;
  if (cmd.via[cmd.via.length - 1] !== 'xargs' || parent?.name !== 'xargs') return '{}';
  const args = argsOf(parent);
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (word === '-I') return args[at + 1] || '{}';
    if (/^-I./.test(word)) return word.slice(2);
    if (/^-i./.test(word)) return word.slice(2);
    if (word.startsWith('--replace=')) return word.slice('--replace='.length) || '{}';
  }
  return '{}';
}

function shellRunsUnknownText(commands: readonly SimpleCommand[], index: number, cmd: SimpleCommand): string | null {
  const name = cmd.name;
  if (name === 'eval') {
    if (cmd.dynamicWords.length && !isSetupEval(commands, index, cmd))
      return `eval runs text known only at run time (${evidenceOf(cmd.text, 80)})`;
    return null;
  }
  if (name === 'source' || name === '.') {
    if (isProcessFile(cmd, 1))
      return runsUnknownProcessFile(commands, index, cmd)
        ? `${name} runs the output of ${evidenceOf(cmd.argv[1] ?? '', 60)}, known only at run time`
        : null;
    return cmd.dynamicWords.includes(1)
      ? `${name} runs a file named only at run time (${evidenceOf(cmd.text, 80)})`
      : null;
  }
  if (!SHELLS.has(name)) return null;
  const script = shellScriptIndex(cmd);
  if (script > 0 && cmd.dynamicWords.includes(script))
    return `${name} -c runs a script known only at run time (${evidenceOf(cmd.text, 80)})`;
  const inserted = cmd.via.includes('xargs') || cmd.via.includes('find-exec');
  if (script > 0 && inserted && (cmd.argv[script] ?? '').includes(insertionMark(commands, cmd)))
    return `${name} -c runs text that ${cmd.via.includes('xargs') ? 'xargs' : 'find'} fills in at run time (${evidenceOf(cmd.text, 80)})`;
  if (script > 0) return null;
  if (runsUnknownProcessFile(commands, index, cmd))
    return `${name} runs a script that ${evidenceOf(cmd.argv.find((w) => w.startsWith('<(')) ?? '', 60)} prints, known only at run time`;
  if (!executesStdin(cmd)) return null;
  const readsFromPipe = cmd.pipeline.index > 0;
  const fed = childrenOf(commands, index).some((c) => PIPE_HOPS.has(c.via[c.via.length - 1] ?? ''));
  if (readsFromPipe && !fed) {
    const upstream = upstreamStage(commands, cmd);
    return `${name} runs a script it reads from a pipe${upstream ? ` (the output of ${upstream.name})` : ''}, known only at run time`;
  }
  return null;
}

/** Everything about the command text that the analysis could not follow. */
export function shellUnread(shell: ShellAnalysis): Unread[] {
  const unread: Unread[] = [];
  if (shell.truncated)
    unread.push({
      reason: 'truncated',
      detail: 'the command nests or runs longer than the analyzer follows (depth or size limit)',
    });
  if (shell.hasParseErrors)
    unread.push({ reason: 'parse-error', detail: 'the shell parser could not read part of the command' });
  const { commands } = shell;
  const setupEvals = new Set(
    commands.flatMap((cmd, index) => (cmd.name === 'eval' && isSetupEval(commands, index, cmd) ? [index] : [])),
  );
  commands.forEach((cmd, index) => {
    // `eval "$(ssh-agent -s)"`: the text eval re-reads is the emitter's output, not a command name.
    if (cmd.parent !== undefined && setupEvals.has(cmd.parent) && cmd.via[cmd.via.length - 1] === 'eval') return;
    const inserted = cmd.via.includes('xargs') || cmd.via.includes('find-exec');
    if (cmd.dynamicWords.includes(0) || (inserted && cmd.name.includes('{}'))) {
      unread.push({
        reason: 'dynamic-command',
        detail: `the program name ${evidenceOf(cmd.argv[0] ?? '', 60)} is known only at run time`,
      });
      return;
    }
    // `/???/?at`: the shell picks the program by matching a pattern against the disk, so no name is read.
    if (namedByPattern(cmd.argv[0] ?? '')) {
      unread.push({
        reason: 'dynamic-command',
        detail: `the program is named by the pattern ${evidenceOf(cmd.argv[0] ?? '', 60)}, matched against the disk only at run time`,
      });
      return;
    }
    const unknown = shellRunsUnknownText(commands, index, cmd);
    if (unknown) unread.push({ reason: 'unknown-script', detail: unknown });
    const code = unreadProgramCode(cmd, readsCodeOnInput(cmd.name) ? literalStdin(commands, cmd) : undefined);
    if (code)
      unread.push({
        reason: 'unread-code',
        detail: code,
        // Code from a temporary folder is as unread in a preset or a build file run later as it is now.
        ...(code === codeFromTemp(cmd) || preloadsForeignLibrary(cmd) ? { alsoLater: true as const } : {}),
      });
  });
  return unread;
}

/** Whether a word holds a pattern the shell expands: `*`, `?`, or a `[…]` class with something in it. */
function namedByPattern(word: string): boolean {
  if (word.includes('*') || word.includes('?')) return true;
  for (let open = word.indexOf('['); open >= 0; open = word.indexOf('[', open + 1)) {
    const close = word.indexOf(']', open + 1);
    if (close === -1) return false;
    if (close > open + 1) return true;
  }
  return false;
}
