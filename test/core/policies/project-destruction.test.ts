// The project's own files destroyed beyond an easy undo, or in bulk: each row is one way, beside a
// near miss that does the ordinary thing with the same program.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ready, run, verdictOf } from './harness';
import { aTempDir } from '../../builders/tempProject';

const ROOT = '/home/dev/project';

const ROWS: { note: string; bash?: string; tool?: string; input?: Record<string, unknown>; asked: boolean }[] = [
  { note: 'find -delete by a source extension', bash: "find . -type f -name '*.ts' -delete", asked: true },
  { note: 'near miss: find -delete of bytecode', bash: "find . -name '*.pyc' -delete", asked: false },
  {
    note: 'find -exec emptying each source file',
    bash: `find . -name '*.py' -exec sh -c ': > "$1"' _ {} \\;`,
    asked: true,
  },
  { note: 'near miss: find -exec rm of backups', bash: "find . -name '*.orig' -exec rm {} +", asked: false },
  { note: 'shred of source by glob', bash: 'shopt -s globstar; shred -uz src/**/*.py', asked: true },
  { note: 'shred of one project file', bash: 'shred -u notes.txt', asked: true },
  { note: 'truncate -s 0 of a database', bash: 'truncate -s 0 db/production.sqlite3', asked: true },
  { note: 'near miss: truncate a log', bash: 'truncate -s 0 logs/app.log', asked: false },
  { note: 'truncate -s 0 of a dataset', bash: 'truncate -s 0 data/raw/customers.parquet', asked: true },
  { note: 'near miss: truncate a cached dataset', bash: 'truncate -s 0 .cache/features.parquet', asked: false },
  { note: 'no-op redirects emptying manifests', bash: ': > package.json && : > package-lock.json', asked: true },
  { note: 'near miss: emptying a log by redirect', bash: ': > app.log', asked: false },
  { note: 'sed -i d over sources', bash: 'sed -i d src/*.js', asked: true },
  { note: 'near miss: sed -i deleting blank lines', bash: "sed -i '/^$/d' notes.txt", asked: false },
  { note: 'perl -0pi emptying every tracked file', bash: "perl -0pi -e 's/.*//s' $(git ls-files)", asked: true },
  { note: 'near miss: perl -pi substitution', bash: "perl -pi -e 's/foo/bar/g' src/a.js", asked: false },
  { note: 'git ls-files into xargs rm', bash: 'git ls-files -z | xargs -0 rm -f', asked: true },
  { note: 'near miss: git ls-files into xargs wc', bash: 'git ls-files -z | xargs -0 wc -l', asked: false },
  { note: 'rm of every source file by glob', bash: 'rm -f src/*.ts', asked: true },
  { note: 'near miss: rm of object files', bash: 'rm -f build/*.o', asked: false },
  { note: 'near miss: rm of generated coverage reports', bash: 'rm -f coverage/*.json', asked: false },
  { note: 'near miss: rm in a nested output folder', bash: 'rm -rf packages/web/dist/**/*.js', asked: false },
  { note: 'a glob that climbs out of an output folder', bash: 'rm -f coverage/../src/*.ts', asked: true },
  { note: 'a glob over folders that climbs out', bash: 'rm -f build/*/../../src/*.ts', asked: true },
  { note: 'an output folder named inside a source path', bash: 'rm -f src/coverage*.ts', asked: true },
  { note: 'mv a folder to /dev/null', bash: 'mv src /dev/null', asked: true },
  { note: 'cp /dev/null over a source file', bash: 'cp /dev/null src/index.ts', asked: true },
  { note: 'echo -n redirected over a source file', bash: 'echo -n > src/main.py', asked: true },
  { note: 'near miss: echo text into a file', bash: 'echo hello > src/greeting.txt', asked: false },
  { note: 'tee from /dev/null', bash: 'tee src/index.ts < /dev/null', asked: true },
  { note: 'a loop emptying each source file', bash: 'for f in src/*.py; do : > "$f"; done', asked: true },
  { note: 'near miss: a loop emptying logs', bash: 'for f in logs/*.log; do : > "$f"; done', asked: false },
  { note: 'find -exec truncate over a source folder', bash: 'find src -type f -exec truncate -s 0 {} +', asked: true },
  {
    note: 'find -exec truncate over datasets and weights by extension',
    bash: "find models data/processed -type f \\( -name '*.pt' -o -name '*.parquet' \\) -exec truncate -s 0 {} +",
    asked: true,
  },
  {
    note: 'near miss: find -exec listing weights by extension',
    bash: "find models -type f -name '*.pt' -exec ls -l {} +",
    asked: false,
  },
  {
    note: 'near miss: find -exec truncate over logs',
    bash: 'find logs -type f -exec truncate -s 0 {} +',
    asked: false,
  },
  {
    note: 'dd from /dev/urandom over a data file',
    bash: 'dd if=/dev/urandom of=data/app.db bs=1k count=1 conv=notrunc',
    asked: true,
  },
  { note: 'near miss: dd into a temp image', bash: 'dd if=/dev/zero of=/tmp/disk.img bs=1k count=1', asked: false },
  {
    note: 'rsync --delete from an empty folder into the project',
    bash: 'rsync -a --delete /tmp/empty/ ./',
    asked: true,
  },
  { note: 'near miss: rsync --delete into a backup folder', bash: 'rsync -a --delete src/ backup/', asked: false },
  {
    note: "Write over .git's HEAD",
    tool: 'Write',
    input: { file_path: `${ROOT}/.git/HEAD`, content: 'garbage\n' },
    asked: true,
  },
  {
    note: 'near miss: HEAD pointed at a branch',
    tool: 'Write',
    input: { file_path: `${ROOT}/.git/HEAD`, content: 'ref: refs/heads/main\n' },
    asked: false,
  },
  { note: 'redirect over the index', bash: 'echo x > .git/index', asked: true },
  {
    note: 'random bytes over a pack chosen at run time',
    bash: 'dd if=/dev/urandom of=.git/objects/pack/$(ls .git/objects/pack | head -1) bs=1k count=64 conv=notrunc',
    asked: true,
  },
  { note: 'near miss: a copy of the store elsewhere', bash: 'cp -r .git/objects /tmp/objects-backup', asked: false },
  { note: "the app's upload keystore deleted", bash: 'rm -P android/app/upload-keystore.jks', asked: true },
  { note: 'near miss: a key in the temp folder deleted', bash: 'rm -f /tmp/test-signing.key', asked: false },
  { note: 'near miss: a certificate deleted (fetched again at will)', bash: 'rm certs/dev-cert.pem', asked: false },
  {
    note: 'a release keystore emptied by a Write',
    tool: 'Write',
    input: { file_path: `${ROOT}/android/app/release.keystore`, content: '' },
    asked: true,
  },
  {
    note: 'near miss: a test key written as PEM text',
    tool: 'Write',
    input: { file_path: `${ROOT}/test/fixtures/test.key`, content: '-----BEGIN PRIVATE KEY-----\nMIIEvQ\n' },
    asked: false,
  },
  {
    note: 'a delete tool given a folder',
    tool: 'mcp__filesystem__delete_file',
    input: { path: `${ROOT}/src` },
    asked: true,
  },
  {
    note: 'near miss: a delete tool given one file',
    tool: 'mcp__filesystem__delete_file',
    input: { path: `${ROOT}/src/old.ts` },
    asked: false,
  },
];

