// Programs that run another command named in their arguments, without being wrappers in the
// classic sense: package and environment runners, secret injectors that start a command with the
// secrets in its environment, version managers, and debuggers or profilers that start the program
// they watch. The command each runs is judged as if typed on its own (wrappers.ts follows it).
import type { OptionSpec } from './options';

export interface SimpleWrapper {
  spec: OptionSpec;
  /** Operands the wrapper itself takes before the command (timeout's duration, chroot's root). */
  operands?: number;
  /** Options after which nothing is run (command -v, sudo -l). */
  noCommandWith?: RegExp;
  /** Accepts NAME=VALUE words before the command (env, sudo). */
  assignments?: boolean;
  /** Runs a command only through one of these subcommands (`bundle exec`, `pnpm dlx`), whose own options follow it. */
  subcommands?: { names: readonly string[]; spec: OptionSpec };
  /** The command is what follows a `--` among its operands (`chamber exec svc1 svc2 -- cmd`); no `--`, no command. */
  commandAfterDashes?: boolean;
  /** The command is what follows one of these words (`gdb --args prog`, `nix develop -c cmd`); none, no command. */
  commandAfter?: readonly string[];
}

// Package and environment runners: each runs the program named after its subcommand, from the
// project's dependencies or a fetched package, as that program would run typed on its own.
export const RUNNERS: Record<string, SimpleWrapper> = {
  npx: { spec: { shortWithValue: 'p', longWithValue: ['package'] }, noCommandWith: /^-(?:c|-call)(?:$|=)/ },
  bunx: { spec: { shortWithValue: 'p', longWithValue: ['package'] } },
  pnpx: { spec: { shortWithValue: 'p', longWithValue: ['package'] } },
  bundle: { spec: { longWithValue: ['gemfile'] }, subcommands: { names: ['exec'], spec: {} } },
  pnpm: {
    spec: { shortWithValue: 'FC', longWithValue: ['filter', 'dir', 'workspace-dir', 'loglevel'] },
    subcommands: { names: ['exec', 'dlx'], spec: { shortWithValue: 'c', longWithValue: ['package'] } },
  },
  poetry: {
    spec: { shortWithValue: 'C', longWithValue: ['directory', 'project'] },
    subcommands: { names: ['run'], spec: {} },
  },
  uv: {
    spec: { longWithValue: ['directory', 'project', 'config-file'] },
    subcommands: {
      names: ['run'],
      // uv takes its global options after the subcommand too (`uv run --project analysis python …`).
      spec: {
        shortWithValue: 'p',
        longWithValue: [
          ...['with', 'python', 'package', 'env-file', 'extra', 'group', 'only-group', 'no-group'],
          ...['project', 'directory', 'config-file', 'with-requirements', 'with-editable'],
          ...['index', 'default-index', 'index-url', 'extra-index-url', 'find-links', 'cache-dir'],
        ],
      },
    },
  },
  pipx: { spec: {}, subcommands: { names: ['run'], spec: { longWithValue: ['spec', 'python', 'index-url'] } } },
  conda: {
    spec: {},
    subcommands: { names: ['run'], spec: { shortWithValue: 'np', longWithValue: ['name', 'prefix', 'cwd'] } },
  },
  npm: {
    spec: { shortWithValue: 'w', longWithValue: ['workspace', 'prefix', 'package'] },
    subcommands: { names: ['exec', 'x'], spec: { shortWithValue: 'w', longWithValue: ['package', 'workspace'] } },
    noCommandWith: /^-(?:c|-call)(?:$|=)/,
  },
  yarn: {
    spec: {},
    subcommands: { names: ['exec', 'dlx'], spec: { shortWithValue: 'p', longWithValue: ['package'] } },
  },
  bun: { spec: {}, subcommands: { names: ['x'], spec: {} } },
  pipenv: { spec: {}, subcommands: { names: ['run'], spec: {} } },
  pdm: { spec: { shortWithValue: 'p', longWithValue: ['project'] }, subcommands: { names: ['run'], spec: {} } },
  hatch: { spec: {}, subcommands: { names: ['run'], spec: { shortWithValue: 'e', longWithValue: ['env'] } } },
  rye: { spec: {}, subcommands: { names: ['run'], spec: {} } },
  pixi: {
    spec: {},
    subcommands: {
      names: ['run', 'exec'],
      spec: { shortWithValue: 'es', longWithValue: ['environment', 'manifest-path', 'spec'] },
    },
  },
  micromamba: {
    spec: {},
    subcommands: { names: ['run'], spec: { shortWithValue: 'np', longWithValue: ['name', 'prefix', 'cwd'] } },
  },
  mamba: {
    spec: {},
    subcommands: { names: ['run'], spec: { shortWithValue: 'np', longWithValue: ['name', 'prefix', 'cwd'] } },
  },
  devbox: {
    spec: {},
    subcommands: { names: ['run'], spec: { shortWithValue: 'ce', longWithValue: ['config', 'env', 'env-file'] } },
  },
};

/** Version managers' `exec`: the command runs with the chosen toolchain first on PATH. */
const VERSION_MANAGERS = ['rbenv', 'pyenv', 'nodenv', 'goenv', 'jenv', 'plenv', 'phpenv', 'asdf'];

