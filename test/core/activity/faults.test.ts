// Faults, with nothing silently allowed and nothing lost: the log unwritable
// (rows held in memory, the failure reported once, flushed in order later;
// past the bound the call fails closed), a writer killed mid-write again and
// again (every complete line still reads), and a hook body that stalls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ActivityLog, LogFullError, readLogFile } from '../../../src/core/activity/log';
import { Evaluator } from '../../../src/core/evaluator';
import { HookService } from '../../../src/server/hooks';
import { WardenServer } from '../../../src/server/server';
import { aHookEvent } from '../../builders/hookEvent';
import { aProjectDir, aTempDir, removeDir } from '../../builders/tempProject';

// Child mode: this file, run with AW_FAULT_WRITER set, is a writer that appends until killed.
if (process.env.AW_FAULT_WRITER) {
  const log = new ActivityLog({ path: process.env.AW_FAULT_WRITER, key: Buffer.alloc(32), maxBytes: 1 << 30, keep: 2 });
  const pad = 'x'.repeat(Number(process.env.AW_FAULT_PAD ?? '4000'));
  // On a loaded machine the kill can come late: past its share of the file the writer sleeps until it
  // comes, so the file stays small enough to read back as one string (a kill in the sleep tears nothing).
  const budget = 16 * 1024 * 1024;
  for (let n = 0; ; n++) {
    log.append({ type: 'record', writer: process.pid, n, pad });
    if ((n + 1) * pad.length > budget) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
} else {
  registerTests();
}

function registerTests(): void {
  test('log unwritable: the rows are held, the failure is said once, and they are written in order once it works again', (t) => {
    const dir = aTempDir('faults-held');
    t.after(() => removeDir(dir));
    const path = join(dir, 'activity.jsonl');
    const warnings: string[] = [];
    const log = new ActivityLog({
      path,
      key: Buffer.alloc(32),
      maxBytes: 1 << 20,
      keep: 2,
      onWarning: (m) => warnings.push(m),
    });
    log.append({ n: 0 });
    // A folder where the file should be: every open fails (EISDIR), whoever runs the test.
    rmSync(path, { force: true });
    mkdirSync(path);
    for (let n = 1; n <= 3; n++) log.append({ n });
    assert.equal(log.heldRows, 3);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /cannot be written \(EISDIR\); verdicts are still given and rows are held in memory/);
    rmdirSync(path);
    log.append({ n: 4 });
    log.close();
    assert.equal(log.heldRows, 0);
    assert.deepEqual(
      readLogFile(path).entries.map((e) => e.n),
      [1, 2, 3, 4],
      'the file was replaced by a folder and back: every row since is there, in order',
    );
    assert.match(warnings[1]!, /writable again; every held row was written/);
  });

  test('past the in-memory bound the log refuses, so the call fails closed instead of losing its row', (t) => {
    const dir = aTempDir('faults-bound');
    t.after(() => removeDir(dir));
    const path = join(dir, 'activity.jsonl');
    mkdirSync(path);
    const log = new ActivityLog({ path, key: Buffer.alloc(32), maxBytes: 1 << 20, keep: 2, maxHeldRows: 3 });
    for (let n = 0; n < 3; n++) log.append({ n });
    assert.throws(() => log.append({ n: 3 }), LogFullError);
    assert.equal(log.heldRows, 3, 'the refused row is not half-kept');
  });

  test('through the hook service: verdicts while rows are held, then deny with the reason once the bound is reached', async (t) => {
    await Evaluator.ready({ warmUp: false });
    const dir = aTempDir('faults-hooks');
    const project = aProjectDir('faults-project');
    t.after(() => (removeDir(dir), removeDir(project)));
    const path = join(dir, 'activity.jsonl');
    mkdirSync(path);
    const log = new ActivityLog({
      path,
      key: Buffer.alloc(32),
      maxBytes: 1 << 20,
      keep: 2,
      maxHeldRows: 2,
      onWarning: () => undefined,
    });
    const evaluator = new Evaluator({ stateDir: join(dir, 'state'), log, home: dir });
    const hooks = new HookService({ evaluator, failureDecision: () => 'deny' });
    const call = () =>
      hooks.handle(
        'claude',
        JSON.stringify(aHookEvent().bash('ls -la').inCwd(project).body()),
        new AbortController().signal,
      );
    assert.deepEqual((await call()).reply, {}, 'a verdict although the log cannot be written');
    assert.deepEqual((await call()).reply, {});
    const refused = (await call()).reply as {
      hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
    };
    assert.equal(refused.hookSpecificOutput?.permissionDecision, 'deny');
    assert.match(refused.hookSpecificOutput?.permissionDecisionReason ?? '', /activity log .* cannot be written/);
    rmdirSync(path);
    await call();
    log.close();
    assert.equal(
      readLogFile(path).entries.length,
      3,
      'the two held rows and the new one; the refused call could not be kept',
    );
  });

  test('a writer killed mid-write, again and again: every complete line reads, torn ones are skipped with a warning', async (t) => {
    const dir = aTempDir('faults-killed');
    t.after(() => removeDir(dir));
    const path = join(dir, 'activity.jsonl');
    const rounds = 12;
    for (let round = 0; round < rounds; round++) {
      const child = spawn(process.execPath, [__filename], {
        env: { PATH: process.env.PATH, AW_FAULT_WRITER: path, AW_FAULT_PAD: String(1000 + round * 5000) },
        stdio: 'ignore',
      });
      // Killed only once it is writing: on a loaded machine starting node alone can take longer than the delay.
      const before = sizeOrZero(path);
      for (let waited = 0; sizeOrZero(path) === before && waited < 60_000; waited += 20)
        await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 20 + ((round * 37) % 200)));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    const text = readFileSync(path, 'utf8');
    const { entries, warnings } = readLogFile(path);
    assert.ok(entries.length > rounds, `lines were written (${entries.length})`);
    const lines = text.split('\n').filter((l) => l !== '');
    assert.equal(entries.length + warnings.length, lines.length, 'every line either reads or is reported');
    assert.ok(warnings.length <= rounds, 'at most one torn line per kill');
    for (const w of warnings) assert.match(w, /truncated last line|corrupt line/);
    for (const e of entries) assert.equal(typeof e.n, 'number');
  });

  test('a hook body that stalls gets the failure decision once its own timeout passes, and the connection closes', async (t) => {
    await Evaluator.ready({ warmUp: false });
    const dir = aTempDir('faults-stall');
    t.after(() => removeDir(dir));
    const evaluator = new Evaluator({ stateDir: join(dir, 'state'), home: dir });
    const server = new WardenServer({
      hooks: new HookService({ evaluator, failureDecision: () => 'deny' }),
      hookToken: 'stall-token',
      bodyTimeoutMs: 300,
    });
    await server.listen();
    t.after(() => server.close());
    const response = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(
        `POST /hooks/claude HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer stall-token\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"hook_eve`,
      );
    });
    assert.match(response, /^HTTP\/1\.1 200/);
    assert.match(response, /connection: close/i);
    assert.match(response, /"permissionDecision":"deny"/);
    assert.match(response, /did not arrive within 0\.3 s/);
  });
}

function sizeOrZero(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
