import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { panelCsp, renderPanelHtml } from '../../src/shared/panelHtml';
import { Disposable, DisposableScope, toDisposable } from '../../src/extension/disposable';
import { CSV_COLUMNS, toCsv, toJsonl } from '../../src/extension/exportActivity';
import { addAllowlistHash, setPolicyEnabled } from '../../src/extension/localConfig';
import { portCandidates, stablePort, STABLE_PORT_BASE, STABLE_PORT_SPAN } from '../../src/extension/port';
import { panelMessageSchema } from '../../src/shared/panelSchemas';
import { aVerdictRecord } from '../builders/record';
import { aTempDir } from '../builders/tempProject';

const digest = `sha256:${'d'.repeat(64)}`;

test('the host accepts well-formed panel messages and drops everything else', () => {
  const good = [
    { type: 'command', command: { type: 'ready', protocolVersion: 1 } },
    { type: 'command', command: { type: 'togglePolicy', policy: 'sudo', enabled: false } },
    { type: 'command', command: { type: 'copyDigest', digest } },
    {
      type: 'request',
      id: 1,
      method: 'approve',
      params: { approvalId: 'a1', answer: { decision: 'approve', digest } },
    },
    { type: 'request', id: 2, method: 'refuse', params: { approvalId: 'a1', digest, message: 'no' } },
    { type: 'request', id: 3, method: 'rescreenEdit', params: { approvalId: 'a1', editedInput: { command: 'ls' } } },
    { type: 'request', id: 4, method: 'reveal', params: { recordId: 'r1', source: 'arguments', spanIndex: 0 } },
    { type: 'request', id: 5, method: 'markerInfo', params: { recordId: 'r1', source: 'envelope', spanIndex: 3 } },
    { type: 'command', command: { type: 'notSecret', recordId: 'r1', source: 'envelope', spanIndex: 2 } },
  ];
  for (const message of good)
    assert.equal(panelMessageSchema.safeParse(message).success, true, JSON.stringify(message));
  const approve = panelMessageSchema.parse(good[3]);
  assert.equal(
    approve.type === 'request' && approve.method === 'approve' && approve.params.answer.scope,
    'once',
    'scope defaults to once',
  );
  const bad = [
    null,
    'ready',
    { type: 'command', command: { type: 'runShell', command: 'rm -rf /' } },
    { type: 'command', command: { type: 'copyDigest', digest: 'sha256:short' } },
    {
      type: 'request',
      id: -1,
      method: 'approve',
      params: { approvalId: 'a1', answer: { decision: 'approve', digest } },
    },
    {
      type: 'request',
      id: 1,
      method: 'approve',
      params: { approvalId: 'a1', answer: { decision: 'approve', digest, extra: true } },
    },
    { type: 'request', id: 1, method: 'approve', params: { approvalId: 'a1', answer: { decision: 'maybe', digest } } },
    { type: 'request', id: 1, method: 'delete', params: {} },
    {
      type: 'request',
      id: 1,
      method: 'rescreenEdit',
      params: { approvalId: 'a1', editedInput: ['not', 'an', 'object'] },
    },
    { type: 'request', id: 1, method: 'reveal', params: { recordId: 'r1', spanIndex: 0 } },
    { type: 'request', id: 1, method: 'reveal', params: { recordId: 'r1', source: 'disk', spanIndex: 0 } },
    { type: 'request', id: 1, method: 'markerInfo', params: { recordId: 'r1', source: 'arguments', spanIndex: -1 } },
    { type: 'command', command: { type: 'notSecret', recordId: '', source: 'arguments', spanIndex: 0 } },
    { type: 'command', command: { type: 'notSecret', recordId: 'r1', source: 'arguments', spanIndex: 0.5 } },
  ];
  for (const message of bad)
    assert.equal(panelMessageSchema.safeParse(message).success, false, JSON.stringify(message));
});

test('the panel page: strict CSP with the nonce, the transport named, host values escaped', () => {
  const nonce = 'bm9uY2Vub25jZW5vbmNlMTI=';
  const html = renderPanelHtml({
    scriptUri: 'https://file+.vscode-resource/x/panel.js?a=1&b="2"',
    styleUri: 'https://r/panel.css',
    nonce,
    cspSource: 'https://*.vscode-cdn.net',
    transport: 'vscode',
  });
  assert.ok(html.includes(`default-src 'none'`));
  assert.ok(html.includes(`script-src 'nonce-${nonce}'`));
  assert.ok(html.includes(`<script nonce="${nonce}"`));
  assert.ok(html.includes('data-transport="vscode"'));
  assert.ok(html.includes('a=1&amp;b=&quot;2&quot;'), 'attribute values are escaped');
  assert.ok(!/<script(?![^>]*nonce)/.test(html), 'every script carries the nonce');
  assert.match(panelCsp({ nonce, cspSource: 'self', transport: 'web' }), /connect-src 'self'/);
  assert.match(panelCsp({ nonce, cspSource: 'x', transport: 'vscode' }), /connect-src 'none'/);
  assert.throws(() =>
    renderPanelHtml({ scriptUri: '', styleUri: '', nonce: 'short', cspSource: 'self', transport: 'web' }),
  );
});

