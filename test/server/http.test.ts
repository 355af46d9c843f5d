// The real endpoint (WardenServer + HookService + Evaluator over node:http):
// who may talk to it, what every agent request gets back (200 and a verdict,
// even when the body cannot be evaluated), and that it keeps serving.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ActivityLog, readLogFile } from '../../src/core/activity/log';
import { Evaluator, type Evaluation } from '../../src/core/evaluator';
import type { HookEvent } from '../../src/core/types';
import { HookService } from '../../src/server/hooks';
import { WardenServer } from '../../src/server/server';
import { VERSION } from '../../src/core/version';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

const TOKEN = 'test-hook-token-' + 'x'.repeat(32);

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The log's record lines, read the moment the response headers arrived. */
  logAtResponse: Record<string, unknown>[];
}

interface Endpoint {
  server: WardenServer;
  log: ActivityLog;
  port: number;
}

let stateDir: string;
let project: string;
let main: Endpoint;
let smallCap: Endpoint;

async function startEndpoint(
  name: string,
  opts: { bodyCap?: number; evaluator?: (log: ActivityLog) => Evaluator } = {},
): Promise<Endpoint> {
  const log = new ActivityLog({
    path: join(stateDir, `${name}.jsonl`),
    key: Buffer.alloc(32, 3),
    maxBytes: 64 << 20,
    keep: 3,
  });
  const evaluator = opts.evaluator ? opts.evaluator(log) : new Evaluator({ stateDir, log, home: stateDir });
  const hooks = new HookService({ evaluator, failureDecision: () => 'deny' });
  const server = new WardenServer({
    hooks,
    hookToken: TOKEN,
    port: 0,
    ...(opts.bodyCap ? { bodyCap: opts.bodyCap } : {}),
  });
  await server.listen();
  return { server, log, port: server.port };
}

before(async () => {
  stateDir = aTempDir('http-state');
  project = aProjectDir('http-project');
  await Evaluator.ready();
  main = await startEndpoint('main');
  smallCap = await startEndpoint('small', { bodyCap: 1024 });
});

after(async () => {
  await main.server.close();
  await smallCap.server.close();
  main.log.close();
  smallCap.log.close();
  removeDir(stateDir);
  removeDir(project);
});

function send(
  endpoint: Endpoint,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${endpoint.port}`, ...opts.headers };
    if (opts.body !== undefined && !opts.chunked) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: endpoint.port,
        method: opts.method ?? 'POST',
        path: opts.path ?? '/hooks/claude',
        headers,
        agent: false,
      },
      (res) => {
        const logAtResponse = readLogFile(endpoint.log.path).entries;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, logAtResponse }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (opts.body === undefined) req.end();
    else if (opts.chunked) {
      // No content-length: the cap must hold on the bytes actually read.
      const body = Buffer.from(opts.body);
      for (let i = 0; i < body.length; i += 512) req.write(body.subarray(i, i + 512));
      req.end();
    } else req.end(opts.body);
  });
}

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

function hook(endpoint: Endpoint, body: unknown, headers: Record<string, string> = auth): Promise<Reply> {
  return send(endpoint, { headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** Asserts Claude Code's exact PreToolUse deny shape and returns the reason. */
function denyReason(reply: Reply): string {
  assert.equal(reply.status, 200, `status 200, body: ${reply.text}`);
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const json = JSON.parse(reply.text) as { hookSpecificOutput?: Record<string, unknown> };
  assert.deepEqual(Object.keys(json), ['hookSpecificOutput']);
  const out = json.hookSpecificOutput!;
  assert.deepEqual(Object.keys(out).sort(), ['hookEventName', 'permissionDecision', 'permissionDecisionReason']);
  assert.equal(out.hookEventName, 'PreToolUse');
  assert.equal(out.permissionDecision, 'deny');
  assert.equal(typeof out.permissionDecisionReason, 'string');
  return out.permissionDecisionReason as string;
}

test('no token → 401, and nothing is evaluated or logged', async () => {
  const countBefore = readLogFile(main.log.path).entries.length;
  const reply = await hook(main, aHookEvent().bash('rm -rf /').inCwd(project).body(), {
    'content-type': 'application/json',
  });
  assert.equal(reply.status, 401);
  assert.equal(readLogFile(main.log.path).entries.length, countBefore);
});

test('a wrong token → 401, whatever its length', async () => {
  for (const wrong of ['nope', TOKEN.slice(0, -1), TOKEN + 'x', TOKEN.replace(/x$/, 'y')]) {
    const reply = await hook(main, aHookEvent().bash('ls').inCwd(project).body(), {
      ...auth,
      authorization: `Bearer ${wrong}`,
    });
    assert.equal(reply.status, 401, wrong);
  }
  const basic = await hook(main, aHookEvent().bash('ls').inCwd(project).body(), {
    ...auth,
    authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`,
  });
  assert.equal(basic.status, 401);
});

