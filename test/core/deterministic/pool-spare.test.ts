// The pool keeps one evaluation worker standing and starts a spare only when a call waits for one: a
// call stuck in the standing worker does not hold another session's call, and the spare stops once it
// has had no call for a while, giving its memory back.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { aSpinningPool } from '../../builders/spinningPool';

const SPARE_IDLE_MS = 400;
let started = 0;
const { pool, call, close } = aSpinningPool('pool-spare', {
  // Long enough that the spin is still stuck when the other call is answered, on a loaded machine too.
  budgetMs: () => 8000,
  onWorkerStarted: () => started++,
  spareIdleMs: SPARE_IDLE_MS,
});

after(close);

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('one worker stands; calls one after another never start a spare', async () => {
  await pool.whenReady();
  for (const command of ['ls', 'git status', 'rm -rf ~']) await call(command, 'one-by-one');
  assert.equal(pool.workers, 1);
  assert.equal(started, 1);
});

test("a call stuck in the standing worker starts a spare that answers another session's call", async () => {
  const spinning = call('echo spin-forever', 'stuck');
  const other = await call('rm -rf ~', 'another');
  assert.equal(other.merged.decision, 'deny', 'the spare evaluated it in full');
  assert.equal(pool.workers, 2);
  const stuck = await spinning;
  assert.equal(stuck.merged.decision, 'ask');
  assert.match(stuck.merged.reason, /budget/);
  assert.equal(pool.workers, 2, 'the spare stayed while the standing worker was stuck, past its idle time');
});

test('a spare without calls stops once the standing worker is back; the standing worker serves on', async () => {
  // The stuck worker was stopped at its budget and replaced; the spare outlived its idle time meanwhile.
  await pool.whenReady();
  await until(() => pool.workers === 1, 'the idle spare to stop');
  const after = await call('git log --oneline', 'later');
  assert.equal(after.merged.decision, 'allow');
  assert.equal(pool.workers, 1);
});
