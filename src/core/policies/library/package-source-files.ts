// Package managers read where to fetch from, and what to load first, from files: .npmrc, .yarnrc,
// pre-commit's config,
// bunfig.toml, pip.conf, requirements files, pyproject's index tables, cargo's source tables, and the
// manifests themselves (a package.json dependency given as a URL, a Cargo git dependency or patch, a Mix or rebar3 git dependency, a
// go.mod replace, a Gemfile git source, a Gradle script applied from a URL, a Maven, Composer or NuGet
// repository, a flake input, a Terraform module source, a Rust toolchain's folder, a Java agent in the build's JVM options). A write that points them elsewhere makes
// every later install or build take code from there, with no command line that shows it.
import path from 'node:path';
import { withForwardSlashes } from '../../shell/paths';
import { brewfileHasThirdPartyTap } from './shared/homebrew';
import type { ToolCall } from '../types';
import { currentText, replacedTexts } from './shared/edited-file';
import { isOwnSource, sourcesIn } from './shared/own-sources';

import { inForeignFolder } from '../../facts/unread-programs';
import { environmentChannels, isKnownCondaChannel } from './shared/conda-channels';

interface LineRule {
  pattern: Pick<RegExp, 'test'>;
  what: string;
  /** The line names where packages come from: one that names only the organisation's own is no redirect. */
  source?: true;
}

/** `"zod": "npm:zod-fastest@*"`: a line giving a dependency's name to a package of another name. */
const NPM_ALIAS_LINE = /^[ \t]*"((?:@[\w.-]+\/)?[\w.-]+)"[ \t]*:[ \t]*"npm:((?:@[\w.-]+\/)?[\w.-]+)@/;
const NPM_ALIAS_TO_ANOTHER_PACKAGE: LineRule['pattern'] = {
  test: (text) =>
    text.split('\n').some((line) => {
      const alias = NPM_ALIAS_LINE.exec(line);
      return alias !== null && alias[1] !== alias[2];
    }),
};

interface SourceRule {
  file: RegExp;
  /** The line that redirects the package manager, and what it does, for the reason. */
  lines: LineRule[];
}

// Blanks, then `=` or `:` with blanks after it, or neither: one way to read any run of them, within the line.
const URL_VALUE = String.raw`[ \t]*(?:[=:][ \t]*)?["']?(https?|git\+\w+|file):`;

