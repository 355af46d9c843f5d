import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { argsDigest } from '../../src/core/approvals/digest';
import { FaceBook } from '../../src/core/config/faces';
import { toolCallOf } from '../../src/core/policies/call';
import { Redactor } from '../../src/core/redaction';
import { buildEnvelope } from '../../src/core/semantic/envelope';
import type { HookEvent } from '../../src/core/types';
import { adversarialInputs, typicalInput } from '../../test/core/redaction/inputs';
import type { BenchResults } from './schema';
import { benchEvent } from './inprocess';
import { ofSamples, timeRuns } from './stats';

// Figures of single functions on the hot path: redaction, the judge's envelope against transcripts of
// growing size, and the exact-arguments digest.

export interface MicroSizes {
  redactionChars: number[];
  transcriptBytes: number[];
  digestBytes: number[];
  runs: number;
}

export function redactionFigures(sizes: MicroSizes): BenchResults['redaction'] {
  const redactor = new Redactor({ env: {} });
  const rows: BenchResults['redaction'] = [];
  for (const chars of sizes.redactionChars) {
    const typical = typicalInput(chars);
    rows.push({
      chars,
      kind: 'typical',
      input: 'typical',
      time: ofSamples(
        timeRuns(() => redactor.redactText(typical, 'blunt'), sizes.runs, 2),
        'ms',
      ),
    });
    // Every adversarial input is timed; the row keeps the one with the slowest median at this size.
    const worst = adversarialInputs(chars)
      .map((input) => ({
        input: input.name,
        time: ofSamples(
          timeRuns(() => redactor.redactText(input.text, 'blunt'), sizes.runs, 1),
          'ms',
        ),
      }))
      .reduce((a, b) => (b.time.median > a.time.median ? b : a));
    rows.push({ chars, kind: 'adversarial', ...worst });
  }
  return rows;
}

const TRANSCRIPT_TURNS = [
  { type: 'user', message: { role: 'user', content: 'please refactor the parser in src/parser.ts and run the tests' } },
  { type: 'assistant', message: { id: 'm', content: [{ type: 'text', text: 'I will run the tests now.' }] } },
  {
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok '.repeat(300) }] },
  },
];

/** A Claude Code transcript of about `bytes` bytes, written in 1 MB blocks. */
function writeTranscript(path: string, bytes: number): void {
  const unit = TRANSCRIPT_TURNS.map((turn) => JSON.stringify(turn)).join('\n') + '\n';
  const block = unit.repeat(Math.max(1, Math.floor(Math.min(bytes, 1024 * 1024) / unit.length)));
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < bytes; written += block.length) writeSync(fd, block);
  } finally {
    closeSync(fd);
  }
}

export function envelopeFigures(sizes: MicroSizes, folder: string): BenchResults['envelope'] {
  const project = join(folder, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const faces = new FaceBook(new Map());
  const env = { ...process.env };
  return sizes.transcriptBytes.map((transcriptBytes) => {
    const transcriptPath = join(folder, `transcript-${transcriptBytes}.jsonl`);
    writeTranscript(transcriptPath, transcriptBytes);
    const event: HookEvent = {
      ...benchEvent(project, 'Bash', {
        command: 'rm -rf build dist && npm run build -- --prod',
        description: 'clean build',
      }),
      transcriptPath,
    };
    const call = toolCallOf(event, { projectRoot: project, home: folder, faces })!;
    const time = ofSamples(
      timeRuns(() => buildEnvelope({ event, call, projectRoot: project, redaction: { env } }), sizes.runs, 1),
      'ms',
    );
    return { transcriptBytes, time };
  });
}

/** Tool inputs of about `bytes` bytes as JSON, in the three shapes a digest must stay linear on. */
function digestInputs(bytes: number): { shape: string; toolName: string; input: Record<string, unknown> }[] {
  const line = 'const message = "héllo, wörld";\n';
  const records: unknown[] = [];
  for (let i = 0, length = 2; length < bytes; i++) {
    const record = { id: i, name: `item-${i}`, price: i * 1.25, tags: ['a', 'b'], active: i % 2 === 0 };
    records.push(record);
    length += JSON.stringify(record).length + 1;
  }
  // Nesting as deep as JSON in a hook body plausibly goes, the rest of the size in strings at each level.
  const depth = Math.min(200, Math.max(2, Math.floor(bytes / 64)));
  let nested: Record<string, unknown> = { leaf: true };
  const filler = 'x'.repeat(Math.max(1, Math.floor(bytes / depth) - 20));
  for (let level = 0; level < depth; level++) nested = { level, filler, child: nested };
  return [
    {
      shape: 'one string',
      toolName: 'Write',
      input: { file_path: 'src/big.ts', content: line.repeat(Math.ceil(bytes / line.length)) },
    },
    { shape: 'small records', toolName: 'mcp__db__bulk', input: { rows: records } },
    { shape: 'nested', toolName: 'mcp__db__tree', input: nested },
  ];
}

export function digestFigures(sizes: MicroSizes): BenchResults['digest'] {
  return sizes.digestBytes.flatMap((bytes) =>
    digestInputs(bytes).map(({ shape, toolName, input }) => ({
      bytes: Buffer.byteLength(JSON.stringify(input)),
      shape,
      time: ofSamples(
        timeRuns(() => argsDigest(toolName, input), sizes.runs, 2),
        'ms',
      ),
    })),
  );
}
