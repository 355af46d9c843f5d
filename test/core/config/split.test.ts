// A config change that both tightens and loosens is split: the tightening keys apply at once and
// only the loosening keys wait for a person. One row per shape of mixed change: keys side by side,
// nested keys, lists that gain one item and lose another, a file removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyConfigChange } from '../../../src/core/config/loosening';
import { splitTightening } from '../../../src/core/config/split';
import type { WardenConfigFile } from '../../../src/core/config/schema';

interface Row {
  name: string;
  before: WardenConfigFile;
  after: WardenConfigFile;
  /** The settings in force at once, or null when nothing can apply before a person confirms. */
  inForce: WardenConfigFile | null;
  /** The keys that wait, each with the words its announcement must hold. */
  waiting: [string, RegExp][];
}

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

const ROWS: Row[] = [
  {
    name: 'one policy switched on, another off',
    before: {},
    after: { policies: { sudo: { enabled: true }, git: { enabled: false } } },
    inForce: { policies: { sudo: { enabled: true } } },
    waiting: [['policies.git.enabled', /false/]],
  },
  {
    name: 'nested: a policy switched on while an allowance of the same policy is switched on',
    before: { policies: { 'write-outside-project': { params: { allowTempDirs: false } } } },
    after: { policies: { 'write-outside-project': { enabled: true, params: { allowTempDirs: true } } } },
    inForce: { policies: { 'write-outside-project': { enabled: true, params: { allowTempDirs: false } } } },
    waiting: [['policies.write-outside-project.params.allowTempDirs', /false → true/]],
  },
  {
    name: 'a protected-branch list that adds one and removes one',
    before: { policies: { 'git-push': { params: { protectedBranches: ['main', 'release*'] } } } },
    after: { policies: { 'git-push': { params: { protectedBranches: ['main', 'prod'] } } } },
    inForce: { policies: { 'git-push': { params: { protectedBranches: ['main', 'release*', 'prod'] } } } },
    waiting: [['policies.git-push.params.protectedBranches', /removes "release\*"/]],
  },
  {
    name: 'an allowance list that adds one and removes one',
    before: { policies: { 'suspicious-network-destination': { params: { allowHosts: ['a.example', 'b.example'] } } } },
    after: { policies: { 'suspicious-network-destination': { params: { allowHosts: ['a.example', 'c.example'] } } } },
    inForce: { policies: { 'suspicious-network-destination': { params: { allowHosts: ['a.example'] } } } },
    waiting: [['policies.suspicious-network-destination.params.allowHosts', /adds "c.example"/]],
  },
  {
    name: 'allowTools drops one tool and lets in another',
    before: { allowTools: ['Read', 'Bash'] },
    after: { allowTools: ['Read', 'Write'] },
    inForce: { allowTools: ['Read'] },
    waiting: [['allowTools', /adds "Write"/]],
  },
  {
    name: 'trusted roots: one removed, one added',
    before: { trustedRoots: ['~/work', '~/play'] },
    after: { trustedRoots: ['~/work', '~/clones'] },
    inForce: { trustedRoots: ['~/work'] },
    waiting: [['trustedRoots', /adds "~\/clones"/]],
  },
  {
    name: 'redaction allow-list: one hash swapped for another',
    before: { redaction: { allowlist: [HASH_A] } },
    after: { redaction: { allowlist: [HASH_B] } },
    inForce: { redaction: { allowlist: [] } },
    waiting: [['redaction.allowlist', /adds/]],
  },
  {
    name: 'failure made deny while the approval timeout changes and the log keeps less',
    before: { failure: { decision: 'allow' } },
    after: { failure: { decision: 'deny' }, approvals: { timeoutSeconds: 600 }, log: { keep: 1 } },
    inForce: { failure: { decision: 'deny' } },
    waiting: [
      ['approvals.timeoutSeconds', /600/],
      ['log.keep', /1/],
    ],
  },
  {
    name: 'Cloud moved to enforce while its URL changes',
    before: { cloud: { mode: 'observe', url: 'https://a.example' } },
    after: { cloud: { mode: 'enforce', url: 'https://b.example' } },
    inForce: { cloud: { mode: 'enforce', url: 'https://a.example' } },
    waiting: [['cloud.url', /b\.example/]],
  },
  {
    name: 'Cloud observes one policy fewer and another more',
    before: { cloud: { observedPolicies: ['acme.a', 'acme.b'] } },
    after: { cloud: { observedPolicies: ['acme.a', 'acme.c'] } },
    inForce: { cloud: { observedPolicies: ['acme.a'] } },
    waiting: [['cloud.observedPolicies', /adds "acme.c"/]],
  },
  {
    name: 'the file removed: a trusted root goes (tightens) and a policy switch goes (loosens)',
    before: { trustedRoots: ['~/work'], policies: { sudo: { enabled: true } } },
    after: {},
    inForce: { trustedRoots: [], policies: { sudo: { enabled: true } } },
    waiting: [['policies.sudo.enabled', /true → \(unset\)/]],
  },
  {
    name: 'only loosening: nothing applies at once',
    before: {},
    after: { failure: { decision: 'allow' }, policies: { sudo: { enabled: false } } },
    inForce: null,
    waiting: [],
  },
];

for (const row of ROWS) {
  test(`mixed config change: ${row.name}`, () => {
    const split = splitTightening(row.before, row.after, classifyConfigChange(row.before, row.after));
    if (row.inForce === null) return assert.equal(split, undefined);
    assert.ok(split, 'the tightening part applies on its own');
    assert.deepEqual(split.inForce, row.inForce);
    assert.deepEqual(
      split.waiting.map((c) => c.key),
      row.waiting.map(([key]) => key),
    );
    for (const [i, [, words]] of row.waiting.entries()) assert.match(split.waiting[i]!.detail, words);
    assert.ok(
      split.waiting.every((c) => c.effect === 'loosens'),
      'the announcement names only what waits',
    );
    assert.ok(
      classifyConfigChange(row.before, split.inForce).every((c) => c.effect === 'tightens'),
      'what applied at once only tightens',
    );
  });
}

test('a policy named __proto__ never reaches the prototype, and nothing unproven applies', () => {
  const before = JSON.parse('{"policies":{"__proto__":{"enabled":false}}}') as WardenConfigFile;
  const after = JSON.parse(
    '{"policies":{"__proto__":{"enabled":true}},"failure":{"decision":"allow"}}',
  ) as WardenConfigFile;
  const split = splitTightening(before, after, classifyConfigChange(before, after));
  assert.equal(({} as { enabled?: boolean }).enabled, undefined, 'Object.prototype untouched');
  // The schema drops a __proto__ key, so the settings after the split would lose the policy's
  // switch: not proven to tighten, so the whole change waits.
  assert.equal(split, undefined);
});
