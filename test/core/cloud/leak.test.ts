// The Cloud request's redaction invariants: the planted secrets (at least 30 kinds) placed in every
// part the block is built from — the call, the facts (a working folder and a path named by a
// secret), the target scan (URLs with passwords), the person's turns and the agent's message —
// and none of them, whole or in part, in the bytes the fake Cloud captured; no redaction label
// in the person's turns or the agent's message, where it could name a target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { REDACTED_SAID, REDACTED_TARGET_WORD, type CloudBlock } from '../../../src/core/cloud/contract';
import { createSemanticTier } from '../../../src/core/review/tier';
import { callFor } from '../semantic/helpers';
import { capturedText, leakWorld, plantedCalls, plantedTranscript, survivingSecrets } from '../semantic/leak-harness';
import { PLANTED_ENV, plantedSecrets, SECRETS } from '../semantic/planted-secrets';
import { block } from './contract-shapes';
import { answering, MACHINE_KEY } from './helpers';
import { aConfig } from '../../builders/config';

const world = leakWorld();

test('no planted secret, whole or in part, and no label in the person\u2019s or agent\u2019s words, reaches Cloud', async () => {
  assert.ok(plantedSecrets().length >= 30);
  const { fake, project } = world;
  fake.behaviour = answering(() => block());
  const cwd = project.path(SECRETS.gitlab);
  mkdirSync(cwd, { recursive: true });
  const config = aConfig()
    .semantic({ mode: 'enforce' })
    .cloud({ mode: 'enforce', url: fake.url(''), machineId: 'machine-7f3a', keyEnv: 'CLOUD_KEY' })
    .trusted()
    .build();
  const tier = createSemanticTier({ env: { ...PLANTED_ENV, CLOUD_KEY: MACHINE_KEY } });
  const calls = plantedCalls(project, cwd, plantedTranscript(project));
  const before = fake.requests.length;
  try {
    for (const event of calls) {
      const result = await tier.start({
        event,
        call: callFor(event, project.dir, project.home),
        config,
        projectRoot: project.dir,
      })!.result;
      assert.equal(result.cloud?.status, 'ok', result.cloud?.reason ?? '');
    }
  } finally {
    await tier.close();
  }
  const received = fake.requests.slice(before);
  assert.equal(received.length, calls.length);
  const bodies = received.map((r) => JSON.parse(r.body.toString('utf8')) as { cloud: CloudBlock });
  const haystack = capturedText(received);
  const survivors = survivingSecrets(haystack);
  assert.deepEqual(survivors, [], `surviving secrets: ${survivors.join(', ')}`);
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
