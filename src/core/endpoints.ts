import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from './state';
import { isInside } from './shell/paths';
import { isLoopbackUrl, signRecord, verifyRecord } from './endpointAuth';
import { shellRecordPath, writeShellRecord } from './shellBridgeAuth';

// A running endpoint (serve, or the extension for its workspace) records itself
// so install and the command bridge can find it. The agent can write into the
// state folder, so a record counts only when its MAC verifies under the state
// folder's endpoint key and its URL is on loopback; records of dead pids are ignored.
// No zod here: the bridge reads records on its forwarding path.

export interface EndpointRecord {
  url: string;
  tokenFile: string;
  workspaceRoot: string | null;
  pid: number;
  version: string;
  startedAt: string;
  panelUrl?: string;
  host: 'serve' | 'extension';
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function recordPath(endpointsDir: string, pid: number, port: string): string {
  return join(endpointsDir, `${pid}-${port}.json`);
}

export function writeEndpointRecord(endpointsDir: string, key: Buffer, record: EndpointRecord): string {
  ensurePrivateDir(endpointsDir);
  const path = recordPath(endpointsDir, record.pid, new URL(record.url).port);
  const flat: Record<string, unknown> = { ...record };
  writePrivateFile(path, JSON.stringify(signRecord(key, flat), null, 2) + '\n');
  // The same record for the shell bridge, which cannot check an HMAC without exposing the key.
  writeShellRecord(path, key, record);
  return path;
}

export function removeEndpointRecord(path: string): void {
  rmSync(path, { force: true });
  rmSync(shellRecordPath(path), { force: true });
}

/** Why a record read from disk is not to be used, or the record itself. */
export function checkEndpointRecord(
  value: unknown,
  key: Buffer | undefined,
): { ok: true; record: EndpointRecord } | { ok: false; problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'not a JSON object' };
  const v = value as Record<string, unknown>;
  if (!key) return { ok: false, problem: 'the endpoint key is missing, so no record can be verified' };
  if (!verifyRecord(key, v)) return { ok: false, problem: 'its MAC does not verify under the endpoint key' };
  const host = v.host ?? 'serve';
  if (
    typeof v.url !== 'string' ||
    typeof v.tokenFile !== 'string' ||
    !(typeof v.workspaceRoot === 'string' || v.workspaceRoot === null) ||
    typeof v.pid !== 'number' ||
    !Number.isInteger(v.pid) ||
    typeof v.version !== 'string' ||
    typeof v.startedAt !== 'string' ||
    (v.panelUrl !== undefined && typeof v.panelUrl !== 'string') ||
    (host !== 'serve' && host !== 'extension')
  )
    return { ok: false, problem: 'a field is missing or of the wrong type' };
  if (!isLoopbackUrl(v.url)) return { ok: false, problem: `its url ${JSON.stringify(v.url)} is not on loopback` };
  return {
    ok: true,
    record: {
      url: v.url,
      tokenFile: v.tokenFile,
      workspaceRoot: v.workspaceRoot,
      pid: v.pid,
      version: v.version,
      startedAt: v.startedAt,
      ...(typeof v.panelUrl === 'string' ? { panelUrl: v.panelUrl } : {}),
      host,
    },
  };
}

/**
 * Live, verified endpoint records. Verified records of dead pids are removed on the
 * way; records that do not verify are left alone (the key may be unreadable for a
 * moment) and never used.
 */
export function liveEndpoints(
  endpointsDir: string,
  key: Buffer | undefined,
  onRefused?: (file: string, problem: string) => void,
): EndpointRecord[] {
  let names: string[];
  try {
    names = readdirSync(endpointsDir);
  } catch {
    return [];
  }
  const live: EndpointRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const path = join(endpointsDir, name);
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      onRefused?.(path, 'not readable JSON');
      continue;
    }
    const checked = checkEndpointRecord(value, key);
    if (!checked.ok) {
      onRefused?.(path, checked.problem);
      continue;
    }
    if (pidAlive(checked.record.pid)) live.push(checked.record);
    else removeEndpointRecord(path);
  }
  return live;
}

/**
 * The endpoint serving a project: one whose workspace holds the project
 * (the innermost first), else a serve endpoint with no workspace, newest first.
 */
export function endpointFor(
  endpointsDir: string,
  key: Buffer | undefined,
  projectRoot: string,
  onRefused?: (file: string, problem: string) => void,
): EndpointRecord | undefined {
  const root = resolve(projectRoot);
  const live = liveEndpoints(endpointsDir, key, onRefused).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const scoped = live
    .filter((r) => r.workspaceRoot !== null && isInside(root, resolve(r.workspaceRoot)))
    .sort((a, b) => (b.workspaceRoot?.length ?? 0) - (a.workspaceRoot?.length ?? 0));
  return scoped[0] ?? live.find((r) => r.workspaceRoot === null);
}
