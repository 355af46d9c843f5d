// The tree copy through the runtime's cursor functions (treesitter/cursor-calls.ts) against the
// library's own TreeCursor walk: the same nodes, kinds, fields and spans for every text, from the
// corpus's commands and code, from generated text, and from nesting deep enough to grow the cursor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { copyThroughCalls, copyThroughCursor, copyTree, sameTree } from '../../../src/core/shell/nodes';
import { cursorCalls, type CursorCalls } from '../../../src/core/treesitter/cursor-calls';
import { loadGrammar, parserFor, type GrammarName } from '../../../src/core/treesitter/loader';
import { repoRoot } from '../../builders/process';

const parsers = new Map<GrammarName, ReturnType<typeof parserFor>>();

async function parserOf(name: GrammarName) {
  let parser = parsers.get(name);
  if (!parser) {
    parser = parserFor(await loadGrammar(name));
    parsers.set(name, parser);
  }
  return parser;
}

async function loadedCalls(): Promise<CursorCalls> {
  await parserOf('bash');
  const calls = cursorCalls();
  assert.ok(calls, 'the loaded runtime has every cursor function the direct copy calls');
  return calls;
}

/** Parses `text` and copies it both ways; the two copies must agree. */
async function assertSameCopies(name: GrammarName, text: string, calls: CursorCalls): Promise<void> {
  const tree = (await parserOf(name)).parse(text);
  assert.ok(tree, `${name} parsed`);
  try {
    const direct = copyThroughCalls(tree, text, calls);
    const library = copyThroughCursor(tree, text);
    assert.ok(sameTree(direct, library), `${name}: the two copies of ${JSON.stringify(text.slice(0, 120))} differ`);
  } finally {
    tree.delete();
  }
}

const CODE_GRAMMAR: [RegExp, GrammarName][] = [
  [/\.(?:m?js|cjs|jsx)$/, 'javascript'],
  [/\.(?:ts|mts|cts|tsx)$/, 'typescript'],
  [/\.py$/, 'python'],
  [/\.rb$/, 'ruby'],
  [/\.php$/, 'php'],
  [/\.ps1$/, 'powershell'],
  [/\.rs$/, 'rust'],
];

/** Every Bash command and every written file of code in the independent corpus, with its grammar. */
function corpusTexts(): { name: GrammarName; text: string }[] {
  const folder = join(repoRoot(), 'test', 'fixtures', 'corpus', 'independent');
  const texts: { name: GrammarName; text: string }[] = [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.jsonl')))
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const call = JSON.parse(line) as { tool_name: string; tool_input: Record<string, unknown> };
      const input = call.tool_input;
      if (call.tool_name === 'Bash' && typeof input['command'] === 'string')
        texts.push({ name: 'bash', text: input['command'] });
      const path = typeof input['file_path'] === 'string' ? input['file_path'] : '';
      const grammar = CODE_GRAMMAR.find(([pattern]) => pattern.test(path))?.[1];
      if (grammar && typeof input['content'] === 'string') texts.push({ name: grammar, text: input['content'] });
    }
  return texts;
}

test('the direct copy equals the library walk on every corpus command and written file of code', async () => {
  const calls = await loadedCalls();
  const texts = corpusTexts();
  assert.ok(texts.length > 10_000, `the corpus gives many texts (${texts.length})`);
  for (const { name, text } of texts) await assertSameCopies(name, text, calls);
  assert.ok(new Set(texts.map((t) => t.name)).size >= 4, 'several grammars are covered');
});

test('the direct copy equals the library walk on generated text, in every grammar', async () => {
  const calls = await loadedCalls();
  const names: GrammarName[] = ['bash', 'javascript', 'typescript', 'python', 'ruby', 'php', 'powershell', 'rust'];
  for (const name of names) await parserOf(name);
  const pieces = fc.constantFrom(
    '(',
    ')',
    '{',
    '}',
    '"',
    "'",
    '`',
    '$',
    ';',
    '|',
    '\n',
    ' ',
    'x',
    '=',
    '#',
    '\\',
    'é',
    '😀',
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...names),
      fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.array(pieces, { maxLength: 300 }).map((p) => p.join('')),
      ),
      async (name, text) => assertSameCopies(name, text, calls),
    ),
    { numRuns: 400 },
  );
});

test('nesting deep enough to grow the cursor copies alike, and the trees after it still do', async () => {
  const calls = await loadedCalls();
  for (const depth of [100, 2_000, 20_000]) {
    await assertSameCopies('javascript', '['.repeat(depth) + ']'.repeat(depth), calls);
    await assertSameCopies('bash', '$('.repeat(depth / 4) + 'ls' + ')'.repeat(depth / 4), calls);
    await assertSameCopies('python', 'f(' + '('.repeat(depth), calls);
  }
  // Each copy hands the cursor back to the library to free: a thousand more still copy alike.
  for (let i = 0; i < 1_000; i++) await assertSameCopies('bash', `echo ${i} | tr a-z A-Z > out-${i}.txt`, calls);
});

test('two different trees are told apart, so the first-tree check can refuse the direct calls', async () => {
  const calls = await loadedCalls();
  const parser = await parserOf('bash');
  const [one, other] = [parser.parse('ls -la')!, parser.parse('ls -la | wc -l')!];
  try {
    assert.equal(sameTree(copyThroughCalls(one, 'ls -la', calls), copyThroughCursor(other, 'ls -la | wc -l')), false);
    assert.ok(sameTree(copyTree(one, 'ls -la'), copyThroughCursor(one, 'ls -la')), 'copyTree agrees with the library');
  } finally {
    one.delete();
    other.delete();
  }
});
