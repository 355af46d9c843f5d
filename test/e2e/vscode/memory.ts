import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { writeHandshake } from './suite/handshake';

// The runner's side of the extension host's memory figure (see suite/memory.ts): once the suite has
// read the memory, send the calls to the extension's endpoint over keep-alive connections, tell the
// suite, and read back what it measured. The count comes from AGENT_WARDEN_E2E_MEMORY_CALLS (a modest
// default here; npm run bench:full asks for 100,000 and takes the figures from the file named by
// AGENT_WARDEN_BENCH_MEMORY_OUT). Only that the figures are reported is checked, never their size.

export const MEMORY_CALLS = Number(process.env.AGENT_WARDEN_E2E_MEMORY_CALLS ?? 200);
const CONNECTIONS = 8;

/** Calls no policy holds for a person: allows and denies only, so no ask or notification piles up. */
const COMMANDS = ['ls -la', 'git status', 'cat package.json', 'npm test', 'grep -rn TODO src', 'rm -rf /'];

function body(folder: string, index: number): string {
  return JSON.stringify({
    session_id: `e2e-memory-${Math.floor(index / 50)}`,
    transcript_path: join(folder, 'transcript.jsonl'),
    cwd: folder,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: `${COMMANDS[index % COMMANDS.length]} # ${index}`, description: 'e2e memory' },
    tool_use_id: `toolu_memory_${index}`,
  });
}

interface Reading {
  heapUsed: number;
  rss: number;
}

export async function sendMemoryCalls(
  handshake: string,
  until: <T>(what: string, probe: () => T | undefined | false, timeoutMs?: number) => Promise<T>,
  /** Throws when the suite has already ended, so the runner does not wait out its timeout. */
  suiteAlive: () => void,
): Promise<void> {
  const ready = await until(
    'the suite to read the extension host memory',
    () => {
      suiteAlive();
      const file = join(handshake, 'memory-ready.json');
      return existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string; folder: string })
        : undefined;
    },
    120_000,
  );
  const pool = new Pool(ready.url, { connections: CONNECTIONS, pipelining: 1 });
  let next = 0;
  let failed = 0;
  const connection = async () => {
    while (next < MEMORY_CALLS) {
      const res = await pool.request({
        path: '/hooks/claude',
        method: 'POST',
        headers: { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' },
        body: body(ready.folder, next++),
      });
      await res.body.text();
      if (res.statusCode !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  await pool.close();
  assert.equal(failed, 0, 'every call to the extension endpoint was answered');
  writeHandshake(join(handshake, 'memory-sent.json'), { calls: MEMORY_CALLS });
  const text = await until(
    'the suite to read the memory again',
    () => {
      suiteAlive();
      const file = join(handshake, 'memory-after.json');
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    },
    120_000,
  );
  const figures = JSON.parse(text) as { calls: number; before: Reading; after: Reading };
  for (const reading of [figures.before, figures.after])
    assert.ok(reading.heapUsed > 0 && reading.rss > 0, `the host's memory was reported: ${text}`);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `figure: extension host heap over ${figures.calls} calls: ${mb(figures.before.heapUsed)} -> ${mb(figures.after.heapUsed)} MB (growth ${mb(figures.after.heapUsed - figures.before.heapUsed)} MB), rss ${mb(figures.after.rss)} MB`,
  );
  const out = process.env.AGENT_WARDEN_BENCH_MEMORY_OUT;
  if (out) writeFileSync(out, text);
}
