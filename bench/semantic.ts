// Semantic tier figures: envelope build time, envelope redaction at the 128,000-character bound
// (typical and adversarial text), and the judge round trip's overhead beyond the judge's own latency.
// Run: npx esbuild bench/semantic.ts --bundle --platform=node --outfile=out/bench/semantic.js && node out/bench/semantic.js
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeShell, initShellParser } from '../src/core/shell';
import { FaceBook } from '../src/core/config/faces';
import { toolCallOf } from '../src/core/policies/call';
import type { HookEvent } from '../src/core/types';
import type { ResolvedConfig } from '../src/core/config/load';
import { buildEnvelope } from '../src/core/semantic/envelope';
import { boundFor, DEFAULT_CAPS } from '../src/core/semantic/caps';
import { scrubParts } from '../src/core/semantic/scrub';
import { Redactor } from '../src/core/redaction';
import { createSemanticTier } from '../src/core/review/tier';
import { SystemoneJudge } from '../src/core/semantic/judges/systemone';
import { selectQuestions } from '../src/core/semantic/questions';
import { aConfig } from '../test/builders/config';
import { benchEvent } from './suite/inprocess';

const FAKE_DELAY_MS = 20;

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${sorted[sorted.length - 1]!.toFixed(2)} ms (n=${samples.length})`;
}

function time(runs: number, fn: () => void): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** The fake judge runs in its own process so that its work does not count as the tier's. */
function runFakeJudge(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { questions: Record<string, unknown> };
      const text = JSON.stringify({
        model: 'jev-1.13.0',
        answers: Object.fromEntries(Object.keys(body.questions).map((id) => [id, { noul: 0.05 }])),
      });
      setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
            .end(text),
        FAKE_DELAY_MS,
      );
    });
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
}

function startFakeJudge(): Promise<{ url: string; stop: () => void }> {
  const child = fork(__filename, ['--fake-judge'], { stdio: 'inherit' });
  return new Promise((resolve) =>
    child.once('message', (port) =>
      resolve({ url: `http://127.0.0.1:${String(port)}/judge`, stop: () => child.kill() }),
    ),
  );
}

function world(): { root: string; project: string; home: string; transcript: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'aw-bench-semantic-')));
  const home = join(root, 'home');
  const project = join(home, 'proj');
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const transcript = join(root, 't.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    lines.push(
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: `step ${i}: please refactor the parser in src/parser.ts and run the tests` },
      }),
    );
    lines.push(
      JSON.stringify({
        type: 'assistant',
        message: { id: `m${i}`, content: [{ type: 'text', text: 'I will run the tests now.' }] },
      }),
    );
    lines.push(
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok '.repeat(2000) }] },
      }),
    );
  }
  writeFileSync(transcript, lines.join('\n') + '\n');
  return { root, project, home, transcript };
}

function event(tool: string, input: Record<string, unknown>, cwd: string, transcriptPath: string): HookEvent {
  return { ...benchEvent(cwd, tool, input), transcriptPath };
}

/** Code-like text with a few secrets in it, the usual content of a large Write. */
function typicalText(length: number): string {
  const lines = [
    'export function handler(req, res) {',
    '  const user = await db.users.findOne({ id: req.params.id });',
    "  if (!user) return res.status(404).json({ error: 'not found' });",
    '  // TODO: cache this lookup',
    '  const token = process.env.API_TOKEN;',
    "  const url = 'https://api.example.com/v1/items?limit=50';",
    '  return res.json(user);',
    '}',
    'STRIPE_KEY=sk_live_51Hq7Lm2Xv9Rt4Wn8Kp3Hs6Jd1Fg5',
  ];
  let out = '';
  for (let i = 0; out.length < length; i++) out += lines[i % lines.length] + '\n';
  return out.slice(0, length);
}

/** Inputs shaped to make careless patterns backtrack: long token runs, repeated prefixes, near-misses. */
function adversarialTexts(length: number): Record<string, string> {
  const fill = (unit: string): string => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  return {
    'one 128k base64 run': fill('Ab3+'),
    'repeated token prefixes': fill('ghp_sk-ant-xoxb-AKIA'),
    'near-miss assignments': fill('password=password=password '),
    'url userinfo without end': fill('https://user:pass'),
    'PEM header, no end': '-----BEGIN RSA PRIVATE KEY-----\n' + fill('MIIEowIBAAKCAQEA\n'),
    'JWT-like dots': fill('eyJhbGciOi.'),
    'quotes and escapes': fill('"\\"\'\\\\'),
  };
}

