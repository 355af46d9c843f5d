// Loosening needs a person: with the confirmation store (as every host loads
// config), a change to the user, project or local file that is not proven to
// tighten is held and the last confirmed version stays in force; tightening
// applies at once; a confirmation an agent writes itself does not verify.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configChanged, describeHeld, loadConfig } from '../../../src/core/config/load';
import { confirmationStore, type ConfirmationStore } from '../../../src/core/config/confirmations';
import { aTempDir, removeDir } from '../../builders/tempProject';

interface World {
  stateDir: string;
  projectRoot: string;
  user: string;
  local: string;
  store: ConfirmationStore;
  load(): ReturnType<typeof loadConfig>;
}

function world(t: { after(fn: () => void): void }, key = Buffer.alloc(32, 5)): World {
  const dir = aTempDir('confirmations');
  t.after(() => removeDir(dir));
  const stateDir = join(dir, 'state');
  const projectRoot = join(dir, 'project');
  mkdirSync(stateDir, { recursive: true });
  mkdirSync(join(projectRoot, '.agent-warden'), { recursive: true });
  const store = confirmationStore(stateDir, () => key);
  return {
    stateDir,
    projectRoot,
    user: join(stateDir, 'config.json'),
    local: join(projectRoot, '.agent-warden', 'config.local.json'),
    store,
    load: () => loadConfig({ stateDir, projectRoot, confirmations: store }),
  };
}

const put = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value));
const sudoEnabled = (w: World) => w.load().policySettings.get('sudo')?.enabled;

test('a policy switched off by a file nobody confirmed stays on, and the change is held naming the key', (t) => {
  const w = world(t);
  put(w.user, { policies: { sudo: { enabled: false } } });
  const config = w.load();
  assert.equal(config.policySettings.get('sudo'), undefined, 'the default (on) stays in force');
  assert.equal(config.held.length, 1);
  assert.equal(config.held[0]!.path, w.user);
  assert.deepEqual(
    config.held[0]!.changes.map((c) => [c.key, c.effect]),
    [['policies.sudo.enabled', 'loosens']],
  );
});

test('the failure decision made allow by an agent stays deny until a person confirms it; then it applies', (t) => {
  const w = world(t);
  put(w.local, { failure: { decision: 'allow' } });
  assert.equal(w.load().failureDecision, 'deny');
  const held = w.load().held[0]!;
  w.store.confirm(held.path, held.text, 'person');
  const after = w.load();
  assert.equal(after.failureDecision, 'allow');
  assert.deepEqual(after.held, []);
});

test('tightening applies at once and becomes the baseline: undoing it later is a loosening', (t) => {
  const w = world(t);
  put(w.user, { policies: { sudo: { enabled: true } }, failure: { decision: 'deny' } });
  assert.equal(sudoEnabled(w), true);
  assert.deepEqual(w.load().held, []);
  rmSync(w.user);
  const config = w.load();
  assert.equal(config.policySettings.get('sudo')?.enabled, true, 'the removed file still counts until confirmed');
  assert.equal(config.held[0]!.text, null);
});

test('from a confirmed loosening, a further loosening is held while the confirmed one stays in force', (t) => {
  const w = world(t);
  put(w.user, { policies: { sudo: { enabled: false } } });
  w.store.confirm(w.user, readFileSync(w.user, 'utf8'), 'person');
  assert.equal(sudoEnabled(w), false);
  put(w.user, { policies: { sudo: { enabled: false } }, failure: { decision: 'allow' } });
  const config = w.load();
  assert.equal(config.failureDecision, 'deny');
  assert.equal(config.policySettings.get('sudo')?.enabled, false, 'the confirmed version applies');
});

test('a confirmation the agent writes (no key, another key, edited text) does not verify', (t) => {
  const w = world(t);
  put(w.user, { failure: { decision: 'allow' } });
  const text = readFileSync(w.user, 'utf8');
  confirmationStore(w.stateDir, () => Buffer.alloc(32, 6)).confirm(w.user, text, 'person');
  assert.equal(w.load().failureDecision, 'deny', 'signed with another key');
  w.store.confirm(w.user, text, 'person');
  const dir = join(w.stateDir, 'confirmed-config');
  const [file] = readdirSync(dir);
  const record = JSON.parse(readFileSync(join(dir, file!), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, file!), JSON.stringify({ ...record, text: '{"failure":{"decision":"ask"}}' }));
  assert.equal(w.load().failureDecision, 'deny', 'edited text under the old MAC');
  writeFileSync(join(dir, file!), JSON.stringify({ ...record, mac: undefined }));
  assert.equal(w.load().failureDecision, 'deny', 'no MAC');
  assert.equal(confirmationStore(w.stateDir, () => undefined).get(w.user), undefined, 'no key: nothing verifies');
});

