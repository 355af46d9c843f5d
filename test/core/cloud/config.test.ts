// The cloud.* settings: the schema, the scopes they may come from (never an untrusted project),
// and which of their changes loosen (need a person) or tighten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema } from '../../../src/core/config/schema';
import { loadConfig } from '../../../src/core/config/load';
import { classifyCloudChange } from '../../../src/core/config/cloud-changes';
import { classifyConfigChange } from '../../../src/core/config/loosening';
import { aTempDir } from '../../builders/tempProject';

const ON = { mode: 'enforce', url: 'https://cloud.example.com', keyEnv: 'ORG_KEY', machineId: 'm-1' } as const;

test('the schema takes every cloud key and refuses bad values by name', () => {
  assert.ok(
    configSchema.safeParse({ cloud: { ...ON, observedPolicies: ['acme.prod-guard'], timeoutMs: 5000 } }).success,
  );
  assert.ok(configSchema.safeParse({ cloud: { url: 'http://127.0.0.1:8787' } }).success, 'plain http to loopback');
  for (const [bad, key] of [
    [{ mode: 'on' }, 'mode'],
    [{ url: 'ftp://x.example' }, 'url'],
    [{ url: 'http://cloud.example.com' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ keyEnv: '' }, 'keyEnv'],
    [{ observedPolicies: ['acme/prod'] }, 'observedPolicies'],
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ timeoutMs: 60_001 }, 'timeoutMs'],
    [{ apiKey: 'inline-secret' }, ''],
  ] as const) {
    const parsed = configSchema.safeParse({ cloud: bad });
    assert.equal(parsed.success, false, JSON.stringify(bad));
    assert.ok(parsed.error!.issues.some((i) => i.path.join('.').startsWith(`cloud${key ? `.${key}` : ''}`)));
  }
});

function project(t: { after(fn: () => void): void }) {
  const dir = aTempDir('cloud-config', t);
  const stateDir = join(dir, 'state');
  const projectRoot = join(dir, 'proj');
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(join(projectRoot, '.agent-warden'), { recursive: true });
  return { dir, stateDir, projectRoot };
}

test('Cloud settings come from the user scope or a trusted project; an untrusted project\u2019s are ignored whole', (t) => {
  const { stateDir, projectRoot } = project(t);
  writeFileSync(join(stateDir, 'config.json'), JSON.stringify({ cloud: ON }));
  const hostile = { cloud: { url: 'https://collector.example.net', keyEnv: 'HOME', mode: 'observe' } };
  writeFileSync(join(projectRoot, '.agent-warden', 'config.json'), JSON.stringify(hostile));
  writeFileSync(join(projectRoot, '.agent-warden', 'config.local.json'), JSON.stringify(hostile));
  const untrusted = loadConfig({ stateDir, projectRoot });
  assert.deepEqual(untrusted.cloud, ON);
  assert.equal(untrusted.warnings.filter((w) => /cloud ignored/.test(w)).length, 2);
  const trusted = loadConfig({ stateDir, projectRoot, trustProject: true });
  assert.equal(trusted.cloud.url, 'https://collector.example.net');
  assert.equal(trusted.cloud.machineId, 'm-1', 'a trusted project overrides key by key');
});

test('turning Cloud on or off, changing where or as whom it sends, or observing more needs a person', () => {
  const effects = (before: object, after: object) =>
    classifyCloudChange({ cloud: before }, { cloud: after }).map((c) => [c.key, c.effect]);
  assert.deepEqual(effects({}, ON), [
    ['cloud.mode', 'loosens'],
    ['cloud.url', 'loosens'],
    ['cloud.keyEnv', 'loosens'],
    ['cloud.machineId', 'loosens'],
  ]);
  assert.deepEqual(effects(ON, { ...ON, mode: 'off' }), [['cloud.mode', 'loosens']]);
  assert.deepEqual(effects(ON, { ...ON, mode: 'observe' }), [['cloud.mode', 'loosens']]);
  assert.deepEqual(effects({ ...ON, mode: 'observe' }, ON), [['cloud.mode', 'tightens']]);
  assert.deepEqual(effects(ON, { ...ON, url: 'https://other.example.com' }), [['cloud.url', 'loosens']]);
  assert.deepEqual(effects(ON, { ...ON, observedPolicies: ['acme.a'] }), [['cloud.observedPolicies', 'loosens']]);
  assert.deepEqual(
    effects({ ...ON, observedPolicies: ['acme.a', 'acme.b'] }, { ...ON, observedPolicies: ['acme.b'] }),
    [['cloud.observedPolicies', 'tightens']],
  );
  assert.deepEqual(effects(ON, { ...ON, timeoutMs: 1000 }), [['cloud.timeoutMs', 'loosens']]);
  assert.deepEqual(effects(ON, { ...ON, timeoutMs: 9000 }), [['cloud.timeoutMs', 'tightens']]);
  assert.deepEqual(effects(ON, { ...ON }), []);
  assert.deepEqual(
    classifyConfigChange({ cloud: ON }, { cloud: { ...ON, url: 'https://x.example' } }).map((c) => [c.key, c.effect]),
    [['cloud.url', 'loosens']],
    'the config classifier uses these rules',
  );
  assert.match(
    classifyCloudChange({}, { cloud: ON })[1]!.detail,
    /cloud\.url: \(unset\) → "https:\/\/cloud\.example\.com"/,
  );
});
