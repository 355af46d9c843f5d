// The request's `cloud` block: its fields as the contract names them, the caps at their edges (one
// below, at, one above), the order parts are dropped in, and the scan sent incomplete where
// redaction would change what a naming check concludes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CLOUD_REVIEW_PATH,
  MAX_CLOUD_BLOCK_BYTES,
  MAX_TARGET_SCAN_CHARS,
  REDACTED_TARGET_WORD,
  type CloudBlock,
} from '../../../src/core/cloud/contract';
import { blockBytes, fitBlock } from '../../../src/core/cloud/block';
import { capTargetScan } from '../../../src/core/cloud/target-scan';
import { SEMANTIC_POLICIES } from '../../../src/core/semantic/questions';
import { FakeJudgeServer, ready } from '../semantic/helpers';
import { block } from './contract-shapes';
import { answering, captured, cloudCall, cloudTier, MACHINE_KEY, type CloudCallOptions } from './helpers';
import { removeDir } from '../../builders/tempProject';

let fake: FakeJudgeServer;
const worlds: string[] = [];
before(async () => {
  await ready();
  fake = await FakeJudgeServer.start();
  fake.behaviour = answering(() => block());
});
after(async () => {
  await fake.close();
  for (const dir of worlds) removeDir(dir);
});

async function sentBlock(opts: CloudCallOptions = {}): Promise<{ block: CloudBlock; scanComplete: boolean }> {
  const tier = cloudTier();
  const { input } = cloudCall(fake, worlds, opts);
  const result = await tier.start(input)!.result;
  await tier.close();
  assert.equal(result.cloud?.status, 'ok', result.cloud?.reason ?? '');
  const facts = result.envelope?.facts as { targetScanComplete: boolean };
  return { block: captured(fake).cloud as unknown as CloudBlock, scanComplete: facts.targetScanComplete };
}

test('the request goes to the contract path with the machine key, the questions and every block field', async () => {
  const { block: sent } = await sentBlock({
    humanTurns: ['roll out deploy/prod.yaml'],
    input: { command: 'cp deploy/prod.yaml deploy/prod.yaml.bak && kubectl apply -f deploy/prod.yaml' },
  });
  const last = fake.requests[fake.requests.length - 1]!;
  assert.equal(last.path, CLOUD_REVIEW_PATH);
  assert.equal(last.headers.authorization, `Bearer ${MACHINE_KEY}`);
  const request = captured(fake);
  for (const id of ['injection', 'task-step', 'user-asked-operation', 'beyond-task', 'production-infra-change'])
    assert.ok(id in request.questions, id);
  assert.equal(request.questions.injection?.type, 'noul');
  assert.ok(request.state, 'the envelope goes as state, as to the judge');
  assert.deepEqual(Object.keys(sent).sort(), [
    'agent',
    'agentLastMessage',
    'facts',
    'intentMode',
    'localPolicies',
    'machineId',
    'targetScan',
    'userSaid',
    'userSaidCut',
    'v',
  ]);
  assert.equal(sent.v, 2);
  assert.equal(sent.machineId, 'machine-7f3a');
  assert.deepEqual(sent.agent, { name: 'claude' });
  assert.equal(sent.intentMode, 'v1');
  assert.equal(sent.facts.toolName, 'Bash');
  assert.equal(sent.facts.toolClass, 'shell');
  assert.equal(sent.facts.toolIsKnown, true);
  assert.equal(sent.facts.currentGitBranch, 'feature');
  assert.equal(sent.facts.permissionMode, 'default');
  assert.ok(sent.facts.paths.some((p) => p.asWritten === 'deploy/prod.yaml' && p.relation === 'inside-project'));
  assert.equal(sent.targetScan.complete, true);
  assert.ok(sent.targetScan.groups.some((g) => g.includes('deploy/prod.yaml')));
  assert.deepEqual(sent.userSaid, ['roll out deploy/prod.yaml']);
  assert.equal(sent.agentLastMessage, 'Applying the manifest now.');
  assert.equal(sent.userSaidCut, false);
  assert.deepEqual(
    sent.localPolicies,
    SEMANTIC_POLICIES.filter((p) => p.families.includes('shell')).map((p) => p.name),
  );
});

test('the global questions go even with the local tier off; with no person, injection alone', async () => {
  const { block: sent } = await sentBlock({ semantic: { mode: 'off' } });
  assert.deepEqual(sent.localPolicies, []);
  assert.deepEqual(Object.keys(captured(fake).questions).sort(), [
    'beyond-task',
    'injection',
    'task-step',
    'user-asked-operation',
  ]);
  const { block: alone } = await sentBlock({ semantic: { mode: 'off' }, humanTurns: [] });
  assert.deepEqual(alone.userSaid, []);
  assert.deepEqual(Object.keys(captured(fake).questions), ['injection']);
});

test('a tool with no side effects is not sent; the record says it was skipped', async () => {
  const before = fake.requests.length;
  const tier = cloudTier();
  const { input } = cloudCall(fake, worlds, { tool: 'TodoWrite', input: { todos: [] } });
  const result = await tier.start(input)!.result;
  assert.equal(fake.requests.length, before);
  assert.equal(result.cloud?.status, 'skipped');
  assert.match(result.cloud?.reason ?? '', /TodoWrite has no side effects/);
  await tier.close();
});

/** One group whose serialized scan is exactly `length` characters: [["w…"]]. */
const scanOfLength = (length: number): string[][] => [['w'.repeat(length - 6)]];

