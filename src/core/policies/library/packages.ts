import { join } from 'node:path';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { stringsIn } from './shared/outbound-routes';
import type { ToolCall } from '../types';
import { replacedTexts } from './shared/edited-file';
import { argsOf, evidenceOf, fromSubcommand, optionValues, parseFlags, shellCommands } from '../../facts/commands';
import { interpreterKind, NIX_PROGRAMS, pythonModuleRun } from '../../facts/programs';
import { own } from '../../facts/own';
import { firstWrittenFinding } from '../../facts/compute';
import { gemSourceSwitch, lockfileSourceAdded, packageSourceWrite, packageSourceWrites } from './package-source-files';
import { thirdPartyTap } from './shared/homebrew';
import { isOwnSource } from './shared/own-sources';
import { inForeignFolder } from '../../facts/unread-programs';
import { withoutLastSegmentFrom } from '../../text/scan';
import { nixConfigSettings } from '../../shell/option-hops';
import { isKnownCondaChannel } from './shared/conda-channels';
import { registryOf } from './container-sources';

function firstCommand(
  call: ToolCall | undefined,
  test: (cmd: SimpleCommand, args: readonly string[]) => string | null,
): { what: string; cmd: SimpleCommand } | null {
  for (const cmd of shellCommands(call)) {
    const what = test(cmd, argsOf(cmd));
    if (what) return { what, cmd };
  }
  return null;
}

const RUNNERS = new Set(['npx', 'pnpx', 'bunx']);

function publishOf(cmd: SimpleCommand, args: readonly string[]): string | null {
  // `npx vsce publish`, `pnpm dlx vsce publish`: judge the tool that runs.
  const runner = RUNNERS.has(cmd.name) ? 0 : (cmd.name === 'pnpm' || cmd.name === 'yarn') && args[0] === 'dlx' ? 1 : -1;
  if (runner >= 0) {
    const rest = args
      .slice(runner)
      .filter((a, i, all) => !(a.startsWith('-') && all.slice(0, i).every((b) => b.startsWith('-'))));
    const [tool, ...toolArgs] = rest;
    return tool
      ? publishOf(
          {
            ...cmd,
            name: withoutLastSegmentFrom(tool, '@').split('/').pop() ?? tool,
            argv: [tool, ...toolArgs],
          },
          toolArgs,
        )
      : null;
  }
  // A dry run (npm, pnpm, yarn, cargo, bun, twine's --skip-existing aside) packs and checks without uploading.
  if (args.some((a) => a === '--dry-run' || a === '--dry-run=true')) return null;
  // pnpm's workspace options come before its command (`pnpm --filter @acme/client publish`); its -r takes no value.
  const [a, b] = parseFlags(args, cmd.name === 'pnpm' ? ['F', 'C'] : ['r', 'p'], [
    'repository',
    'registry',
    'otp',
    'tag',
    'access',
    'repository-url',
    'filter',
    'dir',
    'workspace-dir',
    'prefix',
    'workspace',
  ]).positionals;
  switch (cmd.name) {
    case 'npm':
    case 'pnpm':
    case 'bun':
      // Taking a release back down breaks everyone who depends on it.
      return a === 'publish' ||
        a === 'unpublish' ||
        a === 'deprecate' ||
        (a === 'owner' && (b === 'add' || b === 'rm' || b === 'remove')) ||
        (a === 'dist-tag' && (b === 'rm' || b === 'remove'))
        ? `${cmd.name} ${a}${a === 'dist-tag' || a === 'owner' ? ` ${b}` : ''}`
        : null;
    case 'yarn':
      return a === 'publish' || (a === 'npm' && b === 'publish') ? 'yarn publish' : null;
    case 'cargo':
      if (a === 'owner') return args.some((x) => /^--(add|remove)\b|^-[ar]/.test(x)) ? 'cargo owner' : null;
      return a === 'publish' || a === 'yank' ? `cargo ${a}` : null;
    case 'twine':
      return a === 'upload' ? 'twine upload' : null;
    case 'gem':
      return a === 'push' ? 'gem push' : null;
    case 'mix':
      // hex.publish publishes to the public Hex repository unless an organisation's private repository is named.
      return a === 'hex.publish' && !args.some((x) => /^--organi[sz]ation\b/.test(x)) ? 'mix hex.publish' : null;
    case 'rebar3':
      return a === 'hex' && b === 'publish' ? 'rebar3 hex publish' : null;
    case 'pod':
      // Trunk is CocoaPods' public spec index (`pod repo push` goes to a spec repo the team names).
      return a === 'trunk' && b === 'push' ? 'pod trunk push' : null;
    case 'poetry':
    case 'flit':
    case 'hatch':
    case 'uv':
    case 'pdm':
      return a === 'publish' ? `${cmd.name} publish` : null;
    case 'vsce':
    case 'ovsx':
      return a === 'publish' ? `${cmd.name} publish` : null;
    case 'dotnet':
      return a === 'nuget' && b === 'push' ? 'dotnet nuget push' : null;
    case 'mvn':
    case 'mvnw':
    case './mvnw':
      return args.includes('deploy') ? 'mvn deploy' : null;
    case 'gradle':
    case 'gradlew':
    case './gradlew':
      return args.some((x) => /^publish/.test(x)) ? 'gradle publish' : null;
    case 'docker':
    case 'podman':
      if (a === 'push' || (a === 'image' && b === 'push')) return `${cmd.name} push`;
      return dockerHubBuildPush(args);
    // Conan uploads to the remote it is given; ConanCenter is the public one. A removal there takes
    // recipes and packages from everyone who builds against that remote.
    case 'conan': {
      const remote = optionValues(args, ['r'], ['remote'])[0];
      if (a === 'upload' && remote === 'conancenter') return 'conan upload to ConanCenter';
      return a === 'remove' && remote !== undefined ? `conan remove on the remote ${remote}` : null;
    }
    default:
      if (pythonModuleRun(cmd)?.module === 'twine' && args.includes('upload')) return 'twine upload';
      return null;
  }
}

/**
 * `docker buildx build --push -t team/app:tag`: an image pushed as it is built. Only a tag without a
 * registry host is judged here: it goes to Docker Hub, the public default, whoever the account is.
 */
function dockerHubBuildPush(args: readonly string[]): string | null {
  if (args[0] !== 'buildx' && args[0] !== 'build') return null;
  const pushes = args.some((a) => a === '--push' || /^--output=.*type=registry/.test(a));
  const tags = optionValues(args, ['t'], ['tag']);
  const toHub = tags.length > 0 && tags.every((tag) => registryOf(tag) === undefined);
  return pushes && toHub ? `docker build --push of ${tags[0]} to Docker Hub` : null;
}

// What changes an existing release rather than making one.
const TAKEN_BACK = /unpublish|deprecate|yank|dist-tag|owner|remove/;

// npm/pnpm --registry, twine --repository-url, uv --publish-url, gem --host, cargo --index, nuget --source.
const PUBLISH_TARGET_OPTIONS = ['registry', 'repository-url', 'publish-url', 'host', 'index', 'source'];

