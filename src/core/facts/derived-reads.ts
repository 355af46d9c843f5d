import type { SimpleCommand } from '../shell';
import { argsOf, parseFlags } from './commands';
import { inlineCode, interpreterKind } from './programs';
import { secretBasenameKind } from './sensitive-paths';

// Files a command reads that no reader row names: the operands of an interpreter's inline code
// (`perl -ne 'print' FILE` reads FILE through `<>`) and files printed from git's object store
// (`git show REV:.env`, `git log -p -- .env`), which hold what the file held at that commit.

/** Value options per interpreter, so `-e CODE` and `-I dir` are not read as operands. */
const CODE_VALUES: Record<string, [string[], string[]]> = {
  perl: [['e', 'E', 'M', 'm', 'I', 'l', 'x', 'C'], []],
  ruby: [['e', 'r', 'I', 'E', 'C', 'F'], ['encoding']],
  python: [['c', 'm', 'W', 'X'], []],
  node: [
    ['e', 'p', 'r'],
    ['eval', 'print', 'require', 'import', 'input-type', 'loader'],
  ],
  php: [['r', 'd', 'c'], []],
  lua: [['e', 'l'], []],
  rust: [['e'], ['expr']],
};

/** `perl -ne CODE FILE…`, `ruby -pe CODE FILE…`: every operand; `python3 -c CODE ARG…`: arguments that look like paths. */
export function inlineCodeOperands(cmd: SimpleCommand): string[] {
  const kind = interpreterKind(cmd.name);
  if (!kind || kind === 'powershell' || inlineCode(cmd) === undefined) return [];
  const [short, long] = CODE_VALUES[kind] ?? [[], []];
  const dynamic = new Set(cmd.dynamicWords.map((i) => cmd.argv[i]));
  const operands = parseFlags(argsOf(cmd), short, long).positionals.filter((w) => !dynamic.has(w));
  // perl and ruby read their operands line by line (-n, -p, <>, ARGF); other languages get them as argv.
  if (kind === 'perl' || kind === 'ruby') return operands;
  return operands.filter((w) => /^[~/.]|\//.test(w) || secretBasenameKind(w.split('/').pop() ?? '') !== null);
}

const GIT_VALUES_SHORT = ['C', 'c'];
const GIT_VALUES_LONG = ['git-dir', 'work-tree', 'namespace', 'exec-path'];
const HISTORY_READERS = new Set([
  'show',
  'log',
  'diff',
  'whatchanged',
  'blame',
  'annotate',
  'archive',
  'cat-file',
  'grep',
]);

/** Paths whose content a git command prints from history or the index. */
export function gitHistoryReads(cmd: SimpleCommand): string[] {
  if (cmd.name !== 'git') return [];
  const args = argsOf(cmd);
  let at = 0;
  while (at < args.length && (args[at] ?? '').startsWith('-')) {
    const word = args[at] ?? '';
    at += GIT_VALUES_SHORT.includes(word.slice(1)) || GIT_VALUES_LONG.includes(word.slice(2)) ? 2 : 1;
  }
  const sub = args[at];
  if (sub === undefined || !HISTORY_READERS.has(sub)) return [];
  const rest = args.slice(at + 1);
  const dashes = rest.indexOf('--');
  const files: string[] = [];
  // REV:path and :path (the index) name a file's content at that point.
  for (const word of dashes === -1 ? rest : rest.slice(0, dashes)) {
    const object = /^(?!-)[^:\s]*:(?!\/\/)(\d:)?(.+)$/.exec(word);
    if (object?.[2]) files.push(object[2]);
    else if (!word.startsWith('-') && secretBasenameKind(word.split('/').pop() ?? '') !== null) files.push(word);
  }
  if (dashes !== -1 && sub !== 'grep') files.push(...rest.slice(dashes + 1));
  if (sub === 'blame' || sub === 'annotate') {
    const last = rest[rest.length - 1];
    if (last !== undefined && !last.startsWith('-') && dashes === -1) files.push(last);
  }
  return [...new Set(files)];
}
