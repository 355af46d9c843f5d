// Programs that read their own commands from stdin (ed, ex, sqlite3, psql, mysql, ftp) run a shell
// command from a `!`, `.shell` or `\!` line, and an sftp batch's rm, rename or chmod changes files on
// the server: each row feeds one such line, beside a near miss that feeds ordinary commands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, run } from '../policies/harness';

const ROOT = '/home/dev/project';

const ROWS: { note: string; bash: string; blocked: boolean }[] = [
  {
    note: 'ed fed by printf through a pipe',
    bash: "printf '!cat ~/.aws/credentials\\nq\\n' | ed -s README.md",
    blocked: true,
  },
  { note: 'ed fed by a heredoc', bash: "ed -s notes.txt <<'EOF'\n!cat ~/.netrc\nq\nEOF", blocked: true },
  { note: 'near miss: ed substitution', bash: "printf '%s\\n' ',s/foo/bar/g' w q | ed -s notes.txt", blocked: false },
  { note: 'sqlite3 .shell from a pipe', bash: "echo '.shell cat ~/.ssh/id_rsa' | sqlite3 app.db", blocked: true },
  { note: 'near miss: sqlite3 query from a pipe', bash: "echo 'select 1;' | sqlite3 app.db", blocked: false },
  { note: 'psql \\! from a pipe', bash: "echo '\\! cat ~/.ssh/id_rsa' | psql", blocked: true },
  { note: 'mysql system from a pipe', bash: "echo 'system cat ~/.my.cnf' | mysql", blocked: true },
  { note: 'near miss: mysql query from a pipe', bash: "echo 'show tables;' | mysql app", blocked: false },
  {
    note: "an sftp batch's rm runs on the server (a here-string)",
    bash: "sftp -b - deploy@shop.example.com <<< 'rm /srv/www/shop/shared/uploads/paid/*'",
    blocked: true,
  },
  {
    note: "an sftp batch's rename, past errors (a heredoc)",
    bash: "sftp -b - deploy@shop.example.com <<'EOF'\n-rename /srv/www/shop/.env /srv/www/shop/.env.old\nbye\nEOF",
    blocked: true,
  },
  {
    note: 'near miss: an sftp batch that lists and fetches',
    bash: "printf 'cd /srv/www\\nls\\nget shop.log\\n' | sftp -b - deploy@shop.example.com",
    blocked: false,
  },
];

test('shell commands inside what a program reads from stdin are judged', async (t) => {
  await ready();
  for (const row of ROWS)
    await t.test(`${row.blocked ? 'blocked' : 'no objection'}: ${row.note}`, () => {
      const by = run({ bash: row.bash, cwd: ROOT, root: ROOT, home: '/home/dev' })
        .filter((o) => o.verdict === 'deny' || o.verdict === 'ask')
        .map((o) => o.policy);
      assert.equal(by.length > 0, row.blocked, `policies: ${by.join(', ') || 'none'}`);
    });
});
