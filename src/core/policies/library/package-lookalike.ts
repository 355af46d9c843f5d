import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { argsOf, evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { pythonModuleRun } from '../../facts/programs';
import { writtenOverReplaced } from './shared/edited-file';
import { canonicalPackageName, popularPackages, type Registry } from './shared/popular-packages';

// A package named one typing slip from a widely used one (`prisma-clinet`, `electron-buider`,
// `sqlx-cIi`, a Cyrillic letter in place of a Latin one) is how typosquats are found: installing it
// runs its install scripts, or its build script, with the person's rights. Read from install commands
// and from dependencies a manifest edit adds.

/** Letters that look like Latin ones (Cyrillic, Greek) and digits that pass for letters, as the Latin letter. */
const LOOKS_LIKE: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  τ: 't',
  κ: 'k',
  ι: 'i',
  '0': 'o',
  '1': 'l',
};

function foldLookAlikes(name: string): string {
  return [...name]
    .map((ch) => LOOKS_LIKE[ch] ?? ch)
    .join('')
    .replace(/rn/g, 'm');
}

/** Whether one edit turns `a` into `b`: a letter changed, added or dropped, or two neighbours swapped. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  return longer.slice(i + 1) === shorter.slice(i);
}

// Below this length one slip often lands on another real package (`ms` and `mz` are both real).
const MIN_COMPARED_LENGTH = 5;

/** The widely used name `name` imitates, if it is one slip (or a look-alike letter) away from one and not one itself. */
export function imitatedPackage(registry: Registry, name: string): string | undefined {
  const popular = popularPackages(registry);
  const canonical = canonicalPackageName(registry, name);
  if (popular.has(canonical)) return undefined;
  const folded = canonicalPackageName(registry, foldLookAlikes(name));
  if (folded !== canonical && popular.has(folded)) return folded;
  const bare = (text: string) => text.replace(/[-_.@/]/g, '');
  if (canonical.length < MIN_COMPARED_LENGTH) return undefined;
  for (const known of popular) {
    if (known.length < MIN_COMPARED_LENGTH) continue;
    // A scoped name's scope and name joined (`@prisma/client` as prisma-client) is imitated too.
    const joined = known.startsWith('@') ? known.slice(1).replace('/', '-') : known;
    if (oneEditApart(canonical, known) || oneEditApart(canonical, joined) || bare(canonical) === bare(known))
      return known;
  }
  return undefined;
}

interface Requested {
  registry: Registry;
  name: string;
}

const NPM_CLIENTS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const NPM_INSTALLS = new Set(['install', 'i', 'add', 'isntall', 'in']);
const NPM_RUNNERS = new Set(['npx', 'pnpx', 'bunx']);

/** `@scope/name@1.2`, `name@^1`, `alias@npm:other@1`: the package name, or undefined for a path, URL or git spec. */
function npmName(spec: string): string | undefined {
  const aliased = /^(?:@[\w.-]+\/)?[\w.-]+@npm:(.+)$/.exec(spec)?.[1];
  const target = aliased ?? spec;
  if (/^[./~]|:/.test(target)) return undefined;
  const name = /^(@[\p{L}\p{N}_.-]+\/[\p{L}\p{N}_.-]+|[\p{L}\p{N}_.-]+)/u.exec(target)?.[1];
  return name !== undefined && !name.startsWith('.') ? name : undefined;
}

/** `pkg[extra]>=1.2`: the distribution's name, or undefined for a path, URL or option. */
function pythonName(spec: string): string | undefined {
  if (/^[-./~]|:\/\/|^git\+/.test(spec)) return undefined;
  return /^[A-Za-z0-9\u00C0-\uFFFF][A-Za-z0-9._\u00C0-\uFFFF-]*/.exec(spec)?.[0];
}

