// The Cloud machine key in VS Code: kept in SecretStorage like the judge keys, handed to the
// extension's tier under cloud.keyEnv (or a default name), and sent to the fake Cloud as the
// bearer credential; the process environment never holds it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { JudgeKeys, KEYED_PROVIDERS, type SecretStore } from '../../src/extension/judgeKeys';
import { createExtensionSemanticTier } from '../../src/extension/semanticTier';
import type { LanguageModelPort } from '../../src/extension/lmJudge';
import { FakeJudgeServer, ready } from '../core/semantic/helpers';
import { block } from '../core/cloud/contract-shapes';
import { answering, cloudCall } from '../core/cloud/helpers';
import { removeDir } from '../builders/tempProject';

function memorySecrets(initial: Record<string, string> = {}): SecretStore {
  const data = new Map(Object.entries(initial));
  return {
    get: async (key) => data.get(key),
    store: async (key, value) => void data.set(key, value),
    delete: async (key) => void data.delete(key),
  };
}

const noModels: LanguageModelPort = { models: async () => [] };

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

test('the machine key is one of the keys the Set Key command stores', () => {
  assert.ok((KEYED_PROVIDERS as readonly string[]).includes('cloud'));
});

test('a stored machine key goes under cloud.keyEnv (or the default name) in the tier env only', async () => {
  const keys = new JudgeKeys(memorySecrets({ cloud: 'org-machine-key-1' }), { ORG_KEY: 'from-the-shell' });
  await keys.load();
  const named = keys.prepareCloud({ mode: 'enforce', keyEnv: 'ORG_KEY' });
  assert.equal(named.keyEnv, 'ORG_KEY');
  assert.equal(keys.env.ORG_KEY, 'org-machine-key-1');
  const unnamed = keys.prepareCloud({ mode: 'enforce' });
  assert.equal(unnamed.keyEnv, 'AGENT_WARDEN_CLOUD_API_KEY');
  assert.equal(keys.env.AGENT_WARDEN_CLOUD_API_KEY, 'org-machine-key-1');
  assert.equal(process.env.AGENT_WARDEN_CLOUD_API_KEY, undefined);
  const off = { mode: 'off' as const };
  assert.equal(keys.prepareCloud(off), off, 'Cloud off: nothing is placed');
  await keys.set('cloud', '');
  assert.equal(keys.env.ORG_KEY, 'from-the-shell', 'what the shell had comes back');
});

test('the extension tier sends the stored machine key to Cloud as its bearer credential', async () => {
  fake.behaviour = answering(() => block());
  const keys = new JudgeKeys(memorySecrets({ cloud: 'org-machine-key-2' }), {});
  await keys.load();
  const tier = createExtensionSemanticTier({ languageModels: noModels, keys, allowlistKey: Buffer.alloc(32, 7) });
  const { input } = cloudCall(fake, worlds, { cloud: { keyEnv: undefined } });
  const result = await tier.start(input)!.result;
  await tier.close();
  assert.equal(result.cloud?.status, 'ok', result.cloud?.reason ?? '');
  assert.equal(fake.requests.at(-1)?.headers.authorization, 'Bearer org-machine-key-2');
});
