import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFile } from './state';
import { isInside } from './shell/paths';
import { signRecord } from './endpointAuth';

// A running endpoint (serve, or the extension for its workspace) records itself
// so install and the command bridge can find it. Records of dead pids are ignored.

export const endpointRecordSchema = z.object({
  url: z.string().url(),
  tokenFile: z.string(),
  workspaceRoot: z.string().nullable(),
  pid: z.number().int(),
  version: z.string(),
  startedAt: z.string(),
  panelUrl: z.string().optional(),
  host: z.enum(['serve', 'extension']).default('serve'),
  /** HMAC under the endpoint key (endpointAuth): only a record Warden wrote is trusted. */
  mac: z.string().optional(),
});
export type EndpointRecord = z.infer<typeof endpointRecordSchema>;

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

export function writeEndpointRecord(endpointsDir: string, record: EndpointRecord, key?: Buffer): string {
  ensurePrivateDir(endpointsDir);
  const path = recordPath(endpointsDir, record.pid, new URL(record.url).port);
  const { mac: _unsigned, ...fields } = record;
  const stored = key ? signRecord(key, fields) : fields;
  writePrivateFile(path, JSON.stringify(stored, null, 2) + '\n');
  return path;
}

export function removeEndpointRecord(path: string): void {
  rmSync(path, { force: true });
}

/** Live endpoint records; stale ones (dead pid, unreadable) are removed on the way. */
export function liveEndpoints(endpointsDir: string): EndpointRecord[] {
  let names: string[];
  try {
    names = readdirSync(endpointsDir);
  } catch {
    return [];
  }
  const live: EndpointRecord[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const path = join(endpointsDir, name);
    try {
      const parsed = endpointRecordSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success && pidAlive(parsed.data.pid)) live.push(parsed.data);
      else rmSync(path, { force: true });
    } catch {
      rmSync(path, { force: true });
    }
  }
  return live;
}

/**
 * The endpoint serving a project: one whose workspace holds the project
 * (the innermost first), else a serve endpoint with no workspace, newest first.
 */
export function endpointFor(endpointsDir: string, projectRoot: string): EndpointRecord | undefined {
  const root = resolve(projectRoot);
  const live = liveEndpoints(endpointsDir).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const scoped = live
    .filter((r) => r.workspaceRoot !== null && isInside(root, resolve(r.workspaceRoot)))
    .sort((a, b) => (b.workspaceRoot?.length ?? 0) - (a.workspaceRoot?.length ?? 0));
  return scoped[0] ?? live.find((r) => r.workspaceRoot === null);
}
