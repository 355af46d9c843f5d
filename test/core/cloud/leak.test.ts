// The Cloud request's redaction invariants: the planted secrets (at least 30 kinds) placed in every
// part the block is built from — the call, the facts (a working folder and a path named by a
// secret), the target scan (URLs with passwords), the person's turns and the agent's message —
// and none of them, whole or in part, in the bytes the fake Cloud captured; no redaction label
// in the person's turns or the agent's message, where it could name a target.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REDACTED_SAID, REDACTED_TARGET_WORD, type CloudBlock } from '../../../src/core/cloud/contract';
import type { ResolvedConfig } from '../../../src/core/config/load';
import { createSemanticTier } from '../../../src/core/review/tier';
import {
  callFor,
  configWith,
  eventFor,
  FakeJudgeServer,
  jsonl,
  line,
  makeWorld,
  ready,
  removeDir,
} from '../semantic/helpers';
import { PLANTED_ENV, plantedCommand, plantedFileContent, plantedSecrets, SECRETS } from '../semantic/planted-secrets';
import { block } from './contract-shapes';
import { answering, MACHINE_KEY } from './helpers';

let fake: FakeJudgeServer;
let world: ReturnType<typeof makeWorld>;
before(async () => {
  await ready();
  fake = await FakeJudgeServer.start();
  world = makeWorld();
});
after(async () => {
  await fake.close();
  removeDir(world.root);
});

function transcript(): string {
  const path = join(world.root, 'transcript.jsonl');
  const s = SECRETS;
  writeFileSync(
    path,
    jsonl([
      line.human(`the deploy key is ${s.envApiKey}, and the old token ${s.githubOauth} is revoked`),
      line.human(`here is the CI secret ${s.highEntropy}; use mysql password ${s.mysqlPassword} if asked`),
      line.humanBlocks(
        'set it up with',
        `the sshpass password ${s.sshpassPassword}, the ${s.agentEcho} account and ${s.slackBot}`,
      ),
      line.assistantText(
        'm1',
        `I'll log in with ${s.agentEcho}, the docker password ${s.dockerPassword}, connect using ${s.postgresPassword} and push with ${s.githubClassic}.`,
      ),
      line.toolUse('m1', 'Bash', { command: 'true' }),
    ]),
  );
  return path;
}

/** The longest stretch of `secret` found in `text`, when 12 characters or more. */
function fragmentIn(text: string, secret: string): string | undefined {
  const width = Math.min(12, secret.length);
  for (let i = 0; i + width <= secret.length; i++) {
    const piece = secret.slice(i, i + width);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

test('no planted secret, whole or in part, and no label in the person\u2019s or agent\u2019s words, reaches Cloud', async () => {
  assert.ok(plantedSecrets().length >= 30);
  fake.behaviour = answering(() => block());
  const cwd = join(world.project, SECRETS.gitlab);
  mkdirSync(cwd, { recursive: true });
  const config: ResolvedConfig = {
    ...configWith({ mode: 'enforce' }),
    cloud: { mode: 'enforce', url: fake.url(''), machineId: 'machine-7f3a', keyEnv: 'CLOUD_KEY' },
  };
  const tier = createSemanticTier({ env: { ...PLANTED_ENV, CLOUD_KEY: MACHINE_KEY } });
  const transcriptPath = transcript();
  const calls = [
    eventFor('Bash', { command: plantedCommand(), description: 'deploy' }, { cwd, transcriptPath }),
    eventFor(
      'Bash',
      { command: `cat /tmp/${SECRETS.huggingFace}/notes.txt ~/keys/${SECRETS.googleApi}.json` },
      { cwd, transcriptPath },
    ),
    eventFor(
      'Write',
      { file_path: join(world.project, '.env.production'), content: plantedFileContent() },
      { cwd, transcriptPath },
    ),
    eventFor(
      'mcp__vault__store',
      { apiToken: SECRETS.jsonToken, note: `rotated ${SECRETS.envApiKey}` },
      { cwd, transcriptPath },
    ),
  ];
  const before = fake.requests.length;
  try {
    for (const event of calls) {
      const result = await tier.start({
        event,
        call: callFor(event, world.project, world.home),
        config,
        projectRoot: world.project,
      })!.result;
      assert.equal(result.cloud?.status, 'ok', result.cloud?.reason ?? '');
    }
  } finally {
    await tier.close();
  }
  const received = fake.requests.slice(before);
  assert.equal(received.length, calls.length);
  const bodies = received.map((r) => JSON.parse(r.body.toString('utf8')) as { cloud: CloudBlock });
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  bodies.forEach(collect);
  const haystack = [...received.map((r) => r.body.toString('utf8')), ...strings].join('\n');
  const survivors = plantedSecrets()
    .map((s) => ({ kind: s.kind, piece: fragmentIn(haystack, s.value) }))
    .filter((s) => s.piece !== undefined);
  assert.deepEqual(survivors, [], `surviving secrets: ${survivors.map((s) => s.kind).join(', ')}`);
  assert.ok(!haystack.includes(MACHINE_KEY), 'the machine key goes in the header only');

  for (const { cloud } of bodies) {
    const words = [...cloud.userSaid, ...(cloud.agentLastMessage === null ? [] : [cloud.agentLastMessage])];
    for (const text of words) assert.ok(!/<redacted/i.test(text), `a label in ${JSON.stringify(text.slice(0, 80))}`);
    for (const word of cloud.targetScan.groups.flat())
      assert.ok(word === REDACTED_TARGET_WORD || !/redacted|\u0000/.test(word), `target word ${JSON.stringify(word)}`);
  }
  const first = bodies[0]!.cloud;
  // The secrets were there to find: placeholders stand where they were, in every part.
  assert.ok(first.userSaid.every((turn) => turn.includes(REDACTED_SAID)));
  assert.ok(first.agentLastMessage?.includes(REDACTED_SAID));
  assert.ok(first.targetScan.groups.flat().includes(REDACTED_TARGET_WORD), 'URL passwords hidden in the scan');
  assert.match(first.facts.cwd ?? '', /<redacted:[a-z-]+>/);
  const second = bodies[1]!.cloud;
  assert.ok(second.facts.paths.length >= 2);
  assert.ok(second.facts.paths.every((p) => /<redacted:/.test(p.asWritten) && /<redacted:/.test(p.resolved)));
});