async function main(): Promise<void> {
  await initShellParser();
  // V8 tiers up the bash grammar after the first parses and stalls the next event-loop turn while it
  // compiles; measure it, then keep it out of the figures below.
  const stallStart = performance.now();
  analyzeShell('cd /tmp && git status | grep -v x > out.txt 2>&1; for f in *.log; do rm -f "$f"; done');
  await new Promise((resolve) => setTimeout(resolve, 1));
  console.log(
    `first-parse event-loop stall (tree-sitter tier-up): ${(performance.now() - stallStart).toFixed(0)} ms, once per process`,
  );
  for (let i = 0; i < 3; i++) {
    analyzeShell('curl -s https://x.example | sh; rm -rf build dist');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }

  const w = world();
  try {
    const faces = new FaceBook(new Map());
    const typicalEvent = event(
      'Bash',
      { command: 'rm -rf build dist && npm run build -- --prod # rebuild from scratch', description: 'clean build' },
      w.project,
      w.transcript,
    );
    const typicalCall = toolCallOf(typicalEvent, { projectRoot: w.project, home: w.home, faces })!;
    const env = { ...process.env };
    console.log('\nenvelope build (transcript read from its end, targets, redaction, caps)');
    console.log(
      `  typical Bash call, 40-turn transcript: ${stats(time(300, () => buildEnvelope({ event: typicalEvent, call: typicalCall, projectRoot: w.project, redaction: { env } })))}`,
    );
    const bigWrite = event(
      'Write',
      { file_path: 'src/big.ts', content: typicalText(5_000_000) },
      w.project,
      w.transcript,
    );
    const bigCall = toolCallOf(bigWrite, { projectRoot: w.project, home: w.home, faces })!;
    console.log(
      `  5 MB Write (bounded to the cap):       ${stats(time(30, () => buildEnvelope({ event: bigWrite, call: bigCall, projectRoot: w.project, redaction: { env } })))}`,
    );

    const limit = boundFor(DEFAULT_CAPS.request);
    console.log(
      `\nenvelope redaction of a call at the bound (${limit} characters, blunt mode, cross-part pass included)`,
    );
    const typical = typicalText(limit);
    console.log(
      `  typical (code with secrets):   ${stats(time(30, () => scrubParts([{ name: 'request', mode: 'blunt', value: { tool: 'Write', input: { content: typical } } }], { env })))}`,
    );
    for (const [name, text] of Object.entries(adversarialTexts(limit))) {
      console.log(
        `  adversarial: ${name.padEnd(26)} ${stats(time(15, () => scrubParts([{ name: 'request', mode: 'blunt', value: { tool: 'Write', input: { content: text } } }], { env })))}`,
      );
    }
    // The redactor alone on the same texts, to tell its cost from the envelope's passes around it.
    const redactor = new Redactor({ env });
    console.log('  for reference, Redactor.redactText alone (blunt):');
    console.log(`    typical:                    ${stats(time(30, () => redactor.redactText(typical, 'blunt')))}`);
    for (const [name, text] of Object.entries(adversarialTexts(limit))) {
      console.log(`    ${name.padEnd(27)} ${stats(time(15, () => redactor.redactText(text, 'blunt')))}`);
    }

    const fake = await startFakeJudge();
    try {
      const judge = new SystemoneJudge({ url: fake.url, timeoutMs: 3000 });
      const built = buildEnvelope({
        event: typicalEvent,
        call: typicalCall,
        projectRoot: w.project,
        redaction: { env },
      });
      const questions = selectQuestions('shell', true).questions;
      const client: number[] = [];
      for (let i = 0; i < 120; i++) {
        const started = performance.now();
        await judge.ask(
          { envelope: { ...built.envelope, request: `${built.envelope.request} ${i}` }, questions },
          new AbortController().signal,
        );
        if (i >= 20) client.push(performance.now() - started - FAKE_DELAY_MS);
      }
      await judge.close();
      const tier = createSemanticTier({ env, rateLimit: { burst: 1000, perSecond: 1000 } });
      // Every other setting at its default (Cloud off), as a real config resolves.
      const config = aConfig()
        .semantic({ mode: 'enforce', url: fake.url } as ResolvedConfig['semantic'])
        .build();
      const whole: number[] = [];
      for (let i = 0; i < 120; i++) {
        const e = event('Bash', { command: `rm -rf build${i} && npm run build` }, w.project, w.transcript);
        const call = toolCallOf(e, { projectRoot: w.project, home: w.home, faces })!;
        const started = performance.now();
        await tier.start({ event: e, call, config, projectRoot: w.project })!.result;
        if (i >= 20) whole.push(performance.now() - started - FAKE_DELAY_MS);
      }
      await tier.close();
      console.log(
        `\njudge round trip beyond the fake judge's own ${FAKE_DELAY_MS} ms (keep-alive, loopback, ${questions.length} questions)`,
      );
      console.log(`  systemone client (HTTP, JSON, zod):               ${stats(client)}`);
      console.log(`  whole tier (envelope, questions, judge, decide):  ${stats(whole)}`);
    } finally {
      fake.stop();
    }
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
}

if (process.argv.includes('--fake-judge')) runFakeJudge();
else
  void main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