const INLINE_TABLE_START = /^[ \t]*["']?[\w.-]+["']?[ \t]*=[ \t]*\{/;
const SOURCE_KEY = /\b(?:url|git)[ \t]*=[ \t]*["'](?:https?|git\+\w+|ssh):/;

// Gradle's `includeBuild("PATH")` (a composite build: its settings and plugins run in every build) and
// `apply(from = "PATH")`, `apply from: 'PATH'`, whose path is a temporary or downloads folder.
const GRADLE_PATH_REFERENCE = /\b(?:includeBuild|apply[ \t(]+from[ \t]*[:=])[ \t(]*["']([^"'\n]+)["']/g;
const GRADLE_BUILD_FROM_FOREIGN_FOLDER: LineRule['pattern'] = {
  test: (text) => [...text.matchAll(GRADLE_PATH_REFERENCE)].some((m) => inForeignFolder(m[1] ?? '')),
};

// A pub dependency's `path:` (`json_codegen_plus: {path: /tmp/x}`), in a temporary or downloads folder.
const PUB_PATH = /^[ \t]*path[ \t]*:[ \t]*["']?([^"'\s#]+)/gm;
const PUB_PATH_FROM_FOREIGN_FOLDER: LineRule['pattern'] = {
  test: (text) => [...text.matchAll(PUB_PATH)].some((m) => inForeignFolder(m[1] ?? '')),
};

/** `.binaryTarget(name: …, url: "https://…", checksum: …)`: a target's arguments, up to its closing parenthesis, name a URL. */
function hasRemoteBinaryTarget(text: string): boolean {
  for (const call of text.matchAll(/\.binaryTarget[ \t]*\(/g)) {
    const from = call.index + call[0].length;
    const end = text.indexOf(')', from);
    if (/\burl:[ \t]*["']https?:/.test(text.slice(from, end < 0 ? undefined : end))) return true;
  }
  return false;
}

/** A TOML line `pkg = { …, url = "https://…" }` (uv's and Poetry's per-package sources), tested line by line. */
function inlineTableSource(text: string): boolean {
  return text.split('\n').some((line) => INLINE_TABLE_START.test(line) && SOURCE_KEY.test(line));
}

const RULES: SourceRule[] = [
  {
    // A MODULE.bazel override (git_override, archive_override) takes a module from that source instead of
    // the registry's release: its Starlark and repository rules run in every build.
    file: /(^|\/)MODULE\.bazel$/,
    lines: [
      {
        pattern: /^[ \t]*(remote|urls?)[ \t]*=[ \t]*(?:\[[ \t]*)?["'](https?|git|ssh):\/\//m,
        what: 'overrides a Bazel module with code from another source',
        source: true,
      },
    ],
  },
  {
    // pre-commit fetches each hook repository and runs its hooks on every commit.
    file: /(^|\/)\.pre-commit-config\.ya?ml$/,
    lines: [
      {
        pattern:
          /^[ \t-]*repo[ \t]*:[ \t]*["']?https?:\/\/(?!(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\/)/m,
        what: 'makes pre-commit fetch and run hooks from a host other than the well-known code hosts',
        source: true,
      },
      {
        // A tag or a commit pins the hooks; a branch runs whatever is pushed to it next, on every commit.
        pattern: /^[ \t-]*rev[ \t]*:[ \t]*["']?(main|master|HEAD|develop|dev|trunk|stable|latest)["']?[ \t]*(#.*)?$/m,
        what: 'makes pre-commit run hooks from a moving branch (rev: main), whatever is pushed there next',
      },
      {
        pattern:
          /^[ \t-]*entry[ \t]*:[ \t]*["']?(\/tmp\/|\/var\/tmp\/|\/dev\/shm\/|~\/|\$HOME\/|\/home\/|\/Users\/|\/root\/)/m,
        what: 'makes pre-commit run a program from outside the project (a home or temporary folder) on every commit',
      },
    ],
  },
  {
    // pnpm runs no dependency's install scripts unless the workspace names it (onlyBuiltDependencies);
    // this setting lets every one of them, transitive ones too, run code on the next install.
    file: /(^|\/)pnpm-workspace\.ya?ml$/,
    lines: [
      {
        pattern: /^[ \t]*dangerouslyAllowAllBuilds[ \t]*:[ \t]*["']?true\b/m,
        what: "lets every dependency's install scripts run (dangerouslyAllowAllBuilds)",
      },
    ],
  },
  {
    file: /(^|\/)\.npmrc$/,
    lines: [
      {
        pattern: new RegExp(String.raw`^[ \t]*(@[\w.-]+:)?registry${URL_VALUE}`, 'm'),
        what: 'points npm at another registry',
        source: true,
      },
      {
        pattern: /^[ \t]*node-options[ \t]*=.*(--require|-r[ \t]|--import|--loader|--experimental-loader)/m,
        what: 'makes every node process npm starts load a module first (node-options)',
      },
      {
        // `git=` names the program npm runs for every git dependency.
        pattern: /^[ \t]*(script-shell|shell|onload-script|init-module|git)[ \t]*=/m,
        what: 'makes npm run another program',
      },
      { pattern: /^[ \t]*strict-ssl[ \t]*=[ \t]*false/m, what: "turns off npm's certificate checks" },
    ],
  },
  {
    file: /(^|\/)\.yarnrc(\.ya?ml)?$/,
    lines: [
      {
        pattern: new RegExp(String.raw`^[ \t]*(npmRegistryServer|registry)${URL_VALUE}`, 'm'),
        what: 'points yarn at another registry',
        source: true,
      },
      // yarnPath normally names the release under .yarn/releases; elsewhere it is any program run as yarn.
      {
        pattern: /^[ \t]*yarnPath[ \t]*:[ \t]*["']?(?!\.?\/?\.yarn\/releases\/)\S/m,
        what: 'makes yarn run another program as itself (yarnPath)',
      },
      {
        pattern: /^[ \t]*(enableStrictSsl[ \t]*:[ \t]*false|unsafeHttpWhitelist[ \t]*:)/m,
        what: "turns off yarn's certificate checks",
      },
    ],
  },
  {
    file: /(^|\/)(bunfig\.toml|\.bunfig\.toml)$/,
    lines: [
      {
        pattern: new RegExp(String.raw`^[ \t]*registry${URL_VALUE}`, 'm'),
        what: 'points bun at another registry',
        source: true,
      },
    ],
  },
  {
    file: /(?<=^|\/)(pip\.conf|pip\.ini|uv\.toml|pyproject\.toml|(?=[^/]*requirements)[^/]*\.(txt|in)|constraints[^/]*\.txt)$/,
    lines: [
      {
        pattern: /^[ \t]*(--)?(index-url|extra-index-url|find-links|index_url|extra_index_url)\b|^[ \t]*-[if][ \t]+\S/m,
        what: 'points pip at another package index',
        source: true,
      },
      { pattern: /^[ \t]*(--)?trusted-host\b/m, what: "turns off pip's certificate checks (trusted-host)" },
      {
        pattern: /^[ \t]*\[\[[ \t]*tool\.(poetry\.source|uv\.index|pdm\.source)[ \t]*\]\]/m,
        what: 'points the project at another package index',
        source: true,
      },
      {
        // A requirements line, or a quoted entry of pyproject's dependency lists (`"pkg @ https://…",`).
        pattern: /^[ \t]*["']?[\w.-]+(\[[^\]\r\n\u2028\u2029]*\])?[ \t]*@[ \t]*(git\+|https?:|file:)/m,
        what: 'installs a package straight from a URL',
        source: true,
      },
      // A requirements line that is a URL alone (`git+https://…`, `-e git+…`).
      {
        pattern: /^[ \t]*(-e[ \t]+)?git\+\w+:/m,
        what: 'installs a package straight from a git repository',
        source: true,
      },
      // uv's and Poetry's per-package sources: `pkg = { url = "https://…/pkg.whl" }`, `{ git = "…" }`.
      {
        pattern: { test: inlineTableSource },
        what: 'installs a package straight from a URL or a git repository',
        source: true,
      },
    ],
  },
  {
    // dbt fetches each git or tarball package on `dbt deps`; its macros then run in the warehouse on every run.
    file: /(^|\/)(packages|dependencies)\.yml$/,
    lines: [
      {
        pattern: /^[ \t-]*(git|tarball)[ \t]*:[ \t]*["']?(https?:|git@|ssh:)/m,
        what: 'makes dbt fetch a package from a git repository or a tarball URL',
        source: true,
      },
    ],
  },
  {
    // west clones each project of its manifest from the remote it names, and runs the extension
    // commands those projects declare.
    file: /(^|\/)west\.ya?ml$/,
    lines: [
      {
        pattern:
          /^[ \t-]*(url-base|url)[ \t]*:[ \t]*["']?(?:https?:\/\/|git@|ssh:\/\/|git:\/\/)(?!(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)[/:])/m,
        what: 'makes west clone projects from a host other than the well-known code hosts',
        source: true,
      },
    ],
  },
  {
    // A conda environment's channels (shared/conda-channels).
    // Snakemake keeps one per rule in envs/.
    file: /(^|\/)(environment|env|conda[\w.-]*)\.ya?ml$|(^|\/)envs\/[\w.-]+\.ya?ml$/,
    lines: [
      {
        pattern: {
          test: (text) =>
            environmentChannels(text).some((channel) => !isKnownCondaChannel(channel) && !isOwnSource(channel, [])),
        },
        what: 'makes conda take packages from a channel other than the well-known ones',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)\.cargo\/config(\.toml)?$/,
    lines: [
      {
        pattern: /^[ \t]*\[(source|registries)\.[^\]\r\n\u2028\u2029]+\]|^[ \t]*replace-with[ \t]*=/m,
        what: 'points cargo at another crate source',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)package\.json$/,
    lines: [
      {
        // A dependency given as a URL or a git repository; the metadata fields that hold URLs are not dependencies.
        pattern:
          /^[ \t]*"(?!(url|homepage|repository|bugs|funding|\$schema|author|email|web|registry|tarball|directory)")[@\w./-]+"[ \t]*:[ \t]*"(https?:|git\+|git:|git@|ssh:|github:|gitlab:|bitbucket:|gist:|[\w-]+\/[\w.-]+#)/m,
        what: 'takes a dependency from a URL or a git repository rather than the registry',
        source: true,
      },
      {
        pattern: NPM_ALIAS_TO_ANOTHER_PACKAGE,
        what: "installs another package under a dependency's name (an npm: alias), wherever the tree asks for it",
      },
    ],
  },
  {
    // pnpm writes a tarball only for a package that does not come from the registry by name.
    file: /(^|\/)pnpm-lock\.yaml$/,
    lines: [
      {
        pattern: /\btarball:[ \t]*["']?(https?|file):/,
        what: 'resolves a package to a tarball from a URL',
        source: true,
      },
    ],
  },
  {
    // CocoaPods' own specs (its CDN, the CocoaPods/Specs repository) name themselves; any other source serves any pod.
    file: /(^|\/)Podfile$/,
    lines: [
      {
        pattern: /^[ \t]*source[ \t(]+["'](?![^"'\r\n]*cocoapods)[^"'\r\n]+["']/im,
        what: "adds a pod spec source other than CocoaPods' own",
        source: true,
      },
      {
        // `pod 'X', :git => '…'`: the pod's code and its podspec's prepare_command from a repository.
        pattern: /(^|[\s,(]):git[ \t]*=>[ \t]*["']|(^|[\s,(])git:[ \t]*["']/m,
        what: 'takes a pod from a git repository',
        source: true,
      },
    ],
  },
  {
    // A SwiftPM binary target fetched by URL: a prebuilt framework linked into the app, its code unread.
    file: /(^|\/)Package\.swift$/,
    lines: [
      {
        pattern: { test: hasRemoteBinaryTarget },
        what: 'links a prebuilt binary framework downloaded from a URL',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)(Brewfile|\.Brewfile)$/,
    lines: [
      {
        pattern: { test: brewfileHasThirdPartyTap },
        what: "adds a Homebrew tap that is not Homebrew's own or a known vendor's",
      },
    ],
  },
  {
    file: /(^|\/)Cargo\.toml$/,
    lines: [
      // Apart, so that a git line added under a patch table the file already had is still a finding.
      { pattern: /^[ \t]*\[patch\.[^\]\r\n\u2028\u2029]+\]/m, what: "patches the registry's crates" },
      {
        pattern: /\bgit[ \t]*=[ \t]*"|\bregistry-index[ \t]*=/m,
        what: 'takes a crate from a git repository or another registry',
      },
    ],
  },
  {
    // Dart's pub takes a package from a git repository, or from another package server (`hosted:`).
    file: /(^|\/)(pubspec|pubspec_overrides)\.yaml$/,
    lines: [
      {
        pattern: /^[ \t]*(git|hosted)[ \t]*:[ \t]*["']?https?:\/\/|^[ \t]*url[ \t]*:[ \t]*["']?https?:\/\//m,
        what: 'takes a Dart package from a git repository or another package server',
        source: true,
      },
      {
        pattern: PUB_PATH_FROM_FOREIGN_FOLDER,
        what: 'takes a Dart package (a builder build_runner runs, or a plugin) from a temporary or downloads folder',
      },
    ],
  },
  {
    // Mix compiles a git or GitHub dependency, and runs its mix.exs, at the next deps.get; rebar3 its plugins and deps.
    file: /(^|\/)(mix\.exs|rebar\.config)$/,
    lines: [
      {
        pattern: /(^|[\s,{(])(git|github):[ \t]*["']|\{[ \t]*git[ \t]*,[ \t]*["']/m,
        what: 'takes an Elixir or Erlang dependency from a git repository, compiled and run by every build',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)go\.(mod|work)$/,
    lines: [
      {
        // A replace pointing at a local folder (./, ../) is ordinary monorepo work.
        pattern: /^[ \t]*(replace[ \t]+)?[\w./-]+( v[\w.+-]+)?[ \t]*=>[ \t]*(?!\.\.?\/)[\w-]+\.[\w.-]+\//m,
        what: 'replaces a Go module with code from elsewhere',
        source: true,
      },
    ],
  },
  {
    // fastlane's Pluginfile is a Gemfile the Gemfile evaluates: its gems load into every lane.
    file: /(^|\/)(Gemfile|gems\.rb|Pluginfile)$/,
    lines: [
      {
        pattern:
          /(^|[\s,(])(git|github|gist|bitbucket|source):[ \t]*["']|:(git|source)[ \t]*=>|^[ \t]*source[ \t(]+["'][^"'\r\n\u2028\u2029]+["'][ \t)]*do\b/m,
        what: 'takes a gem from a git repository or another source',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)(build|settings)\.gradle(\.kts)?$|\.gradle$/,
    lines: [
      {
        pattern: /\bapply[ \t(]+from[ \t]*[:=][ \t]*["'](https?|ftp):/m,
        what: 'applies a build script fetched from a URL',
        source: true,
      },
      {
        pattern: GRADLE_BUILD_FROM_FOREIGN_FOLDER,
        what: 'includes a build or applies a script from a temporary or downloads folder, run in every build',
      },
      {
        // A repository on a host; a folder of the project (`$rootDir/../node_modules/detox/…`) is not one.
        pattern:
          /\bmaven[ \t]*\([ \t]*["'](https?|ftp|s3|gcs):|\bmaven[ \t]*\{\s*(?:url|setUrl)(?:[ \t]*=)?[ \t]*(?:\(|uri\(|URI\()?["'](https?|ftp|s3|gcs):/m,
        what: 'adds a Maven repository to the build',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)(pom\.xml|settings\.xml)$/,
    lines: [
      { pattern: /<(repository|pluginRepository|mirror)>/, what: 'adds a Maven repository or mirror', source: true },
    ],
  },
  {
    file: /(^|\/)composer\.json$/,
    lines: [
      {
        pattern: /"type"[ \t]*:[ \t]*"(vcs|git|github|gitlab|bitbucket|package|artifact|composer)"/,
        what: 'adds a Composer repository',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)flake\.nix$/,
    lines: [
      {
        pattern: /\burl[ \t]*=[ \t]*"(git\+|https?:|tarball\+|file\+)/,
        what: 'takes a flake input from a URL',
        source: true,
      },
    ],
  },
  {
    file: /\.tf$/,
    lines: [
      {
        pattern: /^[ \t]*source[ \t]*=[ \t]*"(git::|git@|https?:|s3::|gcs::|hg::)/m,
        what: 'takes a Terraform module from a remote source',
        source: true,
      },
      {
        // `source = "host.example/ns/name"` in required_providers: a provider binary from another registry.
        pattern: /^[ \t]*source[ \t]*=[ \t]*"[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?\/[\w-]+\/[\w-]+"/m,
        what: 'takes a Terraform provider (a program terraform runs) from another registry',
        source: true,
      },
    ],
  },
  {
    // A remote base or component: kustomize fetches it on every build, and what it holds is applied.
    file: /(^|\/)[Kk]ustomization\.ya?ml$/,
    lines: [
      {
        pattern: /^[ \t]*-[ \t]+["']?(https?:\/\/|git@|git::|ssh:\/\/|github\.com\/)/m,
        what: 'takes Kubernetes manifests from a remote repository (a kustomize remote base)',
        source: true,
      },
    ],
  },
  {
    // A dev container feature named by a URL: its install script runs as root when the container is built.
    file: /(^|\/)\.?devcontainer(\.json|\/[^/]*\.json)$/,
    lines: [
      {
        pattern: /"(https?:\/\/[^"\r\n]+)"[ \t]*:[ \t]*\{/,
        what: 'adds a dev container feature from a URL, whose install script runs as root on every build',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)Package\.swift$/,
    lines: [
      {
        // A branch (or a revision) tracks whatever is pushed there; `from:` and `exact:` take released versions.
        pattern: /\.package\([ \t]*url:[ \t]*"[^"\r\n]+"[ \t]*,[ \t]*(branch|revision):/,
        what: 'takes a Swift package from a branch of a repository rather than a released version',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)Fastfile$/,
    lines: [
      {
        pattern: /\bimport_from_git[ \t]*\(/,
        what: "imports fastlane lanes from a git repository, run with the app's signing and store credentials",
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)(gradle\.properties|\.mvn\/jvm\.config|\.mvn\/maven\.config)$/,
    lines: [{ pattern: /-javaagent:|-agentpath:|-agentlib:(?!jdwp)/, what: 'loads a Java agent into every build' }],
  },
  {
    file: /(^|\/)(\.mocharc(\.\w+)?|jest\.config\.\w+|vitest\.config\.\w+|babel\.config\.\w+|\.babelrc(\.\w+)?)$/,
    lines: [
      {
        pattern: /(^|[\s'"=:,[(-])(\/tmp|\/var\/tmp|\/dev\/shm)\/[^\s'",)\]]+/m,
        what: 'loads code from a temporary folder before every test run or build',
      },
    ],
  },
  {
    file: /(^|\/)rust-toolchain(\.toml)?$/,
    lines: [
      {
        pattern: /^[ \t]*path[ \t]*=/m,
        what: 'takes the Rust compiler from a folder instead of an installed toolchain',
      },
    ],
  },
  {
    // The build tool itself, which every build then runs.
    file: /(^|\/)gradle-wrapper\.properties$/,
    lines: [
      {
        pattern: /^[ \t]*distributionUrl[ \t]*=[ \t]*https?\\?:\/\/(?!services\.gradle\.org\/)/m,
        what: 'downloads Gradle itself from another host than Gradle’s (distributionUrl)',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)\.mvn\/wrapper\/maven-wrapper\.properties$/,
    lines: [
      {
        pattern: /^[ \t]*(distributionUrl|wrapperUrl)[ \t]*=(?![^\n\r\u2028\u2029]*\/org\/apache\/maven\/)[ \t]*\S/m,
        what: 'downloads Maven or its wrapper from outside a Maven repository’s layout',
        source: true,
      },
    ],
  },
  {
    file: /(^|\/)[Nn]u[Gg]et\.[Cc]onfig$/,
    lines: [
      {
        pattern: /<add[ \t]+key="[^"]*"[ \t]+value="(https?|file):/,
        what: 'adds a NuGet package source',
        source: true,
      },
    ],
  },
];

/**
 * Whether a redirecting line names only the organisation's own sources: the URLs on the lines it
 * matched, or, when those name none (a `[registries.x]` header, a `<repository>` tag), every URL of the
 * file. A line that names no source at all (a program to run, certificate checks off) is never this.
 */
function onlyOwnSources(pattern: LineRule['pattern'], content: string, isOwn: (source: string) => boolean): boolean {
  const matched = content.split(/\r?\n/).filter((line) => lineMatches(pattern, line));
  const named = sourcesIn(matched.join('\n'));
  const sources = named.length ? named : sourcesIn(content);
  return sources.length > 0 && sources.every(isOwn);
}

function lineMatches(pattern: LineRule['pattern'], line: string): boolean {
  if (pattern instanceof RegExp) pattern.lastIndex = 0;
  return pattern.test(line);
}

/**
 * What a file write makes a package manager do, if it redirects where packages come from (to a source
 * `isOwn` does not vouch for) or what it runs.
 */
export function packageSourceWrite(
  filePath: string,
  content: string,
  isOwn: (source: string) => boolean,
): string | null {
  return packageSourceWrites(filePath, content, isOwn)[0] ?? null;
}

/** Everything packageSourceWrite finds in the text, in the rules' order. */
export function packageSourceWrites(filePath: string, content: string, isOwn: (source: string) => boolean): string[] {
  const file = withForwardSlashes(filePath);
  const base = path.posix.basename(file);
  const found: string[] = [];
  for (const rule of RULES) {
    if (!rule.file.test(file) && !rule.file.test(base)) continue;
    for (const l of rule.lines)
      if (l.pattern.test(content) && !(l.source === true && onlyOwnSources(l.pattern, content, isOwn)))
        found.push(l.what);
  }
  return found;
}

// A Gemfile names its gem server itself (`source "https://…"`), the public one included, so a source
// line says nothing alone; what redirects bundler is a change of it. An edit that swaps the source, or a
// write over a Gemfile whose source differs, is that change.
const GEMFILE = /(^|\/)(Gemfile|gems\.rb|[^/]+\.gemfile)$/;
const GEM_SOURCE = /^[ \t]*source(?:[ \t]+|[ \t]*\([ \t]*)["']([^"'\s]+)["']/gm;

function gemSources(text: string): Set<string> {
  return new Set([...text.matchAll(GEM_SOURCE)].map((m) => m[1] as string));
}

/** The text a write or edit of `target` replaces, and the text it puts there; null when the file's text is unknown. */
function replacedAndNew(call: ToolCall, target: string): { before: string; after: string } | null {
  const pairs = replacedTexts(call.input);
  if (pairs.length)
    return { before: pairs.map(([from]) => from).join('\n'), after: pairs.map(([, to]) => to).join('\n') };
  if (call.content === undefined) return null;
  const current = currentText(call, target);
  return current === null ? null : { before: current, after: call.content };
}

/** A Gemfile's gem server switched by this write or edit: from what to what, or null. */
export function gemSourceSwitch(
  call: ToolCall,
  isOwn: (source: string) => boolean,
): { file: string; from: string; to: string } | null {
  const target = call.paths.find((p) => p.access === 'write' && GEMFILE.test(p.absolute));
  if (!target) return null;
  const texts = replacedAndNew(call, target.absolute);
  if (!texts) return null;
  const old = gemSources(texts.before);
  if (old.size === 0) return null;
  const added = [...gemSources(texts.after)].find((source) => !old.has(source) && !isOwn(source));
  return added ? { file: target.raw, from: [...old].join(', '), to: added } : null;
}

// A lockfile names where each package is fetched from; the next install takes them from there without
// asking. Nobody edits one by hand to add a host: a host the file did not name before is a redirect.
const LOCKFILE =
  /(^|\/)(Gemfile\.lock|gems\.locked|yarn\.lock|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|bun\.lock|Cargo\.lock|poetry\.lock|uv\.lock|composer\.lock|Pipfile\.lock)$/;
const URL_AUTHORITY = /\b(?:https?|git\+https?|git\+ssh):\/\/([^/\s"']+)/g;

/** The hosts a text's URLs name, without their user or port. */
function originsIn(text: string): Set<string> {
  return new Set(
    [...text.matchAll(URL_AUTHORITY)].map((m) => {
      const authority = m[1] ?? '';
      return (authority.slice(authority.lastIndexOf('@') + 1).split(':')[0] ?? '').toLowerCase();
    }),
  );
}

/** A lockfile write or edit that fetches packages from a host it did not name before: the file and the host, or null. */
export function lockfileSourceAdded(
  call: ToolCall,
  isOwn: (source: string) => boolean,
): { file: string; host: string } | null {
  const target = call.paths.find((p) => p.access === 'write' && LOCKFILE.test(p.absolute));
  if (!target) return null;
  const texts = replacedAndNew(call, target.absolute);
  if (!texts) return null;
  const old = originsIn(texts.before);
  const host = [...originsIn(texts.after)].find((origin) => !old.has(origin) && !isOwn(`https://${origin}/`));
  return host === undefined ? null : { file: target.raw, host };
}
