// The panel with the Cloud review: a record made by the real evaluator against the fake Cloud (a
// Cloud deny, and a check observed as a would-have) renders as a row marked "org" and a detail
// that lists Cloud's outcomes with their policy id and version apart from the local ones.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Evaluator } from '../../src/core/evaluator';
import { degradedCloudPart } from '../../src/core/cloud/review';
import type { VerdictRecord } from '../../src/core/verdict/record';
import { detailView, type DetailActions } from '../../media/src/detail';
import { rowView } from '../../media/src/rows';
import { toRowSummary } from '../../src/server/rowSummary';
import { findAll, hasClass, textOf } from '../../media/src/vnode';
import { FakeJudgeServer, ready } from '../core/semantic/helpers';
import { block, denyBlock, outcome, verdict } from '../core/cloud/contract-shapes';
import { answering, cloudTier } from '../core/cloud/helpers';
import { aVerdictRecord } from '../builders/record';
import { aHookEvent } from '../builders/hookEvent';
import { type TempProject, aTempProject, removeDir } from '../builders/tempProject';

const noop = () => undefined;
const actions: DetailActions = {
  copyDigest: noop,
  markerInfo: noop,
  reveal: noop,
  hideRevealed: noop,
  notSecret: noop,
  close: noop,
};

let fake: FakeJudgeServer;
let world: TempProject;
before(async () => {
  await ready();
  fake = await FakeJudgeServer.start();
  world = aTempProject({ name: 'world', projectInHome: true });
});
after(async () => {
  await fake.close();
  removeDir(world.root);
});

async function recordFrom(
  cloudBlock: () => unknown,
  cloudMode: 'enforce' | 'observe' = 'enforce',
): Promise<VerdictRecord> {
  fake.behaviour = answering(cloudBlock);
  const stateDir = join(world.root, `state-${Math.random().toString(36).slice(2)}`);
  mkdirSync(stateDir);
  const configPath = join(stateDir, 'warden.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      semantic: { mode: 'enforce' },
      cloud: { mode: cloudMode, url: fake.url(''), machineId: 'machine-7f3a', keyEnv: 'CLOUD_KEY' },
    }),
  );
  await Evaluator.ready();
  const tier = cloudTier();
  const evaluator = new Evaluator({ stateDir, cliConfigPath: configPath, home: world.home, semantic: tier });
  const { record } = await evaluator.evaluate(
    aHookEvent().tool('Bash', { command: 'kubectl apply -f deploy/prod.yaml' }).inCwd(world.dir).build(),
  );
  await tier.close();
  return record;
}

test('a Cloud deny: the row says an org check decided; the detail lists it with policy id and version, apart', async () => {
  const record = await recordFrom(() => ({
    ...denyBlock(),
    observed: {
      verdict: verdict({
        decision: 'deny',
        reason: 'Would block outside the change window',
        outcomes: [
          outcome({
            policy: 'change-window',
            origin: { cloudPolicyId: 'acme.change-window', cloudVersion: 12 },
            reason: 'Outside the change window',
          }),
        ],
      }),
      asked: ['change-window'],
    },
  }));
  assert.equal(record.decision, 'deny');
  const row = rowView(toRowSummary(record), { selected: false, index: 0, onSelect: noop });
  const flag = findAll(row, (n) => hasClass(n, 'flag') && hasClass(n, 'org'))[0];
  assert.ok(flag, 'the row is marked');
  assert.equal(textOf(flag), 'org');

  const detail = detailView(record, {}, actions);
  const text = textOf(detail);
  assert.match(text, /Org checks \(Cloud\)/);
  assert.match(text, /Cloud enforced: deny · 1 org check asked/);
  const cloudTable = findAll(detail, (n) => hasClass(n, 'cloud-outcomes'))[0]!;
  const cells = findAll(cloudTable, (n) => n.tag === 'td').map(textOf);
  assert.deepEqual(cells.slice(0, 5), ['no-prod-deploy', 'acme.prod-guard', 'v3', 'deny', '0.93']);
  const localTable = findAll(detail, (n) => hasClass(n, 'outcomes') && !hasClass(n, 'cloud-outcomes'))[0]!;
  assert.ok(!textOf(localTable).includes('no-prod-deploy'), 'Cloud outcomes are not among the local ones');
  const observed = findAll(detail, (n) => hasClass(n, 'cloud-observed')).map(textOf);
  assert.deepEqual(observed, [
    'observed: change-window (acme.change-window v12) would have denied: Outside the change window',
  ]);
});

test('an observed check and Cloud in observe mode read as "would have"; no org marker on the row', async () => {
  const record = await recordFrom(
    () =>
      block({
        verdict: verdict({ decision: 'deny', reason: 'blocked', outcomes: [outcome()] }),
        asked: ['no-prod-deploy'],
      }),
    'observe',
  );
  assert.notEqual(record.decision, 'deny', 'never applied');
  const row = rowView(toRowSummary(record), { selected: false, index: 0, onSelect: noop });
  assert.equal(findAll(row, (n) => hasClass(n, 'org')).length, 0);
  const text = textOf(detailView(record, {}, actions));
  assert.match(text, /Cloud observed: deny/);
  assert.match(text, /Applying Cloud's verdict would have made this call deny\./);
});

test('a degraded Cloud review says so and that the local result stood', () => {
  const record = aVerdictRecord()
    .with({
      cloud: degradedCloudPart('enforce', 'Cloud did not answer within 5000 ms', 5001),
    })
    .build();
  assert.match(
    textOf(detailView(record, {}, actions)),
    /Cloud review degraded \(the local result stood\): Cloud did not answer within 5000 ms/,
  );
});