test('a file made unreadable (bad JSON, unknown key) is held: the confirmed settings stay in force', (t) => {
  const w = world(t);
  put(w.user, { policies: { sudo: { enabled: true } } });
  assert.equal(sudoEnabled(w), true);
  for (const text of ['{ not json', JSON.stringify({ polices: {} })]) {
    writeFileSync(w.user, text);
    const config = w.load();
    assert.equal(config.policySettings.get('sudo')?.enabled, true, text);
    assert.match(config.held[0]!.problem ?? '', /cannot be read as Warden config/);
  }
});

test('a confirmation is noticed by hot reload', (t) => {
  const w = world(t);
  put(w.user, { failure: { decision: 'allow' } });
  const before = w.load();
  assert.equal(configChanged(before.files, w.store), false);
  w.store.confirm(w.user, readFileSync(w.user, 'utf8'), 'person');
  assert.equal(configChanged(before.files, w.store), true);
});

test("the --config file is the person's own command line: it applies without a confirmation", (t) => {
  const w = world(t);
  const cli = join(w.stateDir, '..', 'cli.json');
  put(cli, { failure: { decision: 'allow' } });
  const config = loadConfig({
    stateDir: w.stateDir,
    projectRoot: w.projectRoot,
    cliConfigPath: cli,
    confirmations: w.store,
  });
  assert.equal(config.failureDecision, 'allow');
  assert.deepEqual(config.held, []);
});

test('a mixed change: the tightening keys apply at once, only the loosening keys are held and announced', (t) => {
  const w = world(t);
  put(w.user, { policies: { 'git-push': { params: { protectedBranches: ['main', 'release*'] } } } });
  w.store.confirm(w.user, readFileSync(w.user, 'utf8'), 'person');
  put(w.user, {
    policies: { sudo: { enabled: true }, 'git-push': { params: { protectedBranches: ['main', 'prod'] } } },
    failure: { decision: 'allow' },
  });
  for (const round of ['first load', 'reload']) {
    const config = w.load();
    assert.equal(config.policySettings.get('sudo')?.enabled, true, `${round}: the switch-on applies at once`);
    assert.deepEqual(
      config.policySettings.get('git-push')?.params.protectedBranches,
      ['main', 'release*', 'prod'],
      `${round}: the added branch is protected at once, the removed one stays protected`,
    );
    assert.equal(config.failureDecision, 'deny', `${round}: the loosening waits`);
    assert.equal(config.held.length, 1);
    const announced = describeHeld(config.held[0]!);
    assert.match(announced, /failure\.decision/);
    assert.match(announced, /removes "release\*"/);
    assert.doesNotMatch(announced, /sudo/, 'what already applied is not announced as waiting');
  }
  const held = w.load().held[0]!;
  w.store.confirm(held.path, held.text, 'person');
  const confirmed = w.load();
  assert.equal(confirmed.failureDecision, 'allow');
  assert.deepEqual(confirmed.policySettings.get('git-push')?.params.protectedBranches, ['main', 'prod']);
  assert.deepEqual(confirmed.held, []);
});

test('the tightening part of a mixed change is the new baseline: taking it back is held', (t) => {
  const w = world(t);
  put(w.user, { policies: { sudo: { enabled: true } }, failure: { decision: 'allow' } });
  assert.equal(sudoEnabled(w), true);
  put(w.user, { failure: { decision: 'allow' } });
  const config = w.load();
  assert.equal(config.policySettings.get('sudo')?.enabled, true, 'the switch-on stays in force');
  assert.equal(config.failureDecision, 'deny');
  assert.deepEqual(
    config.held[0]!.changes.map((c) => c.key),
    ['policies.sudo.enabled', 'failure.decision'],
  );
});
