// The dangerous Bash lines of the independent sets that the policies block as they stand: the seeds of
// the metamorphic tests (harmless-flags, harmless-wrappers), which rewrite each one without changing
// what it does and require the rewrite to stay blocked.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './harness';

const CORPUS_DIR = join(process.cwd(), 'test', 'fixtures', 'corpus', 'independent');
export const SEED_CWD = '/home/dev/project';

interface Line {
  tool_name: string;
  tool_input: { command?: unknown };
}

export const blocked = (command: string, cwd = SEED_CWD) =>
  run({ bash: command, cwd, root: cwd, home: '/home/dev', stateDir: '/home/dev/.agent-warden' }).some(
    (o) => o.verdict === 'deny' || o.verdict === 'ask',
  );

/** Each set's blocked dangerous Bash lines up to `maxChars` long, with the set's file name. */
export function blockedSeeds(maxChars = 400): { file: string; command: string }[] {
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
