// The deterministic budget through the real endpoint: a policy that spins synchronously forever (in a
// test-only worker) gets the unread ask, while /health and other calls keep being answered, and the
// worker it stuck is replaced so the next ordinary call is answered as usual.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ActivityLog, readLogFile } from '../../src/core/activity/log';
import { Evaluator } from '../../src/core/evaluator';
import { DeterministicPool } from '../../src/core/deterministic/pool';
import { HookService } from '../../src/server/hooks';
import { WardenServer } from '../../src/server/server';
import { aHookEvent } from '../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../builders/tempProject';

const TOKEN = 'test-hook-token-' + 'b'.repeat(32);
const SPIN = 'echo spin-forever';
// The default budget: the machine running the tests may be loaded, and an ordinary call must fit.
const BUDGET_MS = 2000;

let stateDir: string;
let project: string;
let log: ActivityLog;
let pool: DeterministicPool;
let server: WardenServer;
const errors: string[] = [];

before(async () => {
  stateDir = aTempDir('budget-state');
  project = aProjectDir('budget-project');
  writeFileSync(join(stateDir, 'config.json'), JSON.stringify({ budget: { deterministicMs: BUDGET_MS } }));
  log = new ActivityLog({
    path: join(stateDir, 'activity.jsonl'),
    key: Buffer.alloc(32, 5),
    maxBytes: 1 << 24,
    keep: 2,
  });
  pool = new DeterministicPool({
    workerFile: join(__dirname, '..', 'fixtures', 'workers', 'spinning.worker.js'),
    budgetMs: (config) => config.deterministicBudgetMs,
    onError: (message) => errors.push(message),
  });
  await pool.whenReady();
  const evaluator = new Evaluator({ stateDir, log, home: stateDir, deterministic: pool });
  server = new WardenServer({
    hooks: new HookService({ evaluator, failureDecision: () => 'deny' }),
    hookToken: TOKEN,
    port: 0,
  });
  await server.listen();
});

after(async () => {
  await server.close();
  await pool.close();
  log.close();
  removeDir(stateDir);
  removeDir(project);
});

interface PreToolUseReply {
  hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
}

async function hook(command: string, sessionId = 'budget-session'): Promise<PreToolUseReply> {
  const res = await fetch(`${server.url}/hooks/claude`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(aHookEvent().bash(command).inCwd(project).session(sessionId).body()),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as PreToolUseReply;
}

/** Polls /health until `done` settles; returns how many polls were answered with 200 before it did. */
async function healthWhile(done: Promise<unknown>): Promise<number> {
  let settled = false;
  void done.finally(() => (settled = true));
  let answered = 0;
  while (!settled) {
    const res = await fetch(`${server.url}/health`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { ok?: boolean }).ok, true);
    if (!settled) answered++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return answered;
}

function assertUnread(reply: PreToolUseReply, cause: RegExp): void {
  const out = reply.hookSpecificOutput;
  assert.equal(out?.permissionDecision, 'ask', JSON.stringify(reply));
  assert.match(out?.permissionDecisionReason ?? '', /ran out of time/);
  assert.match(out?.permissionDecisionReason ?? '', cause);
}

test('a call that spins forever gets the unread ask while /health and other calls are answered', async () => {
  const spinning = hook(SPIN, 'spinning-session');
  // Sent after the spin is under way: the pool's other worker answers it.
  const ordinary = hook('ls -la', 'other-session');
  const healthAnswers = await healthWhile(spinning);
  assert.ok(healthAnswers > 0, '/health answered while the call spun');
  assert.deepEqual(await ordinary, {}, 'the ordinary call beside it was answered as usual');
  assertUnread(await spinning, new RegExp(`longer than the ${BUDGET_MS} ms budget`));
  assert.ok(
    errors.some((e) => e.includes('is replaced')),
    'the host was told a worker was replaced',
  );

  const record = readLogFile(log.path).entries.find(
    (e) => (e as { toolInput?: { command?: string } }).toolInput?.command === SPIN,
  ) as { decision?: string; outcomes?: { policy: string }[] } | undefined;
  assert.equal(record?.decision, 'ask', 'the unread call is in the log as an ask');
  assert.deepEqual(
    record?.outcomes?.map((o) => o.policy),
    ['budget'],
  );
});

test('after a worker was replaced, ordinary and dangerous calls are answered as before', async () => {
  assert.deepEqual(await hook('git status'), {});
  const bomb = await hook(':(){ :|:& };:');
  assert.equal(bomb.hookSpecificOutput?.permissionDecision, 'deny');
  assert.match(bomb.hookSpecificOutput?.permissionDecisionReason ?? '', /Fork bomb/);
});

test('a call queued behind calls that hold every worker is unread too, not held without end', async () => {
  // Two spins take both workers; the third call waits at most one budget for a free one.
  const spins = [hook(SPIN, 'spin-a'), hook(SPIN, 'spin-b')];
  await new Promise((resolve) => setTimeout(resolve, 100));
  const queued = hook('ls', 'queued-session');
  const answers = await Promise.all([...spins, queued]);
  for (const spin of answers.slice(0, 2)) assertUnread(spin, /budget/);
  const last = answers[2]!;
  // Either it found no worker in time, or a replacement came up and answered it as usual.
  if (last.hookSpecificOutput) assertUnread(last, /free evaluator/);
  else assert.deepEqual(last, {});
  await pool.whenReady();
  assert.deepEqual(await hook('ls'), {}, 'the pool serves again once the spins were stopped');
});

test('a later call of the same session waits for the stuck one, then is answered on its own', async () => {
  const spinning = hook(SPIN, 'shared-session');
  const next = hook('pwd', 'shared-session');
  assertUnread(await spinning, /budget/);
  assert.deepEqual(await next, {});
});

test('closing the pool while a call spins ends it: the call is answered unread and the workers stop', async () => {
  const closing = new DeterministicPool({
    workerFile: join(__dirname, '..', 'fixtures', 'workers', 'spinning.worker.js'),
    budgetMs: () => 60_000,
  });
  await closing.whenReady();
  const evaluator = new Evaluator({ stateDir, home: stateDir, deterministic: closing });
  const evaluation = evaluator.evaluate({
    agent: 'claude',
    event: 'PreToolUse',
    rawEventName: 'PreToolUse',
    sessionId: 'closing',
    cwd: project,
    toolName: 'Bash',
    toolInput: { command: SPIN },
    raw: {},
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await closing.close();
  const { merged } = await evaluation;
  assert.equal(merged.decision, 'ask');
  assert.match(merged.reason, /shutting down/);
});
