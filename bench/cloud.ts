// Cloud review figures: the latency a call's Cloud review adds beyond the fake Cloud's own time
// (the fake, in its own process, answers after a fixed delay), beside the plain judge path against
// the same fake; the block's build time; and parsing the largest reply the contract allows.
// Run: node bench/run.mjs cloud
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initShellParser } from '../src/core/shell';
import { FaceBook } from '../src/core/config/faces';
import { toolCallOf } from '../src/core/policies/call';
import type { HookEvent } from '../src/core/types';
import type { ResolvedConfig } from '../src/core/config/load';
import { buildEnvelope } from '../src/core/semantic/envelope';
import { createSemanticTier } from '../src/core/review/tier';
import { selectQuestions } from '../src/core/semantic/questions';
import { buildCloudBlock } from '../src/core/cloud/block';
import { parseCloudBlock } from '../src/core/cloud/reply';
import { DEFAULT_CAPS } from '../src/core/semantic/caps';
import { aConfig } from '../test/builders/config';

const FAKE_DELAY_MS = 20;

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms, max ${sorted[sorted.length - 1]!.toFixed(2)} ms (n=${samples.length})`;
}

/** One org check asked, found nothing: the shape of an ordinary allow. */
function orgOutcome(policy: string): Record<string, unknown> {
  return {
    policy,
    mode: 'deny',
    evidence: 0.04,
    exempt: null,
    userAsked: null,
    targetNamedByUser: false,
    escalatedByInjection: false,
    verdict: 'none',
    origin: { cloudPolicyId: 'acme.prod-guard', cloudVersion: 3 },
  };
}

/** The fake Cloud (and judge: the same body answers both) in its own process, so its work is not counted. */
function runFake(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { questions: Record<string, unknown> };
      const text = JSON.stringify({
        model: 'jev-1.13.0',
        answers: Object.fromEntries(Object.keys(body.questions).map((id) => [id, { noul: 0.05 }])),
        cloud: {
          verdict: { decision: 'allow', reason: null, outcomes: [orgOutcome('no-prod-deploy')], beyondTask: false },
          asked: ['no-prod-deploy'],
          droppedLocal: [],
          droppedCloud: [],
        },
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

function startFake(): Promise<{ base: string; stop: () => void }> {
  const child = fork(__filename, ['--fake-cloud'], { stdio: 'inherit' });
  return new Promise((resolve) =>
    child.once('message', (port) => resolve({ base: `http://127.0.0.1:${String(port)}`, stop: () => child.kill() })),
  );
}

function world(): { root: string; project: string; home: string; transcript: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'aw-bench-cloud-')));
  const home = join(root, 'home');
  const project = join(home, 'proj');
  mkdirSync(join(project, '.git'), { recursive: true });
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const transcript = join(root, 't.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 20; i++) {
    lines.push(
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: `step ${i}: deploy the build in deploy/prod.yaml once the tests pass` },
      }),
      JSON.stringify({
        type: 'assistant',
        message: { id: `m${i}`, content: [{ type: 'text', text: 'Running the tests, then applying the manifest.' }] },
      }),
    );
  }
  writeFileSync(transcript, lines.join('\n') + '\n');
  return { root, project, home, transcript };
}

function config(cloud: ResolvedConfig['cloud'], semantic: ResolvedConfig['semantic']): ResolvedConfig {
  return aConfig().semantic(semantic).cloud(cloud).trusted().build();
}

async function main(): Promise<void> {
  await initShellParser();
  const w = world();
  const fake = await startFake();
  const command = 'cp deploy/prod.yaml deploy/prod.yaml.bak && kubectl apply -f deploy/prod.yaml --context prod';
  const event: HookEvent = {
    agent: 'claude',
    event: 'PreToolUse',
    rawEventName: 'PreToolUse',
    sessionId: 'bench',
    cwd: w.project,
    transcriptPath: w.transcript,
    permissionMode: 'default',
    toolName: 'Bash',
    toolInput: { command },
    raw: {},
  };
  const call = toolCallOf(event, { projectRoot: w.project, home: w.home, faces: new FaceBook(new Map()) })!;
  const env = { CLOUD_KEY: 'bench-machine-key' };
  try {
    const runs = 200;
    // Both paths alternate call by call, so the machine's load falls on both alike.
    const judgeConfig = config({}, { mode: 'enforce', url: `${fake.base}/judge`, timeoutMs: 5_000 });
    const cloudConfig = config(
      { mode: 'enforce', url: fake.base, machineId: 'bench', keyEnv: 'CLOUD_KEY' },
      { mode: 'enforce' },
    );
    const tier = createSemanticTier({ env, rateLimit: { burst: 10_000, perSecond: 10_000 } });
    const judge: number[] = [];
    const cloud: number[] = [];
    for (let i = 0; i < runs + 20; i++) {
      for (const [cfg, samples] of [
        [judgeConfig, judge],
        [cloudConfig, cloud],
      ] as const) {
        // A distinct call each time, so the judge path's reply cache never answers.
        const input = { ...event, toolInput: { command: `${command} # ${i}` } };
        const c = toolCallOf(input, { projectRoot: w.project, home: w.home, faces: new FaceBook(new Map()) })!;
        const started = performance.now();
        const result = await tier.start({ event: input, call: c, config: cfg, projectRoot: w.project })!.result;
        if (result.status.status === 'degraded') throw new Error(result.status.reason ?? 'degraded');
        if (i >= 20) samples.push(performance.now() - started - FAKE_DELAY_MS);
      }
    }
    await tier.close();
    console.log(`per call, beyond the fake's own ${FAKE_DELAY_MS} ms (loopback, keep-alive, envelope included):`);
    console.log(`  judge path : ${stats(judge)}`);
    console.log(`  Cloud path : ${stats(cloud)}`);

    const built = buildEnvelope({ event, call, projectRoot: w.project });
    const selection = selectQuestions('shell', built.hasHumanTurn);
    const blockTimes: number[] = [];
    for (let i = 0; i < 220; i++) {
      const started = performance.now();
      buildCloudBlock({
        event,
        call,
        projectRoot: w.project,
        built,
        localPolicies: selection.policies.map((p) => p.name),
        machineId: 'bench',
        humanTurnCap: DEFAULT_CAPS.humanTurn,
        redaction: {},
      });
      if (i >= 20) blockTimes.push(performance.now() - started);
    }
    console.log(`the cloud block alone: ${stats(blockTimes)}`);

    const many = Array.from({ length: 4096 }, (_, i) => orgOutcome(`check-${i}`));
    const largest = {
      verdict: { decision: 'allow', reason: null, outcomes: many, beyondTask: false },
      asked: many.map((o) => o.policy),
      droppedLocal: [],
      droppedCloud: [],
    };
    const parseTimes: number[] = [];
    for (let i = 0; i < 25; i++) {
      const started = performance.now();
      parseCloudBlock(largest);
      if (i >= 5) parseTimes.push(performance.now() - started);
    }
    console.log(`parsing a reply with 4,096 outcomes (the contract's most): ${stats(parseTimes)}`);
  } finally {
    fake.stop();
    rmSync(w.root, { recursive: true, force: true });
  }
}

if (process.argv.includes('--fake-cloud')) runFake();
else
  void main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
