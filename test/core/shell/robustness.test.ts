// Hostile and broken input: never a throw, always a best effort, and the result says what it missed.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyzeShell, initShellParser } from '../../../src/core/shell';
import { HOME, analyze, assertHasCommand, named } from './helpers';

before(() => initShellParser());

const BROKEN = [
  '$(',
  '"',
  "'",
  '`',
  '${',
  '((',
  '\\',
  '|',
  '&& x',
  ';;',
  'case',
  ')',
  'a=(',
  'if',
  'if then fi',
  'cat <<EOF\nrm x',
  `bash -c '`,
  'echo "$(ls',
  '{ ls',
  'for',
  'x |& |',
];

for (const source of BROKEN) {
  test(`broken input is flagged: ${JSON.stringify(source)}`, () => {
    const analysis = analyze(source);
    assert.equal(analysis.hasParseErrors, true);
  });
}

test('commands around an error are still found', () => {
  const analysis = analyze('if then fi ((( ; rm -rf / ;; `');
  assert.equal(analysis.hasParseErrors, true);
  assertHasCommand(analysis, { name: 'rm', argv: ['rm', '-rf', '/'] }, 'best effort');
});

test('an error inside a re-parsed string is flagged', () => {
  const analysis = analyze(`bash -c 'echo "unclosed'`);
  assert.equal(analysis.hasParseErrors, true);
});

test('valid input is not flagged', () => {
  for (const source of ['', '   ', '# only a comment', 'ls -la', 'echo "a" \'b\' $c && (d; e) | f > g 2>&1 &']) {
    assert.equal(analyze(source).hasParseErrors, false, JSON.stringify(source));
  }
});

test('any string: no throw, well-formed result', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (source) => {
      const analysis = analyze(source);
      assert.equal(typeof analysis.hasParseErrors, 'boolean');
      for (const [index, command] of analysis.commands.entries()) {
        assert.ok(
          command.dynamicWords.every((i) => i >= 0 && i < command.argv.length),
          'dynamic indexes point into argv',
        );
        assert.ok(command.parent === undefined || command.parent < index, 'a parent comes before its children');
        assert.ok(command.pipeline.index < command.pipeline.length);
      }
    }),
    { numRuns: 300 },
  );
});

test('shell-flavoured random text: no throw', () => {
  const piece = fc.constantFrom(
    'rm',
    ' ',
    '-rf',
    '~',
    '$(',
    ')',
    '`',
    '"',
    "'",
    '\\',
    '\n',
    '|',
    '&&',
    ';',
    '<<EOF',
    'EOF',
    '{',
    '}',
    '(',
    '$x',
    '${x:-',
    'bash -c',
    'eval',
    'sudo',
    '#',
    '\\\n',
    "$'\\x41'",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
      analyze(pieces.join(''));
    }),
    { numRuns: 300 },
  );
});

test('deep nesting is cut off, not followed into a stack overflow', () => {
  const cases = [
    '$('.repeat(5000) + 'rm -rf /' + ')'.repeat(5000),
    '( '.repeat(5000) + 'rm -rf /' + ' )'.repeat(5000),
    '{ '.repeat(3000) + 'rm -rf /; ' + '} '.repeat(3000),
    'if true; then '.repeat(2000) + 'rm -rf /' + '; fi'.repeat(2000),
    'echo ' + '"$(echo '.repeat(2000) + 'x' + ')"'.repeat(2000),
    'a=; echo ' + '${a:-'.repeat(5000) + 'x' + '}'.repeat(5000),
    'sudo '.repeat(5000) + 'rm -rf /',
    'eval '.repeat(3000) + 'rm -rf /',
  ];
  for (const source of cases) {
    const analysis = analyze(source);
    assert.ok(analysis.truncated || analysis.hasParseErrors, `${source.slice(0, 20)}… is reported as incomplete`);
  }
});

test('a long flat chain is followed to its end', () => {
  const chain = Array.from({ length: 3000 }, (_, i) => `step${i}`).join(' && ') + ' && rm -rf /';
  const analysis = analyze(chain);
  assert.equal(analysis.truncated, false);
  assert.equal(analysis.commands.length, 3001);
  assertHasCommand(analysis, { name: 'rm', argv: ['rm', '-rf', '/'] }, 'the last link');
});

