import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

// A stable port per workspace, so hook entries written last session still
// point at the right place after a reload; a busy port falls back to any free one.

export const STABLE_PORT_BASE = 42_100;
export const STABLE_PORT_SPAN = 800;

export function stablePort(workspaceRoot: string, base = STABLE_PORT_BASE, span = STABLE_PORT_SPAN): number {
  const digest = createHash('sha256').update(resolve(workspaceRoot)).digest();
  return base + (digest.readUInt32BE(0) % span);
}

/** The ports to try in order: the configured one, or the stable one; then 0 (any free port). */
export function portCandidates(configured: number, workspaceRoot: string | undefined): number[] {
  if (configured > 0) return [configured, 0];
  if (!workspaceRoot) return [0];
  return [stablePort(workspaceRoot), 0];
}