test('destroying project files in bulk or beyond an undo asks; the ordinary use of the same program does not', async (t) => {
  await ready();
  for (const row of ROWS)
    await t.test(`${row.asked ? 'asked' : 'no objection'}: ${row.note}`, () => {
      const hit = run({
        ...(row.bash !== undefined ? { bash: row.bash } : { tool: row.tool ?? 'Write', input: row.input ?? {} }),
        cwd: ROOT,
        root: ROOT,
        home: '/home/dev',
      }).find((o) => o.policy === 'project-files-destroyed');
      assert.equal(hit?.verdict === 'ask', row.asked, hit?.reason ?? 'no objection');
      if (row.asked) assert.match(hit?.reason ?? '', /by name, or ask the person/);
    });
});

test('a whole-file write over an env file asks when it drops values the file held; keeping or adding them does not', async () => {
  await ready();
  const project = aTempDir('env-overwrite', after);
  const envFile = join(project, '.env.local');
  writeFileSync(envFile, 'STRIPE_SECRET_KEY=sk_test_FAKE123\nNEXT_PUBLIC_URL=http://localhost:3000\nEMPTY=\n');
  const written = (content: string, file = envFile) =>
    verdictOf('project-files-destroyed', {
      tool: 'Write',
      input: { file_path: file, content },
      cwd: project,
      root: project,
    });
  const dropped = written('# filled in by vercel env pull\nNEXT_PUBLIC_URL=\nEMPTY=\n');
  assert.equal(dropped?.verdict, 'ask');
  assert.match(dropped?.reason ?? '', /STRIPE_SECRET_KEY, NEXT_PUBLIC_URL/);
  assert.doesNotMatch(dropped?.reason ?? '', /sk_test_FAKE123/, 'names only, never values');
  assert.equal(
    written('STRIPE_SECRET_KEY=sk_test_FAKE123\nNEXT_PUBLIC_URL=http://localhost:3000\nEMPTY=\nNEW_FLAG=1\n'),
    undefined,
    'every value kept, one added',
  );
  assert.equal(written('A=1\n', join(project, '.env.new')), undefined, 'a new env file drops nothing');
});

