import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ActivityLog } from '../../src/core/activity/log';
import { Evaluator } from '../../src/core/evaluator';
import { allowlistHash } from '../../src/core/redaction';
import type { HookEvent } from '../../src/core/types';
import { JudgeKeys } from '../../src/extension/judgeKeys';
import type { LanguageModelPort } from '../../src/extension/lmJudge';
import { localConfigPath } from '../../src/extension/localConfig';
import { RevealingEvaluator } from '../../src/extension/reveal/evaluator';
import { valueAt } from '../../src/extension/reveal/markers';
import { RevealService } from '../../src/extension/reveal/service';
import { NOT_IN_MEMORY, OriginalsStore } from '../../src/extension/reveal/store';
import { createExtensionSemanticTier } from '../../src/extension/semanticTier';
import { aHookEvent } from '../builders/hookEvent';
import { aTempProject, removeDir } from '../builders/tempProject';

// Reveal and "not a secret" on the host side: the originals behind a record's
// markers stay in memory for calls still in the buffer, and come out for one
// marker at a time; "not a secret" writes a keyed hash, never the value, and
// the detectors then skip exactly that value.

const GITHUB_TOKEN = 'ghp_' + 'Zq7Lx2Vb9Nw4Rt6Yp1Kd8Hs3Fg5Jm0Ca2Ue'.slice(0, 36);
const BUILD_ID = 'b7Kq9Xz2Lm4Np8Rt1Vw6Yc3Hd5Jf0Gs';

interface World {
  root: string;
  project: string;
  stateDir: string;
  key: Buffer;
  log: ActivityLog;
  live: Set<string>;
  originals: OriginalsStore;
  evaluator: RevealingEvaluator;
  service: RevealService;
}

async function world(opts: { semantic?: boolean } = {}): Promise<World> {
  await Evaluator.ready();
  const temp = aTempProject({ name: 'reveal' });
  const root = temp.root;
  const project = temp.dir;
  const stateDir = join(root, 'state');
  mkdirSync(stateDir, { recursive: true });
  const key = Buffer.alloc(32, 9);
  const log = new ActivityLog({ path: join(stateDir, 'activity.jsonl'), key, maxBytes: 1 << 20, keep: 2 });
  const live = new Set<string>();
  const originals = new OriginalsStore((id) => live.has(id));
  const keys = new JudgeKeys(
    { get: async () => undefined, store: async () => undefined, delete: async () => undefined },
    { PATH: '/bin' },
  );
  const calm: LanguageModelPort = {
    models: async () => [
      {
        id: 'calm',
        name: 'calm',
        vendor: 'test',
        family: 'calm',
        send: async (prompt) => {
          const ids = Object.keys(
            (JSON.parse(prompt.slice(prompt.lastIndexOf('\n') + 1)) as { questions: object }).questions,
          );
          return (async function* () {
            yield JSON.stringify(Object.fromEntries(ids.map((id) => [id, 0.02])));
          })();
        },
      },
    ],
  };
  const semantic = opts.semantic
    ? createExtensionSemanticTier({ languageModels: calm, keys, allowlistKey: key })
    : undefined;
  const evaluator = new RevealingEvaluator({
    stateDir,
    log,
    home: temp.home,
    trustProject: true,
    reloadCheckMs: 0,
    originals,
    allowlistKey: key,
    semanticEnv: keys.env,
    ...(semantic ? { semantic } : {}),
  });
  const service = new RevealService({ originals, allowlistKey: key, projectRootOf: () => project });
  return { root, project, stateDir, key, log, live, originals, evaluator, service };
}

function bash(w: World, command: string, transcriptPath?: string): HookEvent {
  const event = aHookEvent().bash(command, { description: 'test' }).session('s1').inCwd(w.project);
  return (transcriptPath ? event.transcript(transcriptPath) : event).build();
}

async function evaluate(w: World, event: HookEvent) {
  const evaluation = await w.evaluator.evaluate(event);
  w.live.add(evaluation.record.id);
  return evaluation.record;
}

function close(w: World): void {
  w.log.close();
  removeDir(w.root);
}

test('valueAt reads the tier part paths', () => {
  const root = { request: { input: { command: 'a', 'x-y': ['b', 'c'] } }, userSaid: ['d'] };
  assert.equal(valueAt(root, 'request.input.command'), 'a');
  assert.equal(valueAt(root, 'request.input["x-y"][1]'), 'c');
  assert.equal(valueAt(root, 'userSaid[0]'), 'd');
  assert.equal(valueAt(root, 'userSaid[3]'), undefined);
  assert.equal(valueAt(root, 'request.input.command.length'), undefined);
});

