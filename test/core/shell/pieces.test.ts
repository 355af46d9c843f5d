// The analyzer's building blocks on their own: ANSI-C decoding, brace expansion, top-level line breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeAnsiC } from '../../../src/core/shell/ansi-c';
import { braceExpand, type Segment } from '../../../src/core/shell/segments';
import { topLevelBreaks } from '../../../src/core/shell/split';

const ANSI: [string, string][] = [
  ['plain', 'plain'],
  [String.raw`a\nb\tc`, 'a\nb\tc'],
  [String.raw`\x72\x6d`, 'rm'],
  [String.raw`\162\155`, 'rm'],
  [String.raw`\u00e9\U0001F600`, 'é😀'],
  [String.raw`\'\"\\\?`, `'"\\?`],
  [String.raw`\e[0m`, '\x1b[0m'],
  [String.raw`\cA\ca`, '\x01\x01'],
  [String.raw`\q`, '\\q'],
  [String.raw`\x`, '\\x'],
  ['trailing\\', 'trailing\\'],
];

for (const [body, expected] of ANSI) {
  test(`decodeAnsiC ${body}`, () => assert.equal(decodeAnsiC(body), expected));
}

const literal = (text: string): Segment[] => [{ text, kind: 'literal' }];
const texts = (words: Segment[][]): string[] => words.map((w) => w.map((s) => s.text).join(''));

const BRACES: [string, string[]][] = [
  ['a{b,c}d', ['abd', 'acd']],
  ['{rm,-rf,/}', ['rm', '-rf', '/']],
  ['{a,b}{1,2}', ['a1', 'a2', 'b1', 'b2']],
  ['x{a,{b,c}}y', ['xay', 'xby', 'xcy']],
  ['{1..4}', ['1', '2', '3', '4']],
  ['{3..1}', ['3', '2', '1']],
  ['{01..03}', ['01', '02', '03']],
  ['{a..e..2}', ['a', 'c', 'e']],
  ['{a}', ['{a}']],
  ['{}', ['{}']],
  ['${x,y}', ['${x,y}']],
  ['{a,b', ['{a,b']],
  ['{1..100000}', ['{1..100000}']],
];

for (const [word, expected] of BRACES) {
  test(`braceExpand ${word}`, () => assert.deepEqual(texts(braceExpand(literal(word))), expected));
}

test('braceExpand leaves quoted braces alone', () => {
  const word: Segment[] = [
    { text: 'a', kind: 'literal' },
    { text: '{b,c}', kind: 'quoted' },
  ];
  assert.deepEqual(texts(braceExpand(word)), ['a{b,c}']);
});

test('braceExpand gives up past 1024 words', () => {
  assert.deepEqual(texts(braceExpand(literal('{a,b}'.repeat(11)))), ['{a,b}'.repeat(11)]);
});

const BREAKS: [string, string, number[]][] = [
  ['plain lines', 'a\nb\nc\n', [2, 4, 6]],
  ['continued by a pipe or &&', 'a |\nb &&\nc\nd', [11]],
  ['inside quotes', `echo 'x\ny'\necho "a\nb"\nz`, [11, 22]],
  ['inside $( ) and ( )', 'x=$(a\nb)\n(c\nd)\ne', [9, 15]],
  ['inside a block', 'if a\nthen b\nfi\nwhile c\ndo d\ndone\ne', [15, 33]],
  ['inside a group and after f()', 'f()\n{\n x\n}\ny', [11]],
  ['a heredoc body', 'cat <<EOF\na\nb\nEOF\nc', [18]],
  ['a tab-stripped heredoc', 'cat <<-X\n\ta\n\tX\nc', [15]],
  ['a here-string is not a heredoc', 'cat <<< x\ny', [10]],
  ['a comment with a quote', "a # it's\nb", [9]],
  ['an escaped newline', 'a \\\nb\nc', [6]],
  ['stops at case', 'a\ncase x in y) z;; esac\nb\n', [2]],
  ['stops at an unmatched closer', 'a\n)\nb\n', [2]],
];

for (const [title, source, expected] of BREAKS) {
  test(`topLevelBreaks: ${title}`, () => assert.deepEqual(topLevelBreaks(source), expected));
}