/** Where a publish sends the package or image, when the command names it: a registry URL, or an image's registry host. */
function publishDestination(cmd: SimpleCommand, args: readonly string[]): string | undefined {
  if (cmd.name === 'docker' || cmd.name === 'podman') {
    const image = args.filter((a) => !a.startsWith('-') && a !== 'push' && a !== 'image')[0] ?? '';
    const first = image.split('/')[0] ?? '';
    // An image named without a registry (`app:1`, `team/app`) goes to the default public one.
    return image.includes('/') && /[.:]|^localhost$/.test(first) ? first : undefined;
  }
  const named = optionValues(args, cmd.name === 'dotnet' ? ['s'] : [], PUBLISH_TARGET_OPTIONS);
  // Maven's deploy to another repository: `-DaltDeploymentRepository=id::URL` (`id::layout::URL` before 3.9).
  const maven = args
    .filter((a) => a.startsWith('-DaltDeploymentRepository=') || a.startsWith('-DaltReleaseDeploymentRepository='))
    .map(
      (a) =>
        a
          .slice(a.indexOf('=') + 1)
          .split('::')
          .pop() ?? '',
    );
  return [...named, ...maven].find((value) => /^[a-z][\w+.-]*:\/\//i.test(value));
}

export const packagePublish = definePolicy({
  name: 'package-publish',
  category: 'packages-and-system',
  description:
    "Asks before publishing a package or image, or taking one back (npm publish/unpublish/deprecate, cargo publish/yank, twine upload, gem push, docker push, vsce publish, conan upload to ConanCenter); the organisation's own registry passes.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    // A release to the organisation's own registry stays inside it; taking one back still asks.
    const found = firstCommand(call, (cmd, args) => {
      const what = publishOf(cmd, args);
      const release = what !== null && !TAKEN_BACK.test(what);
      const destination = release ? publishDestination(cmd, args) : undefined;
      return destination !== undefined && isOwnSource(destination, []) ? null : what;
    });
    if (!found) return null;
    return {
      reason: TAKEN_BACK.test(found.what)
        ? `${found.what} changes what is published under the person's name for everyone who depends on it; a person should approve it.`
        : `${found.what} releases this code to the public under the person's name and cannot be taken back; a person should approve the release.`,
      evidence: evidenceOf(found.cmd.text),
    };
  },
});

function globalInstallOf(cmd: SimpleCommand, args: readonly string[]): { what: string; soft?: boolean } | null {
  const flags = parseFlags(args, [], ['prefix', 'location', 'registry']);
  const [sub] = flags.positionals;
  const isGlobal = flags.short.has('g') || flags.long.has('global') || args.includes('--location=global');
  if (
    (cmd.name === 'npm' || cmd.name === 'pnpm' || cmd.name === 'bun') &&
    isGlobal &&
    sub &&
    /^(i|install|add|in|isntall|link|update|up|upgrade)$/.test(sub)
  )
    return { what: `${cmd.name} ${sub} -g` };
  if (cmd.name === 'yarn' && sub === 'global' && flags.positionals[1] === 'add') return { what: 'yarn global add' };
  if (interpreterKind(cmd.name) === 'python' || /^pip\d*(\.\d+)?$/.test(cmd.name)) {
    const module = pythonModuleRun(cmd);
    const pipArgs = /^pip/.test(cmd.name) ? args : module && /^pip\d*$/.test(module.module) ? module.args : null;
    if (pipArgs && pipArgs[0] === 'install') {
      if (pipArgs.includes('--break-system-packages')) return { what: 'pip install --break-system-packages' };
      if (cmd.wrappers.includes('sudo')) return { what: 'sudo pip install' };
      const target = optionValues(pipArgs, ['t'], ['target', 'prefix', 'root']);
      if (target.some((t) => /^\/(usr|opt|etc|lib)/.test(t))) return { what: `pip install into ${target[0]}` };
    }
  }
  if (
    ['apt', 'apt-get', 'yum', 'dnf', 'zypper', 'apk', 'pacman', 'port', 'snap', 'choco', 'winget', 'scoop'].includes(
      cmd.name,
    )
  ) {
    const action = flags.positionals[0] ?? '';
    if (
      /^(install|add|remove|purge|erase|upgrade|dist-upgrade|full-upgrade|autoremove)$/.test(action) ||
      (cmd.name === 'pacman' && /^-S|^-R|^-U/.test(args[0] ?? ''))
    ) {
      return { what: `${cmd.name} ${action || args[0]}` };
    }
  }
  if (cmd.name === 'brew' && sub && /^(install|reinstall|upgrade|uninstall|remove|tap)$/.test(sub))
    return { what: `brew ${sub}`, soft: true };
  if (
    cmd.name === 'gem' &&
    sub === 'install' &&
    !args.some((a) => a === '--user-install' || a.startsWith('--install-dir'))
  )
    return { what: 'gem install', soft: true };
  return null;
}

export const globalPackageInstall = definePolicy({
  name: 'global-package-install',
  category: 'packages-and-system',
  description:
    'Asks before installing packages machine-wide (npm -g, yarn global, sudo pip, --break-system-packages, apt/dnf/pacman); reminds for brew and gem.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    for (const cmd of shellCommands(call)) {
      const found = globalInstallOf(cmd, argsOf(cmd));
      if (!found) continue;
      if (found.soft) {
        return {
          decision: 'instruct',
          reason: `${found.what} changes the machine, not the project: say so to the person and prefer a project-local dependency.`,
          evidence: evidenceOf(cmd.text),
        };
      }
      return {
        reason: `${found.what} changes software for the whole machine, beyond this project; add it as a project dependency (or use npx/pipx), or approve this exact install.`,
        evidence: evidenceOf(cmd.text),
      };
    }
    return null;
  },
});

const MANAGERS: Record<string, string> = {
  npm: 'npm',
  npx: 'npm',
  pnpm: 'pnpm',
  pnpx: 'pnpm',
  yarn: 'yarn',
  bun: 'bun',
  bunx: 'bun',
};
const LOCKFILES: [string, string][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
];

export const packageManagerPreference = definePolicy({
  name: 'package-manager-preference',
  category: 'packages-and-system',
  description:
    "Reminds the agent to use the project's JavaScript package manager (params.preferred, else the one its lockfile shows).",
  defaultEnabled: false,
  decision: 'instruct',
  params: z.object({ preferred: z.enum(['npm', 'pnpm', 'yarn', 'bun']).optional() }),
  evaluate({ call, params, io }) {
    if (!call?.shell) return null;
    const preferred = params.preferred ?? LOCKFILES.find(([file]) => io.exists(join(call.projectRoot, file)))?.[1];
    if (!preferred) return null;
    for (const cmd of shellCommands(call)) {
      const used = own(MANAGERS, cmd.name);
      if (!used || used === preferred) continue;
      return {
        reason: `This project uses ${preferred}, but the command runs ${cmd.name}: a second lockfile and different dependency versions follow; use ${preferred} instead.`,
        evidence: evidenceOf(cmd.text),
      };
    }
    return null;
  },
});

const DETACHERS = new Set(['nohup', 'setsid', 'disown', 'daemonize', 'start-stop-daemon']);