test('a whole-file write over Terraform state, an existing backup, or a file of real content cut to a stub asks', async () => {
  await ready();
  const project = aTempDir('overwrites', after);
  mkdirSync(join(project, 'backups'));
  mkdirSync(join(project, 'data'));
  mkdirSync(join(project, 'logs'));
  const rows = 'id,name,label\n' + Array.from({ length: 200 }, (_, i) => `${i},item ${i},gold\n`).join('');
  writeFileSync(join(project, 'data', 'gold_labels.csv'), rows);
  writeFileSync(join(project, 'backups', 'prod-2024-06-01.sql'), '-- dump\n');
  writeFileSync(join(project, 'logs', 'app.log'), rows);
  writeFileSync(join(project, 'data', 'customers.parquet'), Buffer.from('PAR1\u0000\u0001PAR1'));
  const written = (file: string, content: string, tool = 'Write') =>
    verdictOf('project-files-destroyed', {
      tool,
      input:
        tool === 'Write'
          ? { file_path: join(project, file), content }
          : { file_path: join(project, file), old_string: 'a', new_string: content },
      cwd: project,
      root: project,
    })?.verdict;
  assert.equal(written('infra/prod/terraform.tfstate', '{"version": 4, "resources": []}\n'), 'ask', 'Terraform state');
  assert.equal(written('backups/prod-2024-06-01.sql', '-- placeholder\n'), 'ask', 'an existing backup');
  assert.equal(
    written('backups/new-notes.md', '# notes\n'),
    undefined,
    'a new file in a backups folder replaces nothing',
  );
  assert.equal(written('data/gold_labels.csv', 'id,name,label\n'), 'ask', 'a labelled dataset cut to its header');
  assert.equal(
    written('data/gold_labels.csv', rows.replace('gold', 'silver')),
    undefined,
    'a rewrite of the same size',
  );
  assert.equal(written('logs/app.log', ''), undefined, 'a log emptied is housekeeping');
  assert.equal(written('data/small.csv', 'id\n'), undefined, 'a file that does not exist');
  assert.equal(written('data/customers.parquet', 'placeholder\n'), 'ask', 'a binary dataset replaced by text');
  assert.equal(written('data/new.parquet', 'placeholder\n'), undefined, 'a binary dataset that does not exist yet');
  assert.equal(written('data/gold_labels.csv', '', 'Edit'), undefined, 'an edit changes part of a file');
});