function npmRequested(cmd: SimpleCommand, args: readonly string[]): Requested[] {
  // npm's -w names a workspace; pnpm's -w (the workspace root) takes nothing, its -F and -C do.
  const { positionals } = parseFlags(args, cmd.name === 'npm' ? ['w'] : cmd.name === 'pnpm' ? ['F', 'C'] : [], [
    'registry',
    'filter',
    'workspace',
    'prefix',
    'dir',
    'cwd',
    'tag',
    'otp',
    'package',
  ]);
  // `npx NAME …` runs a bin of the project's packages first (`npx changeset` is @changesets/cli's); with a
  // version or --yes it fetches NAME itself.
  if (NPM_RUNNERS.has(cmd.name)) {
    const spec = positionals[0] ?? '';
    const fetches = /.@/.test(spec) || args.some((a) => a === '--yes' || a === '-y');
    return fetches ? named('npm', npmName(spec)) : [];
  }
  const [verb, ...specs] = positionals;
  if ((cmd.name === 'pnpm' || cmd.name === 'yarn') && verb === 'dlx') return named('npm', npmName(specs[0] ?? ''));
  if (!NPM_INSTALLS.has(verb ?? '')) return [];
  return specs.flatMap((spec) => named('npm', npmName(spec)));
}

function pythonRequested(cmd: SimpleCommand, args: readonly string[]): Requested[] {
  const pipModule = pythonModuleRun(cmd);
  const words = pipModule && /^pip\d*$/.test(pipModule.module) ? pipModule.args : args;
  const pip = /^pip\d*(\.\d+)?$/.test(cmd.name) || pipModule !== undefined;
  const { positionals } = parseFlags(
    words,
    ['r', 'c', 'e', 'i', 'f', 't', 'p', 'G'],
    [
      ...['requirement', 'constraint', 'editable', 'index-url', 'extra-index-url', 'find-links', 'target', 'python'],
      // pip's general options that take a value, given before or after the subcommand.
      ...['timeout', 'retries', 'proxy', 'log', 'cert', 'client-cert', 'cache-dir', 'exists-action', 'trusted-host'],
      ...['src', 'prefix', 'root', 'platform', 'python-version', 'upgrade-strategy', 'progress-bar', 'report'],
    ],
  );
  let specs: string[] = [];
  if (pip && positionals[0] === 'install') specs = positionals.slice(1);
  else if (cmd.name === 'uv' && positionals[0] === 'pip' && positionals[1] === 'install') specs = positionals.slice(2);
  else if (
    cmd.name === 'uv' &&
    (positionals[0] === 'add' || (positionals[0] === 'tool' && positionals[1] === 'install'))
  )
    specs = positionals.slice(positionals[0] === 'add' ? 1 : 2);
  else if (['poetry', 'pdm'].includes(cmd.name) && positionals[0] === 'add') specs = positionals.slice(1);
  else if (['pipx', 'pipenv'].includes(cmd.name) && positionals[0] === 'install') specs = positionals.slice(1);
  else if (cmd.name === 'uvx') specs = positionals.slice(0, 1);
  return specs.flatMap((spec) => named('pypi', pythonName(spec)));
}

function otherRequested(cmd: SimpleCommand, args: readonly string[]): Requested[] {
  if (cmd.name === 'cargo') {
    const { positionals } = parseFlags(
      args,
      ['F', 'p'],
      ['features', 'git', 'path', 'branch', 'tag', 'rev', 'registry', 'version', 'rename', 'package', 'root'],
    );
    if (args.some((a) => a === '--git' || a === '--path' || a.startsWith('--git=') || a.startsWith('--path=')))
      return [];
    if (positionals[0] !== 'add' && positionals[0] !== 'install') return [];
    return positionals.slice(1).flatMap((spec) => named('crates', /^[A-Za-z0-9_-]+/.exec(spec)?.[0]));
  }
  if (cmd.name === 'gem' || cmd.name === 'bundle') {
    const { positionals } = parseFlags(args, ['v', 's'], ['version', 'source']);
    const verb = cmd.name === 'gem' ? 'install' : 'add';
    return positionals[0] === verb ? positionals.slice(1).flatMap((spec) => named('rubygems', spec)) : [];
  }
  // `flutter pub add dev:NAME`, `dart pub add NAME:^1.2`, `dart pub global activate NAME`.
  if ((cmd.name === 'flutter' || cmd.name === 'dart') && args[0] === 'pub') {
    const { positionals } = parseFlags(args.slice(1), ['s'], ['source', 'path', 'git-url', 'hosted-url', 'sdk']);
    if (args.some((a) => a.startsWith('--path') || a.startsWith('--git') || a.startsWith('--hosted'))) return [];
    const specs =
      positionals[0] === 'add'
        ? positionals.slice(1)
        : positionals[0] === 'global' && positionals[1] === 'activate'
          ? positionals.slice(2, 3)
          : [];
    return specs.flatMap((spec) => named('pub', /^(?:dev:|override:)?([a-z][a-z0-9_]*)/.exec(spec)?.[1]));
  }
  if (cmd.name === 'dotnet') {
    const { positionals } = parseFlags(args, ['v', 's'], ['version', 'source', 'tool-path', 'framework']);
    const at = positionals.indexOf('package');
    if (positionals[0] === 'add' && at > 0) return named('nuget', positionals[at + 1]);
    if (positionals[0] === 'tool' && positionals[1] === 'install') return named('nuget', positionals[2]);
  }
  return [];
}

