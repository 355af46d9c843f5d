import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_POLICIES } from '../../../src/core/policies/registry';
import { formatPolicyTable, listPolicies } from '../../../src/core/policies/list';
import { resolvePolicyStates } from '../../../src/core/policies/run';
import { aConfig } from '../../builders/config';
import { ready, run } from './harness';
import type { CallSpec } from './harness';

const CATEGORIES = [
  'output-sanitizing',
  'secrets',
  'dangerous-commands',
  'infrastructure',
  'git',
  'database',
  'packages-and-system',
  'filesystem',
  'network',
  'agent-integrity',
  'workflow',
  'taint',
];

test('the library: at least 45 policies with stable names, defaults that parse, and one-line descriptions', () => {
  assert.ok(ALL_POLICIES.length >= 45, `${ALL_POLICIES.length} policies`);
  const names = ALL_POLICIES.map((p) => p.name);
  assert.equal(new Set(names).size, names.length, 'names are unique');
  for (const policy of ALL_POLICIES) {
    assert.match(policy.name, /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/, `${policy.name} is kebab-case`);
    assert.ok(CATEGORIES.includes(policy.category), `${policy.name}: category ${policy.category}`);
    assert.ok(['deny', 'ask', 'instruct'].includes(policy.decision), `${policy.name}: decision`);
    assert.ok(
      policy.description.length > 20 && policy.description.length < 240 && !policy.description.includes('\n'),
      `${policy.name}: one-line description`,
    );
    const defaults = policy.params.safeParse({});
    assert.ok(defaults.success, `${policy.name}: params.safeParse({}) yields the defaults`);
  }
  for (const category of CATEGORIES)
    assert.ok(
      ALL_POLICIES.some((p) => p.category === category),
      `category ${category} has a policy`,
    );
  const offByDefault = ALL_POLICIES.filter((p) => !p.defaultEnabled)
    .map((p) => p.name)
    .sort();
  assert.deepEqual(offByDefault, [
    'package-manager-preference',
    'stop-with-uncommitted-work',
    'stop-with-unpushed-commits',
  ]);
  assert.deepEqual(
    ALL_POLICIES.filter((p) => p.alwaysOn).map((p) => p.name),
    ['warden-self-protection', 'warden-self-defence', 'unread-call'],
  );
});

test('listPolicies and formatPolicyTable: state, source and parameters', () => {
  const config = aConfig().build();
  config.files = [{ scope: 'user', path: '/home/dev/.agent-warden/config.json', present: true, stamp: 'x' }];
  config.policySettings.set('stop-with-uncommitted-work', { enabled: true, enabledSource: 'user', params: {} });
  config.policySettings.set('large-file-write', { params: { maxBytes: 'x' }, paramsSource: 'user' });
  config.policySettings.set('warden-self-protection', { enabled: false, enabledSource: 'project', params: {} });
  const listing = listPolicies(resolvePolicyStates(ALL_POLICIES, config));
  assert.equal(listing.length, ALL_POLICIES.length);
  const byName = new Map(listing.map((l) => [l.name, l]));
  assert.deepEqual(
    {
      enabled: byName.get('stop-with-uncommitted-work')?.enabled,
      source: byName.get('stop-with-uncommitted-work')?.source,
      events: byName.get('stop-with-uncommitted-work')?.events,
    },
    { enabled: true, source: 'user', events: ['Stop'] },
  );
  assert.equal(byName.get('warden-self-protection')?.enabled, true);
  assert.equal(byName.get('warden-self-protection')?.source, 'always-on');
  assert.deepEqual(byName.get('git-push-protected-branch')?.params, {
    protectedBranches: ['main', 'master', 'production', 'release*'],
  });
  assert.match(
    byName.get('large-file-write')?.error ?? '',
    /config\.json: policies\.large-file-write\.params: maxBytes/,
  );
  assert.deepEqual(JSON.parse(JSON.stringify(listing)), listing, 'the listing is plain JSON for --json');

  const table = formatPolicyTable(listing);
  const lines = table.trimEnd().split('\n');
  assert.match(lines[0] ?? '', /^POLICY\s+CATEGORY\s+STATE\s+DECISION\s+SOURCE\s+PARAMS$/);
  const row = lines.find((l) => l.startsWith('git-push-protected-branch '));
  assert.match(
    row ?? '',
    /^git-push-protected-branch\s+git\s+on\s+ask\s+default\s+\{"protectedBranches":\["main","master","production","release\*"\]\}$/,
  );
  assert.match(lines.find((l) => l.startsWith('warden-self-protection ')) ?? '', /\salways-on\s+deny\s+always-on\s/);
  assert.match(lines.find((l) => l.startsWith('package-manager-preference ')) ?? '', /\soff\s+instruct\s+default\s/);
  assert.ok(
    lines.includes(
      `${ALL_POLICIES.length} policies, ${listing.filter((l) => l.enabled).length} on, ${listing.filter((l) => !l.enabled).length} off`,
    ),
  );
  assert.ok(lines.some((l) => l.startsWith('warning: ') && l.includes('large-file-write')));
  assert.ok(table.endsWith('\n'));
});

test('no policy throws on odd input (a throw would become a deny naming the policy)', async () => {
  await ready();
  const odd: CallSpec[] = [
    { bash: '' },
    { bash: 'constructor toString __proto__ hasOwnProperty' },
    { bash: 'psql constructor; kubectl __proto__; claude toString; npm valueOf' },
    { bash: "echo 'unterminated" },
    { bash: '$(' },
    { bash: 'x'.repeat(20000) },
    { bash: Array.from({ length: 300 }, (_, i) => `echo ${i}`).join(' | ') },
    { tool: 'Bash', input: { command: 42 } },
    { tool: 'Write', input: { file_path: 7, content: { nested: true } } },
    { tool: 'Edit', input: {} },
    { tool: 'read_many_files', input: { paths: [1, null, 'a.ts'] } },
    { tool: 'constructor', input: { path: '/etc/passwd' } },
    { tool: 'mcp__x__y', input: { sql: 12, query: null } },
    { event: 'PostToolUse', bash: 'ls', toolResponse: 'plain string output' },
    { event: 'PostToolUse', bash: 'ls', toolResponse: [1, 'two', { three: [null] }] },
    { event: 'Stop', root: '/nonexistent/project', cwd: '/nonexistent/project' },
    { event: 'UserPromptSubmit' },
  ];
  const allOn = aConfig();
  for (const p of ALL_POLICIES) allOn.policy(p.name);
  const states = resolvePolicyStates(ALL_POLICIES, allOn.build());
  for (const spec of odd) {
    const failed = run(spec, { states }).filter((o) => o.reason.includes('failed on this call'));
    assert.deepEqual(failed, [], JSON.stringify(spec).slice(0, 80));
  }
});
