// `serve` honours SIGTERM at any time: with an ask held for the panel and calls in flight it still exits
// on its own (code 0), removes its endpoint record, and the log holds every call it answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, jsonLines, startServe } from '../builders/process';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

test('SIGTERM while an ask is held and calls are in flight: prompt exit 0, record removed, log complete', async (t) => {
  const project = aProjectDir('stop-project');
  const home = aTempDir('stop-home');
  t.after(() => {
    removeDir(project);
    removeDir(home);
  });
  const state = join(home, '.agent-warden');
  const serve = await startServe({ cwd: project, env: isolatedEnv(home) });
  t.after(() => serve.stop('SIGKILL'));
  const hookToken = readFileSync(serve.tokenFile, 'utf8').trim();
  // The one-time panel link sets the session cookie the panel API asks for.
  const { panelUrl } = JSON.parse(serve.readyLine) as { panelUrl: string };
  const opened = await fetch(panelUrl, { redirect: 'manual' });
  const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  assert.ok(cookie.includes('='), `the panel link sets a cookie (status ${opened.status})`);
  const panelAuth = { cookie };

  // An attached panel makes serve hold asks for a person instead of handing them to the agent.
  const stream = await fetch(`${serve.url}/api/events`, { headers: panelAuth });
  assert.equal(stream.status, 200);
  const hook = (command: string) =>
    fetch(`${serve.url}/hooks/claude`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hookToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(aHookEvent().bash(command).inCwd(project).body()),
    }).then(
      (res) => res.status,
      () => 'hung up' as const,
    );
  const held = hook('sudo apt-get install stop-test-package');
  for (let polls = 0; ; polls++) {
    const { pending } = (await (await fetch(`${serve.url}/api/pending`, { headers: panelAuth })).json()) as {
      pending: unknown[];
    };
    if (pending.length > 0) break;
    assert.ok(polls < 400, 'the ask is held for the panel');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const inFlight = Array.from({ length: 20 }, (_, i) => hook(`ls -la dir-${i}`));

  const exited = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
  serve.child.kill('SIGTERM');
  assert.equal(await exited, 0, 'serve exits with 0 on its own after SIGTERM');
  await stream.body?.cancel().catch(() => undefined);
  await Promise.all([held, ...inFlight]);

  assert.deepEqual(readdirSync(join(state, 'endpoints')), [], 'the endpoint record is removed');
  const records = jsonLines(join(state, 'activity.jsonl')).filter(
    (line) => (line as { type?: string }).type === 'record',
  ) as { toolInput?: { command?: string } }[];
  assert.ok(
    records.some((r) => r.toolInput?.command === 'sudo apt-get install stop-test-package'),
    'the held call is in the log',
  );
  for (const record of records) assert.equal(typeof record.toolInput?.command, 'string', 'every line is whole');
});
