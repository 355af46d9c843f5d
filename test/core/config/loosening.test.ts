// Every config key change is classified: proven to tighten (applies at once) or
// a loosening (waits for a person). One row per key, both directions where the
// key has both, and a check that no key of the schema is left without a rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyConfigChange, CLASSIFIED_KEYS } from '../../../src/core/config/loosening';
import { configSchema, type WardenConfigFile } from '../../../src/core/config/schema';

type Row = [string, WardenConfigFile, WardenConfigFile, 'tightens' | 'loosens' | 'none'];

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

const ROWS: Row[] = [
  ['$schema has no effect', {}, { $schema: './schema.json' }, 'none'],
  ['a policy switched on', {}, { policies: { sudo: { enabled: true } } }, 'tightens'],
  ['a policy switched off', {}, { policies: { sudo: { enabled: false } } }, 'loosens'],
  ['a policy switch removed', { policies: { sudo: { enabled: true } } }, {}, 'loosens'],
  ['off back to on', { policies: { sudo: { enabled: false } } }, { policies: { sudo: { enabled: true } } }, 'tightens'],
  [
    'a deny list set where none was (it replaces the default list)',
    {},
    { policies: { 'git-push': { params: { protectedBranches: ['main'] } } } },
    'loosens',
  ],
  [
    'a deny list removed (the default comes back)',
    { policies: { p: { params: { denyPatterns: ['x'] } } } },
    {},
    'loosens',
  ],
  [
    'a deny list grows',
    { policies: { p: { params: { denyPatterns: ['x'] } } } },
    { policies: { p: { params: { denyPatterns: ['x', 'y'] } } } },
    'tightens',
  ],
  [
    'an allowance list shrinks',
    { policies: { p: { params: { allowHosts: ['a.example', 'b.example'] } } } },
    { policies: { p: { params: { allowHosts: ['a.example'] } } } },
    'tightens',
  ],
  [
    'an allowance list grows',
    { policies: { p: { params: { allowHosts: [] } } } },
    { policies: { p: { params: { allowHosts: ['a.example'] } } } },
    'loosens',
  ],
  [
    'a deny list shrinks',
    { policies: { p: { params: { denyPatterns: ['x', 'y'] } } } },
    { policies: { p: { params: { denyPatterns: ['x'] } } } },
    'loosens',
  ],
  ['an allowance switched off', {}, { policies: { p: { params: { allowTempDirs: false } } } }, 'tightens'],
  ['an allowance switched on', {}, { policies: { p: { params: { allowTempDirs: true } } } }, 'loosens'],
  ['any other parameter', {}, { policies: { p: { params: { maxFiles: 10 } } } }, 'loosens'],
  ['a tool face added', {}, { toolFaces: { MyTool: { family: 'other' } } }, 'loosens'],
  ['a tool face removed', { toolFaces: { MyTool: { family: 'shell' } } }, {}, 'loosens'],
  ['allowTools set', {}, { allowTools: ['Read'] }, 'tightens'],
  ['allowTools narrowed', { allowTools: ['Read', 'Bash'] }, { allowTools: ['Read'] }, 'tightens'],
  ['allowTools widened', { allowTools: ['Read'] }, { allowTools: ['Read', 'Bash'] }, 'loosens'],
  ['allowTools removed', { allowTools: ['Read'] }, {}, 'loosens'],
  ['a redaction allow-list hash added', {}, { redaction: { allowlist: [HASH_A] } }, 'loosens'],
  [
    'a redaction allow-list hash removed',
    { redaction: { allowlist: [HASH_A, HASH_B] } },
    { redaction: { allowlist: [HASH_A] } },
    'tightens',
  ],
  ['semantic switched on', {}, { semantic: { mode: 'enforce' } }, 'loosens'],
  [
    'semantic judge moved',
    { semantic: { url: 'http://127.0.0.1:1' } },
    { semantic: { url: 'http://127.0.0.1:2' } },
    'loosens',
  ],
  ['semantic switched off', { semantic: { mode: 'enforce' } }, { semantic: { mode: 'off' } }, 'loosens'],
  ['cloud checks configured', {}, { cloud: { mode: 'observe' } }, 'loosens'],
  ['approvals timeout changed', {}, { approvals: { timeoutSeconds: 30 } }, 'loosens'],
  ['failure decision to allow', {}, { failure: { decision: 'allow' } }, 'loosens'],
  ['deterministic budget lowered', {}, { budget: { deterministicMs: 500 } }, 'tightens'],
  ['deterministic budget raised', {}, { budget: { deterministicMs: 10_000 } }, 'loosens'],
  ['failure decision to ask', {}, { failure: { decision: 'ask' } }, 'loosens'],
  ['failure decision back to deny', { failure: { decision: 'allow' } }, { failure: { decision: 'deny' } }, 'tightens'],
  ['failure decision allow to ask', { failure: { decision: 'allow' } }, { failure: { decision: 'ask' } }, 'tightens'],
  ['failure decision deny spelled out', {}, { failure: { decision: 'deny' } }, 'tightens'],
  ['log keeps more', {}, { log: { maxBytes: 64 * 1024 * 1024, keep: 9 } }, 'tightens'],
  ['log keeps less', {}, { log: { maxBytes: 4096 } }, 'loosens'],
  ['log keeps fewer files', { log: { keep: 9 } }, { log: { keep: 2 } }, 'loosens'],
  ['a trusted root added', {}, { trustedRoots: ['~/work'] }, 'loosens'],
  ['a trusted root removed', { trustedRoots: ['~/work', '~/play'] }, { trustedRoots: ['~/work'] }, 'tightens'],
  ['Cloud turned on', {}, { cloud: { mode: 'enforce', url: 'https://c.example', machineId: 'm' } }, 'loosens'],
  ['Cloud turned off', { cloud: { mode: 'enforce' } }, { cloud: { mode: 'off' } }, 'loosens'],
  ['Cloud enforce to observe', { cloud: { mode: 'enforce' } }, { cloud: { mode: 'observe' } }, 'loosens'],
  ['Cloud observe to enforce', { cloud: { mode: 'observe' } }, { cloud: { mode: 'enforce' } }, 'tightens'],
  [
    'the Cloud URL changed',
    { cloud: { url: 'https://a.example' } },
    { cloud: { url: 'https://b.example' } },
    'loosens',
  ],
  ['the Cloud key variable changed', { cloud: { keyEnv: 'A' } }, { cloud: { keyEnv: 'B' } }, 'loosens'],
  ['the machine id changed', { cloud: { machineId: 'a' } }, { cloud: { machineId: 'b' } }, 'loosens'],
  ['a Cloud policy observed', {}, { cloud: { observedPolicies: ['acme.x'] } }, 'loosens'],
  ['a Cloud policy no longer observed', { cloud: { observedPolicies: ['acme.x'] } }, { cloud: {} }, 'tightens'],
];

