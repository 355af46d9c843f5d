// No planted secret reaches the judge: 36 secrets of different kinds in the call (a shell command
// and a file write), its comments, the transcript and the environment, sent through each protocol;
// the test reads the exact bytes the fake judge received.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSemanticTier } from '../../../src/core/review/tier';
import type { ResolvedConfig } from '../../../src/core/config/load';
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
  sendJson,
  type FakeBehaviour,
} from './helpers';
import { PLANTED_ENV, plantedCommand, plantedFileContent, plantedSecrets, SECRETS } from './planted-secrets';

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

const JUDGE_KEY = 'judge-transport-key-Qw8Er4Ty6';

/** Answers each protocol with low probabilities for whatever it was asked. */
const answerAll: FakeBehaviour = (req, res) => {
  const body = JSON.parse(req.body.toString('utf8')) as {
    questions?: Record<string, unknown>;
    messages?: Array<{ role: string; content: string }>;
  };
  if (body.questions) {
    sendJson(res, {
      model: 'jev-1.13.0',
      answers: Object.fromEntries(Object.keys(body.questions).map((id) => [id, { noul: 0.05 }])),
    });
    return;
  }
  const user = body.messages?.find((m) => m.role === 'user')?.content ?? '{}';
  const ids = Object.keys((JSON.parse(user) as { questions: Record<string, unknown> }).questions);
  const answers = JSON.stringify(Object.fromEntries(ids.map((id) => [id, 0.05])));
  if (req.path.includes('messages'))
    sendJson(res, { model: 'claude-test', content: [{ type: 'text', text: answers }] });
  else sendJson(res, { model: 'gpt-test', choices: [{ message: { content: answers } }] });
};

function transcript(): string {
  const path = join(world.root, 'transcript.jsonl');
  const s = SECRETS;
  writeFileSync(
    path,
    jsonl([
      line.human(`the deploy key is ${s.envApiKey}, and the old token ${s.githubOauth} is revoked`),
      line.human(`here is the CI secret ${s.highEntropy}; use mysql password ${s.mysqlPassword} if asked`),
      line.humanBlocks('set it up with', `the sshpass password ${s.sshpassPassword} and the ${s.agentEcho} account`),
      line.assistantText(
        'm1',
        `I'll log in with ${s.agentEcho}, the docker password ${s.dockerPassword}, and connect using ${s.postgresPassword}.`,
      ),
      line.toolUse('m1', 'Bash', { command: 'true' }),
    ]),
  );
  return path;
}

const PROVIDERS: Array<[string, ResolvedConfig['semantic']]> = [
  ['systemone', { mode: 'enforce', provider: 'systemone', url: '', apiKeyEnv: 'JUDGE_KEY' }],
  ['openai', { mode: 'enforce', provider: 'openai', url: '', model: 'gpt-test', apiKeyEnv: 'JUDGE_KEY' }],
  ['anthropic', { mode: 'enforce', provider: 'anthropic', url: '', model: 'claude-test', apiKeyEnv: 'JUDGE_KEY' }],
];

/** The longest stretch of `secret` found in `text`, when 12 characters or more. */
function fragmentIn(text: string, secret: string): string | undefined {
  const width = Math.min(12, secret.length);
  for (let i = 0; i + width <= secret.length; i++) {
    const piece = secret.slice(i, i + width);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

test('at least 30 planted secrets of different kinds', () => {
  const secrets = plantedSecrets();
  assert.ok(secrets.length >= 30, `${secrets.length}`);
  assert.equal(new Set(secrets.map((s) => s.value)).size, secrets.length);
});

for (const [provider, semantic] of PROVIDERS) {
  test(`${provider}: no planted secret, whole or in part, is in the bytes the judge received`, async () => {
    fake.behaviour = answerAll;
    const path = provider === 'systemone' ? '/judge' : provider === 'openai' ? '/v1/chat/completions' : '/v1/messages';
    const config = configWith({ ...semantic, url: fake.url(path) });
    const tier = createSemanticTier({ env: { ...PLANTED_ENV, JUDGE_KEY } });
    const transcriptPath = transcript();
    // One session: the prose in the transcript names passwords that only the Bash call shows to be
    // secrets; the later calls' envelopes scrub them because the session remembers what was found.
    const calls = [
      eventFor('Bash', { command: plantedCommand(), description: 'deploy' }, { cwd: world.project, transcriptPath }),
      eventFor(
        'Write',
        { file_path: join(world.project, '.env.production'), content: plantedFileContent() },
        { cwd: world.project, transcriptPath },
      ),
      eventFor(
        'mcp__vault__store',
        { apiToken: SECRETS.jsonToken, note: `rotated ${SECRETS.envApiKey}` },
        { cwd: world.project, transcriptPath },
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
        assert.equal(result.status.status, 'ok', result.status.reason ?? '');
        assert.ok(result.redactions.count > 0);
      }
    } finally {
      await tier.close();
    }
    const received = fake.requests.slice(before);
    assert.equal(received.length, calls.length);
    const bytes = received.map((r) => r.body.toString('utf8')).join('\n');
    // JSON escapes (\n inside the PEM block, \" around values) must not hide a surviving secret.
    const unescaped =
      received.map((r) => JSON.stringify(JSON.parse(r.body.toString('utf8')), null, 0)).join('\n') +
      JSON.stringify(received.map((r) => JSON.parse(r.body.toString('utf8'))));
    const decodedStrings: string[] = [];
    const collect = (v: unknown): void => {
      if (typeof v === 'string') {
        decodedStrings.push(v);
        if (v.startsWith('{')) {
          try {
            collect(JSON.parse(v));
          } catch {
            /* a cut JSON text: its raw form is checked as it is */
          }
        }
      } else if (v && typeof v === 'object') Object.values(v).forEach(collect);
    };
    received.forEach((r) => collect(JSON.parse(r.body.toString('utf8'))));
    const haystack = [bytes, unescaped, ...decodedStrings].join('\n');
    const survivors = plantedSecrets()
      .map((s) => ({ kind: s.kind, piece: fragmentIn(haystack, s.value) }))
      .filter((s) => s.piece !== undefined);
    assert.deepEqual(survivors, [], `surviving secrets: ${survivors.map((s) => s.kind).join(', ')}`);
    assert.ok(!haystack.includes(JUDGE_KEY), 'the transport key never enters the body');
    // The secrets were there to find: the judge saw markers where they were.
    assert.match(bytes, /<redacted:github-token>/);
    assert.match(bytes, /<redacted:private-key>/);
    assert.match(bytes, /<redacted:(env-secret|high-entropy)>/);
    for (const r of received) {
      const keyHeader = provider === 'anthropic' ? r.headers['x-api-key'] : r.headers.authorization;
      assert.equal(keyHeader, provider === 'anthropic' ? JUDGE_KEY : `Bearer ${JUDGE_KEY}`);
    }
  });
}
