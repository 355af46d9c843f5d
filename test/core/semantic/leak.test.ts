// No planted secret reaches the judge: 36 secrets of different kinds in the calls (a shell command,
// paths read, a file write, an MCP call), their comments, the transcript and the environment, sent
// through each protocol; the test reads the exact bytes the fake judge received.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSemanticTier } from '../../../src/core/review/tier';
import type { ResolvedConfig } from '../../../src/core/config/load';
import { callFor, sendJson, type FakeBehaviour } from './helpers';
import { capturedText, leakWorld, plantedCalls, plantedTranscript, survivingSecrets } from './leak-harness';
import { PLANTED_ENV, plantedSecrets } from './planted-secrets';
import { aConfig } from '../../builders/config';

const world = leakWorld();

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

const PROVIDERS: Array<[string, ResolvedConfig['semantic']]> = [
  ['systemone', { mode: 'enforce', provider: 'systemone', url: '', apiKeyEnv: 'JUDGE_KEY' }],
  ['openai', { mode: 'enforce', provider: 'openai', url: '', model: 'gpt-test', apiKeyEnv: 'JUDGE_KEY' }],
  ['anthropic', { mode: 'enforce', provider: 'anthropic', url: '', model: 'claude-test', apiKeyEnv: 'JUDGE_KEY' }],
];

test('at least 30 planted secrets of different kinds', () => {
  const secrets = plantedSecrets();
  assert.ok(secrets.length >= 30, `${secrets.length}`);
  assert.equal(new Set(secrets.map((s) => s.value)).size, secrets.length);
});

for (const [provider, semantic] of PROVIDERS) {
  test(`${provider}: no planted secret, whole or in part, is in the bytes the judge received`, async () => {
    const { fake, project } = world;
    fake.behaviour = answerAll;
    const path = provider === 'systemone' ? '/judge' : provider === 'openai' ? '/v1/chat/completions' : '/v1/messages';
    const config = aConfig()
      .semantic({ ...semantic, url: fake.url(path) })
      .trusted()
      .build();
    const tier = createSemanticTier({ env: { ...PLANTED_ENV, JUDGE_KEY } });
    // One session: the prose in the transcript names passwords that only the Bash call shows to be
    // secrets; the later calls' envelopes scrub them because the session remembers what was found.
    const calls = plantedCalls(project, project.dir, plantedTranscript(project));
    const before = fake.requests.length;
    try {
      for (const event of calls) {
        const result = await tier.start({
          event,
          call: callFor(event, project.dir, project.home),
          config,
          projectRoot: project.dir,
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
    const haystack = capturedText(received);
    const survivors = survivingSecrets(haystack);
    assert.deepEqual(survivors, [], `surviving secrets: ${survivors.join(', ')}`);
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
