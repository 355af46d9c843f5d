import { runDigest } from '../core/approvals/digestCommand';
import { readStdin } from './common';

/** `digest [--tool NAME]`: prints the exact-args digest; a non-bindable input exits 1 with the sentence that says why. */
export function digestCommand(tool: string | undefined): number {
  const result = runDigest(readStdin(), tool);
  if (!result.ok) {
    process.stderr.write(`agent-warden: ${result.problem}\n`);
    return 1;
  }
  process.stdout.write(result.digest + '\n');
  return 0;
}