for (const [name, before, after, expected] of ROWS) {
  test(`config change: ${name} ${expected === 'none' ? 'changes nothing' : expected}`, () => {
    const changes = classifyConfigChange(before, after);
    if (expected === 'none') return assert.deepEqual(changes, []);
    assert.ok(changes.length > 0, 'the change is seen');
    const loosens = changes.some((c) => c.effect === 'loosens');
    assert.equal(loosens ? 'loosens' : 'tightens', expected, JSON.stringify(changes));
    for (const c of changes) assert.match(c.detail, /→/, 'each change says what it was and what it becomes');
  });
}

test('every key of the config schema has a classifier and a table row', () => {
  const schemaKeys = Object.keys(configSchema.shape).sort();
  assert.deepEqual([...CLASSIFIED_KEYS].sort(), schemaKeys);
  const covered = new Set(ROWS.flatMap(([, a, b]) => [...Object.keys(a), ...Object.keys(b)]));
  assert.deepEqual(
    schemaKeys.filter((k) => !covered.has(k)),
    [],
  );
});

test('a mixed change (one key tightens, another loosens) is a loosening', () => {
  const changes = classifyConfigChange({}, { policies: { sudo: { enabled: true }, git: { enabled: false } } });
  assert.deepEqual(
    changes.map((c) => [c.key, c.effect]),
    [
      ['policies.git.enabled', 'loosens'],
      ['policies.sudo.enabled', 'tightens'],
    ],
  );
});

test('a policy named like an Object member is compared as data', () => {
  const changes = classifyConfigChange(
    {},
    { policies: { constructor: { enabled: false }, __proto__x: { enabled: true } } },
  );
  assert.deepEqual(changes.find((c) => c.key === 'policies.constructor.enabled')?.effect, 'loosens');
});
