import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configChanged, loadConfig } from '../../../src/core/config/load';
import { resolvePolicyStates, unknownPolicySettings } from '../../../src/core/policies/run';
import { ALL_POLICIES } from '../../../src/core/policies/registry';
import { aTempDir } from '../../builders/tempProject';

interface Layout {
  dir: string;
  stateDir: string;
  projectRoot: string;
  user: string;
  project: string;
  local: string;
  cli: string;
}

function layout(t: { after(fn: () => void): void }): Layout {
  const dir = aTempDir('scopes', t);
  const stateDir = join(dir, 'state');
  const projectRoot = join(dir, 'work', 'proj');
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(join(projectRoot, '.agent-warden'), { recursive: true });
  return {
    dir,
    stateDir,
    projectRoot,
    user: join(stateDir, 'config.json'),
    project: join(projectRoot, '.agent-warden', 'config.json'),
    local: join(projectRoot, '.agent-warden', 'config.local.json'),
    cli: join(dir, 'cli.json'),
  };
}

const put = (path: string, value: unknown) =>
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function stateOf(config: ReturnType<typeof loadConfig>, name: string) {
  const state = resolvePolicyStates(ALL_POLICIES, config).find((s) => s.policy.name === name);
  assert.ok(state, name);
  return state;
}

test('precedence: user < project < local < --config, for on/off and for parameters', (t) => {
  const l = layout(t);
  put(l.user, {
    trustedRoots: [join(l.dir, 'work')],
    policies: { 'large-file-write': { params: { maxBytes: 1000 } }, 'git-add-all': { enabled: false } },
  });
  put(l.project, {
    policies: { 'large-file-write': { params: { maxBytes: 2000 } }, 'git-add-all': { enabled: true } },
  });
  put(l.local, { policies: { 'large-file-write': { params: { maxBytes: 3000 } } } });
  let config = loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot });
  assert.deepEqual(config.errors, []);
  assert.equal(config.projectTrusted, true);
  assert.deepEqual(stateOf(config, 'large-file-write').params, { maxBytes: 3000 });
  assert.equal(stateOf(config, 'git-add-all').enabled, true);
  assert.equal(stateOf(config, 'git-add-all').source, 'project');

  put(l.cli, { policies: { 'large-file-write': { params: { maxBytes: 4000 } }, 'git-add-all': { enabled: false } } });
  config = loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot, cliConfigPath: l.cli });
  assert.deepEqual(stateOf(config, 'large-file-write').params, { maxBytes: 4000 });
  assert.equal(stateOf(config, 'git-add-all').enabled, false);
  assert.equal(stateOf(config, 'git-add-all').source, 'cli');
  assert.equal(stateOf(config, 'sudo').source, 'default');
});

test('an untrusted project may only tighten', (t) => {
  const l = layout(t);
  put(l.user, {
    failure: { decision: 'ask' },
    policies: { 'git-push-protected-branch': { params: { protectedBranches: ['main', 'trunk'] } } },
  });
  put(l.project, {
    policies: {
      sudo: { enabled: false },
      'stop-with-uncommitted-work': { enabled: true },
      'large-file-write': { params: { maxBytes: 999999999 } },
      'git-push-protected-branch': { params: { protectedBranches: ['staging'] } },
      'kubectl-mutation': { params: { allowPatterns: ['kubectl *'] } },
    },
    failure: { decision: 'allow' },
    semantic: { mode: 'off' },
    toolFaces: { mcp__x__y: { family: 'other' } },
  });
  const config = loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot });
  assert.equal(config.projectTrusted, false);
  assert.equal(stateOf(config, 'sudo').enabled, true, 'enabled=false is ignored');
  assert.equal(stateOf(config, 'stop-with-uncommitted-work').enabled, true, 'turning a policy on is tightening');
  assert.deepEqual(
    stateOf(config, 'large-file-write').params,
    { maxBytes: 1024 * 1024 },
    'a loosening parameter is ignored',
  );
  assert.deepEqual(
    stateOf(config, 'git-push-protected-branch').params,
    { protectedBranches: ['main', 'trunk', 'staging'] },
    'a deny list only grows',
  );
  assert.deepEqual(stateOf(config, 'kubectl-mutation').params, { allowPatterns: [] }, 'an allow list is loosening');
  assert.equal(config.failureDecision, 'ask', 'failure.decision=allow is ignored');
  assert.equal(config.faces.faceFor('mcp__x__y').builtIn, false);
  assert.equal(config.faces.faceFor('mcp__x__y').family, 'other');
  for (const key of ['sudo.enabled=false', 'large-file-write.params', 'failure.decision', 'semantic', 'toolFaces']) {
    assert.ok(
      config.warnings.some((w) => w.startsWith(l.project) && w.includes(key)),
      `a warning names ${key} and the file: ${config.warnings.join(' | ')}`,
    );
  }

  put(l.project, { failure: { decision: 'deny' } });
  put(l.user, { failure: { decision: 'allow' } });
  assert.equal(
    loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot }).failureDecision,
    'deny',
    'failure.decision=deny tightens',
  );
});

