// Timeouts and HTTP errors: every way the Cloud review can fail to answer is degraded, the local
// result stands, and the record says why. Also the evaluator's record of a Cloud deny.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { combine } from '../../../src/core/verdict/combine';
import { Evaluator } from '../../../src/core/evaluator';
import { verdictRecordSchema } from '../../../src/core/verdict/record';
import type { Outcome } from '../../../src/core/types';
import { FakeJudgeServer, ready, sendJson } from '../semantic/helpers';
import { block, denyBlock, reply, type CapturedReview } from './contract-shapes';
import { answering, cloudCall, cloudTier, CLOUD_ENV, type CloudCallOptions } from './helpers';
import { aHookEvent } from '../../builders/hookEvent';
import { aTempProject, removeDir } from '../../builders/tempProject';

let fake: FakeJudgeServer;
const worlds: string[] = [];
before(async () => {
  await ready();
  fake = await FakeJudgeServer.start();
});
after(async () => {
  await fake.close();
  for (const dir of worlds) removeDir(dir);
});

const ASK: Outcome = { policy: 'infra-apply', tier: 'deterministic', verdict: 'ask', reason: 'applies a manifest' };

async function degradedBy(opts: CloudCallOptions = {}, env = CLOUD_ENV): Promise<string> {
  const tier = cloudTier({ env });
  const result = await tier.start(cloudCall(fake, worlds, opts).input)!.result;
  await tier.close();
  assert.equal(result.status.status, 'degraded');
  assert.equal(result.cloud?.status, 'degraded');
  assert.deepEqual(result.merge([ASK]), combine([ASK]), 'the local result stands');
  assert.equal(result.cloud?.reason && result.status.reason?.endsWith(result.cloud.reason), true);
  return result.cloud?.reason ?? '';
}

test('a Cloud slower than cloud.timeoutMs is degraded, whatever the judge timeout says', async () => {
  fake.behaviour = (req, res) => {
    setTimeout(() => void answering(() => block())(req, res), 1_500).unref();
  };
  assert.match(
    await degradedBy({ cloud: { timeoutMs: 200 }, semantic: { mode: 'enforce', timeoutMs: 60_000 } }),
    /Cloud did not answer within 200 ms/,
  );
});

test('a Cloud that sends headers and then stalls the body is degraded at the timeout', async () => {
  fake.behaviour = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"model":"jev-1.13.0",');
  };
  assert.match(await degradedBy({ cloud: { timeoutMs: 200 } }), /did not answer within 200 ms/);
});

for (const status of [400, 401, 403, 404, 429, 500, 502, 503]) {
  test(`HTTP ${status} is degraded`, async () => {
    fake.behaviour = (_req, res) => {
      sendJson(res, { error: 'nope', cloud: denyBlock() }, status);
    };
    assert.match(await degradedBy(), new RegExp(`Cloud answered HTTP ${status}`));
  });
}

test('a body that is not JSON, or not an object, is degraded', async () => {
  fake.behaviour = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"cloud": {"verdict"');
  };
  assert.match(await degradedBy(), /not valid JSON/);
  fake.behaviour = (_req, res) => sendJson(res, [1, 2]);
  assert.match(await degradedBy(), /reply: /);
});

test('an unreachable Cloud, a missing key variable, no URL or no machine id are degraded; the last three send nothing', async () => {
  const closed = await FakeJudgeServer.start();
  const url = closed.url('');
  await closed.close();
  assert.match(await degradedBy({ cloud: { url } }), /Cloud could not be reached/);
  const before = fake.requests.length;
  assert.match(await degradedBy({}, {} as typeof CLOUD_ENV), /CLOUD_KEY named by cloud\.keyEnv is not set/);
  assert.match(await degradedBy({ cloud: { url: undefined } }), /cloud\.url is not set/);
  assert.match(await degradedBy({ cloud: { machineId: undefined } }), /cloud\.machineId is not set/);
  assert.equal(fake.requests.length, before);
});

test('abort (a deterministic deny) stops the Cloud call; the record says why', async () => {
  fake.behaviour = (req, res) => {
    setTimeout(() => void answering(() => denyBlock())(req, res), 800).unref();
  };
  const tier = cloudTier();
  const run = tier.start(cloudCall(fake, worlds).input)!;
  await new Promise((resolve) => setTimeout(resolve, 30));
  const aborted = run.abort('a deterministic policy denied the call');
  assert.equal(aborted.cloud?.status, 'degraded');
  assert.match(aborted.cloud?.reason ?? '', /aborted: a deterministic policy denied the call/);
  assert.equal(await run.result, aborted);
  await tier.close();
});

test('through the evaluator: a Cloud deny decides, and the record carries the Cloud part', async () => {
  fake.behaviour = answering(() => ({
    ...denyBlock(),
    observed: {
      verdict: {
        decision: 'instruct',
        reason: null,
        outcomes: [
          {
            policy: 'change-window',
            mode: 'instruct',
            evidence: 0.81,
            targetNamedByUser: false,
            escalatedByInjection: false,
            verdict: 'instruct',
            origin: { cloudPolicyId: 'acme.change-window', cloudVersion: 12 },
          },
        ],
      },
      asked: ['change-window'],
    },
  }));
  const world = aTempProject({ name: 'world', projectInHome: true });
  worlds.push(world.root);
  const stateDir = join(world.root, 'state');
  mkdirSync(stateDir);
  const configPath = join(world.root, 'warden.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      semantic: { mode: 'enforce' },
      cloud: { mode: 'enforce', url: fake.url(''), machineId: 'machine-7f3a', keyEnv: 'CLOUD_KEY' },
    }),
  );
  await Evaluator.ready();
  const tier = cloudTier();
  const evaluator = new Evaluator({ stateDir, cliConfigPath: configPath, home: world.home, semantic: tier });
  const { record, merged } = await evaluator.evaluate(
    aHookEvent().tool('Bash', { command: 'kubectl apply -f deploy/prod.yaml' }).inCwd(world.dir).build(),
  );
  await tier.close();
  assert.equal(merged.decision, 'deny');
  assert.match(record.reason, /^Deploying to production from an agent is not allowed here \[org acme\.prod-guard v3\]/);
  verdictRecordSchema.parse(JSON.parse(JSON.stringify(record)));
  assert.equal(record.cloud?.status, 'ok');
  assert.equal(record.cloud?.decision, 'deny');
  assert.deepEqual(record.cloud?.asked, ['no-prod-deploy']);
  assert.deepEqual(
    record.outcomes
      .filter((o) => o.tier === 'cloud')
      .map((o) => [o.policy, o.verdict, o.cloudPolicyId, o.cloudVersion]),
    [['no-prod-deploy', 'deny', 'acme.prod-guard', 3]],
  );
  assert.deepEqual(record.cloud?.observed, [
    {
      cloudPolicyId: 'acme.change-window',
      cloudVersion: 12,
      check: 'change-window',
      decision: 'instruct',
      reason: 'the org check change-window flagged this call',
    },
  ]);
});

test('the fake answers only the contract path; a reply built from the captured request is accepted', async () => {
  let seen: CapturedReview | undefined;
  fake.behaviour = (req, res) => {
    seen = JSON.parse(req.body.toString('utf8')) as CapturedReview;
    sendJson(res, reply(seen, block()));
  };
  const tier = cloudTier();
  const result = await tier.start(cloudCall(fake, worlds).input)!.result;
  await tier.close();
  assert.equal(result.cloud?.status, 'ok');
  assert.ok(seen?.cloud);
});
