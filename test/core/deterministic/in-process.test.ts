// One-shot commands evaluate in-process: a policy that spins forever is stopped by V8's own timeout,
// the call is unread (an ask that says Warden ran out of time), and the next call is answered as usual.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { Evaluator } from '../../../src/core/evaluator';
import { ALL_POLICIES } from '../../../src/core/policies/registry';
import { definePolicy } from '../../../src/core/policies/types';
import type { HookEvent } from '../../../src/core/types';
import { aProjectDir, aTempDir, removeDir } from '../../builders/tempProject';

const spinForever = definePolicy({
  name: 'test-spin-forever',
  category: 'workflow',
  description: 'Spins synchronously forever on a marked command (budget tests only).',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.command?.includes('spin-forever')) return null;
    for (;;) {
      // Endless on purpose.
    }
  },
});

let stateDir: string;
let project: string;

before(async () => {
  stateDir = aTempDir('in-process-state');
  project = aProjectDir('in-process-project');
  writeFileSync(join(stateDir, 'config.json'), JSON.stringify({ budget: { deterministicMs: 1500 } }));
  await Evaluator.ready({ warmUp: false });
});

after(() => {
  removeDir(stateDir);
  removeDir(project);
});

function bash(command: string): HookEvent {
  return {
    agent: 'claude',
    event: 'PreToolUse',
    rawEventName: 'PreToolUse',
    sessionId: 'in-process',
    cwd: project,
    toolName: 'Bash',
    toolInput: { command },
    raw: {},
  };
}

test('a spinning policy in-process: the call is an ask that ran out of time, and the next is answered', async () => {
  const evaluator = new Evaluator({ stateDir, home: stateDir, policies: [...ALL_POLICIES, spinForever] });
  const stuck = await evaluator.evaluate(bash('echo spin-forever'));
  assert.equal(stuck.merged.decision, 'ask');
  assert.match(stuck.merged.reason, /ran out of time.*longer than the 1500 ms budget/);
  assert.equal(stuck.record.outcomes[0]?.policy, 'budget');
  assert.equal(stuck.merged.outcomes[0]?.personOnly, true, 'only a person may answer it');

  const next = await evaluator.evaluate(bash('ls -la'));
  assert.equal(next.merged.decision, 'allow', next.merged.reason);
  const bomb = await evaluator.evaluate(bash(':(){ :|:& };:'));
  assert.equal(bomb.merged.decision, 'deny');
});

test('an untrusted project may lower the budget but not raise it', async () => {
  const lowering = aProjectDir('in-process-lowering');
  const raising = aProjectDir('in-process-raising');
  try {
    const evaluator = new Evaluator({ stateDir, home: stateDir });
    for (const [root, ms, expected] of [
      [lowering, 100, 100],
      [raising, 10_000, 1500],
    ] as const) {
      mkdirSync(join(root, '.agent-warden'), { recursive: true });
      writeFileSync(join(root, '.agent-warden', 'config.json'), JSON.stringify({ budget: { deterministicMs: ms } }));
      assert.equal(evaluator.configFor(root).deterministicBudgetMs, expected);
    }
  } finally {
    removeDir(lowering);
    removeDir(raising);
  }
});