export const backgroundProcess = definePolicy({
  name: 'background-process',
  category: 'packages-and-system',
  description:
    'Reminds the agent to track and stop processes it leaves running (&, nohup, setsid, disown, screen -dm, tmux new -d).',
  defaultEnabled: true,
  decision: 'instruct',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    for (const cmd of shellCommands(call)) {
      const detached =
        DETACHERS.has(cmd.name) ||
        cmd.wrappers.some((w) => DETACHERS.has(w)) ||
        (cmd.name === 'screen' && cmd.argv.some((a) => /^-\w*d/.test(a))) ||
        (cmd.name === 'tmux' && cmd.argv.includes('-d'));
      if (!cmd.background && !detached) continue;
      return {
        reason: `"${evidenceOf(cmd.text, 60)}" keeps running after this call: note its pid, stop it when you are done, and tell the person it is running.`,
        evidence: evidenceOf(cmd.text),
      };
    }
    return null;
  },
});

/** Options npm, pip and the like take before their subcommand whose value is the next word. */
const PACKAGE_CLI_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  ...['--prefix', '-C', '--userconfig', '--globalconfig', '--cache', '--loglevel', '-w', '--workspace'],
  ...['--proxy', '--cache-dir', '--log', '--python', '--timeout', '--retries', '--exists-action', '--cert'],
  '--cwd',
]);

/** Whether a source is the organisation's own (shared/own-sources), with the person's allowSources. */
type IsOwn = (source: string) => boolean;
// A package straight from a URL, a git repository or a tarball rather than by name from the registry.
const REMOTE_SPEC = /^(https?:\/\/|git\+|git:\/\/|ssh:\/\/|github:|gitlab:|bitbucket:|gist:)|\.(tgz|tar\.gz|whl)$/;

/**
 * What a written package-manager config now does, or null. An edit that leaves a finding's line as it was
 * (the team's registry line, kept while a setting is added below it) adds nothing: the lines it keeps
 * find the same alone.
 */
function writtenSourceFinding(call: ToolCall, file: string, content: string, ownSource: IsOwn): string | null {
  const found = packageSourceWrites(file, content, ownSource);
  const before = new Set(replacedTexts(call.input).flatMap(([old]) => old.split('\n').map((line) => line.trim())));
  if (before.size === 0 || found.length === 0) return found[0] ?? null;
  const kept = content
    .split('\n')
    .filter((line) => before.has(line.trim()))
    .join('\n');
  const already = new Set(packageSourceWrites(file, kept, ownSource));
  return found.find((what) => !already.has(what)) ?? null;
}

function isPip(cmd: SimpleCommand): boolean {
  return /^pip\d*(\.\d+)?$/.test(cmd.name) || /^pip\d*$/.test(pythonModuleRun(cmd)?.module ?? '') || cmd.name === 'uv';
}

/** Variables pip, uv, npm, bundler and Dart's pub read as the index to install from. */
const INDEX_VARIABLES = new Set([
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'UV_INDEX_URL',
  'UV_EXTRA_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'UV_INDEX',
  'NPM_CONFIG_REGISTRY',
  // corepack downloads the package manager itself (pnpm, yarn) from this registry.
  'COREPACK_NPM_REGISTRY',
  'YARN_NPM_REGISTRY_SERVER',
  'YARN_REGISTRY',
  'BUNDLE_MIRROR__ALL',
  // The electron package's install script downloads the Electron binary (shipped inside the app) from here.
  'ELECTRON_MIRROR',
  'NPM_CONFIG_ELECTRON_MIRROR',
  'ELECTRON_BUILDER_BINARIES_MIRROR',
  // Dart's pub takes packages from this server; Flutter its engine and SDK artifacts, built into every app.
  'PUB_HOSTED_URL',
  'FLUTTER_STORAGE_BASE_URL',
]);

// Dart and Flutter's tools, and the version managers and workspace runner that start them.
const DART_TOOLS = new Set(['dart', 'flutter', 'fvm', 'melos', 'puro']);

const CONDA = new Set(['conda', 'mamba', 'micromamba']);

/** `conda install -c CHANNEL`: a channel other than the well-known ones (shared/conda-channels). */
function condaChannelOf(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if (!CONDA.has(cmd.name)) return null;
  // `conda config --prepend channels URL`: every later install of the user's looks there too.
  if (fromSubcommand(args)[0] === 'config') {
    const at = args.findIndex((a, i) => /^--(add|prepend|append)$/.test(a) && args[i + 1] === 'channels');
    const added = at < 0 ? undefined : args[at + 2];
    return added !== undefined && !isKnownCondaChannel(added) && !ownSource(added)
      ? `a conda channel added to conda's configuration (${added}), which every later install takes packages from`
      : null;
  }
  const channel = optionValues(args, ['c'], ['channel']).find(
    (value) => !isKnownCondaChannel(value) && !ownSource(value),
  );
  return channel ? `a conda channel chosen on the command line (${channel}) rather than the project's` : null;
}

