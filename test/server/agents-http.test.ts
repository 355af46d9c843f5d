// Every agent through the real endpoint (WardenServer + HookService +
// Evaluator over node:http, POST /hooks/<agent>): a destructive shell call is
// refused in the agent's own shape, an ordinary one is no objection, a body
// that cannot be read is refused in the agent's shape, and an ask goes where
// the agent can take it: its own prompt (Claude Code, Gemini, Cursor), else a
// held approval in a connected panel, else a deny that says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { ActivityLog, readLogFile } from '../../src/core/activity/log';
import { Evaluator } from '../../src/core/evaluator';
import { HookService } from '../../src/server/hooks';
import { AskBroker } from '../../src/server/asks';
import { WardenServer } from '../../src/server/server';
import { reasonOf, verdictOf, type AgentId } from '../builders/agentPayloads';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

const TOKEN = 'agents-hook-token-' + 'y'.repeat(32);
const AGENTS: AgentId[] = ['claude', 'codex', 'gemini', 'cursor', 'copilot'];

let stateDir: string;
let project: string;
let log: ActivityLog;
let broker: AskBroker;
let server: WardenServer;

before(async () => {
  stateDir = aTempDir('agents-http-state');
  project = aProjectDir('agents-http-project');
  await Evaluator.ready();
  log = new ActivityLog({
    path: join(stateDir, 'activity.jsonl'),
    key: Buffer.alloc(32, 5),
    maxBytes: 64 << 20,
    keep: 2,
  });
  const evaluator = new Evaluator({ stateDir, log, home: stateDir });
  broker = new AskBroker({ evaluator, timeoutSeconds: 30, log });
  const hooks = new HookService({ evaluator, failureDecision: () => 'deny', asks: broker });
  server = new WardenServer({ hooks, hookToken: TOKEN, port: 0 });
  await server.listen();
});

after(async () => {
  await server.close();
  broker.close();
  log.close();
  removeDir(stateDir);
  removeDir(project);
});

