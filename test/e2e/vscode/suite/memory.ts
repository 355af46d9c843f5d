import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { MEMORY_USAGE_COMMAND } from '../../../../src/extension/testProbes';
import { writeHandshake } from './handshake';

// The extension host's memory around a batch of hook calls: the suite reads it through the test-only
// command, hands over to the runner (run.test.ts), which sends the calls to the endpoint from outside
// the host, and reads it again once the runner says it is done. The runner reports the figures.

type Log = (message: string) => void;

interface Memory {
  heapUsed: number;
  rss: number;
}

async function readMemory(): Promise<Memory> {
  const usage = (await vscode.commands.executeCommand(MEMORY_USAGE_COMMAND, { collect: true })) as
    NodeJS.MemoryUsage | undefined;
  assert.ok(usage, `${MEMORY_USAGE_COMMAND} answered`);
  assert.ok(Number.isFinite(usage.heapUsed) && usage.heapUsed > 0, 'the heap figure is a positive number');
  assert.ok(Number.isFinite(usage.rss) && usage.rss > 0, 'the resident figure is a positive number');
  return { heapUsed: usage.heapUsed, rss: usage.rss };
}

export async function measureHostMemory(
  handshake: string,
  endpoint: { url: string; token: string; folder: string },
  log: Log,
): Promise<void> {
  const before = await readMemory();
  writeHandshake(join(handshake, 'memory-ready.json'), { ...endpoint, before });
  const sentFile = join(handshake, 'memory-sent.json');
  // The runner may send 100,000 calls (npm run bench:full); it says when it is done.
  for (const started = Date.now(); !existsSync(sentFile); await new Promise((r) => setTimeout(r, 200)))
    if (Date.now() - started > 3 * 60 * 60 * 1000)
      throw new Error('timed out waiting for the runner to send the calls');
  const { calls } = JSON.parse(readFileSync(sentFile, 'utf8')) as { calls: number };
  const after = await readMemory();
  writeHandshake(join(handshake, 'memory-after.json'), { calls, before, after });
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  log(
    `extension host memory over ${calls} calls: heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} MB, rss ${mb(after.rss)} MB`,
  );
}