function indexOf(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  const pip = isPip(cmd);
  const npm = ['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'corepack'].includes(cmd.name);
  const gem = cmd.name === 'gem' || cmd.name === 'bundle';
  if (!pip && !npm && !gem && cmd.name !== 'poetry' && !DART_TOOLS.has(cmd.name)) return null;
  const fromEnvironment = Object.entries(cmd.assignments).find(
    ([name, value]) => INDEX_VARIABLES.has(name.toUpperCase()) && value !== undefined && !ownSource(value),
  );
  if (fromEnvironment)
    return `a package index set for this command (${evidenceOf(`${fromEnvironment[0]}=${fromEnvironment[1]}`, 80)})`;
  // `poetry source add NAME URL`: the project's installs look there too (first, with --priority=primary).
  if (cmd.name === 'poetry' && args[0] === 'source' && args[1] === 'add') {
    const url = parseFlags(args.slice(2), [], ['priority']).positionals[1];
    if (url !== undefined && !ownSource(url)) return `a new package source for the project (${url})`;
  }
  // `gem sources --add URL`: every later install may take its gems from there.
  if (gem && args[0] === 'sources') {
    const added = optionValues(args, ['a'], ['add']).find((url) => !ownSource(url));
    if (added !== undefined) return `a new gem source (${added}) for every later install`;
  }
  for (const url of [
    ...optionValues(args, pip ? ['i'] : [], ['index-url', 'registry', 'index', 'default-index']),
    ...optionValues(args, gem ? ['s'] : [], gem ? ['source'] : []),
  ]) {
    if (ownSource(url)) continue;
    if (/^http:\/\//.test(url)) return `a package index over plain http (${url})`;
    return `a package index chosen on the command line (${url}) rather than the project's configured one`;
  }
  if (optionValues(args, [], ['extra-index-url']).length)
    return 'an extra package index (--extra-index-url), which lets any index win a name (dependency confusion)';
  if (args.includes('--trusted-host')) return '--trusted-host, which turns off certificate checks';
  // npm config set registry URL, pip config set global.index-url URL, yarn config set npmRegistryServer URL
  const sub = fromSubcommand(args, PACKAGE_CLI_VALUE_OPTIONS);
  const setAt = sub.indexOf('set');
  if (sub[0] === 'config' && setAt !== -1) {
    const key = (sub[setAt + 1] ?? '').toLowerCase();
    const value = sub[setAt + 2] ?? key.split('=')[1] ?? '';
    if (/registry|index-url|index_url/.test(key) && !ownSource(value))
      return `a new default package index (${evidenceOf(`${key} ${value}`, 80)})`;
  }
  return null;
}

const SPARK_LAUNCHERS = new Set(['spark-submit', 'pyspark', 'spark-shell', 'spark-sql']);

/**
 * Spark resolves `--packages` from the `--repositories` named, and ships `--jars`, `--py-files` and the
 * like to the driver and every executor, fetching a URL first: code from that host runs in the job.
 */
function sparkRemoteCode(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if (!SPARK_LAUNCHERS.has(cmd.name)) return null;
  const conf = Object.fromEntries(
    optionValues(args, [], ['conf']).map((pair) => [
      pair.slice(0, pair.indexOf('=')),
      pair.slice(pair.indexOf('=') + 1),
    ]),
  );
  const list = (options: string[], key: string) =>
    [...optionValues(args, [], options), ...(conf[key] !== undefined ? [conf[key]] : [])].flatMap((v) => v.split(','));
  const packages = list(['packages'], 'spark.jars.packages');
  const repository = list(['repositories'], 'spark.jars.repositories').find((url) => url !== '' && !ownSource(url));
  if (packages.length && repository !== undefined) return `Spark packages resolved from ${repository}`;
  const shipped = [
    ...list(['jars'], 'spark.jars'),
    ...list(['py-files'], 'spark.submit.pyFiles'),
    ...list(['files', 'archives'], 'spark.files'),
  ].find((file) => /^(https?|ftp):\/\//i.test(file) && !ownSource(file));
  return shipped === undefined ? null : `code fetched from ${shipped} and run in the Spark job`;
}

const DUCKDB_REPOSITORY = /\b(?:custom_extension_repository\s*=|INSTALL\s+\w+\s+FROM)\s*'([^']{1,500})'/gi;

/**
 * DuckDB loads extensions as native code: `-unsigned` takes them without a signature, and a custom
 * repository (`SET custom_extension_repository='…'`, `INSTALL x FROM '…'`) takes them from another host.
 */
function duckdbExtensionSource(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if (cmd.name !== 'duckdb') return null;
  const queries = args.filter((word) => !word.startsWith('-')).join('\n');
  const repository = [...queries.matchAll(DUCKDB_REPOSITORY)]
    .map((match) => match[1]!)
    .find((url) => /^(https?|s3):\/\//i.test(url) && !ownSource(url));
  if (repository !== undefined) return `DuckDB extensions from ${repository}`;
  return args.includes('-unsigned') && /\b(INSTALL|LOAD)\b/i.test(queries)
    ? 'DuckDB extensions loaded without a signature (-unsigned)'
    : null;
}

/** The remote template `cookiecutter URL` or `copier copy --trust URL DEST` makes a project from. */
function templateSource(name: string, operands: readonly string[], args: readonly string[]): string | undefined {
  const remote = (word: string | undefined) =>
    word !== undefined && (REMOTE_SPEC.test(word) || /^(gh|gl|bb):[\w.-]+\//.test(word)) ? word : undefined;
  if (name === 'cookiecutter') return remote(operands[0]);
  if (name !== 'copier') return undefined;
  const trusted = args.some((a) => a === '--trust' || a === '--UNSAFE' || a === '--unsafe');
  return trusted && ['copy', 'recopy', 'update'].includes(operands[0] ?? '') ? remote(operands[1]) : undefined;
}

function remotePackageOf(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  const operands = parseFlags(
    args,
    ['i', 'r', 'c', 'e', 't', 'p', ...(cmd.name === 'pnpm' ? ['C', 'F'] : [])],
    [
      'index-url',
      'extra-index-url',
      'registry',
      'requirement',
      'constraint',
      'target',
      'trusted-host',
      'package',
      // pnpm's folder and workspace filter come before its command (`pnpm --dir web dlx …`).
      ...(cmd.name === 'pnpm' ? ['dir', 'filter'] : []),
    ],
  ).positionals;
  const manager = isPip(cmd) || ['npm', 'pnpm', 'yarn', 'bun', 'gem', 'pipx', 'uv'].includes(cmd.name);
  if (manager && operands.some((a) => /^(i|install|add)$/.test(a))) {
    const remote = operands.find((a) => REMOTE_SPEC.test(a) && !ownSource(a));
    if (remote) return `a package straight from ${remote}`;
    // `pip install -r URL`: the list of what to install (and from which index) comes from that host.
    const list = isPip(cmd)
      ? optionValues(args, ['r', 'c'], ['requirement', 'constraint']).find(
          (a) => /^(https?|ftp):\/\//.test(a) && !ownSource(a),
        )
      : undefined;
    if (list) return `a requirements list fetched from ${list}`;
  }
  // `npm exec --package=URL -- cmd`: npx by another name.
  if (['npm', 'pnpm'].includes(cmd.name) && operands[0] === 'exec') {
    const spec = [...optionValues(args, ['p'], ['package']), ...operands.slice(1)].find(
      (a) => REMOTE_SPEC.test(a) && !ownSource(a),
    );
    if (spec) return `code fetched and run from ${spec}`;
  }
  // Runners that fetch and execute in one step: npx URL, bunx github:x/y, uvx --from git+…, pipx run --spec git+…
  // The package is the first operand (after `dlx`, `run`, `tool run`); the words after it are the
  // tool's own arguments (`npx wait-on http://localhost:4173` fetches wait-on, not the URL).
  if (RUNNERS.has(cmd.name) || (['pnpm', 'yarn'].includes(cmd.name) && operands[0] === 'dlx')) {
    const tool = operands[RUNNERS.has(cmd.name) ? 0 : 1];
    const spec = [...optionValues(args, ['p'], ['package']), ...(tool !== undefined ? [tool] : [])].find(
      (a) => REMOTE_SPEC.test(a) && !ownSource(a),
    );
    if (spec) return `code fetched and run from ${spec}`;
  }
  if (
    cmd.name === 'uvx' ||
    (cmd.name === 'pipx' && operands[0] === 'run') ||
    (cmd.name === 'uv' && operands[0] === 'tool')
  ) {
    const toolAt = cmd.name === 'uvx' ? 0 : cmd.name === 'pipx' ? 1 : operands[1] === 'run' ? 2 : 1;
    const tool = operands[toolAt];
    const spec = [...optionValues(args, [], ['from', 'spec', 'with']), ...(tool !== undefined ? [tool] : [])].find(
      (a) => REMOTE_SPEC.test(a) && !ownSource(a),
    );
    if (spec) return `code fetched and run from ${spec}`;
  }
  const loaded = sparkRemoteCode(cmd, args, ownSource) ?? duckdbExtensionSource(cmd, args, ownSource);
  if (loaded) return loaded;
  // WP-CLI installs a plugin, theme or WP-CLI package from a zip or git URL as readily as from the directory.
  if (cmd.name === 'wp') {
    const words = operands.filter((a) => !a.startsWith('@'));
    const code = ['plugin', 'theme', 'package'].includes(words[0] ?? '') && words[1] === 'install';
    const url = code ? words.slice(2).find((a) => /^(https?|git\+\w+|ftp):\/\//.test(a) && !ownSource(a)) : undefined;
    if (url !== undefined) return `a WordPress ${words[0]} straight from ${url}`;
  }
  // DDEV's add-ons run their install actions on this machine; a tarball URL names where they come from.
  if (cmd.name === 'ddev' && ((operands[0] === 'add-on' && operands[1] === 'get') || operands[0] === 'get')) {
    const url = operands.find((a) => /^(https?|ftp):\/\//.test(a) && !ownSource(a));
    if (url !== undefined) return `a DDEV add-on straight from ${url}`;
  }
  // PlatformIO installs a tool, platform or library from a URL as readily as from its registry.
  if ((cmd.name === 'pio' || cmd.name === 'platformio') && operands[0] === 'pkg' && operands[1] === 'install') {
    // `NAME@URL` names the package by the address it is fetched from as surely as the URL alone.
    const spec = optionValues(args, ['t', 'p', 'l'], ['tool', 'platform', 'library']).find(
      (a) => /(^|@)(https?|git\+\w+|file):\/\//.test(a) && !ownSource(a.replace(/^[^@:]*@(?=\w+[+:])/, '')),
    );
    if (spec) return `a PlatformIO package from ${spec}`;
  }
  // A project template's hooks run as it is made: cookiecutter's always, copier's tasks and migrations with --trust.
  // `uvx copier copy …` runs the tool uvx fetched, with the words after it.
  const template =
    cmd.name === 'uvx'
      ? templateSource(operands[0] ?? '', operands.slice(1), args)
      : templateSource(cmd.name, operands, args);
  if (template !== undefined && !ownSource(template))
    return `a project template from ${template}, whose hooks or tasks run as it is made`;
  // Foundry's dependencies are git repositories: `forge install org/repo` names one on GitHub, a URL any other.
  if (cmd.name === 'forge' && operands[0] === 'install') {
    const url = operands
      .slice(1)
      .find((a) => REMOTE_SPEC.test(a) && !/^https:\/\/github\.com\//.test(a) && !ownSource(a));
    if (url) return `a Foundry dependency cloned from ${url}`;
  }
  // `--registry NAME` names a registry the project's Cargo config defines; a URL there, or `--index`, is another.
  if (cmd.name === 'cargo' && (operands[0] === 'install' || operands[0] === 'add')) {
    const source = [
      ...optionValues(args, [], ['git', 'index']),
      ...optionValues(args, [], ['registry']).filter((value) => value.includes('://')),
    ][0];
    if (source && !ownSource(source)) return `a crate built from ${source}`;
  }
  // `cargo binstall --pkg-url URL`: the prebuilt binary is fetched from that address, not the crate's releases.
  if (cmd.name === 'cargo' && operands[0] === 'binstall') {
    const url = optionValues(args, [], ['pkg-url', 'git'])[0];
    if (url && !ownSource(url)) return `a prebuilt binary from ${url}`;
  }
  // `cargo build --config 'patch.crates-io.serde.git="URL"'`: every crate that uses serde compiles that fork.
  if (cmd.name === 'cargo') {
    const patched = optionValues(args, [], ['config']).find(
      (value) => /^\s*(?:patch|source)\./.test(value) && /(?:git|registry|index|replace-with)\s*=/.test(value),
    );
    const url = patched === undefined ? undefined : /https?:\/\/[^"'\s]+|ssh:\/\/[^"'\s]+/.exec(patched)?.[0];
    if (url !== undefined && !ownSource(url)) return `crates patched or replaced with code from ${url}`;
  }
  if (cmd.name === 'deno' && (operands[0] === 'run' || operands[0] === 'install' || operands[0] === 'compile')) {
    const url = operands.find((a) => /^https?:\/\//.test(a) && !ownSource(a));
    if (url) return `a script ${operands[0] === 'run' ? 'run' : 'installed'} straight from ${url}`;
  }
  const fromOtherTools = otherToolSource(cmd, args, operands, ownSource);
  if (fromOtherTools) return fromOtherTools;
  // `pip install 'name @ git+ssh://…'`: a PEP 508 direct reference is a package straight from a URL.
  if (manager && operands.some((a) => /^(i|install|add)$/.test(a))) {
    const direct = operands.find(
      (a) =>
        /@[ \t]*(git\+|https?:\/\/|file:|ssh:\/\/)/.test(a) &&
        !/^[@\w.-]+@\d/.test(a) &&
        !ownSource(a.slice(a.indexOf('@') + 1)),
    );
    if (direct) return `a package straight from ${direct}`;
  }
  // A released version (`@v1.59.1`) is the code the public checksum database holds for it, the same for
  // everyone who installs it (as pipx install name==1.2 is); a branch, a commit or `@latest` follows
  // whatever its owner pushes next.
  if (cmd.name === 'go' && operands[0] === 'install') {
    const module = operands.find(
      (a) => /^[a-z0-9.-]+\.[a-z]+\/.+@/.test(a) && !ownSource(a) && !GO_PROJECT_MODULE.test(a) && !GO_RELEASE.test(a),
    );
    if (module) return `a program built from ${module}, fetched as it installs`;
  }
  // pre-commit clones the repository it is given and runs its hooks over the project.
  if (cmd.name === 'pre-commit' && operands[0] === 'try-repo') {
    const repo = operands[1];
    if (repo !== undefined && /^(https?|git|ssh):\/\/|^git@/.test(repo) && !ownSource(repo))
      return `hooks cloned from ${repo} and run over the project`;
  }
  if (cmd.name === 'go' && operands[0] === 'run') {
    const module = operands.find((a) => /^[a-z0-9.-]+\.[a-z]+\/.+@/.test(a) && !ownSource(a));
    if (module) return `a module fetched and run from ${module}`;
  }
  return null;
}

/**
 * The Go project's own modules (gopls, goimports, govulncheck, staticcheck's x/tools base): published
 * by the language's maintainers, and what the Go extension itself installs.
 */
const GO_RELEASE = /@v\d+\.\d+\.\d+(-[\w.]+)?(\+incompatible)?$/;
const GO_PROJECT_MODULE = /^golang\.org\/x\/[\w.-]+(\/[\w.-]+)*@/;

/** Variables Mix and rebar3 read as where Hex packages, and Hex itself, come from. */
const HEX_SOURCE_VARIABLES = ['HEX_MIRROR', 'HEX_MIRROR_URL', 'HEX_BUILDS_URL', 'HEX_REPO_URL', 'HEX_CDN'];

/** Variables nvm, n, fnm and node-gyp read as where Node itself is downloaded from. */
const NODE_MIRROR_VARIABLES = ['NVM_NODEJS_ORG_MIRROR', 'NODEJS_ORG_MIRROR', 'N_NODE_MIRROR', 'FNM_NODE_DIST_MIRROR'];

/**
 * Tools of other ecosystems that install code from a URL or git: Mix archives and escripts, Ansible
 * Galaxy roles and collections, Pulumi plugins from a server of their own, rustup from another dist server.
 */
function otherToolSource(
  cmd: SimpleCommand,
  args: readonly string[],
  operands: readonly string[],
  ownSource: IsOwn,
): string | null {
  const remote = (words: readonly string[]) => words.find((a) => REMOTE_SPEC.test(a) && !ownSource(a));
  if (cmd.name === 'mix' && /^(archive|escript)\.install$/.test(operands[0] ?? '')) {
    const source =
      remote(operands.slice(1)) ?? (['git', 'github'].includes(operands[1] ?? '') ? operands[2] : undefined);
    if (source) return `a Mix ${operands[0] === 'archive.install' ? 'archive' : 'escript'} from ${source}`;
  }
  // `mix local.rebar rebar3 URL`: the rebar3 mix runs to build every Erlang dependency, from that address.
  if (cmd.name === 'mix' && operands[0] === 'local.rebar') {
    const source = remote(operands.slice(1));
    if (source) return `a rebar3 build tool from ${source}`;
  }
  // Hex's mirror and its own builds, and asdf's plugins (shell scripts run on every install and shim).
  if (['mix', 'rebar3', 'elixir', 'iex'].includes(cmd.name)) {
    const mirror = HEX_SOURCE_VARIABLES.map((name) => cmd.assignments[name]).find(
      (value) => value !== undefined && value !== '' && !ownSource(value),
    );
    if (mirror !== undefined) return `Hex packages or Hex itself from ${mirror}`;
  }
  // `mix hex.repo add NAME URL`: a Hex repository (an organisation's own, or hexpm's) answered from that address.
  if (cmd.name === 'mix' && operands[0] === 'hex.repo' && /^(add|set)$/.test(operands[1] ?? '')) {
    const source = remote(operands.slice(3)) ?? optionValues(args, [], ['url']).find((url) => !ownSource(url));
    if (source) return `Hex packages of the repository ${operands[2] ?? ''} from ${source}`;
  }
  // gcloud's components from another repository: the SDK installs and runs what it lists.
  if (
    cmd.name === 'gcloud' &&
    operands[0] === 'components' &&
    operands[1] === 'repositories' &&
    operands[2] === 'add'
  ) {
    const source = remote(operands.slice(3));
    if (source) return `gcloud components from ${source}`;
  }
  // vcstool clones every repository a .repos file lists, and colcon then builds (runs) each of them.
  const repos = cmd.name === 'vcs' && operands[0] === 'import' ? optionValues(args, [], ['input'])[0] : undefined;
  if (repos !== undefined && /^https?:\/\//.test(repos) && !ownSource(repos))
    return `the repositories listed at ${repos}, cloned to be built`;
  // An az extension is Python that runs inside every later az command.
  const extension =
    cmd.name === 'az' && operands[0] === 'extension' ? optionValues(args, ['s'], ['source'])[0] : undefined;
  if (
    extension !== undefined &&
    (/^https?:\/\//.test(extension) || inForeignFolder(extension)) &&
    !ownSource(extension)
  )
    return `an az CLI extension at ${extension}`;
  // Bazel's module registry: every module resolved through it brings Starlark and repository rules that run.
  if (cmd.name === 'bazel' || cmd.name === 'bazelisk') {
    const registry = optionValues(args, [], ['registry']).find((url) => !ownSource(url));
    if (registry) return `the Bazel registry ${registry}`;
  }
  // mise takes asdf's plugins too (`mise plugin add NAME URL`, `mise plugins install NAME URL`).
  if (
    (cmd.name === 'asdf' || cmd.name === 'mise') &&
    /^plugins?$/.test(operands[0] ?? '') &&
    /^(add|install)$/.test(operands[1] ?? '')
  ) {
    const source = remote(operands.slice(2));
    if (source) return `an asdf plugin (its scripts run on every install and shim) from ${source}`;
  }
  if (cmd.name === 'ansible-galaxy' && operands.includes('install')) {
    const source = remote(operands);
    if (source) return `an Ansible role or collection from ${source}`;
  }
  // A Helm plugin's install hook runs as it installs, and its program on every use of its command.
  if (cmd.name === 'helm' && operands[0] === 'plugin' && operands[1] === 'install') {
    const source = operands[2];
    if (source && ((REMOTE_SPEC.test(source) && !ownSource(source)) || inForeignFolder(source)))
      return `a Helm plugin from ${source}, whose install hook runs now and whose program runs with every use`;
  }
  if (cmd.name === 'pulumi' && operands[0] === 'plugin' && operands[1] === 'install') {
    const server = optionValues(args, [], ['server'])[0];
    if (server) return `a Pulumi plugin from ${server}`;
  }
  if (cmd.name === 'brew' && ['tap', 'install', 'reinstall', 'upgrade'].includes(operands[0] ?? '')) {
    const tap = operands
      .slice(1)
      .map((word) => thirdPartyTap(word, operands[0] === 'tap'))
      .find(Boolean);
    if (tap) return `a third-party Homebrew tap (${tap}), whose formulas run their own Ruby as they install`;
  }
  if (cmd.name === 'pod' && operands[0] === 'repo' && operands[1] === 'add') {
    const url = operands[3];
    if (url && !/cocoapods/i.test(url)) return `a pod spec source (${url}) other than CocoaPods' own`;
  }
  const nodeMirror =
    NODE_MIRROR_VARIABLES.map((name) => cmd.assignments[name]).find((v) => v !== undefined) ??
    (cmd.name === 'fnm' || cmd.name === 'nvs' ? optionValues(args, [], ['node-dist-mirror'])[0] : undefined);
  if (nodeMirror !== undefined && !/^https:\/\/([\w-]+\.)*nodejs\.org(\/|$)/.test(nodeMirror) && !ownSource(nodeMirror))
    return `a Node.js build from ${nodeMirror}`;
  // Go checks every module it fetches against the public checksum database; without it, a proxy or a
  // plain-HTTP host can hand over any code for a version everyone else sees differently.
  if (cmd.name === 'go') {
    const env = cmd.assignments;
    if (env['GOSUMDB'] === 'off' || env['GOINSECURE'] !== undefined || /(^|\s)-insecure\b/.test(env['GOFLAGS'] ?? ''))
      return `Go modules fetched without checksum verification${env['GOPROXY'] !== undefined ? ` through ${env['GOPROXY']}` : ''}`;
  }
  const dist = cmd.assignments['RUSTUP_DIST_SERVER'] ?? cmd.assignments['RUSTUP_UPDATE_ROOT'];
  if (cmd.name === 'rustup' && dist !== undefined && !/^https:\/\/([\w-]+\.)*rust-lang\.org(\/|$)/.test(dist))
    return `a Rust toolchain from ${dist}`;
  return null;
}

// Tools that build a system or home configuration from a flake and activate it (its scripts run).
const NIX_ACTIVATORS = new Set(['nixos-rebuild', 'home-manager', 'darwin-rebuild']);
const FLAKE_URL = /^(tarball\+|file\+|git\+)?https?:\/\//;
const NIX_OFFICIAL_CACHE = /^https:\/\/cache\.nixos\.org\/?$/;
const NIX_RUNNERS = new Set(['run', 'shell', 'build', 'develop', 'profile']);

/**
 * A Nix command line's settings (`--option NAME VALUE`, `--NAME VALUE`, NIX_CONFIG's lines) and its
 * operands (the words no option takes).
 */
function nixCommandLine(
  cmd: SimpleCommand,
  args: readonly string[],
): { settings: [string, string][]; operands: string[] } {
  const settings: [string, string][] = [];
  const operands: string[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === '--option') {
      settings.push([args[at + 1] ?? '', args[at + 2] ?? '']);
      at += 2;
    } else if (/^--(extra-)?(substituters|trusted-public-keys|require-sigs)$/.test(arg)) {
      settings.push([arg.slice(2), args[at + 1] ?? '']);
      at += 1;
    } else if (!arg.startsWith('-')) operands.push(arg);
  }
  settings.push(...nixConfigSettings(cmd.assignments['NIX_CONFIG']));
  return { settings, operands };
}

/** A Nix build that takes binaries from another cache, or any cache's unsigned; a flake fetched from a URL. */
function nixSource(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if (!NIX_PROGRAMS.has(cmd.name)) return null;
  const { settings, operands } = nixCommandLine(cmd, args);
  for (const [name, value] of settings) {
    if (name === 'require-sigs' && value === 'false')
      return 'any Nix binary cache with signature checks off (require-sigs = false)';
    if (/^(extra-)?substituters$/.test(name)) {
      const cache = value.split(/\s+/).find((url) => url && !NIX_OFFICIAL_CACHE.test(url) && !ownSource(url));
      if (cache) return `a Nix binary cache at ${cache}`;
    }
  }
  const outside = (words: readonly string[]) => words.find((w) => FLAKE_URL.test(w) && !ownSource(w));
  if (cmd.name === 'nix' && NIX_RUNNERS.has(operands[0] ?? '')) {
    const flake = outside(operands.slice(1));
    if (flake) return `a Nix flake fetched from ${flake}`;
  }
  // `nix flake lock --override-input nixpkgs URL`: every package of that input comes from there.
  if (cmd.name === 'nix' && operands[0] === 'flake' && args.includes('--override-input')) {
    const input = outside(operands);
    if (input) return `a flake input taken from ${input}`;
  }
  if (NIX_ACTIVATORS.has(cmd.name) && args.some((a) => a === '--flake' || a.startsWith('--flake='))) {
    const flake = outside([...operands, ...args.filter((a) => a.startsWith('--flake=')).map((a) => a.slice(8))]);
    if (flake) return `a configuration flake fetched from ${flake}, whose activation scripts run`;
  }
  return null;
}

/** `cachix use NAME`: that cache and its key are added to Nix's trusted substituters for every build. */
function cachixCache(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if (cmd.name !== 'cachix' || args[0] !== 'use') return null;
  const name = args.slice(1).find((a) => !a.startsWith('-'));
  return name !== undefined && !ownSource(`https://${name}.cachix.org`) ? `the Cachix binary cache ${name}` : null;
}

/** Composer's and NuGet's sources added on the command line: `composer config repositories.x vcs URL`, `dotnet … --add-source URL`. */
function feedOf(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if (cmd.name === 'composer') {
    const at = args.findIndex((a) => /^repositories?\./.test(a));
    const url = at === -1 ? undefined : args.slice(at + 1).find((a) => /^(https?|git|ssh):|^git@/.test(a));
    if (url && !ownSource(url)) return `a new Composer repository (${url})`;
    // `composer create-project … --repository=URL` (or `--repository-url`) takes the package and its scripts from there.
    const chosen = optionValues(args, [], ['repository', 'repository-url']).find((u) =>
      /^(https?|git|ssh):|^git@/.test(u),
    );
    if (chosen && !ownSource(chosen)) return `a Composer repository chosen on the command line (${chosen})`;
  }
  // `pecl install URL`: a PHP extension's source from there, compiled and loaded into every PHP process.
  if (cmd.name === 'pecl' && args[0] === 'install') {
    const url = args.slice(1).find((a) => /^(https?|ftp):\/\//i.test(a));
    if (url && !ownSource(url)) return `the tarball ${url} (a PHP extension, built and loaded into every PHP process)`;
  }
  if (cmd.name === 'dotnet') {
    const words = args.filter((a) => !a.startsWith('-'));
    const chosen = optionValues(args, ['s'], ['source', 'add-source', 'nuget-source']).find((u) =>
      /^(https?|file):/.test(u),
    );
    const added = words[0] === 'nuget' && words[1] === 'add' && words[2] === 'source' ? words[3] : undefined;
    const url = chosen ?? added;
    if (url && !ownSource(url)) return `a NuGet feed chosen on the command line (${url})`;
  }
  // `conan remote add NAME URL`: recipes and binaries come from there; `conan config install URL`: profiles,
  // hooks and plugins that run in every later build.
  if (cmd.name === 'conan') {
    const words = args.filter((a) => !a.startsWith('-'));
    const remote = words[0] === 'remote' && words[1] === 'add' ? words[3] : undefined;
    const config = words[0] === 'config' && words[1] === 'install' ? words[2] : undefined;
    const url = remote ?? config;
    if (url && /^(https?|git|ssh):|^git@/.test(url) && !ownSource(url))
      return remote !== undefined
        ? `a new Conan remote (${url})`
        : `Conan configuration (profiles, hooks, plugins that run in every build) from ${url}`;
  }
  return null;
}

function untrustedSourceOf(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  return (
    indexOf(cmd, args, ownSource) ??
    condaChannelOf(cmd, args, ownSource) ??
    feedOf(cmd, args, ownSource) ??
    nixSource(cmd, args, ownSource) ??
    cachixCache(cmd, args, ownSource) ??
    remotePackageOf(cmd, args, ownSource) ??
    gitSourcedGemOrPlugin(cmd, args, ownSource) ??
    pubSource(cmd, args, ownSource) ??
    jvmToolSource(cmd, args, ownSource)
  );
}

/**
 * `./gradlew wrapper --gradle-distribution-url URL`: the Gradle every later `./gradlew` downloads and runs.
 * `cs launch … -r URL`: Coursier resolves the program it runs from that repository.
 */
function jvmToolSource(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  const name = cmd.name.replace(/^.*\//, '');
  if ((name === 'gradle' || name === 'gradlew') && args.includes('wrapper')) {
    const url = optionValues(args, [], ['gradle-distribution-url'])[0];
    if (url !== undefined && !/^https:\/\/services\.gradle\.org\//.test(url) && !ownSource(url))
      return `${url} as the Gradle distribution every build downloads and runs`;
  }
  if ((name === 'cs' || name === 'coursier') && ['launch', 'install', 'bootstrap'].includes(args[0] ?? '')) {
    const repository = optionValues(args, ['r'], ['repository']).find((r) => /^[a-z][\w+.-]*:\/\//i.test(r));
    if (repository !== undefined && !ownSource(repository))
      return `${repository} as the repository Coursier takes the program it runs from`;
  }
  return null;
}

/**
 * `flutter pub add x --hosted-url URL`, `dart pub global activate --source git URL`: Dart packages from a
 * server or repository other than the project's (PUB_HOSTED_URL is read with the other index variables).
 */
function pubSource(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if ((cmd.name !== 'flutter' && cmd.name !== 'dart') || args[0] !== 'pub') return null;
  const hosted = optionValues(args, [], ['hosted-url', 'git-url'])[0];
  if (hosted !== undefined && !ownSource(hosted)) return `${hosted} as a Dart package source`;
  const git = args.includes('git') ? args.find((a) => /^(https?|git|ssh):\/\/|^git@/.test(a)) : undefined;
  if (git !== undefined && !ownSource(git)) return `a git repository (${git}) as a Dart package`;
  return null;
}

/**
 * `bundle add NAME --git URL` (or `--github user/repo`): the gem's code, its gemspec run at install, comes
 * from that repository. `heroku plugins:install NAME|URL` and `sf plugins install NAME`: the CLI runs the
 * plugin with its login (every org's, for sf), so one not published by the CLI's own maker asks. A
 * buildpack from a repository runs in every build with the app's config vars.
 */
/** Heroku's own CLI plugins: its scopes, and the ones it publishes by bare name. */
const HEROKU_OWN_PLUGIN = /^(@heroku(-cli)?\/.+|heroku-(builds|repo|pg-extras|slugs))$/;

function gitSourcedGemOrPlugin(cmd: SimpleCommand, args: readonly string[], ownSource: IsOwn): string | null {
  if (cmd.name === 'bundle' && args[0] === 'add') {
    const git = optionValues(args, [], ['git'])[0];
    if (git !== undefined && !ownSource(git)) return `a git repository (${git}) as a gem`;
    const github = optionValues(args, [], ['github'])[0];
    if (github !== undefined && !ownSource(`https://github.com/${github}`)) return `GitHub's ${github} as a gem`;
  }
  if (cmd.name === 'heroku' && args[0] === 'plugins:install') {
    const plugin = args.slice(1).find((a) => !a.startsWith('-'));
    if (plugin !== undefined && !HEROKU_OWN_PLUGIN.test(plugin) && !ownSource(plugin))
      return `${plugin} as a Heroku CLI plugin, which runs with the Heroku login`;
  }
  if (cmd.name === 'heroku' && /^buildpacks:(add|set)$/.test(args[0] ?? '')) {
    const pack = args.slice(1).find((a) => /^(https?|git|ssh):\/\/|^git@/.test(a));
    if (pack !== undefined && !/^https:\/\/github\.com\/heroku\//.test(pack) && !ownSource(pack))
      return `${pack} as a buildpack, which runs in every build with the app's config vars`;
  }
  // Firebase extensions run in the project with a service account of their own; Firebase publishes its own
  // under `firebase/`, and a folder of the project's is code that is here to read.
  if (cmd.name === 'firebase' && args[0] === 'ext:install') {
    const extension = args.slice(1).find((a) => !a.startsWith('-'));
    if (
      extension !== undefined &&
      !/^firebase\//.test(extension) &&
      !/^\.{0,2}\//.test(extension) &&
      !ownSource(extension)
    )
      return `${extension} as a Firebase extension, which runs in the project with its own service account`;
  }
  if ((cmd.name === 'sf' || cmd.name === 'sfdx') && args[0] === 'plugins' && args[1] === 'install') {
    const plugin = args.slice(2).find((a) => !a.startsWith('-'));
    if (plugin !== undefined && !/^@salesforce\//.test(plugin) && !ownSource(plugin))
      return `${plugin} as a Salesforce CLI plugin, which runs with every org's login`;
  }
  return null;
}

/**
 * `npm config set KEY VALUE` (pnpm's, yarn's): the line it writes into the user's config, judged as that
 * file's line would be (a script shell, a module node loads first, a registry).
 */
function configSetLine(cmd: SimpleCommand, allArgs: readonly string[], ownSource: IsOwn): string | null {
  const file = cmd.name === 'yarn' ? '.yarnrc.yml' : cmd.name === 'npm' || cmd.name === 'pnpm' ? '.npmrc' : undefined;
  const args = fromSubcommand(allArgs, PACKAGE_CLI_VALUE_OPTIONS);
  const setAt = args.indexOf('set');
  if (file === undefined || args[0] !== 'config' || setAt === -1) return null;
  const [key = '', inlineValue] = (args[setAt + 1] ?? '').split(/=(.*)/s);
  const value = inlineValue ?? args.slice(setAt + 2).join(' ');
  return packageSourceWrite(file, file === '.npmrc' ? `${key}=${value}` : `${key}: ${value}`, ownSource);
}

/**
 * An MCP tool that installs (a package, an app on a device or simulator, a formula) given a web address
 * as what to install or where from: `{"url": "https://…/app.apk"}`, `{"index_url": "https://…"}`.
 */
function mcpInstallUrl(call: ToolCall, ownSource: IsOwn): string | undefined {
  const verb = call.toolName.startsWith('mcp__') ? call.toolName.slice(call.toolName.lastIndexOf('__') + 2) : '';
  if (!/install|sideload|deploy_app|add_formula/i.test(verb)) return undefined;
  // Nested ones too: `libraries: [{pypi: {repo: URL}}]`.
  return stringsIn(call.input).find((value) => /^https?:\/\//i.test(value) && !ownSource(value));
}

export const packageFromUntrustedSource = definePolicy({
  name: 'package-from-untrusted-source',
  category: 'packages-and-system',
  description:
    'Asks before installing or running packages from a URL, git, a tarball, another index or without certificate checks, and before writing package manager configs (.npmrc, pip.conf…) that do so.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /**
     * Package hosts and repository prefixes the organisation runs (`packages.example.com`,
     * `github.com/your-org`): installs from there are its own code. Hosts on this machine, the private
     * network and names never delegated publicly (`.internal`, `.corp`, `.home.arpa`) need no entry.
     */
    allowSources: z.array(z.string()).default([]),
  }),
  evaluate({ call, params }) {
    const ownSource: IsOwn = (source) => isOwnSource(source, params.allowSources);
    const found = firstCommand(call, (cmd, args) => untrustedSourceOf(cmd, args, ownSource));
    const switched = !found && call ? gemSourceSwitch(call, ownSource) : null;
    if (switched)
      return {
        reason: `Switches ${switched.file}'s gem server from ${switched.from} to ${switched.to}: every later bundle install takes gems from there. Keep the project's source, or approve this one if the person chose it.`,
        evidence: evidenceOf(switched.to),
      };
    const locked = !found && call ? lockfileSourceAdded(call, ownSource) : null;
    if (locked)
      return {
        reason: `Makes ${locked.file} fetch packages from ${locked.host}, a host it did not name before: the next install takes that code without a command that shows it. Let the package manager write its lockfile, or approve this host.`,
        evidence: evidenceOf(locked.host),
      };
    const written =
      !found && call
        ? firstWrittenFinding(call, (file, content) => writtenSourceFinding(call, file, content, ownSource))
        : undefined;
    if (written)
      return {
        reason: `Writes ${written.file}, which ${written.found}: every later install takes code from there, with no command line that shows it. Keep the project's package source, or approve this one if the person chose it.`,
        evidence: evidenceOf(written.content),
      };
    const configured = found ? null : firstCommand(call, (cmd, args) => configSetLine(cmd, args, ownSource));
    if (configured)
      return {
        reason: `Sets the package manager's configuration, which ${configured.what}: it holds for every later command, with no command line that shows it. Approve this exact call if the person chose it.`,
        evidence: evidenceOf(configured.cmd.text),
      };
    const fromUrl = found || !call ? undefined : mcpInstallUrl(call, ownSource);
    if (fromUrl)
      return {
        reason: `${call!.toolName} installs from ${fromUrl}: the code that arrives is not the reviewed package or build; install by name from the project's registry, or approve this exact source.`,
        evidence: evidenceOf(fromUrl),
      };
    if (!found) return null;
    return {
      reason: `Installs from ${found.what}: the code that arrives is not the reviewed package; install by name from the project's registry, or approve this exact source.`,
      evidence: evidenceOf(found.cmd.text),
    };
  },
});
