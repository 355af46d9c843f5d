// Programs that start a command named in their arguments (secret injectors, environment loaders,
// version managers, debuggers and profilers: shell/runners.ts) run it as if it were typed alone, so it
// is judged so. Before runners.ts, each line caught here got no objection: the runner hid its command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertUnremarked, blockingPolicies, ready } from './harness';

const RUNNER_FORMS = [
  'op run --env-file .env --',
  'aws-vault exec prod --',
  'aws-vault exec prod',
  'doppler run --',
  'infisical run --env=prod --',
  'dotenv -e .env --',
  'dotenvx run -f .env.production --',
  'chamber exec ledger-prod --',
  'envchain aws',
  'direnv exec .',
  'devbox run',
  'mise exec node@20 --',
  'asdf exec',
  'rbenv exec',
  'volta run',
  'fnm exec --using=20 --',
  'nix develop -c',
  'pipenv run',
  'pdm run',
  'hatch run',
  'rye run',
  'pixi run',
  'micromamba run -n tools',
  'npm exec --',
  'yarn exec',
  'bun x',
  'valgrind --leak-check=full',
  'gdb -batch -ex run --args',
  'perf record -g',
  'heaptrack',
  'fakeroot',
  'ssh-agent',
  'dbus-launch',
  'caffeinate -i',
  'tsp',
  'with-contenv',
  'tini --',
  'dumb-init',
  'gosu dev',
  'su-exec dev',
  'chpst -u dev',
];

test('a command a runner starts is judged as if typed alone', async () => {
  await ready();
  const missed: string[] = [];
  for (const runner of RUNNER_FORMS) {
    for (const [inner, policy] of [
      ['rm -rf ~', 'recursive-delete-outside-project'],
      ['cat ~/.ssh/id_rsa', 'secret-file-read'],
    ] as const) {
      const found = blockingPolicies(`${runner} ${inner}`);
      if (!found.includes(policy)) missed.push(`${runner} ${inner}: wanted ${policy}, got [${found.join(', ')}]`);
    }
  }
  assert.deepEqual(missed, [], `${RUNNER_FORMS.length * 2 - missed.length} caught`);
});

test("a secret injector's command string is read as the command it runs", async () => {
  await ready();
  assert.ok(blockingPolicies("doppler run --command 'rm -rf ~'").includes('recursive-delete-outside-project'));
  assert.ok(blockingPolicies("infisical run --env=prod --command 'cat ~/.ssh/id_rsa'").includes('secret-file-read'));
});

test("a runner's environment printed whole is a credential print", async () => {
  await ready();
  for (const command of ['direnv exec . env | sort', 'op run --env-file .env -- printenv', 'doppler run -- env'])
    assert.ok(blockingPolicies(command).includes('credential-printing-commands'), command);
});

test('GNU parallel gives each input of its ::: list to its command', async () => {
  await ready();
  assert.ok(blockingPolicies('parallel rm -rf ::: ~').includes('recursive-delete-outside-project'));
  assert.ok(blockingPolicies('parallel cat {} ::: ~/.aws/credentials README.md').includes('secret-file-read'));
});

test('ordinary work through a runner stays unremarked', async () => {
  await ready();
  assertUnremarked([
    'op run --env-file .env -- npm test',
    'aws-vault exec staging -- terraform plan',
    'doppler run -- go test ./...',
    'dotenv -e .env.test -- npx jest',
    'direnv exec . go build ./...',
    'mise exec node@20 -- node --version',
    'asdf exec python -m pytest -q',
    'nix develop -c make test',
    'pipenv run pytest -q',
    'pixi run python -m build',
    'npm exec -- tsc --noEmit',
    'yarn exec eslint src',
    'valgrind --leak-check=full ./build/tests',
    'gdb -batch -ex run --args ./build/app --config config/dev.toml',
    'perf stat make -j4',
    'envchain aws terraform plan',
    'parallel -j4 gzip ::: logs/a.log logs/b.log',
    'make SHELL=/bin/bash test',
  ]);
});
