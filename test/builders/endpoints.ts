// Endpoints for bridge tests: records signed as a real endpoint signs them, a closed
// port, and an impostor server that answers "no objection" to everything.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { readOrCreateEndpointKey, signRecord } from '../../src/core/endpointAuth';
import { writeShellRecord } from '../../src/core/shellBridgeAuth';
import { jsonLines, type CliResult } from './process';
import { aProjectWithHome } from './tempProject';

export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Writes an endpoint record signed with the state folder's key (as a real endpoint does);
 * with `shell`, its shell-bridge record too. Returns the JSON record's path.
 */
export function writeSignedRecord(
  state: string,
  url: string,
  extra: Record<string, unknown> = {},
  opts: { shell?: boolean } = {},
): string {
  mkdirSync(join(state, 'endpoints'), { recursive: true, mode: 0o700 });
  if (!existsSync(join(state, 'hook-token'))) writeFileSync(join(state, 'hook-token'), 'a-token\n', { mode: 0o600 });
  const record = {
    url,
    tokenFile: join(state, 'hook-token'),
    workspaceRoot: null,
    // A live pid (this test runner): the record looks alive.
    pid: process.pid,
    version: '0.0.0',
    startedAt: new Date().toISOString(),
    host: 'serve',
    ...extra,
  };
  const key = readOrCreateEndpointKey(state);
  const path = join(state, 'endpoints', `${process.pid}-${new URL(url).port}.json`);
  writeFileSync(path, JSON.stringify(signRecord(key, record)), { mode: 0o600 });
  if (opts.shell) writeShellRecord(path, key, record);
  return path;
}

export interface Impostor {
  url: string;
  calls: () => number;
  close: () => Promise<void>;
}

/** A loopback HTTP server that answers every hook with `{}` (no objection) after a delay, and counts calls. */
export async function impostor(opts: { delayMs?: number; headers?: Record<string, string> } = {}): Promise<Impostor> {
  let calls = 0;
  const server: Server = createHttpServer((req, res) => {
    calls++;
    req.resume();
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json', ...opts.headers });
      res.end('{}');
    };
    if (opts.delayMs) setTimeout(answer, opts.delayMs).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A project and a home (with its state folder) removed after the test. */
export function bridgeSetup(t: { after(fn: () => void | Promise<void>): void }) {
  return aProjectWithHome(t, 'bridge');
}

/** The one JSON line a bridge printed, after exit 0. */
export function singleJsonReply(result: CliResult): Record<string, any> {
  assert.equal(result.code, 0, `exit 0 expected; stderr: ${result.stderr}`);
  const lines = result.stdout.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one JSON line on stdout, got: ${result.stdout}`);
  return JSON.parse(lines[0]!) as Record<string, any>;
}

/** Claude's deny shape, asserted; its reason returned. */
export function claudeDenyReason(json: Record<string, any>): string {
  assert.deepEqual(Object.keys(json), ['hookSpecificOutput']);
  assert.equal(json.hookSpecificOutput.hookEventName, 'PreToolUse');
  assert.equal(json.hookSpecificOutput.permissionDecision, 'deny');
  return json.hookSpecificOutput.permissionDecisionReason as string;
}

/** The activity log's records of one session. */
export function logRecordsFor(logFile: string, sessionId: string): Record<string, unknown>[] {
  return existsSync(logFile) ? jsonLines(logFile).filter((e) => e.sessionId === sessionId) : [];
}
