// The same file named another way gets the same verdict: `~/.ssh/id_rsa` is `$HOME/.ssh/id_rsa`,
// `${HOME}/.ssh/id_rsa`, `/home/dev/.ssh/id_rsa` and `~/./.ssh/id_rsa`. Every blocked dangerous Bash line
// of the independent sets is tried again with each of its `~/` paths spelled each way, and with each
// of its `~/` arguments given as what a command that prints a path back prints (`$(ls -d ~/.bashrc)`),
// as a variable a branch on the line before may have set to it (`[ -d /tmp ] && W_=~/.bashrc`), as an
// array's element (`W_=(/dev/null ~/.bashrc)`, then `"${W_[1]}"`), or as the argument of a function
// whose body is the line (`W_() { … "$1" …; }; W_ ~/.bashrc`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from './harness';
import { passedVariants, type Variant } from './blocked-lines';

const HOME = '/home/dev';

/** Other spellings of the home folder at the start of a path, each naming the same folder. */
const HOME_SPELLINGS: Record<string, string> = {
  $HOME: '$HOME/',
  '${HOME}': '${HOME}/',
  '"$HOME"': '"$HOME"/',
  absolute: `${HOME}/`,
  'dot segment': '~/./',
  'parent segment': '~/../dev/',
  'doubled slash': '~//',
};

/** Where `~/` starts an unquoted word: after a blank, `=`, `:` or the start of the line. */
const TILDE_AT = /(^|[\s=:])~\//g;

function unquotedAt(line: string, at: number): boolean {
  const before = line.slice(0, at);
  return (before.split("'").length - 1) % 2 === 0 && (before.split('"').length - 1) % 2 === 0;
}

/** The command with one of its unquoted `~/` paths spelled another way, for each path and spelling. */
function respelled(command: string): Variant[] {
  const out: Variant[] = [];
  for (const match of command.matchAll(TILDE_AT)) {
    const at = (match.index ?? 0) + (match[1] ?? '').length;
    if (!unquotedAt(command, at)) continue;
    for (const [kind, spelling] of Object.entries(HOME_SPELLINGS))
      out.push({ kind, command: `${command.slice(0, at)}${spelling}${command.slice(at + 2)}` });
  }
  return out;
}

/** A whole `~/…` argument: after a blank, up to the next blank or shell operator. */
const TILDE_ARGUMENT = /(?<=\s)~\/[^\s;|&<>()'"`$\\]*(?=$|[\s;|&)])/g;

/** Commands that print the path they are given: the argument spelled as their output. */
const LISTERS: Record<string, (path: string) => string> = {
  'ls -d': (path) => `$(ls -d ${path})`,
  'find -maxdepth 0': (path) => `"$(find ${path} -maxdepth 0)"`,
  'readlink -f': (path) => `\`readlink -f ${path}\``,
};

/** The command with one of its unquoted `~/` arguments given as what a lister prints for it. */
function listed(command: string): Variant[] {
  const out: Variant[] = [];
  for (const match of command.matchAll(TILDE_ARGUMENT)) {
    const at = match.index ?? 0;
    if (!unquotedAt(command, at) || /[*?[]/.test(match[0])) continue;
    for (const [kind, spell] of Object.entries(LISTERS))
      out.push({ kind, command: `${command.slice(0, at)}${spell(match[0])}${command.slice(at + match[0].length)}` });
    // A variable a branch may have set to the path, on a line before.
    out.push({
      kind: 'function argument',
      command: `W_() {\n${command.slice(0, at)}"$1"${command.slice(at + match[0].length)}\n}\nW_ ${match[0]}`,
    });
    out.push({
      kind: 'array element',
      command: `W_=(/dev/null ${match[0]})\n${command.slice(0, at)}"\${W_[1]}"${command.slice(at + match[0].length)}`,
    });
    out.push({
      kind: 'branch variable',
      command: `[ -d /tmp ] && W_=${match[0]}\n${command.slice(0, at)}"$W_"${command.slice(at + match[0].length)}`,
    });
  }
  return out;
}

test('another spelling of a home path never turns a blocked dangerous line into a pass', async () => {
  await ready();
  const { tried, misses } = passedVariants('home path spellings', respelled);
  assert.ok(tried > 1000, `enough spellings tried (${tried})`);
  assert.deepEqual(misses, []);
});

test('a home path given as what a lister prints for it, in a branch variable, an array or a function argument, never turns a blocked dangerous line into a pass', async () => {
  await ready();
  const { tried, misses } = passedVariants(
    'home paths through a lister, a branch variable, an array or a function',
    listed,
  );
  assert.ok(tried > 1000, `enough listed paths tried (${tried})`);
  assert.deepEqual(misses, []);
});
