// The dangerous Bash lines of the independent sets that the policies block as they stand: the seeds of
// the metamorphic tests (harmless-flags, harmless-wrappers), which rewrite each one without changing
// what it does and require the rewrite to stay blocked.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { run, type CallSpec } from './harness';

const CORPUS_DIR = join(process.cwd(), 'test', 'fixtures', 'corpus', 'independent');
const SEED_CWD = '/home/dev/project';

interface Line {
  tool_name: string;
  tool_input: { command?: unknown };
}

/** Whether the policies deny or ask about a call made in the seeds' project (a Bash line unless `call` says). */
const blocked = (command: string, call: Partial<CallSpec> = { bash: command }) =>
  run({ ...call, cwd: SEED_CWD, root: SEED_CWD, home: '/home/dev', stateDir: '/home/dev/.agent-warden' }).some(
    (o) => o.verdict === 'deny' || o.verdict === 'ask',
  );

/** Each set's blocked dangerous Bash lines up to `maxChars` long, with the set's file name. */
function blockedSeeds(maxChars = 400): { file: string; command: string }[] {
  const seeds: { file: string; command: string }[] = [];
  for (const file of readdirSync(CORPUS_DIR).filter((f) => f.startsWith('dangerous-') && f.endsWith('.jsonl'))) {
    for (const text of readFileSync(join(CORPUS_DIR, file), 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const line = JSON.parse(text) as Line;
      const command = line.tool_input.command;
      if (line.tool_name !== 'Bash' || typeof command !== 'string' || command.length > maxChars) continue;
      if (blocked(command)) seeds.push({ file, command });
    }
  }
  return seeds;
}

/** A rewrite of a seed line, named by the kind of rewrite it is: a Bash line, or another tool's call. */
export interface Variant {
  kind: string;
  command: string;
  call?: Partial<CallSpec>;
}

/**
 * Tries every variant `rewrite` makes of every seed line, prints how many were tried and each that
 * passed (counted by kind), and returns the passes: the test asserts there are none.
 */
export function passedVariants(
  what: string,
  rewrite: (command: string) => Variant[],
): { tried: number; misses: string[] } {
  const misses: string[] = [];
  const byKind = new Map<string, number>();
  let tried = 0;
  for (const { file, command } of blockedSeeds())
    for (const variant of rewrite(command)) {
      tried++;
      if (blocked(variant.command, variant.call)) continue;
      misses.push(`${file} [${variant.kind}]: ${JSON.stringify(variant.command)}`);
      byKind.set(variant.kind, (byKind.get(variant.kind) ?? 0) + 1);
    }
  console.log(`${tried} ${what} tried, ${misses.length} passed`);
  for (const [kind, count] of byKind) console.log(`  ${kind}: ${count} passed`);
  for (const miss of misses) console.log(`  passed: ${miss}`);
  return { tried, misses };
}