test('an argument marker: details and the original in memory only, never in the record or the log', async () => {
  const w = await world();
  try {
    const record = await evaluate(
      w,
      bash(w, `git clone https://x-access-token:${GITHUB_TOKEN}@github.com/acme/repo.git`),
    );
    const logged = JSON.stringify(record.toolInput);
    assert.ok(!logged.includes(GITHUB_TOKEN) && logged.includes('<redacted:'), `the record is redacted: ${logged}`);
    const info = w.service.markerInfo(record.id, 'arguments', 0);
    assert.equal(info.available, true);
    assert.equal(info.valueLength, GITHUB_TOKEN.length);
    assert.equal(info.part, 'arguments.command');
    assert.ok(info.detector && info.label);
    assert.ok(!JSON.stringify(info).includes(GITHUB_TOKEN), 'details never carry the value');
    assert.deepEqual(w.service.reveal(record.id, 'arguments', 0), { available: true, value: GITHUB_TOKEN });
    assert.equal(w.service.reveal(record.id, 'arguments', 1).available, false, 'no second marker');
    w.log.close();
    assert.ok(
      !readFileSync(join(w.stateDir, 'activity.jsonl'), 'utf8').includes(GITHUB_TOKEN),
      'the log never holds the value',
    );

    w.live.delete(record.id);
    assert.deepEqual(w.service.reveal(record.id, 'arguments', 0), { available: false, why: NOT_IN_MEMORY });
    assert.equal(w.originals.size, 0, 'a record gone from the buffer takes its originals with it');
  } finally {
    close(w);
  }
});

test('calls without markers keep nothing; the store stays bounded', async () => {
  const w = await world();
  try {
    await evaluate(w, bash(w, 'ls -la'));
    assert.equal(w.originals.size, 0);
    const small = new OriginalsStore(() => true, 3);
    for (let i = 0; i < 5; i++) small.add(`r${i}`, { arguments: [], envelope: new Map() });
    assert.equal(small.size, 3);
    assert.equal(small.lookup('r0', 'arguments', 0).ok, false);
  } finally {
    close(w);
  }
});

test('"not a secret" writes the keyed hash, never the value, and the detectors skip that value from then on', async () => {
  const w = await world();
  try {
    const command = `./deploy.sh --token ${BUILD_ID}`;
    const before = await evaluate(w, bash(w, command));
    assert.ok(!JSON.stringify(before.toolInput).includes(BUILD_ID), 'redacted at first');
    const result = w.service.notSecret(before.id, 'arguments', 0);
    assert.equal(result.added, true);
    const path = localConfigPath(w.project);
    assert.equal(result.path, path);
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes(BUILD_ID), 'the value is never written');
    const config = JSON.parse(text) as { redaction: { allowlist: string[] } };
    assert.deepEqual(config.redaction.allowlist, [allowlistHash(w.key, BUILD_ID)]);
    assert.equal(w.service.notSecret(before.id, 'arguments', 0).added, false, 'a second time adds nothing');
    assert.equal(
      (JSON.parse(readFileSync(path, 'utf8')) as { redaction: { allowlist: string[] } }).redaction.allowlist.length,
      1,
    );

    const after = await evaluate(w, bash(w, command));
    assert.deepEqual(after.toolInput, { command, description: 'test' }, 'the allow-listed value is no longer redacted');
    const other = await evaluate(w, bash(w, `./deploy.sh --token ${BUILD_ID.split('').reverse().join('')}`));
    assert.ok(JSON.stringify(other.toolInput).includes('<redacted:'), 'another value still is');
  } finally {
    close(w);
  }
});

test('an envelope marker: the original behind a span of what the person said, with the semantic tier on', async () => {
  const w = await world({ semantic: true });
  try {
    mkdirSync(join(w.project, '.agent-warden'), { recursive: true });
    writeFileSync(
      join(w.project, '.agent-warden', 'config.json'),
      JSON.stringify({ semantic: { mode: 'enforce', provider: 'vscode-lm' } }),
    );
    const transcript = join(w.root, 'transcript.jsonl');
    writeFileSync(
      transcript,
      JSON.stringify({
        type: 'user',
        message: { role: 'user', content: `clone our repo, my token is ${GITHUB_TOKEN}` },
      }) + '\n',
    );
    const record = await evaluate(w, bash(w, 'git status', transcript));
    assert.equal(record.semantic.status, 'ok', record.semantic.reason ?? '');
    const spans = record.redactions.spans ?? [];
    const index = spans.findIndex((s) => s.part.startsWith('userSaid'));
    assert.ok(index >= 0, `a span in what the person said: ${JSON.stringify(spans)}`);
    assert.ok(!JSON.stringify(record.envelope).includes(GITHUB_TOKEN));
    assert.deepEqual(w.service.reveal(record.id, 'envelope', index), { available: true, value: GITHUB_TOKEN });
    assert.equal(w.service.markerInfo(record.id, 'envelope', index).valueLength, GITHUB_TOKEN.length);
  } finally {
    close(w);
  }
});
