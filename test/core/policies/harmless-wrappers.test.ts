// Shell structure that runs a line exactly as it was must not change the verdict: `( rm -rf ~ )`,
// `bash -c 'rm -rf ~'` and `if true; then rm -rf ~; fi` remove the same folder. Every blocked dangerous
// Bash line of the independent sets is wrapped in each form below; each wrapped line must stay blocked.
// What the analyzer cannot see through is where an agent would hide the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from './harness';
import { blockedVariants, passedVariants } from './blocked-lines';
import { WRAPPERS } from './shell-wrappers';

test('shell structure around a blocked dangerous line never turns it into a pass', async () => {
  await ready();
  const { tried, misses } = passedVariants('wrapped lines', (command) =>
    Object.entries(WRAPPERS).map(([kind, wrap]) => ({ kind, command: wrap(command) })),
  );
  assert.ok(tried > 1000, `enough wrapped lines tried (${tried})`);
  assert.deepEqual(misses, []);
});

// The converse: the same structure, where it hides nothing, must not make an ordinary line a question
// either. (Forms that hide what runs, such as base64 piped to bash, are left out: asking is their point.)
const NEUTRAL_FORMS = ['subshell', 'if true', 'function', 'after true &&', 'then echo'];

test('shell structure around an ordinary line never makes it a question', async () => {
  await ready();
  const { tried, misses } = blockedVariants('wrapped ordinary lines', (command) =>
    NEUTRAL_FORMS.map((kind) => ({ kind, command: WRAPPERS[kind]!(command) })),
  );
  assert.ok(tried > 1000, `enough wrapped lines tried (${tried})`);
  assert.deepEqual(misses, []);
});
