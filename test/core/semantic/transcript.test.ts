// The transcript reader: human turns only, the agent's last text, read from the end with a cost
// bounded by bytes read, whatever the file's size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../builders/process';
import fc from 'fast-check';
import { DEFAULT_CHUNK_BYTES, readTranscriptTail } from '../../../src/core/semantic/transcript';
import { jsonl, line } from './helpers';
import { aTempDir, removeDir } from '../../builders/tempProject';

const FIXTURE = join(repoRoot(), 'test', 'fixtures', 'claude-code-2.1.197', 'transcript.jsonl');

test("the real Claude Code transcript gives its one human turn and the agent's last text", () => {
  const tail = readTranscriptTail(FIXTURE);
  assert.deepEqual(tail.userTurns, ['list the files in this folder']);
  assert.equal(tail.agentLastMessage, 'done');
  assert.equal(tail.budgetExhausted, false);
  assert.ok(tail.bytesRead > 0);
});

test('tool results, meta lines, sidechains and queue operations are not human turns; the last three turns come oldest first', () => {
  const dir = aTempDir('transcript');
  try {
    const path = join(dir, 't.jsonl');
    writeFileSync(
      path,
      jsonl([
        line.human('first request'),
        line.human('second request'),
        line.queue('queued text is not a turn'),
        line.humanBlocks('third request,', 'in two blocks'),
        line.assistantText('m1', 'Working on it.'),
        line.toolUse('m1', 'Bash', { command: 'ls' }),
        line.toolResult('file-a\nfile-b'),
        line.meta('<command-name>/status</command-name>'),
        line.sidechainHuman('a subagent prompt'),
        line.human('fourth request'),
        line.assistantText('m2', 'I will delete the build folder.'),
        line.toolUse('m2', 'Bash', { command: 'rm -rf build' }),
      ]),
    );
    const tail = readTranscriptTail(path);
    assert.deepEqual(tail.userTurns, ['second request', 'third request,\nin two blocks', 'fourth request']);
    assert.equal(tail.agentLastMessage, 'I will delete the build folder.');
  } finally {
    removeDir(dir);
  }
});

test("text blocks of one assistant message on separate lines join; an earlier turn's text does not", () => {
  const dir = aTempDir('transcript');
  try {
    const path = join(dir, 't.jsonl');
    writeFileSync(
      path,
      jsonl([
        line.human('go'),
        line.assistantText('m1', 'old message'),
        line.toolResult('x'),
        line.assistantText('m2', 'part one'),
        line.assistantText('m2', 'part two'),
        line.toolUse('m2', 'Bash', { command: 'ls' }),
      ]),
    );
    assert.equal(readTranscriptTail(path).agentLastMessage, 'part one\npart two');
  } finally {
    removeDir(dir);
  }
});

test('a missing or unreadable transcript gives no turns and no error', () => {
  const dir = aTempDir('transcript');
  try {
    assert.deepEqual(readTranscriptTail(join(dir, 'absent.jsonl')).userTurns, []);
    assert.deepEqual(readTranscriptTail(dir).userTurns, []);
    assert.deepEqual(readTranscriptTail(undefined), {
      userTurns: [],
      agentLastMessage: null,
      bytesRead: 0,
      budgetExhausted: false,
    });
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(garbage, '{not json\n\u0000\u0001\n[1,2]\n');
    assert.deepEqual(readTranscriptTail(garbage).userTurns, []);
  } finally {
    removeDir(dir);
  }
});

/** Parses the whole file forwards: the reference the backward reader must agree with. */
function reference(lines: object[]): { turns: string[]; agent: string | null } {
  const turns: string[] = [];
  let agent: string[] = [];
  let agentId: string | undefined;
  let closed = true;
  for (const l of lines as Array<{
    type?: string;
    isMeta?: boolean;
    isSidechain?: boolean;
    message?: { id?: string; content: unknown };
  }>) {
    if (l.isMeta || l.isSidechain || !l.message) continue;
    const content = l.message.content;
    if (l.type === 'user') {
      closed = true;
      if (typeof content === 'string') turns.push(content);
      else if (Array.isArray(content) && !content.some((b: { type: string }) => b.type === 'tool_result'))
        turns.push(content.map((b: { text: string }) => b.text).join('\n'));
    } else if (l.type === 'assistant' && Array.isArray(content) && content[0]?.type === 'text') {
      if (closed || l.message.id !== agentId) agent = [];
      closed = false;
      agentId = l.message.id;
      agent.push(content[0].text as string);
    }
  }
  return { turns: turns.slice(-3), agent: agent.length ? agent.join('\n') : null };
}