function named(registry: Registry, name: string | undefined): Requested[] {
  return name === undefined || name === '' ? [] : [{ registry, name }];
}

function commandRequests(cmd: SimpleCommand): Requested[] {
  const args = argsOf(cmd);
  if (NPM_CLIENTS.has(cmd.name) || NPM_RUNNERS.has(cmd.name)) return npmRequested(cmd, args);
  return [...pythonRequested(cmd, args), ...otherRequested(cmd, args)];
}

// A dependency line of each manifest: `"name": "^1.2"`, `name>=1`, `name = "1"`, `Include="Name"`, `"dotnet-ef": {`.
const MANIFEST_DEPENDENCIES: { file: Pick<RegExp, 'test'>; registry: Registry; line: RegExp }[] = [
  {
    file: /(^|\/)package\.json$/,
    registry: 'npm',
    line: /^[ \t]*"((?:@[\w.-]+\/)?[^"\s/@]+)"[ \t]*:[ \t]*"(?:npm:[^"]*|[~^<>=*\d x.|-]+|latest|next|\*)"/,
  },
  {
    file: {
      test: (file) => /\.(txt|in)$/.test(file) && file.slice(file.lastIndexOf('/') + 1).includes('requirements'),
    },
    registry: 'pypi',
    line: /^[ \t]*([A-Za-z0-9\u00C0-\uFFFF][A-Za-z0-9._\u00C0-\uFFFF-]*)(?:\[[^\]\n]*\])?[ \t]*(?:[<>=!~;@]|$)/,
  },
  // pyproject's dependency lists quote each requirement; Pipfile keys its packages.
  {
    file: /(^|\/)pyproject\.toml$/,
    registry: 'pypi',
    line: /^[ \t]*["']([A-Za-z0-9\u00C0-\uFFFF][A-Za-z0-9._\u00C0-\uFFFF-]*)(?:\[[^\]\n]*\])?[ \t]*(?:[<>=!~;@]|["'])/,
  },
  { file: /(^|\/)Pipfile$/, registry: 'pypi', line: /^[ \t]*([A-Za-z0-9][\w.-]*)[ \t]*=[ \t]*["'{]/ },
  {
    file: /(^|\/)Cargo\.toml$/,
    registry: 'crates',
    line: /^[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*(?:"[\d^~=<>*.]|\{[^}\n]*version)/,
  },
  {
    file: /\.(csproj|fsproj|vbproj|props)$/,
    registry: 'nuget',
    line: /<PackageReference[ \t]+Include[ \t]*=[ \t]*"([^"]+)"/,
  },
  { file: /(^|\/)dotnet-tools\.json$/, registry: 'nuget', line: /^[ \t]*"([\w.-]+)"[ \t]*:[ \t]*\{/ },
  // pubspec's dependencies: an indented `name: ^1.2.3` (a bare version or range).
  {
    file: /(^|\/)pubspec\.yaml$/,
    registry: 'pub',
    line: /^[ \t]+([a-z][a-z0-9_]*)[ \t]*:[ \t]*["']?(?:\^|>=?|<|any\b|\d)/,
  },
  {
    file: /(^|\/)(Gemfile|[^/]+\.gemspec)$/,
    registry: 'rubygems',
    line: /^[ \t]*(?:gem|add_(?:runtime_|development_)?dependency)[ \t(]+["']([\w.-]+)["']/,
  },
];

function manifestNames(text: string, line: RegExp): Set<string> {
  const names = new Set<string>();
  for (const each of text.split('\n')) {
    const name = line.exec(each)?.[1];
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** Dependencies a write or an edit adds to a manifest (an edit's old text already named the rest). */
function manifestRequests(call: ToolCall): { file: string; requested: Requested[] }[] {
  return writtenOverReplaced(call).flatMap(({ file, content, replaced }) =>
    MANIFEST_DEPENDENCIES.filter((manifest) => manifest.file.test(file)).map((manifest) => {
      const had = manifestNames(replaced, manifest.line);
      const added = [...manifestNames(content, manifest.line)].filter((name) => !had.has(name));
      return { file, requested: added.map((name) => ({ registry: manifest.registry, name })) };
    }),
  );
}

// The same artifact from another publisher: an edit that keeps a library's name and changes its group
// (`com.fasterxml.jackson.core:jackson-databind` to `io.github.someone:jackson-databind`) puts a look-alike
// in the build under the name everyone reviews by. A group moved within its owner's namespace
// (`org.hibernate` to `org.hibernate.orm`) is a relocation, not a new publisher.
const JVM_MANIFEST = /(^|\/)(libs\.versions\.toml|[^/]+\.gradle(\.kts)?|pom\.xml)$/;
const COORDINATE = /["']([A-Za-z][\w-]*(?:\.[\w-]+)+):([A-Za-z][\w.-]*)(?::[^"'\s]*)?["']/g;
const POM_COORDINATE = /<groupId>\s*([\w.-]+)\s*<\/groupId>\s*<artifactId>\s*([\w.-]+)\s*<\/artifactId>/g;
const CODE_HOSTS = new Set(['github', 'gitlab', 'bitbucket', 'codeberg']);

/** Each artifact the text names, with the groups it names it under. */
function jvmArtifacts(text: string): Map<string, Set<string>> {
  const artifacts = new Map<string, Set<string>>();
  for (const pattern of [COORDINATE, POM_COORDINATE])
    for (const [, group, artifact] of text.matchAll(pattern)) {
      const groups = artifacts.get(artifact!) ?? new Set<string>();
      groups.add(group!);
      artifacts.set(artifact!, groups);
    }
  return artifacts;
}

/** Who publishes under a group: its reversed domain, with the account on a code host (`io.github.someone`). */
function publisherOf(group: string): string {
  const parts = group.toLowerCase().split('.');
  return parts.slice(0, CODE_HOSTS.has(parts[1] ?? '') ? 3 : 2).join('.');
}

interface PublisherSwap {
  file: string;
  artifact: string;
  from: string;
  to: string;
}

function publisherSwaps(call: ToolCall): PublisherSwap[] {
  return writtenOverReplaced(call).flatMap(({ file, content, replaced }) => {
    if (!JVM_MANIFEST.test(file) || replaced === '') return [];
    const before = jvmArtifacts(replaced);
    const swaps: PublisherSwap[] = [];
    for (const [artifact, groups] of jvmArtifacts(content)) {
      const had = [...(before.get(artifact) ?? [])];
      const owners = new Set(had.map(publisherOf));
      const to = [...groups].find((group) => had.length > 0 && !owners.has(publisherOf(group)));
      if (to !== undefined) swaps.push({ file, artifact, from: had[0]!, to });
    }
    return swaps;
  });
}

// A Go module replaced by another owner's (`go mod edit -replace`, a go.mod `replace` line): every
// import of the module compiles that owner's code. A local folder, or a module of the same owner, is not.
const GO_REPLACE_LINE = /^[ \t]*(?:replace[ \t]+)?([\w.~-]+(?:\/[\w.~-]+)+)(?:[ \t]+v\S+)?[ \t]+=>[ \t]+(\S+)/gm;

/** Who publishes a Go module path: its host and first path segment (`github.com/lumen-media`). */
function goOwnerOf(path: string): string {
  return path.toLowerCase().split('/').slice(0, 2).join('/');
}

function goReplacement(original: string, replacement: string): { from: string; to: string } | undefined {
  const from = original.split('@')[0]!;
  const to = replacement.split('@')[0]!;
  if (/^[./]/.test(to) || !to.includes('/') || goOwnerOf(from) === goOwnerOf(to)) return undefined;
  return { from, to };
}

function goReplaces(call: ToolCall): PublisherSwap[] {
  const swaps: PublisherSwap[] = [];
  for (const cmd of shellCommands(call)) {
    if (cmd.name !== 'go' || argsOf(cmd)[0] !== 'mod' || argsOf(cmd)[1] !== 'edit') continue;
    const args = argsOf(cmd);
    args.forEach((word, at) => {
      const value = word.startsWith('-replace=') ? word.slice(9) : word === '-replace' ? args[at + 1] : undefined;
      const [original, replacement] = value?.split('=') ?? [];
      const swap = original && replacement ? goReplacement(original, replacement) : undefined;
      if (swap) swaps.push({ file: 'go.mod', artifact: swap.from, from: goOwnerOf(swap.from), to: swap.to });
    });
  }
  for (const { file, content } of writtenOverReplaced(call)) {
    if (!file.endsWith('go.mod')) continue;
    for (const [, original, replacement] of content.matchAll(GO_REPLACE_LINE)) {
      const swap = goReplacement(original!, replacement!);
      if (swap) swaps.push({ file, artifact: swap.from, from: goOwnerOf(swap.from), to: swap.to });
    }
  }
  return swaps;
}

const REGISTRY_NAMES: Record<Registry, string> = {
  npm: 'npm',
  pypi: 'PyPI',
  crates: 'crates',
  rubygems: 'RubyGems',
  nuget: 'NuGet',
  pub: 'pub',
};

export const packageLookalike = definePolicy({
  name: 'package-name-lookalike',
  category: 'packages-and-system',
  description:
    'Asks before installing or adding to a manifest a package one slip from a widely used one (prisma-clinet, a Cyrillic letter), or moving a JVM library to another publisher: how typosquats and look-alikes are caught.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /** Names this project really uses that happen to sit one slip from a widely used one. */
    allowNames: z.array(z.string()).default([]),
  }),
  evaluate({ call, params }) {
    if (!call) return null;
    const allowed = new Set(params.allowNames);
    const judge = (requested: Requested) =>
      allowed.has(requested.name) ? undefined : imitatedPackage(requested.registry, requested.name);
    for (const cmd of shellCommands(call))
      for (const requested of commandRequests(cmd)) {
        const imitated = judge(requested);
        if (imitated !== undefined)
          return {
            reason: `Installs ${requested.name} from ${REGISTRY_NAMES[requested.registry]}, one slip from the widely used ${imitated}: typosquats take such names, and their install or build scripts run with your rights. Check the name, or add it to allowNames if it is the package meant.`,
            evidence: evidenceOf(cmd.text),
          };
      }
    for (const { file, requested } of manifestRequests(call))
      for (const each of requested) {
        const imitated = judge(each);
        if (imitated !== undefined)
          return {
            reason: `Adds ${each.name} to ${file}, one slip from the widely used ${imitated}: the next install takes whatever that name holds. Check the name, or add it to allowNames if it is the package meant.`,
            evidence: evidenceOf(each.name),
          };
      }
    const replaced = goReplaces(call)[0];
    if (replaced)
      return {
        reason: `Replaces the Go module ${replaced.artifact} in ${replaced.file} with ${replaced.to}, another owner's: every import of it then compiles that code. Check who publishes ${replaced.to}.`,
        evidence: evidenceOf(`${replaced.artifact} => ${replaced.to}`),
      };
    const swap = publisherSwaps(call)[0];
    if (swap)
      return {
        reason: `Moves ${swap.artifact} in ${swap.file} from ${swap.from} to ${swap.to}, another publisher: the same library name from someone else is how a look-alike gets into a build. Check who publishes ${swap.to}.`,
        evidence: evidenceOf(`${swap.to}:${swap.artifact}`),
      };
    return null;
  },
});
