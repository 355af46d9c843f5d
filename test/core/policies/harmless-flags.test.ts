// A flag that changes nothing of what a command does must not change the verdict: `cp -i x ~/.bashrc` is
// the same write as `cp x ~/.bashrc`. Every dangerous Bash line of the independent sets is tried again
// with such a flag put after each program it runs; a line blocked before must stay blocked. Reading one
// program with another's option table (scp's -i for cp's) once let the option swallow the file it names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ready } from './harness';
import { passedVariants } from './blocked-lines';

/** Flags that only change how a program talks (verbosity, prompts, progress), never what it touches. */
const HARMLESS_FLAGS: Record<string, string[]> = {
  cp: ['-i', '-v', '-f', '-p', '-P'],
  mv: ['-i', '-v', '-f'],
  rm: ['-v', '-i', '-I'],
  ln: ['-v', '-f'],
  install: ['-v', '-C', '-p'],
  rsync: ['-v', '-P', '-h', '-q', '-z', '--progress', '--timeout=30'],
  scp: ['-q', '-v', '-C', '-p', '-o ConnectTimeout=5'],
  curl: ['-s', '-S', '-v', '-L', '-f', '--compressed', '--silent', '--max-time 30', '--retry 2'],
  wget: ['-q', '-v', '--no-verbose', '--tries=2', '-T 30'],
  chmod: ['-v', '-c', '-f'],
  chown: ['-v', '-c', '-f'],
  cat: ['-v', '-n', '-A'],
  head: ['-q'],
  tail: ['-q'],
  ssh: ['-q', '-v', '-T', '-C', '-o ConnectTimeout=5'],
  xargs: ['-r', '-t'],
  grep: ['-i', '-n', '-H', '-s', '--color=never'],
  less: ['-R', '-S'],
  nc: ['-v'],
  crontab: [],
  base64: ['-w0', '-i'],
  python3: ['-u', '-B', '-W ignore'],
  python: ['-u', '-B'],
  node: ['--no-warnings', '--max-old-space-size=4096'],
  perl: ['-w'],
  ruby: ['-w'],
  zip: ['-q', '-v'],
  unzip: ['-q', '-o'],
  gzip: ['-v', '-f'],
  find: [],
  dd: [],
  openssl: [],
  jq: ['-r', '-c', '-M'],
  sed: ['-E'],
  awk: [],
  git: ['--no-pager', '-P', '-c color.ui=false'],
  docker: ['--debug', '-l error', '--log-level warn'],
  kubectl: ['-v=1', '--request-timeout=5s', '--request-timeout 5s'],
  npm: ['--silent', '--no-fund', '--no-audit', '--loglevel=silent'],
  pip: ['-q', '--no-input', '--timeout 30'],
  pip3: ['-q', '--no-input'],
  sudo: ['-n'],
  env: [],
  socat: ['-d'],
  systemctl: ['--no-pager', '-q'],
  helm: ['--debug', '--kube-context default'],
  aws: ['--no-cli-pager', '--no-paginate', '--profile default'],
  az: ['--only-show-errors'],
  psql: ['-q'],
  mysql: ['-s'],
  cargo: ['-q'],
  make: ['-s'],
  mvn: ['-q', '-B'],
  bash: [],
  sh: [],
  chattr: ['-V'],
  tee: ['-a', '-i'],
};

const PROGRAM_AT = (program: string) =>
  new RegExp(`(^|[|;&(]\\s*|\\b(?:sudo|env|time|nohup|exec|xargs)\\s+)(${program.replace(/[.+]/g, '\\$&')})(?= )`, 'g');

/** The command with `flag` after each place `program` starts a command (one variant per place). */
function variants(command: string, program: string, flag: string): string[] {
  const out: string[] = [];
  for (const match of command.matchAll(PROGRAM_AT(program))) {
    const at = (match.index ?? 0) + (match[1] ?? '').length + program.length;
    out.push(`${command.slice(0, at)} ${flag}${command.slice(at)}`);
  }
  return out;
}

/** The command with `program` spelled another way that runs the same program: `\rm`, `command rm`, `LC_ALL=C rm`. */
function spellings(command: string, program: string): string[] {
  const out: string[] = [];
  for (const match of command.matchAll(PROGRAM_AT(program))) {
    const at = (match.index ?? 0) + (match[1] ?? '').length;
    const rest = command.slice(at + program.length);
    // `command` and a variable prefix are the shell's own: only where the shell starts the command.
    const before = command.slice(0, at);
    // Inside quotes a backslash is the text's own (printf reads `\c` as the end of its output).
    const quoted = (before.split("'").length - 1) % 2 === 1 || (before.split('"').length - 1) % 2 === 1;
    if (quoted) continue;
    const shellStarts = !/\b(?:sudo|env|time|nohup|exec|xargs)\s+$/.test(before);
    const anywhere = [`\\${program}`, `'${program}'`, `/usr/bin/${program}`];
    // An unset variable's default, and a substitution that prints the name, are the name; only on the
    // command's first line, since a heredoc's body may be a Makefile, where `$(…)` is make's own.
    const firstLine = !before.includes('\n');
    const computed = firstLine ? [`\${WARDEN_UNSET:-${program}}`, `$(echo ${program})`] : [];
    const spelled = shellStarts
      ? [...anywhere, ...computed, `command ${program}`, `LC_ALL=C ${program}`]
      : [...anywhere, ...computed];
    for (const spelling of spelled) out.push(`${command.slice(0, at)}${spelling}${rest}`);
  }
  return out;
}

test('a harmless flag never turns a blocked dangerous line into a pass', async () => {
  await ready();
  const { tried, misses } = passedVariants('variants', (command) =>
    Object.entries(HARMLESS_FLAGS).flatMap(([program, flags]) => [
      ...flags.flatMap((flag) => variants(command, program, flag).map((text) => ({ kind: 'flag', command: text }))),
      ...spellings(command, program).map((text) => ({ kind: 'spelling', command: text })),
    ]),
  );
  assert.ok(tried > 100, `enough variants tried (${tried})`);
  assert.deepEqual(misses, []);
});