test('target scan cap: one below, at, and one above 64,000 serialized characters', () => {
  for (const [length, complete] of [
    [MAX_TARGET_SCAN_CHARS - 1, true],
    [MAX_TARGET_SCAN_CHARS, true],
    [MAX_TARGET_SCAN_CHARS + 1, false],
  ] as const) {
    const groups = scanOfLength(length);
    assert.equal(JSON.stringify(groups).length, length);
    const capped = capTargetScan(groups, true);
    assert.equal(capped.complete, complete, `at ${length}`);
    assert.equal(capped.groups.length, complete ? 1 : 0);
  }
  // Several groups: the prefix that fits goes, exactly at the cap.
  const groups = [['a'.repeat(31_995)], ['b'.repeat(31_994)], ['c']];
  assert.equal(JSON.stringify(groups.slice(0, 2)).length, MAX_TARGET_SCAN_CHARS);
  const capped = capTargetScan(groups, true);
  assert.deepEqual(
    capped.groups.map((g) => g[0]![0]),
    ['a', 'b'],
  );
  assert.equal(capped.complete, false);
  assert.equal(capTargetScan(groups.slice(0, 2), false).complete, false, 'an incomplete scan stays incomplete');
});

function blockOfBytes(bytes: number, groups: string[][] = [['deploy/prod.yaml']]): CloudBlock {
  const base: CloudBlock = {
    v: 2,
    machineId: 'm',
    agent: { name: 'claude' },
    intentMode: 'v1',
    facts: {
      toolName: 'Bash',
      toolClass: 'shell',
      toolIsKnown: true,
      cwd: '/p',
      projectRoot: '/p',
      currentGitBranch: null,
      paths: [],
      permissionMode: null,
    },
    targetScan: { groups, complete: true },
    userSaid: [''],
    agentLastMessage: null,
    userSaidCut: true,
    localPolicies: [],
  };
  const pad = bytes - blockBytes(base);
  assert.ok(pad >= 0);
  return { ...base, userSaid: ['p'.repeat(pad)] };
}

test('block cap: one below, at, and one above 240,000 bytes; the person\u2019s turns go first', () => {
  for (const bytes of [MAX_CLOUD_BLOCK_BYTES - 1, MAX_CLOUD_BLOCK_BYTES]) {
    const whole = blockOfBytes(bytes);
    assert.equal(blockBytes(whole), bytes);
    assert.deepEqual(fitBlock(whole), whole, `${bytes} bytes fit`);
  }
  const over = blockOfBytes(MAX_CLOUD_BLOCK_BYTES + 1);
  const fitted = fitBlock(over);
  assert.deepEqual(fitted.userSaid, [''], 'a person spoke, but no words of theirs can be read');
  assert.equal(fitted.userSaidCut, false);
  assert.equal(fitted.targetScan.complete, false);
  assert.deepEqual(fitted.targetScan.groups, over.targetScan.groups, 'the scan stays when the turns were enough');
  assert.ok(blockBytes(fitted) <= MAX_CLOUD_BLOCK_BYTES);
});

test('block cap counts bytes, not characters; the target groups go second', () => {
  const accented = blockOfBytes(MAX_CLOUD_BLOCK_BYTES - 10);
  const wide = { ...accented, userSaid: ['é'.repeat(accented.userSaid[0]!.length / 2 + 6)] };
  assert.ok(JSON.stringify(wide).length <= MAX_CLOUD_BLOCK_BYTES, 'under the cap in characters');
  assert.ok(blockBytes(wide) > MAX_CLOUD_BLOCK_BYTES, 'over it in bytes');
  assert.deepEqual(fitBlock(wide).userSaid, ['']);
  const groups = [['g'.repeat(MAX_CLOUD_BLOCK_BYTES)]];
  const huge = fitBlock({ ...blockOfBytes(1_000), targetScan: { groups, complete: true } });
  assert.deepEqual(huge.targetScan, { groups: [], complete: false });
  assert.ok(blockBytes(huge) <= MAX_CLOUD_BLOCK_BYTES);
});

test('a call naming more targets than fit sends a prefix of them, marked incomplete', async () => {
  const paths = Array.from({ length: 600 }, (_, i) => `build/cache/${'segment'.repeat(12)}-${i}.bin`);
  const { block: sent, scanComplete } = await sentBlock({ input: { command: `rm -f ${paths.join(' ')}` } });
  assert.equal(scanComplete, true, 'the machine itself read every target');
  assert.equal(sent.targetScan.complete, false);
  assert.ok(sent.targetScan.groups.length > 0 && sent.targetScan.groups.length < 600);
  assert.ok(JSON.stringify(sent.targetScan.groups).length <= MAX_TARGET_SCAN_CHARS);
});

test('where hiding a secret word changes what a naming check concludes, the scan goes incomplete', async () => {
  const token = 'ghp_' + 'Q7wE9rT2yU4iO6pA8sD1fG3hJ5kL7zX9cV2b';
  const { block: sent, scanComplete } = await sentBlock({
    input: { command: `rm -rf /tmp/${token}` },
    humanTurns: [`remove /tmp/${token} please`],
  });
  assert.equal(scanComplete, true);
  assert.ok(sent.targetScan.groups.every((g) => g.every((w) => w === REDACTED_TARGET_WORD || !w.includes('ghp_'))));
  assert.ok(sent.targetScan.groups.flat().includes(REDACTED_TARGET_WORD));
  assert.equal(sent.targetScan.complete, false, 'the person named it, but Cloud can no longer see that');
  const plain = await sentBlock({ input: { command: 'rm -rf build' }, humanTurns: ['delete the build folder'] });
  assert.equal(plain.block.targetScan.complete, true, 'nothing hidden, nothing changed');
});
