// The facts a verdict rested on are in its record: the file system and git answers (from an
// injected source, faked here) and what could not be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Evaluator } from '../../../src/core/evaluator';
import { NO_FACT_SOURCE, type FactSource } from '../../../src/core/facts/io';
import { verdictRecordSchema } from '../../../src/core/verdict/record';
import type { HookEvent } from '../../../src/core/types';

function hookEvent(cwd: string, extra: Partial<HookEvent>): HookEvent {
  return { agent: 'claude', event: 'PreToolUse', rawEventName: 'PreToolUse', sessionId: 's', cwd, raw: {}, ...extra };
}

test('an unread call is asked about and its record says what could not be read', async () => {
  await Evaluator.ready({ warmUp: false });
  const state = mkdtempSync(join(tmpdir(), 'warden-rec-'));
  try {
    const evaluator = new Evaluator({ stateDir: state, factSource: NO_FACT_SOURCE });
    const result = await evaluator.evaluate(
      hookEvent(state, { toolName: 'Bash', toolInput: { command: '$(echo rm) -rf ~' } }),
    );
    assert.equal(result.record.decision, 'ask');
    assert.equal(result.record.facts?.unread[0]?.reason, 'dynamic-command');
    assert.ok(verdictRecordSchema.safeParse(result.record).success);
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('Stop policies ask git through the injected source, and the answers are recorded', async () => {
  await Evaluator.ready({ warmUp: false });
  const state = mkdtempSync(join(tmpdir(), 'warden-rec-'));
  const project = mkdtempSync(join(tmpdir(), 'warden-proj-'));
  try {
    mkdirSync(join(project, '.agent-warden'));
    writeFileSync(
      join(project, '.agent-warden', 'config.json'),
      JSON.stringify({ policies: { 'stop-with-uncommitted-work': { enabled: true } } }),
    );
    const asked: string[] = [];
    const fakeGit: FactSource = {
      ...NO_FACT_SOURCE,
      git: (args) => {
        asked.push(args.join(' '));
        return args[0] === 'status' ? ' M src/app.ts\n?? notes.md\n' : null;
      },
    };
    const evaluator = new Evaluator({ stateDir: state, factSource: fakeGit });
    const result = await evaluator.evaluate({ ...hookEvent(project, {}), event: 'Stop', rawEventName: 'Stop' });
    assert.equal(result.record.decision, 'deny', result.record.reason);
    assert.match(result.record.reason, /2 files have uncommitted changes \(src\/app\.ts, notes\.md\)/);
    assert.deepEqual(asked, ['status --porcelain']);
    assert.ok(result.record.facts?.io.some((r) => r.op === 'git' && r.arg.endsWith('git status --porcelain')));
  } finally {
    rmSync(state, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
});
