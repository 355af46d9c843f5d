// The converse of the other harmless-* tests: shell structure that runs a line as it is must not make an
// ordinary line a question either. Every ordinary Bash line of the independent sets that passes is
// wrapped in each form below; each wrapped line must still pass. (Forms that hide what runs, such as
// base64 piped to bash, are left out: asking about those is the point.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from './harness';
import { blockedVariants } from './blocked-lines';

const NEUTRAL_FORMS: Record<string, (line: string) => string> = {
  subshell: (line) => `(\n${line}\n)`,
  'if true': (line) => `if true; then\n${line}\nfi`,
  function: (line) => `run_it() {\n${line}\n}\nrun_it`,
  'after true &&': (line) => `true && ${line}`,
  'then echo': (line) => `${line}\necho done`,
};

test('shell structure around an ordinary line never makes it a question', async () => {
  await ready();
  const { tried, misses } = blockedVariants('wrapped ordinary lines', (command) =>
    Object.entries(NEUTRAL_FORMS).map(([kind, wrap]) => ({ kind, command: wrap(command) })),
  );
  assert.ok(tried > 1000, `enough wrapped lines tried (${tried})`);
  assert.deepEqual(misses, []);
});
