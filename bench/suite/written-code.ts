import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Evaluator } from '../../src/core/evaluator';
import { benchEvent, deterministicTier } from './inprocess';
import type { BenchResults } from './schema';
import { ofSamples, timeRuns } from './stats';

// The deterministic tier on a Write of code built to be slow to read: the readers of written code
// (where it sends data, the shell strings it runs, the secrets it publishes) must stay linear at the
// size an agent writes in one call. Each text is one an earlier reader was slow on, or could have been.

const KB = 1024;

function repeatTo(unit: (i: number) => string, bytes: number): string {
  const parts: string[] = [];
  for (let i = 0, length = 0; length < bytes; i++) {
    const part = unit(i);
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
}

/** Texts of about `bytes` characters, each named for what makes it hard. */
export function writtenCodeTexts(bytes: number): { text: string; file: string; content: string }[] {
  return [
    {
      text: 'ordinary code, a request every line',
      file: 'src/api/client.ts',
      content:
        'const BASE = "https://api.example.com/v1";\n' +
        repeatTo((i) => `export const get${i} = () => fetch(\`\${BASE}/items/${i}\`).then((r) => r.json());\n`, bytes),
    },
    {
      text: 'sends by bound names, none carrying data',
      file: 'src/telemetry.js',
      content: repeatTo(
        (i) =>
          `const URL_${i} = "https://collector-${i}.example.net/e";\nfetch(URL_${i}, { method: "POST", body: "ping" });\n`,
        bytes,
      ),
    },
    {
      text: 'unbalanced parentheses after a request',
      file: 'src/broken.ts',
      content: 'fetch("https://collector.example.net/e", ' + '('.repeat(bytes),
    },
    {
      text: 'quoted base64 words',
      file: 'src/assets.py',
      content: repeatTo(
        (i) => `ASSET_${i} = "${Buffer.from(`asset number ${i} `.repeat(3)).toString('base64')}"\n`,
        bytes,
      ),
    },
  ];
}

export async function writtenCodeFigures(opts: {
  folder: string;
  bytes: readonly number[];
  runs: number;
}): Promise<BenchResults['writtenCode']> {
  const project = join(opts.folder, 'project');
  const state = join(opts.folder, 'state');
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(state, { recursive: true });
  await Evaluator.ready();
  const evaluateWith = deterministicTier({ project, state, home: opts.folder });
  return opts.bytes.flatMap((bytes) =>
    writtenCodeTexts(bytes).map(({ text, file, content }) => {
      const event = benchEvent(project, 'Write', { file_path: join(project, file), content });
      const evaluate = () => evaluateWith(event);
      return { text, bytes: content.length, time: ofSamples(timeRuns(evaluate, opts.runs, 1), 'ms') };
    }),
  );
}

/** Sizes an agent writes: a module, and the redactor's cap (a 128 KB file is read whole; past 256 KB it is not read). */
export const WRITTEN_CODE_BYTES = [16 * KB, 128 * KB];