test('the stable port is the same for a workspace and inside the range; candidates fall back to any port', () => {
  const a = stablePort('/home/dev/project-a');
  assert.equal(stablePort('/home/dev/project-a/'), a);
  assert.ok(a >= STABLE_PORT_BASE && a < STABLE_PORT_BASE + STABLE_PORT_SPAN);
  const ports = new Set(Array.from({ length: 50 }, (_, i) => stablePort(`/w/${i}`)));
  assert.ok(ports.size > 40, 'different workspaces spread over the range');
  assert.deepEqual(portCandidates(0, '/home/dev/project-a'), [a, 0]);
  assert.deepEqual(portCandidates(5000, '/x'), [5000, 0]);
  assert.deepEqual(portCandidates(0, undefined), [0]);
});

test('disposables: reverse order, once only, and anything registered after death is disposed at once', () => {
  const order: string[] = [];
  const errors: string[] = [];
  const scope = new DisposableScope('endpoint', (m) => errors.push(m));
  scope.add(toDisposable(() => order.push('first')));
  scope.add({
    dispose: () => {
      throw new Error('boom');
    },
  });
  scope.add(toDisposable(() => order.push('last')));
  scope.dispose();
  scope.dispose();
  assert.deepEqual(order, ['last', 'first']);
  assert.equal(errors.length, 1);
  let late = false;
  scope.add(toDisposable(() => (late = true)));
  assert.equal(late, true);
  class Owner extends Disposable {
    hold(d: { dispose(): void }) {
      return this._register(d);
    }
  }
  const owner = new Owner();
  owner.dispose();
  let lateOwned = false;
  owner.hold({ dispose: () => (lateOwned = true) });
  assert.equal(lateOwned, true);
});

test('export: JSONL keeps every field; CSV has one row per call and defuses spreadsheet formulas', () => {
  const records = [
    aVerdictRecord().with({ reason: 'say "hi", then\nleave' }).build(),
    aVerdictRecord().with({ reason: '=HYPERLINK("http://x")', decision: 'deny' }).build(),
  ];
  const jsonl = toJsonl(records).trim().split('\n');
  assert.equal(jsonl.length, 2);
  assert.deepEqual(JSON.parse(jsonl[0]!), records[0]);
  const csv = toCsv(records).split('\r\n');
  assert.equal(csv[0], CSV_COLUMNS.join(','));
  assert.ok(csv[1]!.includes('"say ""hi"", then\nleave"'));
  assert.ok(csv[2]!.includes(`"'=HYPERLINK(""http://x"")"`));
  assert.equal(toJsonl([]), '');
});

test('a policy toggle writes the local config and keeps the other keys', (t) => {
  const dir = aTempDir('local', t);
  const path = join(dir, '.agent-warden', 'config.local.json');
  setPolicyEnabled(path, 'sudo', false);
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { policies: { sudo: { enabled: false } } });
  writeFileSync(
    path,
    JSON.stringify({ approvals: { timeoutSeconds: 30 }, policies: { sudo: { enabled: false, params: { a: 1 } } } }),
  );
  setPolicyEnabled(path, 'sudo', true);
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {
    approvals: { timeoutSeconds: 30 },
    policies: { sudo: { enabled: true, params: { a: 1 } } },
  });
  writeFileSync(path, '[1]');
  assert.throws(() => setPolicyEnabled(path, 'sudo', true), /does not hold a JSON object/);
});

test('an allow-list hash goes into redaction.allowlist once, beside the other keys; anything but a hash is refused', (t) => {
  const dir = aTempDir('local', t);
  const path = join(dir, '.agent-warden', 'config.local.json');
  setPolicyEnabled(path, 'sudo', false);
  const hash = 'e'.repeat(64);
  assert.equal(addAllowlistHash(path, hash), true);
  assert.equal(addAllowlistHash(path, hash), false);
  assert.equal(addAllowlistHash(path, 'f'.repeat(64)), true);
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {
    policies: { sudo: { enabled: false } },
    redaction: { allowlist: [hash, 'f'.repeat(64)] },
  });
  assert.throws(() => addAllowlistHash(path, 'hunter2'), /keyed hash/);
  assert.ok(!readFileSync(path, 'utf8').includes('hunter2'));
});
