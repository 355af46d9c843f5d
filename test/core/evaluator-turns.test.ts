// Calls of one session take turns through the deterministic tier; the next call's turn starts as soon
// as the one ahead has its answer, before that one's record is built and logged, so the evaluation
// worker evaluates it meanwhile rather than waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ActivityLog } from '../../src/core/activity/log';
import type { DeterministicRunner } from '../../src/core/deterministic/runner';
import { Evaluator } from '../../src/core/evaluator';
import type { HookEvent } from '../../src/core/types';
import type { VerdictRecord } from '../../src/core/verdict/record';
import { aTempDir } from '../builders/tempProject';

function bashCall(command: string, sessionId: string, cwd: string): HookEvent {
  return {
    agent: 'claude',
    event: 'PreToolUse',
    rawEventName: 'PreToolUse',
    sessionId,
    cwd,
    toolName: 'Bash',
    toolInput: { command },
    raw: {},
  };
}

test('the next call of a session reaches the deterministic tier before the call ahead of it is logged', async (t) => {
  const dir = aTempDir('evaluator-turns', t);
  const order: string[] = [];
  const log = new ActivityLog({ path: join(dir, 'activity.jsonl'), key: Buffer.alloc(32, 1), maxBytes: 1e6, keep: 1 });
  t.after(() => log.close());
  const append = log.append.bind(log);
  log.append = (entry: object) => {
    const input = (entry as VerdictRecord).toolInput as Record<string, unknown> | null;
    order.push(`logged ${String(input?.['command'])}`);
    append(entry);
  };
  const runner: DeterministicRunner = {
    run: async (input) => {
      order.push(`evaluated ${String(input.event.toolInput?.['command'])}`);
      // The first answer comes after the second call is already waiting for its turn.
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { ok: true, outcomes: [], sessionWrites: [], ioRecords: [] };
    },
    close: async () => undefined,
  };
  const evaluator = new Evaluator({ stateDir: join(dir, 'state'), home: dir, log, deterministic: runner });
  const first = evaluator.evaluate(bashCall('ls', 'one-session', dir));
  const second = evaluator.evaluate(bashCall('pwd', 'one-session', dir));
  await Promise.all([first, second]);
  assert.deepEqual(order, ['evaluated ls', 'evaluated pwd', 'logged ls', 'logged pwd']);
  // Alone, a call is logged with no wait for anything.
  order.length = 0;
  await evaluator.evaluate(bashCall('whoami', 'other-session', dir));
  assert.deepEqual(order, ['evaluated whoami', 'logged whoami']);
});
