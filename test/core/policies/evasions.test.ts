// Each dangerous command, disguised in the usual ways, must still meet its policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, verdictOf } from './harness';

interface Base {
  policy: string;
  /** Program name and its arguments, kept apart so the disguises can rewrite the name. */
  program: string;
  args: string;
  expect: 'deny' | 'ask';
  absolute: string;
}

const BASES: Base[] = [
  {
    policy: 'recursive-delete-outside-project',
    program: 'rm',
    args: '-rf /home/dev/work',
    expect: 'deny',
    absolute: '/bin/rm',
  },
  {
    policy: 'git-force-push',
    program: 'git',
    args: 'push --force origin feature',
    expect: 'deny',
    absolute: '/usr/bin/git',
  },
  {
    policy: 'secret-file-read',
    program: 'cat',
    args: '/home/dev/.aws/credentials',
    expect: 'deny',
    absolute: '/bin/cat',
  },
  { policy: 'disk-wipe', program: 'dd', args: 'if=/dev/zero of=/dev/sda', expect: 'deny', absolute: '/bin/dd' },
  { policy: 'permission-blowup', program: 'chmod', args: '-R 777 /var/www', expect: 'deny', absolute: '/bin/chmod' },
  {
    policy: 'kubectl-mutation',
    program: 'kubectl',
    args: 'delete namespace prod',
    expect: 'ask',
    absolute: '/usr/local/bin/kubectl',
  },
  {
    policy: 'sql-drop-or-truncate',
    program: 'psql',
    args: '-c "DROP TABLE users"',
    expect: 'deny',
    absolute: '/usr/bin/psql',
  },
  { policy: 'system-power', program: 'shutdown', args: '-h now', expect: 'deny', absolute: '/sbin/shutdown' },
];

const DISGUISES: [string, (b: Base) => string][] = [
  ['plain', (b) => `${b.program} ${b.args}`],
  ['absolute binary path', (b) => `${b.absolute} ${b.args}`],
  ['quote-split name', (b) => `"${b.program.slice(0, 1)}""${b.program.slice(1)}" ${b.args}`],
  ['backslash', (b) => `\\${b.program} ${b.args}`],
  ['bash -c', (b) => `bash -c '${b.program} ${b.args.replace(/'/g, `'\\''`)}'`],
  ['sh -c double quotes', (b) => `sh -c "${`${b.program} ${b.args}`.replace(/"/g, '\\"')}"`],
  ['env X=1', (b) => `env X=1 ${b.program} ${b.args}`],
  ['VAR= prefix', (b) => `LANG=C ${b.program} ${b.args}`],
  ['sudo', (b) => `sudo ${b.program} ${b.args}`],
  ['command substitution', (b) => `echo "$(${b.program} ${b.args})"`],
  ['after &&', (b) => `npm test && ${b.program} ${b.args}`],
  ['after ;', (b) => `ls; ${b.program} ${b.args}`],
  ['in a pipeline', (b) => `${b.program} ${b.args} | tee /dev/null`],
  ['subshell', (b) => `(${b.program} ${b.args})`],
  ['timeout and nice', (b) => `timeout 30 nice ${b.program} ${b.args}`],
  ['eval', (b) => `eval '${b.program} ${b.args.replace(/'/g, `'\\''`)}'`],
];

test('disguised dangerous commands still meet their policy', async (t) => {
  await ready();
  for (const base of BASES) {
    for (const [name, disguise] of DISGUISES) {
      const command = disguise(base);
      await t.test(`${base.policy} through ${name}: ${command}`, () => {
        assert.equal(verdictOf(base.policy, { bash: command })?.verdict, base.expect);
      });
    }
  }
});

test('xargs and find -exec hand their arguments to the dangerous command', async () => {
  await ready();
  assert.equal(
    verdictOf('recursive-delete-outside-project', { bash: 'find /home/dev/old -maxdepth 0 | xargs rm -rf' })?.verdict,
    'deny',
  );
  assert.equal(verdictOf('recursive-delete-outside-project', { bash: 'find /srv -exec rm -rf {} +' })?.verdict, 'deny');
  assert.equal(
    verdictOf('secret-file-read', { bash: 'find /home/dev/.ssh -name "id_*" -exec cat {} \\;' })?.verdict,
    'deny',
  );
  assert.equal(
    verdictOf('kubectl-mutation', { bash: 'echo prod staging | xargs -n1 kubectl delete namespace' })?.verdict,
    'ask',
  );
  assert.equal(
    verdictOf('git-force-push', { bash: 'printf "a\\nb" | xargs -I{} git push --force origin {}' })?.verdict,
    'deny',
  );
});