test('trust: trustedRoots (with ~ and nested projects) or the host answer; never from the project itself', (t) => {
  const l = layout(t);
  put(l.project, { policies: { sudo: { enabled: false } } });
  const home = l.dir;
  const load = (extra: { trustProject?: boolean } = {}) =>
    loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot, home, ...extra });
  assert.equal(load().projectTrusted, false);
  assert.equal(load({ trustProject: true }).projectTrusted, true);
  assert.equal(stateOf(load({ trustProject: true }), 'sudo').enabled, false);
  put(l.user, { trustedRoots: ['~/work'] });
  assert.equal(load().projectTrusted, true, 'a root trusts the projects below it, and ~ is the home folder');
  put(l.user, { trustedRoots: ['~/work/proj-other'] });
  assert.equal(load().projectTrusted, false, 'a sibling with a common prefix is not trusted');
  put(l.user, {});
  put(l.project, { trustedRoots: [l.projectRoot], policies: { sudo: { enabled: false } } });
  const selfTrust = load();
  assert.equal(selfTrust.projectTrusted, false);
  assert.ok(selfTrust.warnings.some((w) => w.includes('trustedRoots ignored')));
});

test('errors name the key and the file; a broken file is refused whole', (t) => {
  const l = layout(t);
  put(l.user, { policies: { sudo: { enabeld: true } } });
  put(l.local, '{ not json');
  put(l.project, { failure: { decision: 'maybe' } });
  const config = loadConfig({
    stateDir: l.stateDir,
    projectRoot: l.projectRoot,
    cliConfigPath: join(l.dir, 'missing.json'),
  });
  const text = config.errors.join('\n');
  assert.match(text, new RegExp(`${escape(l.user)}: policies\\.sudo: unknown key "enabeld"`));
  assert.match(text, new RegExp(`${escape(l.local)}: not valid JSON`));
  assert.match(text, new RegExp(`${escape(l.project)}: failure\\.decision: `));
  assert.match(text, /missing\.json: the --config file does not exist/);

  put(l.user, {
    policies: { 'large-file-write': { params: { maxBytes: 'big' } }, 'no-such-policy': { enabled: false } },
  });
  const bad = loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot });
  const state = stateOf(bad, 'large-file-write');
  assert.equal(state.enabled, true, 'a bad parameter never switches the policy off');
  assert.deepEqual(state.params, { maxBytes: 1024 * 1024 });
  assert.match(state.error ?? '', new RegExp(`^${escape(l.user)}: policies\\.large-file-write\\.params: maxBytes: `));
  assert.deepEqual(unknownPolicySettings(ALL_POLICIES, bad), [
    `${l.user}: policies.no-such-policy: no policy has this name (see agent-warden policies)`,
  ]);
});

test('hot reload: configChanged notices edits, new files and removed files', (t) => {
  const l = layout(t);
  put(l.user, { policies: { sudo: { enabled: true } } });
  const first = loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot });
  assert.equal(configChanged(first.files), false);
  put(l.user, { policies: { sudo: { enabled: false } } });
  assert.equal(configChanged(first.files), true, 'an edit');
  const second = loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot });
  assert.equal(stateOf(second, 'sudo').enabled, false, 'the reload sees the new value');
  assert.equal(configChanged(second.files), false);
  put(l.local, { policies: { sudo: { enabled: true } } });
  assert.equal(configChanged(second.files), true, 'a new scope file');
  const third = loadConfig({ stateDir: l.stateDir, projectRoot: l.projectRoot });
  assert.equal(stateOf(third, 'sudo').enabled, true);
  rmSync(l.local);
  assert.equal(configChanged(third.files), true, 'a removed file');
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
