// Programs that run another command given in their arguments, and where that command begins.
import { findOptionValue, skipOptions, type ArgvView, type OptionSpec } from './options';
import { SCRIPT_HOP_NAMES, scriptHopsOf, type ScriptHop } from './script-hops';
import type { Via } from './types';
import { ansibleHops } from './ansible-hops';
import { shellQuote } from './quote';
import { LAUNCHERS, RUNNERS, type SimpleWrapper } from './runners';

/** The inner command is argv[from, to) of the wrapper, run as its own process. */
export interface ArgvHop {
  kind: 'argv';
  via: Via;
  wrapper: string;
  from: number;
  to: number;
  assignments: Record<string, string>;
  /** Assignments whose value is only known at run time. */
  unknownAssignments: string[];
}

export type Hop = ArgvHop | ScriptHop;

const SIMPLE_WRAPPERS: Record<string, SimpleWrapper> = {
  sudo: {
    spec: {
      shortWithValue: 'ugCDprtUTR',
      longWithValue: [
        'user',
        'group',
        'close-from',
        'chdir',
        'prompt',
        'role',
        'type',
        'other-user',
        'command-timeout',
        'chroot',
        'host',
      ],
    },
    // -l lists, -v validates, -e edits files, -V and -h print: none of them runs the operands.
    noCommandWith: /^-(?:[a-zA-Z]*[lveVh]|-list|-validate|-edit|-version|-help|-remove-timestamp)(?:$|=)/,
    assignments: true,
  },
  doas: { spec: { shortWithValue: 'uC' }, noCommandWith: /^-[a-zA-Z]*C/ },
  pkexec: { spec: { longWithValue: ['user'] } },
  env: { spec: { shortWithValue: 'uCS', longWithValue: ['unset', 'chdir', 'split-string'] }, assignments: true },
  nohup: { spec: {} },
  nice: { spec: { shortWithValue: 'n', longWithValue: ['adjustment'], numericOption: true } },
  ionice: {
    spec: { shortWithValue: 'cnp', longWithValue: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
    noCommandWith: /^-(?:[a-zA-Z]*[pPu]|-pid|-pgid|-uid)/,
  },
  timeout: { spec: { shortWithValue: 'ks', longWithValue: ['kill-after', 'signal'] }, operands: 1 },
  time: { spec: { shortWithValue: 'fo', longWithValue: ['format', 'output'] } },
  command: { spec: {}, noCommandWith: /^-[a-zA-Z]*[vV]/ },
  exec: { spec: { shortWithValue: 'a' } },
  builtin: { spec: {} },
  stdbuf: { spec: { shortWithValue: 'ioe', longWithValue: ['input', 'output', 'error'] } },
  strace: {
    spec: {
      shortWithValue: 'eopsuaEPXOSbIU',
      longWithValue: [
        'trace',
        'output',
        'attach',
        'string-limit',
        'user',
        'columns',
        'env',
        'trace-path',
        'const-print-style',
        'summary-sort-by',
        'detach-on',
        'signal',
        'status',
        'quiet',
        'decode-fds',
      ],
    },
  },
  ltrace: { spec: { shortWithValue: 'aADeFlnopsuwx', longWithValue: ['output', 'library', 'indent', 'align'] } },
  unbuffer: { spec: {} },
  setsid: { spec: {} },
  chroot: { spec: { longWithValue: ['userspec', 'groups'] }, operands: 1 },
  runuser: {
    spec: { shortWithValue: 'ugGsw', longWithValue: ['user', 'group', 'supp-group', 'shell', 'whitelist-environment'] },
  },
  busybox: { spec: {} },
  // Lustre's `lfs find` is find over the file system's metadata server (its other verbs are not commands).
  lfs: { spec: {} },
  // Namespace, scheduling and sandbox wrappers: each runs its operands as a command.
  unshare: {
    spec: {
      shortWithValue: 'SGRw',
      longWithValue: ['setuid', 'setgid', 'root', 'wd', 'map-user', 'map-group', 'map-users', 'map-groups'],
    },
  },
  nsenter: {
    spec: { shortWithValue: 'tSGwr', longWithValue: ['target', 'setuid', 'setgid', 'wd', 'root', 'env'] },
  },
  chrt: { spec: { shortWithValue: 'TPD' }, operands: 1, noCommandWith: /^-(?:[a-zA-Z]*p|-pid)/ },
  taskset: { spec: {}, operands: 1, noCommandWith: /^-(?:[a-zA-Z]*p|-pid)/ },
  'systemd-run': {
    spec: {
      shortWithValue: 'pEuMH',
      longWithValue: [
        'property',
        'setenv',
        'unit',
        'machine',
        'host',
        'description',
        'slice',
        'on-calendar',
        'on-active',
        'on-boot',
        'on-startup',
        'on-unit-active',
        'on-unit-inactive',
        'timer-property',
        'socket-property',
        'path-property',
        'uid',
        'gid',
        'nice',
        'working-directory',
        'service-type',
      ],
    },
  },
  cgexec: { spec: { shortWithValue: 'g' } },
  prlimit: { spec: {}, noCommandWith: /^-(?:[a-zA-Z]*p|-pid)/ },
  setpriv: { spec: {} },
  firejail: { spec: {} },
  torsocks: { spec: { shortWithValue: 'uPa', longWithValue: ['user', 'pass', 'address', 'port'] } },
  proxychains: { spec: { shortWithValue: 'f' } },
  proxychains4: { spec: { shortWithValue: 'f' } },
  'dbus-run-session': { spec: {} },
  'xvfb-run': { spec: { shortWithValue: 'nsfpe', longWithValue: ['server-num', 'server-args', 'auth-file'] } },
  flock: { spec: { shortWithValue: 'wE', longWithValue: ['timeout', 'conflict-exit-code'] }, operands: 1 },
  // Slurm's srun runs its command on every node and task of the allocation it asks for.
  srun: {
    spec: {
      shortWithValue: 'AbcDdeGiJLmMNnopqrStTwxC',
      longWithValue: [
        ...['account', 'begin', 'chdir', 'cpus-per-task', 'constraint', 'dependency', 'error', 'export', 'gres'],
        ...['gpus', 'gpus-per-node', 'gpus-per-task', 'input', 'job-name', 'mem', 'mem-per-cpu', 'mem-per-gpu'],
        ...['nodes', 'ntasks', 'ntasks-per-node', 'nodelist', 'output', 'partition', 'qos', 'reservation', 'time'],
        ...['exclude', 'container', 'mpi', 'cpu-bind', 'distribution', 'jobid', 'overlap-timeout', 'cluster'],
      ],
    },
  },
};

const XARGS_SPEC: OptionSpec = {
  shortWithValue: 'adEILnPs',
  longWithValue: [
    'arg-file',
    'delimiter',
    'max-args',
    'max-procs',
    'max-chars',
    'process-slot-var',
    'max-lines',
    'replace',
    'eof',
  ],
};
const FIND_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

function assignmentsFrom(
  view: ArgvView,
  from: number,
): { assignments: Record<string, string>; unknown: string[]; next: number } {
  const assignments: Record<string, string> = {};
  const unknown: string[] = [];
  let i = from;
  while (i < view.argv.length && /^[A-Za-z_]\w*=/.test(view.argv[i] as string)) {
    const word = view.argv[i] as string;
    const eq = word.indexOf('=');
    assignments[word.slice(0, eq)] = word.slice(eq + 1);
    if (view.dynamic.has(i)) unknown.push(word.slice(0, eq));
    i++;
  }
  return { assignments, unknown, next: i };
}

function simpleHop(name: string, wrapper: SimpleWrapper, view: ArgvView): Hop[] {
  const { argv } = view;
  let optionsEnd = skipOptions(view, 1, wrapper.spec);
  if (wrapper.subcommands) {
    const sub = argv[optionsEnd];
    if (sub === undefined || view.dynamic.has(optionsEnd) || !wrapper.subcommands.names.includes(sub)) return [];
    optionsEnd = skipOptions(view, optionsEnd + 1, wrapper.subcommands.spec);
  }
  if (wrapper.noCommandWith && argv.slice(1, optionsEnd).some((word) => wrapper.noCommandWith?.test(word))) return [];
  let start = optionsEnd + (wrapper.operands ?? 0);
  if (name === 'env' && argv[start] === '-' && !view.dynamic.has(start)) start++;
  if (wrapper.commandAfterDashes || wrapper.commandAfter) {
    const marks = wrapper.commandAfter ?? ['--'];
    const mark = argv.findIndex((word, at) => at > 0 && marks.includes(word) && !view.dynamic.has(at));
    if (mark < 0) return [];
    start = mark + 1;
  } else if (argv[start] === '--' && !view.dynamic.has(start)) start++;
  let assignments: Record<string, string> = {};
  let unknownAssignments: string[] = [];
  if (wrapper.assignments) ({ assignments, unknown: unknownAssignments, next: start } = assignmentsFrom(view, start));
  if (name === 'env') {
    const split = findOptionValue(view, 1, optionsEnd, 'S', ['split-string'], wrapper.spec);
    // -S splits its value into words that take its place, before the NAME=VALUE words and the command.
    if (split) {
      const rest = argv.slice(optionsEnd).map(shellQuote);
      return [{ kind: 'script', via: 'wrapper', wrapper: 'env', script: [split.value, ...rest].join(' ') }];
    }
  }
  if (name === 'flock' && (argv[start] === '-c' || argv[start] === '--command')) {
    const command = argv[start + 1];
    return command === undefined ? [] : [{ kind: 'script', via: 'wrapper', wrapper: 'flock', script: command }];
  }
  if (name === 'busybox' && (argv[1] ?? '').startsWith('-')) return [];
  if (name === 'lfs' && argv[1] !== 'find') return [];
  if (start >= argv.length) return [];
  return [
    { kind: 'argv', via: 'wrapper', wrapper: name, from: start, to: argv.length, assignments, unknownAssignments },
  ];
}

/**
 * Where `xargs -a FILE` (`--arg-file FILE`) names the file it reads its words from instead of its
 * input: the index of that word, or the name itself when glued to the option (`-aFILE`).
 */
export function xargsArgFile(argv: readonly string[]): { index: number } | { glued: string } | undefined {
  for (let at = 1; at < argv.length; at++) {
    const word = argv[at]!;
    if (word === '-a' || word === '--arg-file') return at + 1 < argv.length ? { index: at + 1 } : undefined;
    const glued = /^(?:-a|--arg-file=)(.+)$/s.exec(word)?.[1];
    if (glued !== undefined) return { glued };
    if (!word.startsWith('-')) return undefined;
  }
  return undefined;
}

function xargsHop(view: ArgvView): Hop[] {
  const start = skipOptions(view, 1, XARGS_SPEC);
  if (start >= view.argv.length) return [];
  return [
    {
      kind: 'argv',
      via: 'xargs',
      wrapper: 'xargs',
      from: start,
      to: view.argv.length,
      assignments: {},
      unknownAssignments: [],
    },
  ];
}

/** GNU parallel's options that take a value. */
export const PARALLEL_SPEC = {
  shortWithValue: 'jSINLnaPdEC',
  longWithValue: [
    'jobs',
    'sshlogin',
    'arg-file',
    'colsep',
    'delimiter',
    'joblog',
    'tmpdir',
    'results',
    'timeout',
    'max-args',
    'max-replace-args',
    'workdir',
    'basefile',
    'env',
  ],
} satisfies OptionSpec;
/** The words that end GNU parallel's command and begin its input lists. */
const PARALLEL_INPUTS = new Set([':::', '::::', ':::+', '::::+']);

/**
 * GNU parallel's command template (`parallel -j8 ssh {} "'sudo …'" ::: hosts`): its words, joined by
 * spaces, run in a shell for every input, `{}` standing for the input. With no template, parallel runs
 * its input lines as commands (facts/programs reads that).
 */
function parallelHops(view: ArgvView): Hop[] {
  const start = skipOptions(view, 1, PARALLEL_SPEC);
  let end = start;
  while (end < view.argv.length && !PARALLEL_INPUTS.has(view.argv[end] ?? '')) end++;
  if (end <= start || view.argv.slice(start, end).some((_, k) => view.dynamic.has(start + k))) return [];
  const template = view.argv.slice(start, end).join(' ');
  // `parallel rm -rf ::: ~ /etc`: each input is put where `{}` is, or after the template when it has none.
  const inputs = parallelInputs(view, end).slice(0, MAX_PARALLEL_INPUTS);
  const scripts = inputs.length
    ? inputs.map((input) =>
        template.includes('{}') ? template.replaceAll('{}', shellQuote(input)) : `${template} ${shellQuote(input)}`,
      )
    : [template];
  return scripts.map((script) => ({ kind: 'script', via: 'xargs', wrapper: 'parallel', script }));
}

/** More inputs than this are not each followed. */
const MAX_PARALLEL_INPUTS = 8;

/** The words of parallel's `:::` lists (a `::::` list names files, read at run time), those known. */
function parallelInputs(view: ArgvView, from: number): string[] {
  const inputs: string[] = [];
  let literal = false;
  for (let at = from; at < view.argv.length; at++) {
    const word = view.argv[at]!;
    if (PARALLEL_INPUTS.has(word)) literal = word.startsWith(':::') && !word.startsWith('::::');
    else if (literal && !view.dynamic.has(at)) inputs.push(word);
  }
  return inputs;
}

function findHops(view: ArgvView): Hop[] {
  const hops: Hop[] = [];
  const { argv } = view;
  for (let i = 1; i < argv.length; i++) {
    if (!FIND_ACTIONS.has(argv[i] as string)) continue;
    let end = i + 1;
    while (end < argv.length && argv[end] !== ';' && !(argv[end] === '+' && argv[end - 1] === '{}')) end++;
    if (end > i + 1)
      hops.push({
        kind: 'argv',
        via: 'find-exec',
        wrapper: 'find',
        from: i + 1,
        to: end,
        assignments: {},
        unknownAssignments: [],
      });
    i = end;
  }
  return hops;
}

function watchHops(view: ArgvView): Hop[] {
  const spec: OptionSpec = { shortWithValue: 'nq', longWithValue: ['interval'] };
  const start = skipOptions(view, 1, spec);
  if (start >= view.argv.length) return [];
  const exec = view.argv.slice(1, start).some((w) => w === '--exec' || /^-[a-zA-Z]*x/.test(w));
  if (exec)
    return [
      {
        kind: 'argv',
        via: 'wrapper',
        wrapper: 'watch',
        from: start,
        to: view.argv.length,
        assignments: {},
        unknownAssignments: [],
      },
    ];
  // Without -x, watch hands its arguments, joined by spaces, to sh -c.
  return [{ kind: 'script', via: 'wrapper', wrapper: 'watch', script: view.argv.slice(start).join(' ') }];
}

/**
 * `kubectl exec POD -- CMD…`: CMD runs in the pod's container, another machine as far as this one is
 * concerned (via ssh, as a remote command is); `kubectl debug node/N -- CMD…` in a pod on the node, its
 * file system at /host. Only the words after `--` are the command.
 */
function kubectlExecHops(name: string, view: ArgvView): Hop[] {
  const end = view.argv.indexOf('--');
  const verb = ['exec', 'debug'].find((word) => view.argv.slice(1, end).includes(word));
  if (end < 0 || end + 1 >= view.argv.length || verb === undefined) return [];
  return [
    {
      kind: 'argv',
      via: 'ssh',
      wrapper: `${name} ${verb}`,
      from: end + 1,
      to: view.argv.length,
      assignments: {},
      unknownAssignments: [],
    },
  ];
}

// The container engines' options that take a value: the engine's own, compose's, and exec's.
const ENGINE_SPEC: OptionSpec = { shortWithValue: 'Hcl', longWithValue: ['host', 'context', 'config', 'log-level'] };
const COMPOSE_SPEC: OptionSpec = {
  shortWithValue: 'fp',
  longWithValue: ['file', 'project-name', 'profile', 'env-file', 'project-directory', 'ansi', 'parallel'],
};
const CONTAINER_EXEC_SPEC: OptionSpec = {
  shortWithValue: 'euw',
  longWithValue: ['env', 'env-file', 'user', 'workdir', 'detach-keys', 'index'],
};

/**
 * `docker exec C CMD…`, `docker compose exec SERVICE CMD…`: CMD runs in the container, another machine
 * as far as this one is concerned, as kubectl exec's command is. It still reads what is kept there.
 */
function containerExecHops(name: string, view: ArgvView): Hop[] {
  // `docker-compose` and `podman-compose` are compose itself; `docker compose` reaches it by a subcommand.
  const standalone = name.endsWith('-compose');
  let at = standalone ? 1 : skipOptions(view, 1, ENGINE_SPEC);
  if (standalone || view.argv[at] === 'compose') at = skipOptions(view, standalone ? 1 : at + 1, COMPOSE_SPEC);
  if (view.argv[at] !== 'exec') return [];
  const from = skipOptions(view, at + 1, CONTAINER_EXEC_SPEC) + 1;
  if (from >= view.argv.length) return [];
  return [
    {
      kind: 'argv',
      via: 'ssh',
      wrapper: `${name} exec`,
      from,
      to: view.argv.length,
      assignments: {},
      unknownAssignments: [],
    },
  ];
}

const CONTAINER_ENGINES = new Set(['docker', 'podman', 'nerdctl', 'docker-compose', 'podman-compose']);

// DDEV's commands that run a tool of the same name in the project's web or database container.
const DDEV_TOOLS = new Set([
  'mysql',
  'mariadb',
  'psql',
  'wp',
  'composer',
  'npm',
  'yarn',
  'npx',
  'php',
  'drush',
  'artisan',
  'redis-cli',
]);
const DDEV_EXEC_SPEC: OptionSpec = { shortWithValue: 'sd', longWithValue: ['service', 'dir'] };

/** `ddev exec CMD…`, `ddev wp ARGS`, `ddev mysql ARGS`: the command runs in the project's container. */
function ddevHops(view: ArgvView): Hop[] {
  const sub = view.argv[1] ?? '';
  const from = sub === 'exec' ? skipOptions(view, 2, DDEV_EXEC_SPEC) : DDEV_TOOLS.has(sub) ? 1 : -1;
  if (from < 0 || from >= view.argv.length) return [];
  return [
    {
      kind: 'argv',
      via: 'ssh',
      wrapper: `ddev ${sub}`,
      from,
      to: view.argv.length,
      assignments: {},
      unknownAssignments: [],
    },
  ];
}

// torchrun's options that take a value as the next word (both spellings: --nproc_per_node, --nproc-per-node).
const TORCHRUN_SPEC: OptionSpec = {
  longWithValue: [
    'nproc_per_node',
    'nnodes',
    'node_rank',
    'master_addr',
    'master_port',
    'rdzv_backend',
    'rdzv_endpoint',
    'rdzv_id',
    'rdzv_conf',
    'max_restarts',
    'monitor_interval',
    'start_method',
    'role',
    'log_dir',
    'redirects',
    'tee',
    'local_addr',
    'local_ranks_filter',
  ].flatMap((option) => [option, option.replace(/_/g, '-')]),
};

/**
 * Launchers whose command is their own arguments: `ray job submit … -- CMD` (the words after `--`, run as
 * the job's entrypoint) and `torchrun --no-python … CMD` (a program in place of the training script).
 */
function launcherHops(name: string, view: ArgvView): Hop[] {
  const { argv } = view;
  let from = -1;
  if (name === 'ray' && argv[1] === 'job' && argv[2] === 'submit') from = argv.indexOf('--') + 1;
  if (name === 'torchrun' && argv.some((w) => w === '--no-python' || w === '--no_python'))
    from = skipOptions(view, 1, TORCHRUN_SPEC);
  if (from <= 0 || from >= argv.length) return [];
  return [
    { kind: 'argv', via: 'wrapper', wrapper: name, from, to: argv.length, assignments: {}, unknownAssignments: [] },
  ];
}

// Flutter's version managers: `fvm flutter …` and `puro dart …` run that tool of the pinned SDK; `fvm exec
// CMD` and `fvm spawn VERSION CMD` run any command with it first on PATH.
const FLUTTER_VERSION_MANAGERS = new Set(['fvm', 'puro']);

function flutterVersionManagerHops(name: string, view: ArgvView): Hop[] {
  const sub = view.argv[1];
  const from = sub === 'flutter' || sub === 'dart' ? 1 : sub === 'exec' ? 2 : sub === 'spawn' ? 3 : -1;
  if (from < 1 || from >= view.argv.length || view.dynamic.has(1)) return [];
  return [
    {
      kind: 'argv',
      via: 'wrapper',
      wrapper: name,
      from,
      to: view.argv.length,
      assignments: {},
      unknownAssignments: [],
    },
  ];
}

/** Names of the commands that hopsOf may find a hop in. */
export const HOP_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(SIMPLE_WRAPPERS),
  ...Object.keys(RUNNERS),
  ...Object.keys(LAUNCHERS),
  'xargs',
  'find',
  'parallel',
  'watch',
  'ansible',
  'kubectl',
  'oc',
  'ray',
  'torchrun',
  ...CONTAINER_ENGINES,
  'ddev',
  ...FLUTTER_VERSION_MANAGERS,
  ...SCRIPT_HOP_NAMES,
]);

/** The commands a command runs from its own arguments, one hop deep. */
export function hopsOf(name: string, view: ArgvView): Hop[] {
  if (name === 'xargs') return xargsHop(view);
  if (name === 'find') return findHops(view);
  if (name === 'parallel') return parallelHops(view);
  if (name === 'watch') return watchHops(view);
  if (name === 'ansible') return ansibleHops(view);
  if (name === 'kubectl' || name === 'oc') return kubectlExecHops(name, view);
  if (name === 'ray' || name === 'torchrun') return launcherHops(name, view);
  if (CONTAINER_ENGINES.has(name)) return containerExecHops(name, view);
  if (name === 'ddev') return ddevHops(view);
  if (FLUTTER_VERSION_MANAGERS.has(name)) return flutterVersionManagerHops(name, view);
  if (name === 'runuser' && !view.argv.slice(1).some((w) => w === '-u' || w.startsWith('--user')))
    return scriptHopsOf('su', view);
  const simple = [SIMPLE_WRAPPERS, RUNNERS, LAUNCHERS].find((table) => Object.hasOwn(table, name))?.[name];
  if (simple) return simpleHop(name, simple, view);
  return scriptHopsOf(name, view);
}
