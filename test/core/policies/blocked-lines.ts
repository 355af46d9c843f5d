// The seeds of the metamorphic tests: the independent sets' dangerous Bash lines that the policies block
// as they stand (harmless-flags, -paths, -tools, -wrappers rewrite each without changing what it does and
// require the rewrite to stay blocked), and their ordinary Bash lines that pass (harmless-wrappers
// also requires neutral rewrites of those to keep passing).
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

/** The sets' Bash lines of one label up to 400 characters, blocked (dangerous) or passing (ordinary). */
function seeds(label: 'dangerous' | 'ordinary'): { file: string; command: string }[] {
  const out: { file: string; command: string }[] = [];
  for (const file of readdirSync(CORPUS_DIR).filter((f) => f.startsWith(`${label}-`) && f.endsWith('.jsonl'))) {
    for (const text of readFileSync(join(CORPUS_DIR, file), 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const line = JSON.parse(text) as Line;
      const command = line.tool_input.command;
      if (line.tool_name !== 'Bash' || typeof command !== 'string' || command.length > 400) continue;
      if (blocked(command) === (label === 'dangerous')) out.push({ file, command });
    }
  }
  return out;
}

/** A rewrite of a seed line, named by the kind of rewrite it is: a Bash line, or another tool's call. */
export interface Variant {
  kind: string;
  command: string;
  call?: Partial<CallSpec>;
}

/**
 * Tries every variant `rewrite` makes of every seed line of `label`, prints how many were tried and each
 * whose verdict changed (a dangerous one that passed, an ordinary one now blocked), counted by kind, and
 * returns those: the test asserts there are none.
 */
function changedVariants(
  label: 'dangerous' | 'ordinary',
  what: string,
  rewrite: (command: string) => Variant[],
): { tried: number; misses: string[] } {
  const misses: string[] = [];
  const byKind = new Map<string, number>();
  let tried = 0;
  const change = label === 'dangerous' ? 'passed' : 'now blocked';
  for (const { file, command } of seeds(label))
    for (const variant of rewrite(command)) {
      tried++;
      if (blocked(variant.command, variant.call) === (label === 'dangerous')) continue;
      misses.push(`${file} [${variant.kind}]: ${JSON.stringify(variant.command)}`);
      byKind.set(variant.kind, (byKind.get(variant.kind) ?? 0) + 1);
    }
  console.log(`${tried} ${what} tried, ${misses.length} ${change}`);
  for (const [kind, count] of byKind) console.log(`  ${kind}: ${count} ${change}`);
  for (const miss of misses) console.log(`  ${change}: ${miss}`);
  return { tried, misses };
}

/** Rewrites of the blocked dangerous lines that pass. */
export const passedVariants = (what: string, rewrite: (command: string) => Variant[]) =>
  changedVariants('dangerous', what, rewrite);

/** Rewrites of the passing ordinary lines that are blocked. */
export const blockedVariants = (what: string, rewrite: (command: string) => Variant[]) =>
  changedVariants('ordinary', what, rewrite);