test('an Origin header → 403, even with the right token', async () => {
  for (const origin of ['http://evil.example', `http://127.0.0.1:${main.port}`, 'null']) {
    const reply = await hook(main, aHookEvent().bash('ls').inCwd(project).body(), { ...auth, origin });
    assert.equal(reply.status, 403, origin);
  }
});

test('a non-loopback Host → 403, on hooks and on health', async () => {
  for (const host of [
    `evil.example:${main.port}`,
    'evil.example',
    `127.0.0.1:${main.port + 1}`,
    `127.0.0.1.evil.example:${main.port}`,
  ]) {
    const reply = await send(main, {
      headers: { ...auth, host },
      body: JSON.stringify(aHookEvent().bash('ls').inCwd(project).body()),
    });
    assert.equal(reply.status, 403, host);
    const health = await send(main, { method: 'GET', path: '/health', headers: { host } });
    assert.equal(health.status, 403, `health with Host ${host}`);
  }
  for (const host of [`localhost:${main.port}`, `[::1]:${main.port}`]) {
    const reply = await send(main, { method: 'GET', path: '/health', headers: { host } });
    assert.equal(reply.status, 200, host);
  }
});

test('malformed JSON → 200 with a deny naming the problem, and a failure record', async () => {
  const reply = await hook(main, '{"session_id": "s", "hook_event_name": ');
  const reason = denyReason(reply);
  assert.match(reason, /could not evaluate/);
  assert.match(reason, /not valid JSON/);
  const last = readLogFile(main.log.path).entries.at(-1)!;
  assert.equal(last.decision, 'deny');
  assert.match(String(last.failure), /not valid JSON/);
});

test('an over-cap body (declared length) → 200 with a deny naming the limit', async () => {
  const body = JSON.stringify(
    aHookEvent()
      .bash(`echo ${'a'.repeat(2000)}`)
      .inCwd(project)
      .body(),
  );
  const reason = denyReason(await hook(smallCap, body));
  assert.match(reason, /over the 1024-byte limit/);
});

test('an over-cap body sent chunked, with no length → 200 with a deny naming the limit', async () => {
  const body = JSON.stringify(
    aHookEvent()
      .bash(`echo ${'b'.repeat(5000)}`)
      .inCwd(project)
      .body(),
  );
  const reason = denyReason(await send(smallCap, { headers: auth, body, chunked: true }));
  assert.match(reason, /over the 1024-byte limit/);
});

test('a 17 MiB body against the default 16 MiB cap → 200 with a deny naming the limit', async () => {
  const big = JSON.stringify(
    aHookEvent()
      .bash('echo ' + 'c'.repeat(17 * 1024 * 1024))
      .inCwd(project)
      .body(),
  );
  const reason = denyReason(await hook(main, big));
  assert.match(reason, /over the 16777216-byte limit/);
});

test('a body just under the cap is evaluated normally', async () => {
  const body = JSON.stringify(aHookEvent().bash('ls -la').inCwd(project).body());
  assert.ok(Buffer.byteLength(body) < 1024);
  const reply = await hook(smallCap, body);
  assert.equal(reply.status, 200);
  assert.deepEqual(JSON.parse(reply.text), {});
});