function post(agent: string, body: string): Promise<{ status: number; json: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: `/hooks/${agent}`,
        headers: {
          host: `127.0.0.1:${server.port}`,
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function recordsOf(session: string): Record<string, unknown>[] {
  return readLogFile(log.path).entries.filter((e) => (e as Record<string, unknown>).sessionId === session) as Record<
    string,
    unknown
  >[];
}

for (const agent of AGENTS) {
  test(`${agent}: rm -rf / is refused in ${agent}'s own shape, and logged under ${agent}`, async () => {
    const session = `${agent}-destructive`;
    const { status, json } = await post(
      agent,
      JSON.stringify(aHookEvent().bash('rm -rf /').inCwd(project).session(session).body(agent)),
    );
    assert.equal(status, 200);
    assert.equal(verdictOf(agent, json), 'deny', JSON.stringify(json));
    assert.ok(reasonOf(agent, json).length > 10, 'the refusal says why');
    // Copilot sends no session id: Warden keys its calls by the folder, which the log may redact.
    const records = (
      agent === 'copilot'
        ? (readLogFile(log.path).entries as Record<string, unknown>[]).filter((e) => e.agent === 'copilot')
        : recordsOf(session)
    ).filter((r) => r.decision === 'deny');
    assert.ok(records.length >= 1, 'the endpoint logged the call');
    assert.equal(records.at(-1)!.agent, agent);
  });

  test(`${agent}: an ordinary call is no objection ({}, never an explicit allow)`, async () => {
    const { json } = await post(
      agent,
      JSON.stringify(aHookEvent().bash('ls -la').inCwd(project).session(`${agent}-ordinary`).body(agent)),
    );
    assert.deepEqual(json, {});
  });

  test(`${agent}: a body that cannot be read is refused in ${agent}'s shape`, async () => {
    for (const body of ['not json', '{}', JSON.stringify({ cwd: 7 })]) {
      const { status, json } = await post(agent, body);
      assert.equal(status, 200);
      assert.equal(verdictOf(agent, json), 'deny', `${body} -> ${JSON.stringify(json)}`);
      assert.match(reasonOf(agent, json), /could not evaluate/);
    }
  });
}

for (const agent of ['gemini', 'cursor'] as AgentId[]) {
  test(`${agent}: an ask goes to ${agent}'s own confirmation`, async () => {
    const { json } = await post(
      agent,
      JSON.stringify(aHookEvent().bash('sudo apt-get install -y jq').inCwd(project).body(agent)),
    );
    assert.equal(verdictOf(agent, json), 'ask', JSON.stringify(json));
  });
}

for (const agent of ['codex', 'copilot'] as AgentId[]) {
  test(`${agent}: with no panel, an ask becomes a deny that says ${agent} cannot ask`, async () => {
    const { json } = await post(
      agent,
      JSON.stringify(aHookEvent().bash('sudo apt-get install -y jq').inCwd(project).body(agent)),
    );
    assert.equal(verdictOf(agent, json), 'deny');
    assert.match(reasonOf(agent, json), /cannot ask its user from a hook/);
    assert.match(reasonOf(agent, json), /Warden panel/);
  });

  test(`${agent}: with a panel connected, an ask is held there and a person's approval lets it run`, async () => {
    const detach = broker.attachPanel();
    try {
      const session = `${agent}-held`;
      const reply = post(
        agent,
        JSON.stringify(aHookEvent().bash('sudo apt-get install -y jq').inCwd(project).session(session).body(agent)),
      );
      const mine = () =>
        broker.pending().filter((p) => p.sessionId === (agent === 'copilot' ? `copilot:${project}` : session));
      let pending = mine();
      for (let i = 0; i < 200 && pending.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        pending = mine();
      }
      assert.equal(pending.length, 1, 'the ask waits in the panel');
      assert.equal(pending[0]!.agent, agent);
      const answered = await broker.answer(
        pending[0]!.id,
        { decision: 'approve', scope: 'once', digest: pending[0]!.digest! },
        'tester',
      );
      assert.equal(answered.kind, 'ok');
      const { json } = await reply;
      // Codex takes no bare allow: the approved call runs as no objection. Copilot takes an explicit allow.
      if (agent === 'codex') assert.deepEqual(json, {});
      else assert.deepEqual(json.permissionDecision, 'allow');
    } finally {
      detach();
    }
  });
}

test('codex: apply_patch target paths are checked like writes', async () => {
  // A harmless line: only the path the patch writes can draw the refusal (a cron file's lines are judged too).
  const patch = '*** Begin Patch\n*** Add File: /etc/cron.d/evil\n+* * * * * root /usr/bin/true\n*** End Patch\n';
  const body = {
    ...(aHookEvent().bash('x').inCwd(project).body('codex') as object),
    tool_name: 'apply_patch',
    tool_input: { command: patch },
  };
  const { json } = await post('codex', JSON.stringify(body));
  assert.equal(verdictOf('codex', json), 'deny', JSON.stringify(json));
  assert.match(reasonOf('codex', json), /\/etc\/cron\.d\/evil|outside|system/);
  const inside = patch
    .replace('/etc/cron.d/evil', 'src/new.ts')
    .replace('* * * * * root /usr/bin/true', 'export const a = 1;');
  const ok = await post('codex', JSON.stringify({ ...body, tool_input: { command: inside } }));
  assert.deepEqual(ok.json, {});
});

test('codex: a shell argv array is read as the command it runs', async () => {
  const body = {
    ...(aHookEvent().bash('x').inCwd(project).body('codex') as object),
    tool_name: 'shell',
    tool_input: { command: ['bash', '-lc', 'rm -rf /'] },
  };
  const { json } = await post('codex', JSON.stringify(body));
  assert.equal(verdictOf('codex', json), 'deny');
});

test('gemini: write_file to a system file is not allowed; cursor beforeShellExecution is checked', async () => {
  const write = {
    ...(aHookEvent().bash('x').inCwd(project).body('gemini') as object),
    tool_name: 'write_file',
    tool_input: { file_path: '/etc/passwd', content: 'x' },
  };
  const g = await post('gemini', JSON.stringify(write));
  assert.notEqual(verdictOf('gemini', g.json), 'none', JSON.stringify(g.json));
  const shell = {
    hook_event_name: 'beforeShellExecution',
    conversation_id: 'c',
    generation_id: 'g',
    workspace_roots: [project],
    command: 'rm -rf ~',
    cwd: project,
  };
  const c = await post('cursor', JSON.stringify(shell));
  assert.equal(verdictOf('cursor', c.json), 'deny');
});
