import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { writeHandshake } from './handshake';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WardenApi } from '../../../../src/extension/extension';
import { checkLanguageModelJudge, checkStoredApiKey } from './judge';
import { until } from '../until';
import { measureHostMemory } from './memory';
import { checkConnectAnotherAgent } from './connectAgent';

// Runs inside a real VS Code extension host (code-server), loaded through
// extensionTestsPath. It checks what only the host can see, then hands over to
// the browser side (run.test.ts) through files in the workspace's .e2e folder,
// and waits for it to finish driving the panel.

function log(message: string): void {
  console.log(`[suite] ${message}`);
}

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the test workspace is open');
  const handshake = join(folder, '.e2e');

  const extension = vscode.extensions.getExtension<WardenApi>('agent-warden.agent-warden');
  assert.ok(extension, 'the extension is installed from extensionDevelopmentPath');
  const api = await extension.activate();
  await api.ready;
  assert.equal(extension.isActive, true);
  log('activated');

  const url = api.endpointUrl();
  assert.ok(url, 'the endpoint is up');
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const health = (await (await fetch(`${url}/health`)).json()) as { ok: boolean; version: string };
  assert.equal(health.ok, true);
  log(`endpoint ${url} answers /health`);

  const home = process.env.AGENT_WARDEN_HOME;
  assert.ok(home, 'the runner sets AGENT_WARDEN_HOME');
  const records = readFileSync(join(home, 'endpoints', `${process.pid}-${new URL(url).port}.json`), 'utf8');
  const record = JSON.parse(records) as { host: string; workspaceRoot: string; url: string };
  assert.equal(record.host, 'extension');
  assert.equal(record.url, url);
  assert.equal(record.workspaceRoot, folder);
  log('endpoint record written');

  const connected = (await vscode.commands.executeCommand('agentWarden.connectClaude', {
    yes: true,
    preview: true,
    scope: 'local',
  })) as { path: string } | undefined;
  assert.ok(connected, 'the connect command returned its plan');
  const settingsFile = join(folder, '.claude', 'settings.local.json');
  assert.equal(connected.path, settingsFile);
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as {
    hooks: Record<
      string,
      { matcher?: string; hooks: { type: string; url: string; headers: Record<string, string> }[] }[]
    >;
  };
  const pre = settings.hooks.PreToolUse?.[0]?.hooks[0];
  assert.ok(pre, 'a PreToolUse hook was written');
  assert.equal(pre.type, 'http');
  assert.equal(pre.url, `${url}/hooks/claude`);
  assert.equal(pre.headers.Authorization, `Bearer ${api.hookToken()}`);
  assert.ok(settings.hooks.PermissionRequest, 'a PermissionRequest hook was written');
  log('connect wrote .claude/settings.local.json');

  await checkConnectAnotherAgent(folder, log);

  const endpoint = { url, token: api.hookToken() ?? '', folder };
  // Before the judge checks turn a judge on and before a panel attaches: the calls meet Warden alone.
  await measureHostMemory(handshake, endpoint, log);
  await checkLanguageModelJudge(endpoint, log);
  await checkStoredApiKey(endpoint, log);

  await vscode.commands.executeCommand('agentWarden.showPanel');
  await until('the panel to attach', () => api.attachedPanels() > 0 || undefined);
  log('panel attached');

  writeHandshake(join(handshake, 'suite-ready.json'), { url, token: api.hookToken(), folder });
  const done = await until(
    'the browser side to finish',
    () =>
      existsSync(join(handshake, 'browser-done.json'))
        ? readFileSync(join(handshake, 'browser-done.json'), 'utf8')
        : undefined,
    // The browser side also checks the ask notifications and, when asked to, measures a burst.
    process.env.AGENT_WARDEN_PANEL_BURST ? 800_000 : 300_000,
  );
  const outcome = JSON.parse(done) as { ok: boolean; error?: string };
  assert.equal(outcome.ok, true, outcome.error);

  await vscode.commands.executeCommand('agentWarden.disconnectClaude', { yes: true, preview: false });
  const after = JSON.parse(readFileSync(settingsFile, 'utf8')) as { hooks?: unknown };
  assert.equal(after.hooks, undefined, 'disconnect removed the hook entries');
  log('disconnect removed the hooks');
}