test('a schema error (no session_id) → 200 with a deny naming the field', async () => {
  const body = aHookEvent().bash('ls').inCwd(project).body();
  delete body.session_id;
  const reason = denyReason(await hook(main, body));
  assert.match(reason, /session_id/);
});

test('a body that is JSON but not an object → 200 with a deny', async () => {
  for (const body of ['null', '[]', '42', '"text"'])
    assert.match(denyReason(await hook(main, body)), /not a JSON object/, body);
});

test('`rm -rf /` → a deny in Claude Code exact reply shape, logged before the reply', async () => {
  const body = aHookEvent().bash('rm -rf /').inCwd(project).session('session-rm-root').body();
  const reply = await hook(main, body);
  const reason = denyReason(reply);
  assert.ok(reason.length > 10, 'a reason a person can act on');
  const line = reply.logAtResponse.find((e) => e.sessionId === 'session-rm-root');
  assert.ok(line, 'the record line was in the log when the response arrived');
  assert.equal(line.decision, 'deny');
  assert.equal(line.toolName, 'Bash');
  assert.ok(Array.isArray(line.outcomes) && line.outcomes.length > 0);
});

test('`ls -la` → {} (no objection), logged before the reply', async () => {
  const reply = await hook(main, aHookEvent().bash('ls -la').inCwd(project).session('session-ls').body());
  assert.equal(reply.status, 200);
  assert.equal(reply.text, '{}');
  const line = reply.logAtResponse.find((e) => e.sessionId === 'session-ls');
  assert.ok(line, 'the record line was in the log when the response arrived');
  assert.equal(line.decision, 'allow');
});

test('an unknown event passes with no objection', async () => {
  const reply = await hook(main, { session_id: 's', cwd: project, hook_event_name: 'Notification', message: 'hi' });
  assert.equal(reply.status, 200);
  assert.deepEqual(JSON.parse(reply.text), {});
});

test('an agent without an adapter, even a prototype member name, gets 200 and a deny', async () => {
  for (const agent of ['nosuchagent', 'constructor']) {
    const reply = await send(main, {
      path: `/hooks/${agent}`,
      headers: auth,
      body: JSON.stringify(aHookEvent().bash('ls').inCwd(project).body()),
    });
    assert.equal(reply.status, 200, agent);
    assert.match(reply.text, /no adapter for agent/, agent);
    assert.match(reply.text, /"deny"/, agent);
  }
});

test('an internal error → 200 with the failure decision naming it, and the server goes on', async (t) => {
  class ExplodingEvaluator extends Evaluator {
    override async evaluate(_event: HookEvent): Promise<Evaluation> {
      throw new Error('the policy engine fell over');
    }
  }
  const exploding = await startEndpoint('exploding', {
    evaluator: (log) => new ExplodingEvaluator({ stateDir, log, home: stateDir }),
  });
  t.after(async () => {
    await exploding.server.close();
    exploding.log.close();
  });
  const reason = denyReason(await hook(exploding, aHookEvent().bash('ls').inCwd(project).body()));
  assert.match(reason, /internal error/);
  assert.match(reason, /the policy engine fell over/);
  const health = await send(exploding, { method: 'GET', path: '/health' });
  assert.equal(health.status, 200);
});

test('GET on a hook route is refused without evaluating, unknown routes are 404', async () => {
  assert.equal((await send(main, { method: 'GET', headers: { authorization: auth.authorization } })).status, 405);
  assert.equal((await send(main, { method: 'GET', path: '/nope' })).status, 404);
});

test('after all of these, /health still answers {ok:true, version}', async () => {
  for (const endpoint of [main, smallCap]) {
    const reply = await send(endpoint, { method: 'GET', path: '/health' });
    assert.equal(reply.status, 200);
    assert.deepEqual(JSON.parse(reply.text), { ok: true, version: VERSION });
  }
  assert.ok(readFileSync(main.log.path, 'utf8').length > 0);
});
