import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isLoopbackUrl, verifyRecord } from '../core/endpointAuth';
import { isInside } from '../core/shell/paths';

// The bridge's view of the endpoint records: only records whose MAC verifies
// under the endpoint key, on loopback, of a live process. No schema library:
// a record that verifies was written by Warden, so a few typed reads suffice.

export interface TrustedEndpoint {
  url: string;
  tokenFile: string;
  workspaceRoot: string | null;
  startedAt: string;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function asEndpoint(value: unknown): (TrustedEndpoint & { pid: number }) | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.url !== 'string' || typeof r.tokenFile !== 'string' || typeof r.pid !== 'number') return undefined;
  if (r.workspaceRoot !== null && typeof r.workspaceRoot !== 'string') return undefined;
  return {
    url: r.url.replace(/\/+$/, ''),
    tokenFile: r.tokenFile,
    workspaceRoot: r.workspaceRoot as string | null,
    startedAt: typeof r.startedAt === 'string' ? r.startedAt : '',
    pid: r.pid,
  };
}

export interface RecordScan {
  endpoints: TrustedEndpoint[];
  /** Records that failed authentication or are not on loopback: never used. */
  refused: string[];
}

/** Authenticated records of live loopback endpoints; authenticated records of dead ones are removed. */
export function trustedEndpoints(endpointsDir: string, key: Buffer | undefined): RecordScan {
  const scan: RecordScan = { endpoints: [], refused: [] };
  let names: string[];
  try {
    names = readdirSync(endpointsDir).filter((n) => n.endsWith('.json'));
  } catch {
    return scan;
  }
  for (const name of names) {
    const path = join(endpointsDir, name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      scan.refused.push(name);
      continue;
    }
    const endpoint = asEndpoint(parsed);
    if (!key || !endpoint || !verifyRecord(key, parsed as Record<string, unknown>) || !isLoopbackUrl(endpoint.url)) {
      scan.refused.push(name);
      continue;
    }
    if (!pidAlive(endpoint.pid)) {
      rmSync(path, { force: true });
      continue;
    }
    const { pid: _pid, ...trusted } = endpoint;
    scan.endpoints.push(trusted);
  }
  return scan;
}

/**
 * The endpoint serving a project: one whose workspace holds it (the innermost
 * first), else a serve endpoint with no workspace, newest first.
 */
export function chooseEndpoint(endpoints: TrustedEndpoint[], projectRoot: string): TrustedEndpoint | undefined {
  const root = resolve(projectRoot);
  const newestFirst = [...endpoints].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const scoped = newestFirst
    .filter((e) => e.workspaceRoot !== null && isInside(root, resolve(e.workspaceRoot)))
    .sort((a, b) => (b.workspaceRoot?.length ?? 0) - (a.workspaceRoot?.length ?? 0));
  return scoped[0] ?? newestFirst.find((e) => e.workspaceRoot === null);
}