// Secret injectors, environment loaders, debuggers, profilers and session starters.
export const LAUNCHERS: Record<string, SimpleWrapper> = {
  ...Object.fromEntries(
    VERSION_MANAGERS.map((name) => [name, { spec: {}, subcommands: { names: ['exec'], spec: {} } }]),
  ),
  mise: {
    spec: { shortWithValue: 'Cj', longWithValue: ['cd', 'jobs'] },
    subcommands: { names: ['exec', 'x'], spec: { shortWithValue: 'j', longWithValue: ['jobs'] } },
    commandAfterDashes: true,
  },
  volta: {
    spec: {},
    subcommands: { names: ['run'], spec: { longWithValue: ['node', 'npm', 'yarn', 'pnpm', 'env'] } },
  },
  fnm: { spec: {}, subcommands: { names: ['exec'], spec: { longWithValue: ['using'] } } },
  // Xcode's tool runner: `xcrun lldb …`, `xcrun simctl …` run that developer tool (`--find` only prints its path).
  xcrun: {
    spec: { longWithValue: ['sdk', 'toolchain'] },
    noCommandWith: /^-(?:f|-find|-show-sdk-[\w-]+|-show-toolchain-[\w-]+)$/,
  },
  direnv: { spec: {}, subcommands: { names: ['exec'], spec: {} }, operands: 1 },
  nix: { spec: {}, subcommands: { names: ['develop', 'shell'], spec: {} }, commandAfter: ['-c', '--command'] },
  op: {
    spec: { longWithValue: ['account', 'config', 'session', 'encoding', 'cache'] },
    subcommands: { names: ['run'], spec: { longWithValue: ['env-file', 'account'] } },
  },
  'aws-vault': {
    spec: { longWithValue: ['backend', 'prompt', 'keychain'] },
    subcommands: {
      names: ['exec'],
      spec: { shortWithValue: 'dt', longWithValue: ['duration', 'mfa-token', 'region', 'ec2-server-port'] },
    },
    operands: 1,
  },
  doppler: {
    spec: {},
    subcommands: {
      names: ['run'],
      spec: {
        shortWithValue: 'pc',
        longWithValue: ['project', 'config', 'token', 'scope', 'fallback', 'name-transformer', 'mount', 'mount-format'],
      },
    },
    noCommandWith: /^--command(?:$|=)/,
  },
  infisical: {
    spec: {},
    subcommands: {
      names: ['run'],
      spec: { longWithValue: ['env', 'path', 'projectId', 'token', 'domain', 'tags', 'watch-interval'] },
    },
    noCommandWith: /^--command(?:$|=)/,
  },
  dotenv: { spec: { shortWithValue: 'ev' } },
  dotenvx: {
    spec: {},
    subcommands: {
      names: ['run'],
      spec: { shortWithValue: 'fe', longWithValue: ['env-file', 'env', 'env-keys-file'] },
    },
  },
  chamber: { spec: {}, subcommands: { names: ['exec'], spec: {} }, commandAfterDashes: true },
  teller: { spec: {}, subcommands: { names: ['run'], spec: {} }, commandAfterDashes: true },
  berglas: { spec: {}, subcommands: { names: ['exec'], spec: { longWithValue: ['local'] } } },
  envchain: { spec: {}, operands: 1, noCommandWith: /^--(?:set|list|unset)/ },
  summon: { spec: { shortWithValue: 'pfD', longWithValue: ['provider', 'environment', 'yaml'] } },
  valgrind: { spec: {} },
  gdb: { spec: {}, commandAfter: ['--args', '-args'] },
  perf: {
    spec: {},
    subcommands: {
      names: ['record', 'stat', 'trace'],
      spec: { shortWithValue: 'eoFcCmG', longWithValue: ['event', 'output', 'freq', 'count', 'call-graph', 'cpu'] },
    },
    noCommandWith: /^-(?:[a-zA-Z]*[pt]|-pid|-tid)/,
  },
  heaptrack: { spec: { shortWithValue: 'o', longWithValue: ['output'] }, noCommandWith: /^-(?:p|-pid)/ },
  fakeroot: { spec: { shortWithValue: 'ils', longWithValue: ['lib', 'faked'] } },
  proot: {
    spec: { shortWithValue: 'rbmwqk', longWithValue: ['rootfs', 'bind', 'mount', 'cwd', 'qemu', 'kernel-release'] },
  },
  caffeinate: { spec: { shortWithValue: 'tw' } },
  'ssh-agent': { spec: { shortWithValue: 'aEPt' }, noCommandWith: /^-[a-zA-Z]*[kscDd]/ },
  'dbus-launch': { spec: { longWithValue: ['config-file'] } },
  tsp: { spec: { shortWithValue: 'LDNW' } },
  sem: { spec: { shortWithValue: 'j', longWithValue: ['id', 'jobs', 'semaphoretimeout'] } },
  entr: { spec: {}, noCommandWith: /^-[a-z]*s/ },
  'with-contenv': { spec: {} },
  // Container init and privilege-drop programs: each runs its operands as the container's command.
  tini: { spec: { shortWithValue: 'pe' } },
  'dumb-init': { spec: { shortWithValue: 'r', longWithValue: ['rewrite'] } },
  catatonit: { spec: {} },
  gosu: { spec: {}, operands: 1 },
  'su-exec': { spec: {}, operands: 1 },
  's6-setuidgid': { spec: {}, operands: 1 },
  chpst: { spec: { shortWithValue: 'uUbnlLmdopfce/' } },
};