function realisticScript(size: number): { source: string; commands: number; removals: number } {
  const lines = [
    ['cd /srv/project && git status --short | grep -v "^??" | head -n 20', 4],
    ['npm run build -- --mode=production > /tmp/build.log 2>&1 || tail -n 50 /tmp/build.log', 2],
    ['for f in src/*.ts; do wc -l "$f"; done', 1],
    ['if [ -f package.json ]; then node -e \'console.log(require("./package.json").version)\'; fi', 1],
    ['export NODE_ENV=production; docker build -t app:$(git rev-parse --short HEAD) .', 3],
    ['cat <<EOF > /tmp/notes.txt\nrelease $(date +%F)\nEOF', 2],
    ['find . -name "*.orig" -exec rm -f {} \\; # tidy up', 2],
  ] as const;
  let source = '';
  let commands = 0;
  let removals = 0;
  for (let i = 0; source.length < size; i++) {
    const [line, count] = lines[i % lines.length] as readonly [string, number];
    source += line + '\n';
    commands += count;
    if (line.includes('-exec rm')) removals++;
  }
  return { source: source + 'rm -rf ~/the-last-line\n', commands: commands + 1, removals: removals + 1 };
}

test('a 100 KB script is read to its last line', () => {
  const { source, commands, removals } = realisticScript(100_000);
  assert.ok(source.length >= 100_000);
  // A generous budget: this checks completeness, not speed (bench figures are measured apart).
  const analysis = analyzeShell(source, { home: HOME, parseBudgetMs: 120_000 });
  assert.equal(analysis.hasParseErrors, false);
  assert.equal(analysis.truncated, false);
  assert.equal(analysis.commands.length, commands);
  const last = analysis.commands[analysis.commands.length - 1];
  assert.deepEqual(last?.argv, ['rm', '-rf', `${HOME}/the-last-line`]);
  assert.equal(named(analysis, 'rm').length, removals, 'every find -exec rm, and the last line');
});

test('100 KB of garbage and 100 KB single lines do not throw', () => {
  const garbage = Array.from({ length: 100_000 }, (_, i) => '(){}[]<>|&;$`"\'\\ \nabc#'[(i * 7919) % 22]).join('');
  assert.equal(analyze(garbage).hasParseErrors, true);
  const pipes = Array.from({ length: 14_000 }, (_, i) => `c${i}`).join(' | ');
  assert.ok(pipes.length > 100_000);
  const piped = analyze(pipes);
  assert.equal(piped.commands.length, 14_000);
  assert.ok(piped.commands.every((c) => c.pipeline.length === 14_000));
});

test('a parse budget that runs out leaves the rest unread and says so', () => {
  const { source } = realisticScript(100_000);
  const analysis = analyzeShell(source, { home: HOME, parseBudgetMs: 0 });
  assert.equal(analysis.truncated, true);
  assert.equal(analysis.hasParseErrors, true);
  assert.deepEqual(named(analysis, 'rm'), []);
});

test('the grammar must not carry a command across a newline', () => {
  // tree-sitter-bash reads `… | cat` NEWLINE `rm -rf / && …` as `cat rm -rf /`.
  const analysis = analyze('cd a && git log | head | cat\nrm -rf / && echo ok');
  assertHasCommand(analysis, { name: 'cat', argv: ['cat'] }, 'cat alone');
  assertHasCommand(analysis, { name: 'rm', argv: ['rm', '-rf', '/'], via: [] }, 'rm as its own command');
  const nested = analyze('if true; then\n a && b | c | d\n rm -rf / && e\nfi');
  assertHasCommand(nested, { name: 'd', argv: ['d'] }, 'inside a block too');
  assertHasCommand(nested, { name: 'rm', argv: ['rm', '-rf', '/'] }, 'inside a block too');
});

test('a lone - before a heredoc stays a word (the grammar drops it)', () => {
  assertHasCommand(analyze("make -f - <<'EOF'\nall:\n\ttrue\nEOF"), { argv: ['make', '-f', '-'] }, 'make -f -');
  assertHasCommand(analyze('cat -- - <<EOF && echo -\nx\nEOF'), { argv: ['cat', '--', '-'] }, 'after --');
  assertHasCommand(analyze('cat -- - <<EOF && echo -\nx\nEOF'), { argv: ['echo', '-'] }, 'the next command');
  assertHasCommand(analyze('cat a-b <<EOF\nx\nEOF'), { argv: ['cat', 'a-b'] }, 'a dash inside a word is untouched');
});

test('a pipe binds tighter than && even where the grammar nests it the other way', () => {
  const analysis = analyze('a | b | c && d | e');
  const ids = ['a', 'b', 'c', 'd', 'e'].map((n) => named(analysis, n)[0]?.pipeline);
  assert.deepEqual(
    ids.map((p) => p && [p.index, p.length]),
    [
      [0, 3],
      [1, 3],
      [2, 3],
      [0, 2],
      [1, 2],
    ],
  );
  assert.equal(new Set(ids.slice(0, 3).map((p) => p?.id)).size, 1);
  assert.notEqual(ids[0]?.id, ids[3]?.id);
});