test('read backwards in small chunks, any transcript gives what a forward parse gives (multi-byte text across chunk edges)', () => {
  const dir = aTempDir('transcript');
  try {
    const text = fc
      .string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '\n', '"', '\\', 'z'), minLength: 1, maxLength: 300 })
      .filter((s) => s.trim() !== '');
    const anyLine = fc.oneof(
      text.map((t) => line.human(t)),
      fc.tuple(text, text).map(([a, b]) => line.humanBlocks(a, b)),
      text.map((t) => line.toolResult(t)),
      text.map((t) => line.meta(t)),
      text.map((t) => line.sidechainHuman(t)),
      fc.tuple(fc.constantFrom('m1', 'm2', 'm3'), text).map(([id, t]) => line.assistantText(id, t)),
      fc.constantFrom('m1', 'm2').map((id) => line.toolUse(id, 'Bash', { command: 'ls' })),
    );
    let n = 0;
    fc.assert(
      fc.property(fc.array(anyLine, { maxLength: 25 }), fc.constantFrom(1024, 1500, 4096), (lines, chunkBytes) => {
        const path = join(dir, `t${n++}.jsonl`);
        writeFileSync(path, jsonl(lines));
        const tail = readTranscriptTail(path, { chunkBytes });
        const want = reference(lines);
        assert.deepEqual(tail.userTurns, want.turns);
        assert.equal(tail.agentLastMessage, want.agent);
      }),
      { numRuns: 300 },
    );
  } finally {
    removeDir(dir);
  }
});

/** The same last few kilobytes, behind `fillerBytes` of tool results. */
function writeTranscript(path: string, fillerBytes: number): void {
  const filler = JSON.stringify(line.toolResult('x'.repeat(4000))) + '\n';
  const block = filler.repeat(Math.ceil((1024 * 1024) / filler.length));
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, JSON.stringify(line.human('an old request')) + '\n');
    for (let written = 0; written < fillerBytes;) {
      const piece =
        fillerBytes - written >= block.length
          ? block
          : filler.repeat(Math.max(1, Math.floor((fillerBytes - written) / filler.length)));
      writeSync(fd, piece);
      written += piece.length;
    }
    writeSync(
      fd,
      jsonl([
        line.human('turn one'),
        line.human('turn two'),
        line.toolResult('y'.repeat(2000)),
        line.human('turn three: clean the build folder'),
        line.assistantText('m9', 'Cleaning it.'),
        line.toolUse('m9', 'Bash', { command: 'rm -rf build' }),
      ]),
    );
  } finally {
    closeSync(fd);
  }
}

test('a 100 MB transcript costs the bytes a 10 KB one does: the reader stops at what it needs', () => {
  const dir = aTempDir('transcript');
  try {
    const small = join(dir, 'small.jsonl');
    const big = join(dir, 'big.jsonl');
    writeTranscript(small, 4 * 1024);
    writeTranscript(big, 100 * 1024 * 1024);
    const a = readTranscriptTail(small);
    const b = readTranscriptTail(big);
    assert.deepEqual(a.userTurns, ['turn one', 'turn two', 'turn three: clean the build folder']);
    assert.deepEqual(b.userTurns, a.userTurns);
    assert.equal(b.agentLastMessage, a.agentLastMessage);
    // The small file is read whole (about 10 KB); the big one only its last chunk.
    assert.ok(a.bytesRead < 16 * 1024, `small: ${a.bytesRead}`);
    assert.ok(b.bytesRead <= DEFAULT_CHUNK_BYTES, `big: ${b.bytesRead}`);
  } finally {
    removeDir(dir);
  }
});

test('with no human turn in 100 MB of tool results, the reader stops at its byte budget', () => {
  const dir = aTempDir('transcript');
  try {
    const path = join(dir, 'flood.jsonl');
    const filler = JSON.stringify(line.toolResult('z'.repeat(8000))) + '\n';
    const block = filler.repeat(Math.ceil((1024 * 1024) / filler.length));
    const fd = openSync(path, 'w');
    for (let i = 0; i < 100; i++) writeSync(fd, block);
    closeSync(fd);
    const maxBytes = 512 * 1024;
    const tail = readTranscriptTail(path, { maxBytes });
    assert.deepEqual(tail.userTurns, []);
    assert.equal(tail.bytesRead, maxBytes);
  } finally {
    removeDir(dir);
  }
});

test("a line longer than the budget is reported, since it may have been the human's", () => {
  const dir = aTempDir('transcript');
  try {
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, jsonl([line.human('early'), line.human('p'.repeat(300 * 1024))]));
    const tail = readTranscriptTail(path, { maxBytes: 128 * 1024 });
    assert.deepEqual(tail.userTurns, []);
    assert.equal(tail.budgetExhausted, true);
    assert.equal(tail.bytesRead, 128 * 1024);
    const whole = readTranscriptTail(path);
    assert.equal(whole.userTurns.length, 2);
    assert.equal(whole.budgetExhausted, false);
  } finally {
    removeDir(dir);
  }
});
