// The Node binary the benches start serve on: BENCH_SERVE_NODE, else the one running the bench. serve
// sets some of its memory settings only on a Node that can start itself again (process.execve, from
// 22.15): BENCH_SERVE_NODE=/path/to/node24 measures it there while the bench itself runs on any Node.
import { execFileSync } from 'node:child_process';

export const SERVE_NODE = process.env['BENCH_SERVE_NODE'] || process.execPath;

/** "v24.1.0" of the binary serve runs on. */
export function serveNodeVersion(): string {
  if (SERVE_NODE === process.execPath) return process.version;
  return execFileSync(SERVE_NODE, ['--version'], { encoding: 'utf8' }).trim();
}
